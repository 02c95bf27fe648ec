#include "models/common/epoch_sampler.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "mapper/common/errors.h"

namespace vp::stats {

namespace {
const char* kEpochForms = "expected off, auto, a time such as 1us / 250ns / 2ms, or cycles of a clock such as "
                          "\"1000 noc cycles\" (clocks: noc, core, dram, vta)";
}

EpochSpec parse_epoch(const std::string& text, const std::string& key) {
    EpochSpec e;
    std::string s;
    for (char c : text) s += char(std::tolower(static_cast<unsigned char>(c)));
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(s.begin());
    if (s == "off") {
        e.mode = EpochSpec::Mode::Off;
        return e;
    }
    if (s == "auto") return e;
    const char* p = s.c_str();
    char* end = nullptr;
    const double v = std::strtod(p, &end);
    if (end == p || !std::isfinite(v) || v <= 0) throw InputError(key + ": \"" + text + "\": " + kEpochForms);
    std::string rest(end);
    while (!rest.empty() && rest.front() == ' ') rest.erase(rest.begin());
    static const std::pair<const char*, double> kUnits[] = {{"ps", 1.0}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}};
    for (const auto& [u, f] : kUnits)
        if (rest == u) {
            e.mode = EpochSpec::Mode::Time;
            e.value = v * f;
            if (e.value < 1.0) throw InputError(key + ": \"" + text + "\": an epoch is at least 1 ps");
            return e;
        }
    const auto sp = rest.find(' ');
    if (sp != std::string::npos) {
        std::string clock = rest.substr(0, sp), word = rest.substr(sp + 1);
        while (!word.empty() && word.front() == ' ') word.erase(word.begin());
        if ((word == "cycles" || word == "cycle") &&
            (clock == "noc" || clock == "core" || clock == "dram" || clock == "vta")) {
            if (v != std::floor(v)) throw InputError(key + ": \"" + text + "\": a whole number of cycles is expected");
            e.mode = EpochSpec::Mode::Cycles;
            e.value = v;
            e.clock = clock;
            return e;
        }
    }
    throw InputError(key + ": \"" + text + "\": " + kEpochForms);
}

void EpochParams::validate(const std::string& prefix) const { parse_epoch(epoch, prefix + ".epoch"); }

EpochSampler::EpochSampler(const Group& root, std::uint64_t epoch_ps, bool adaptive, std::size_t max_intervals)
    : m_root(root), m_epoch(epoch_ps), m_adaptive(adaptive && epoch_ps > 0), m_max(std::max<std::size_t>(max_intervals, 4)) {}

void EpochSampler::begin() {
    m_series.clear();
    m_root.for_each_stat([this](const Stat& s) {
        if (!s.sampled()) return;
        const std::string module = s.parent().path();
        for (unsigned i = 0; i < s.sample_width(); ++i)
            m_series.push_back({module, s.name() + s.sample_suffix(i), s.unit(), s.desc(), &s, i});
    });
    m_prev.assign(m_series.size(), 0.0);
    m_now.assign(m_series.size(), 0.0);
    m_totals.assign(m_series.size(), 0.0);
    m_begun = true;
    // Values at time 0 (normally all zero) are the baseline.
    for (std::size_t i = 0; i < m_series.size();) {
        const Stat& s = *m_series[i].stat;
        s.sample(0, &m_prev[i]);
        i += s.sample_width();
    }
}

std::uint64_t EpochSampler::next_boundary() const {
    if (m_epoch == 0 || m_finished) return ~std::uint64_t(0);
    return (m_last / m_epoch + 1) * m_epoch;
}

void EpochSampler::layer_end(std::uint64_t now_ps) {
    close_interval(now_ps, true);
    m_layer_ends.push_back(now_ps);
    ++m_layer;
}

void EpochSampler::finish(std::uint64_t end_ps) {
    if (m_finished) return;
    if (end_ps < m_last) end_ps = m_last;
    close_interval(end_ps, true);
    m_finished = true;
}

void EpochSampler::close_interval(std::uint64_t now_ps, bool cut) {
    if (!m_begun || m_finished) return;
    if (now_ps <= m_last) {
        // A cut at the time of the last boundary turns that boundary into a cut.
        if (cut && now_ps == m_last && !m_intervals.empty() && m_intervals.back().t1 == now_ps) m_intervals.back().cut = true;
        return;
    }
    for (std::size_t i = 0; i < m_series.size();) {
        const Stat& s = *m_series[i].stat;
        s.sample(now_ps, &m_now[i]);
        i += s.sample_width();
    }
    Interval iv;
    iv.t0 = m_last;
    iv.t1 = now_ps;
    iv.layer = m_layer_names.empty() ? -1 : std::min<int>(m_layer, int(m_layer_names.size()) - 1);
    iv.cut = cut;
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        const double d = m_now[i] - m_prev[i];
        m_prev[i] = m_now[i];
        if (d != 0.0) {
            iv.values.emplace_back(std::uint32_t(i), d);
            m_totals[i] += d;
        }
    }
    m_last = now_ps;
    ++m_closed;
    if (m_writer && !m_adaptive) {
        m_writer(iv);
        return;
    }
    m_intervals.push_back(std::move(iv));
    if (m_adaptive && m_intervals.size() > m_max) coarsen();
}

// Doubles the epoch and merges every interval pair whose common boundary is a regular
// boundary that is not a multiple of the new epoch.
void EpochSampler::coarsen() {
    while (m_intervals.size() > m_max) {
        bool regular = false;  // layer ends alone can exceed the bound: then nothing is merged
        for (std::size_t k = 0; k + 1 < m_intervals.size() && !regular; ++k) regular = !m_intervals[k].cut;
        if (!regular) return;
        const std::uint64_t e2 = m_epoch * 2;
        std::vector<Interval> out;
        out.reserve(m_intervals.size());
        for (auto& iv : m_intervals) {
            if (!out.empty() && !out.back().cut && out.back().t1 % e2 != 0 && out.back().t1 == iv.t0) {
                Interval& a = out.back();
                std::vector<std::pair<std::uint32_t, double>> merged;
                merged.reserve(a.values.size() + iv.values.size());
                std::size_t i = 0, j = 0;
                while (i < a.values.size() || j < iv.values.size()) {
                    if (j == iv.values.size() || (i < a.values.size() && a.values[i].first < iv.values[j].first)) {
                        merged.push_back(a.values[i++]);
                    } else if (i == a.values.size() || iv.values[j].first < a.values[i].first) {
                        merged.push_back(iv.values[j++]);
                    } else {
                        const double v = a.values[i].second + iv.values[j].second;
                        if (v != 0.0) merged.emplace_back(a.values[i].first, v);
                        ++i;
                        ++j;
                    }
                }
                a.values = std::move(merged);
                a.t1 = iv.t1;
                a.cut = iv.cut;
            } else {
                out.push_back(std::move(iv));
            }
        }
        m_intervals = std::move(out);
        m_epoch = e2;
    }
}

}  // namespace vp::stats
