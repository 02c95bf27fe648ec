#include "platform/run/timeseries.h"

#include <stdexcept>

#include "models/common/stats.h"

namespace vp::run {

namespace {
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}
}  // namespace

std::string ps_to_ns(std::uint64_t ps) {
    char b[40];
    if (ps % 1000 == 0) std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(ps / 1000));
    else std::snprintf(b, sizeof b, "%llu.%03llu", static_cast<unsigned long long>(ps / 1000),
                       static_cast<unsigned long long>(ps % 1000));
    return b;
}

TimeseriesCsv::TimeseriesCsv(const std::string& path) : m_path(path) {
    m_f = std::fopen(path.c_str(), "wb");
    if (!m_f) throw std::runtime_error("cannot write " + path);
    m_buf = "t_begin_ns,t_end_ns,layer,module,statistic,value\n";
}

TimeseriesCsv::~TimeseriesCsv() {
    if (m_f) std::fclose(m_f);
}

void TimeseriesCsv::write(const stats::EpochSampler& s, const stats::Interval& iv) {
    const std::string head = ps_to_ns(iv.t0) + "," + ps_to_ns(iv.t1) + "," +
                             (iv.layer >= 0 ? csv_field(s.layer_names()[std::size_t(iv.layer)]) : std::string()) + ",";
    for (const auto& [i, v] : iv.values) {
        const stats::Series& se = s.series()[i];
        m_buf += head;
        m_buf += csv_field(se.module);
        m_buf += ',';
        m_buf += csv_field(se.statistic);
        m_buf += ',';
        m_buf += stats::format_number(v);
        m_buf += '\n';
    }
    if (m_buf.size() > (1u << 20)) {
        std::fwrite(m_buf.data(), 1, m_buf.size(), m_f);
        m_buf.clear();
    }
}

void TimeseriesCsv::close() {
    if (!m_f) return;
    std::fwrite(m_buf.data(), 1, m_buf.size(), m_f);
    m_buf.clear();
    const bool bad = std::ferror(m_f) != 0;
    std::fclose(m_f);
    m_f = nullptr;
    if (bad) throw std::runtime_error("cannot write " + m_path);
}

nlohmann::json timeseries_dictionary(const stats::EpochSampler& s, const std::string& epoch_setting,
                                     const std::map<std::string, double>& clocks_ps, std::uint64_t end_ps) {
    nlohmann::json cols = {
        {"t_begin_ns", "start of the interval, simulated time in ns"},
        {"t_end_ns", "end of the interval (exclusive); intervals end at every multiple of the epoch, at every "
                     "layer end and at the end of the run"},
        {"layer", "layer running during the interval (empty for workloads without layers)"},
        {"module", "statistics group, as in stats.json and the VCD (e.g. noc.router[1][0])"},
        {"statistic", "statistic name; a state-time statistic has one row per state (state.compute)"},
        {"value", "increase of the statistic during the interval (rows with 0 are left out); the sum over all "
                  "intervals equals the end-of-run value in stats.json"}};
    nlohmann::json st = nlohmann::json::array();
    for (std::size_t i = 0; i < s.series().size(); ++i) {
        const stats::Series& se = s.series()[i];
        st.push_back({{"module", se.module}, {"statistic", se.statistic}, {"unit", se.unit}, {"desc", se.desc},
                      {"total", s.totals()[i]}});
    }
    nlohmann::json layers = nlohmann::json::array();
    std::uint64_t t = 0;
    for (std::size_t l = 0; l < s.layer_names().size(); ++l) {
        const std::uint64_t e = l < s.layer_ends().size() ? s.layer_ends()[l] : end_ps;
        layers.push_back({{"index", l}, {"name", s.layer_names()[l]}, {"begin_ns", double(t) * 1e-3},
                          {"end_ns", double(e) * 1e-3}});
        t = e;
    }
    nlohmann::json clocks = nlohmann::json::object();
    for (const auto& [k, v] : clocks_ps) clocks[k] = v;
    return {{"file", "timeseries.csv"},
            {"columns", cols},
            {"epoch", {{"setting", epoch_setting},
                       {"epoch_ns", double(s.epoch_ps()) * 1e-3},
                       {"adaptive", s.adaptive()},
                       {"intervals", s.intervals().empty() ? s.intervals_closed() : s.intervals().size()}}},
            {"end_ns", double(end_ps) * 1e-3},
            {"clocks_ps", clocks},
            {"layers", layers},
            {"statistics", st}};
}

}  // namespace vp::run
