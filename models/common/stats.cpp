#include "models/common/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace vp::stats {

namespace {
nlohmann::json number(double v) {
    if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
    if (!std::isfinite(v)) return nullptr;
    // Round to 9 significant digits so dumps are stable and readable.
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return std::strtod(buf, nullptr);
}
nlohmann::json base(const Stat& s) { return {{"desc", s.desc()}, {"unit", s.unit()}}; }
}  // namespace

std::string format_number(double v) {
    if (!std::isfinite(v)) return "";
    char buf[64];
    if (std::floor(v) == v && std::fabs(v) < 9.0e15) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    else std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

Stat::Stat(Group& parent, std::string name, std::string desc, std::string unit)
    : m_parent(&parent), m_name(std::move(name)), m_desc(std::move(desc)), m_unit(std::move(unit)) {
    parent.check_unique(m_name);
    parent.m_stats.push_back(this);
}

std::string Stat::path() const {
    const std::string p = m_parent->path();
    return p.empty() ? m_name : p + "." + m_name;
}

void Stat::sample(std::uint64_t, double* out) const {
    std::vector<std::pair<std::string, double>> v;
    to_flat(v);
    out[0] = v.empty() ? 0.0 : v.front().second;
}

CounterRef::CounterRef(Group& parent, std::string name, std::string desc, std::string unit, const std::uint64_t* src)
    : Stat(parent, std::move(name), std::move(desc), std::move(unit)), m_src(src) {
    set_sampled();
}
nlohmann::json CounterRef::to_json() const {
    auto j = base(*this);
    j["value"] = *m_src;
    return j;
}
void CounterRef::to_flat(std::vector<std::pair<std::string, double>>& out) const { out.emplace_back("", double(*m_src)); }

StateTime::StateTime(Group& parent, std::string name, std::string desc, std::vector<std::string> states)
    : Stat(parent, std::move(name), std::move(desc), "ps"), m_names(std::move(states)), m_acc(m_names.size(), 0) {
    if (m_names.empty()) throw std::logic_error("StateTime " + this->name() + ": no states");
    set_sampled();
}

std::uint64_t StateTime::time_in(unsigned s, std::uint64_t now) const {
    if (m_closed && now > m_end) now = m_end;
    std::uint64_t v = m_acc[s];
    if (now <= m_since) return v;
    const std::uint64_t cur_end = m_until && m_until < now ? m_until : now;
    if (m_cur == s) v += cur_end - m_since;
    else if (s == 0 && cur_end < now) v += now - cur_end;
    return v;
}

void StateTime::sample(std::uint64_t now_ps, double* out) const {
    for (unsigned i = 0; i < m_names.size(); ++i) out[i] = double(time_in(i, now_ps));
}

void StateTime::close(std::uint64_t end_ps) {
    if (m_closed) return;
    if (end_ps >= m_since) {
        fold(end_ps);
        // A busy period scheduled past the end is cut at the end.
        for (unsigned i = 0; i < m_names.size(); ++i) m_acc[i] = time_in(i, end_ps);
        m_since = end_ps;
        m_until = 0;
    }
    m_end = end_ps;
    m_closed = true;
}

nlohmann::json StateTime::to_json() const {
    auto j = base(*this);
    nlohmann::json v = nlohmann::json::object();
    for (unsigned i = 0; i < m_names.size(); ++i) v[m_names[i]] = m_acc[i];
    j["value"] = v;
    return j;
}
void StateTime::to_flat(std::vector<std::pair<std::string, double>>& out) const {
    for (unsigned i = 0; i < m_names.size(); ++i) out.emplace_back("." + m_names[i], double(m_acc[i]));
}

nlohmann::json Counter::to_json() const {
    auto j = base(*this);
    j["value"] = m_v;
    return j;
}
void Counter::to_flat(std::vector<std::pair<std::string, double>>& out) const { out.emplace_back("", double(m_v)); }

ScheduledCounter::ScheduledCounter(Group& parent, std::string name, std::string desc, std::string unit)
    : Stat(parent, std::move(name), std::move(desc), std::move(unit)) {
    set_sampled();
}
void ScheduledCounter::fold(std::uint64_t now_ps) const {
    while (m_head < m_pending.size() && m_pending[m_head].end <= now_ps) m_done += m_pending[m_head++].amount;
    if (m_head == m_pending.size()) {
        m_pending.clear();
        m_head = 0;
    } else if (m_head > 64 && 2 * m_head > m_pending.size()) {
        m_pending.erase(m_pending.begin(), m_pending.begin() + std::ptrdiff_t(m_head));
        m_head = 0;
    }
}
void ScheduledCounter::add(std::uint64_t amount, std::uint64_t now_ps, std::uint64_t start_ps, std::uint64_t end_ps) {
    m_total += amount;
    fold(now_ps);
    if (end_ps <= start_ps || end_ps <= now_ps) {  // instantaneous, or already over
        m_done += amount;
        return;
    }
    m_pending.push_back({start_ps, end_ps, amount});
}
void ScheduledCounter::sample(std::uint64_t now_ps, double* out) const {
    fold(now_ps);
    double v = double(m_done);
    for (std::size_t i = m_head; i < m_pending.size(); ++i) {
        const Booking& b = m_pending[i];
        if (now_ps <= b.start) break;  // serial: the later ones have not started either
        v += double(b.amount) * double(now_ps - b.start) / double(b.end - b.start);
    }
    out[0] = v;
}
void ScheduledCounter::stop_at(std::uint64_t end_ps) {
    sample(end_ps, &m_done_at_stop);
    m_stopped = true;
}
nlohmann::json ScheduledCounter::to_json() const {
    auto j = base(*this);
    if (m_stopped) j["value"] = number(m_done_at_stop);
    else j["value"] = m_total;
    return j;
}
void ScheduledCounter::to_flat(std::vector<std::pair<std::string, double>>& out) const {
    out.emplace_back("", m_stopped ? m_done_at_stop : double(m_total));
}

nlohmann::json Scalar::to_json() const {
    auto j = base(*this);
    j["value"] = number(m_v);
    return j;
}
void Scalar::to_flat(std::vector<std::pair<std::string, double>>& out) const { out.emplace_back("", m_v); }

nlohmann::json Average::to_json() const {
    auto j = base(*this);
    j["count"] = m_n;
    j["mean"] = number(mean());
    j["min"] = number(min());
    j["max"] = number(max());
    return j;
}
void Average::to_flat(std::vector<std::pair<std::string, double>>& out) const {
    out.emplace_back(".mean", mean());
    out.emplace_back(".max", max());
}

Histogram::Histogram(Group& parent, std::string name, std::string desc, std::string unit, double bucket_width,
                     std::size_t buckets)
    : Stat(parent, std::move(name), std::move(desc), std::move(unit)),
      m_width(bucket_width > 0 ? bucket_width : 1.0),
      m_buckets(std::max<std::size_t>(buckets, 1) + 1, 0) {}

double Histogram::percentile(double p) const {
    if (m_n == 0) return 0.0;
    auto target = static_cast<std::uint64_t>(std::ceil(p / 100.0 * double(m_n)));
    if (target == 0) target = 1;
    std::uint64_t acc = 0;
    for (std::size_t b = 0; b < m_buckets.size(); ++b) {
        acc += m_buckets[b];
        if (acc >= target) {
            if (b == m_buckets.size() - 1) {  // the overflow samples, by value
                acc -= m_buckets[b];
                for (const auto& [v, n] : m_over) {
                    acc += n;
                    if (acc >= target) return v;
                }
                return m_max;
            }
            // Upper bound of the bucket, clamped to the observed range.
            double ub = m_width == 1.0 ? double(b) : double(b + 1) * m_width;
            return std::min(std::max(ub, m_min), m_max);
        }
    }
    return m_max;
}

nlohmann::json Histogram::to_json() const {
    auto j = base(*this);
    j["count"] = m_n;
    j["mean"] = number(mean());
    j["min"] = number(min());
    j["max"] = number(max());
    j["p50"] = number(percentile(50));
    j["p99"] = number(percentile(99));
    j["bucket_width"] = number(m_width);
    // Trim trailing empty buckets to keep files small; the last bucket is overflow.
    std::size_t last = m_buckets.size();
    while (last > 0 && m_buckets[last - 1] == 0) --last;
    j["buckets"] = std::vector<std::uint64_t>(m_buckets.begin(), m_buckets.begin() + last);
    j["overflow_from"] = number(m_width * double(m_buckets.size() - 1));
    return j;
}
void Histogram::to_flat(std::vector<std::pair<std::string, double>>& out) const {
    out.emplace_back(".mean", mean());
    out.emplace_back(".p50", percentile(50));
    out.emplace_back(".p99", percentile(99));
    out.emplace_back(".max", max());
}

Formula::Formula(Group& parent, std::string name, std::string desc, std::string unit, std::function<double()> f)
    : Stat(parent, std::move(name), std::move(desc), std::move(unit)), m_f(std::move(f)) {}
nlohmann::json Formula::to_json() const {
    auto j = base(*this);
    j["value"] = number(m_f());
    return j;
}
void Formula::to_flat(std::vector<std::pair<std::string, double>>& out) const { out.emplace_back("", m_f()); }

Group::Group(std::string root_name) : m_name(std::move(root_name)) {}

Group::Group(Group& parent, std::string name) : m_parent(&parent), m_name(std::move(name)) {
    parent.check_unique(m_name);
    parent.m_children.push_back(this);
}

void Group::check_unique(const std::string& name) const {
    for (const Stat* s : m_stats)
        if (s->name() == name) throw std::logic_error("statistics: two entries named \"" + name + "\" in \"" + path() + "\"");
    for (const Group* g : m_children)
        if (g->name() == name) throw std::logic_error("statistics: two entries named \"" + name + "\" in \"" + path() + "\"");
}

Group::~Group() {
    if (m_parent) {
        auto& c = m_parent->m_children;
        c.erase(std::remove(c.begin(), c.end(), this), c.end());
    }
}

std::string Group::path() const {
    if (!m_parent || m_parent->m_name.empty()) return m_name;
    return m_parent->path() + "." + m_name;
}

nlohmann::json Group::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    for (const Stat* s : m_stats) j[s->name()] = s->to_json();
    for (const Group* g : m_children) j[g->name()] = g->to_json();
    return j;
}

void Group::to_flat(const std::string& prefix, std::vector<std::pair<std::string, double>>& out) const {
    std::string p = prefix.empty() ? m_name : (m_name.empty() ? prefix : prefix + "." + m_name);
    std::vector<std::pair<std::string, double>> tmp;
    for (const Stat* s : m_stats) {
        tmp.clear();
        s->to_flat(tmp);
        for (auto& [suffix, v] : tmp) out.emplace_back((p.empty() ? "" : p + ".") + s->name() + suffix, v);
    }
    for (const Group* g : m_children) g->to_flat(p, out);
}

std::vector<std::pair<std::string, double>> Registry::flat() const {
    std::vector<std::pair<std::string, double>> out;
    Group::to_flat("", out);
    return out;
}

}  // namespace vp::stats
