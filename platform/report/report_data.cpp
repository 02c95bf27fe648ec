// The data of a run report, computed from the run folder's files: per-layer sums of every
// epoch statistic (timeseries.csv has a layer column, and layer ends are interval
// boundaries, so the sums are exact), down-sampled time series for the charts, the roofline,
// the NoC link utilisation per layer and the bottlenecks in words.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string_view>
#include <unordered_map>

#include "mapper/common/errors.h"
#include "platform/refine/trust.h"
#include "platform/report/report.h"

namespace vp::report {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxPoints = 400;  // points per time-series chart

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// A JSON file of the run folder: null when it does not exist. An existing file that is empty, that
// is not valid JSON (the parser's line and column) or whose document is not an object is an input
// error naming it: vp-run writes every one as an object, so the file was cut short or damaged.
json load_json(const fs::path& p) {
    std::error_code ec;
    if (!fs::exists(p, ec)) return nullptr;
    const std::string s = read_file(p.string());
    if (s.empty()) {
        if (fs::is_regular_file(p, ec) && fs::file_size(p, ec) == 0)
            throw InputError(p.string() + ": empty file (0 bytes), expected the JSON object that vp-run writes "
                             "(a run cut short or a damaged copy: run it again)");
        throw InputError(p.string() + ": cannot read it");
    }
    json j;
    try {
        j = json::parse(s);
    } catch (const json::exception& e) {
        throw InputError(p.string() + ": not valid JSON (" + std::to_string(s.size()) + " bytes; truncated or damaged?): " + e.what());
    }
    if (!j.is_object()) throw InputError(p.string() + ": expected the JSON object that vp-run writes, found " + j.type_name());
    return j;
}

// "nmp.tle[3].tlt[7]" -> "nmp.tle[*].tlt[*]"
std::string pattern_of(const std::string& module) {
    static const std::regex idx(R"(\[[^\]]*\])");
    return std::regex_replace(module, idx, "[*]");
}

const json* stat_at(const json& stats, const std::string& path) { return stats_at_path(stats, path, true); }

double stat_value(const json& stats, const std::string& path, const char* field = "value") {
    const json* j = stat_at(stats, path);
    if (!j || !j->is_object() || !j->contains(field) || !(*j)[field].is_number()) return std::nan("");
    return (*j)[field].get<double>();
}

struct Series {
    std::string module, statistic;
};

// What the report keeps of timeseries.csv: the series, and per series the sums over every layer
// and over the run. The intervals themselves are not kept: a run with a fine stats.epoch writes
// gigabytes of them, so the charts' buckets are filled by a second pass over the file
// (scan_timeseries), and the memory used does not grow with the file.
struct TimeData {
    std::vector<Series> series;
    std::unordered_map<std::string, std::uint32_t> index;
    std::vector<std::string> layers;                  // names in order of appearance
    std::vector<std::vector<double>> layer_sums;      // [layer][series]
    std::vector<double> layer_t0, layer_t1;           // ns, from the intervals
    std::vector<double> total;                        // [series]
    bool present = false;

    double layer_sum(int l, std::uint32_t s) const {
        if (l < 0 || std::size_t(l) >= layer_sums.size() || s >= layer_sums[std::size_t(l)].size()) return 0;
        return layer_sums[std::size_t(l)][s];
    }
};

// atof of a field. Plain decimals ([-]digits[.digits], at most 15 digits: what the writer puts
// for counts and times) are read as an exact integer divided by an exact power of ten, which IEEE
// division rounds correctly, as strtod does; anything else goes through atof.
double csv_number(std::string_view f) {
    static const double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    std::size_t i = 0;
    const bool neg = !f.empty() && f[0] == '-';
    if (neg) ++i;
    std::uint64_t m = 0;
    unsigned digits = 0, frac = 0;
    bool dot = false, ok = i < f.size();
    for (; ok && i < f.size(); ++i) {
        const char c = f[i];
        if (c >= '0' && c <= '9') {
            m = m * 10 + unsigned(c - '0');
            ++digits;
            if (dot) ++frac;
        } else if (c == '.' && !dot) {
            dot = true;
        } else {
            ok = false;
        }
    }
    if (ok && digits > 0 && digits <= 15) {
        const double v = double(m) / kPow10[frac];
        return neg ? -v : v;
    }
    char b[64];
    if (f.size() >= sizeof b) return std::atof(std::string(f).c_str());
    std::memcpy(b, f.data(), f.size());
    b[f.size()] = 0;
    return std::atof(b);
}

// The lines of a file, read in chunks (views into a buffer that holds one chunk and the line
// that straddles it).
class LineReader {
public:
    explicit LineReader(const fs::path& p) : m_path(p.string()), m_f(std::fopen(m_path.c_str(), "rb")) {}
    ~LineReader() {
        if (m_f) std::fclose(m_f);
    }
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;
    bool open() const { return m_f != nullptr; }
    // The next line without its '\n'; valid until the next call.
    bool next(std::string_view& line) {
        for (;;) {
            const std::size_t e = m_buf.find('\n', m_scan);
            if (e != std::string::npos) {
                line = std::string_view(m_buf).substr(m_pos, e - m_pos);
                m_pos = m_scan = e + 1;
                return true;
            }
            m_scan = m_buf.size();
            if (m_eof) {
                if (m_pos >= m_buf.size()) return false;
                line = std::string_view(m_buf).substr(m_pos);
                m_pos = m_scan = m_buf.size();
                return true;
            }
            m_buf.erase(0, m_pos);
            m_scan -= m_pos;
            m_pos = 0;
            const std::size_t old = m_buf.size();
            m_buf.resize(old + kChunk);
            const std::size_t n = std::fread(&m_buf[old], 1, kChunk, m_f);
            m_buf.resize(old + n);
            if (n < kChunk) {
                if (std::ferror(m_f)) throw InputError(m_path + ": read error");
                m_eof = true;
            }
        }
    }

private:
    static constexpr std::size_t kChunk = std::size_t(1) << 22;
    std::string m_path;
    std::FILE* m_f;
    std::string m_buf;
    std::size_t m_pos = 0, m_scan = 0;
    bool m_eof = false;
};

// One row of timeseries.csv (views valid during the callback).
struct TsRow {
    double t0, t1, value;
    std::string_view layer, module, statistic;
};

// Streams the data rows of timeseries.csv to `row`: lines without quotes or carriage returns are
// split in place (the fields are views of the line), others go through split_csv. Returns false
// when the file is absent or empty.
template <class F>
bool scan_timeseries(const fs::path& p, F&& row) {
    LineReader in(p);
    if (!in.open()) return false;
    std::string_view line;
    if (!in.next(line)) return false;
    const auto head = split_csv(std::string(line));
    if (head.size() < 6 || head[0] != "t_begin_ns" || head[5] != "value")
        throw InputError(p.string() + ": line 1: expected the header t_begin_ns,t_end_ns,layer,module,statistic,value");
    std::size_t ln = 1;
    std::vector<std::string> owned;
    std::string_view f[6];
    while (in.next(line)) {
        ++ln;
        if (line.empty()) continue;
        std::size_t n = 0, b = 0;
        bool plain = true;  // no quote, no carriage return
        for (std::size_t i = 0; i <= line.size(); ++i) {
            if (i == line.size() || line[i] == ',') {
                if (n < 6) f[n] = line.substr(b, i - b);
                ++n;
                b = i + 1;
            } else if (line[i] == '"' || line[i] == '\r') {
                plain = false;
                break;
            }
        }
        if (plain) {
            if (n != 6) throw InputError(p.string() + ": line " + std::to_string(ln) + ": expected 6 fields");
        } else {
            owned = split_csv(std::string(line));
            if (owned.size() != 6) throw InputError(p.string() + ": line " + std::to_string(ln) + ": expected 6 fields");
            for (std::size_t i = 0; i < 6; ++i) f[i] = owned[i];
        }
        row(TsRow{csv_number(f[0]), csv_number(f[1]), csv_number(f[5]), f[2], f[3], f[4]});
    }
    return true;
}

// The series of a row, looked up with a reused key; -1 when unknown.
long series_of(const TimeData& td, const TsRow& r, std::string& key) {
    key.assign(r.module.data(), r.module.size());
    key += '\x1f';
    key.append(r.statistic.data(), r.statistic.size());
    auto it = td.index.find(key);
    return it == td.index.end() ? -1 : long(it->second);
}

// The first pass: series, layers and sums (the layer of a row compared with the previous row's
// first).
TimeData read_timeseries(const fs::path& p) {
    TimeData td;
    std::map<std::string, int> layer_idx;
    std::string key, last_layer_name;
    int last_layer = -1;
    td.present = scan_timeseries(p, [&](const TsRow& r) {
        const double t0 = r.t0, t1 = r.t1, v = r.value;
        int layer = -1;
        if (!r.layer.empty()) {
            if (last_layer < 0 || r.layer != last_layer_name) {
                last_layer_name.assign(r.layer.data(), r.layer.size());
                auto it = layer_idx.find(last_layer_name);
                if (it == layer_idx.end()) {
                    it = layer_idx.emplace(last_layer_name, int(td.layers.size())).first;
                    td.layers.push_back(last_layer_name);
                    td.layer_sums.emplace_back();
                    td.layer_t0.push_back(t0);
                    td.layer_t1.push_back(t1);
                }
                last_layer = it->second;
            }
            layer = last_layer;
        }
        long found = series_of(td, r, key);
        std::uint32_t s;
        if (found >= 0) {
            s = std::uint32_t(found);
        } else {
            s = std::uint32_t(td.series.size());
            td.series.push_back({std::string(r.module), std::string(r.statistic)});
            td.index.emplace(key, s);
        }
        if (td.total.size() <= s) td.total.resize(s + 1, 0.0);
        td.total[s] += v;
        if (layer >= 0) {
            auto& ls = td.layer_sums[std::size_t(layer)];
            if (ls.size() <= s) ls.resize(s + 1, 0.0);
            ls[s] += v;
            td.layer_t0[std::size_t(layer)] = std::min(td.layer_t0[std::size_t(layer)], t0);
            td.layer_t1[std::size_t(layer)] = std::max(td.layer_t1[std::size_t(layer)], t1);
        }
    });
    return td;
}

// A kind of unit with a state statistic: "nmp.tle[*].tlt[*].state" -> its modules and states.
struct UnitKind {
    std::string key, label, stat;
    std::set<std::string> modules;
    std::vector<std::string> states;                        // in order of first appearance
    std::map<std::string, std::vector<std::uint32_t>> by_state;  // state -> series ids
};

std::vector<UnitKind> unit_kinds(const TimeData& td, const json& dict) {
    std::map<std::string, UnitKind> kinds;
    // State statistics are the series whose unit is "ps" in the dictionary (StateTime).
    std::set<std::string> ps_series;
    if (dict.is_object() && dict.contains("statistics"))
        for (const auto& s : dict["statistics"])
            if (s.value("unit", "") == "ps") ps_series.insert(s["module"].get<std::string>() + "\x1f" + s["statistic"].get<std::string>());
    for (std::uint32_t i = 0; i < td.series.size(); ++i) {
        const Series& s = td.series[i];
        if (!ps_series.count(s.module + "\x1f" + s.statistic)) continue;
        const auto dot = s.statistic.find('.');
        if (dot == std::string::npos) continue;
        const std::string stat = s.statistic.substr(0, dot), state = s.statistic.substr(dot + 1);
        const std::string key = pattern_of(s.module) + "." + stat;
        UnitKind& k = kinds[key];
        k.key = key;
        k.stat = stat;
        k.label = pattern_of(s.module) + (stat == "state" ? "" : " " + stat);
        k.modules.insert(s.module);
        if (!k.by_state.count(state)) k.states.push_back(state);
        k.by_state[state].push_back(i);
    }
    std::vector<UnitKind> out;
    for (auto& [k, v] : kinds) out.push_back(std::move(v));
    std::stable_sort(out.begin(), out.end(), [](const UnitKind& a, const UnitKind& b) { return a.modules.size() > b.modules.size(); });
    return out;
}

// Share of each state of a kind over [layer] (mean over its units).
std::map<std::string, double> state_shares(const TimeData& td, const UnitKind& k, int layer, double dur_ns) {
    std::map<std::string, double> r;
    const double denom = dur_ns * 1e3 * double(k.modules.size());
    for (const auto& [state, ids] : k.by_state) {
        double s = 0;
        for (auto i : ids) s += layer >= 0 ? td.layer_sum(layer, i) : (i < td.total.size() ? td.total[i] : 0.0);
        r[state] = denom > 0 ? s / denom : 0.0;
    }
    return r;
}

std::string pct(double f) { return fmt("%.0f", 100.0 * f) + " %"; }

std::string state_phrase(const std::string& s) {
    if (s == "compute") return "computing";
    if (s == "busy") return "busy";
    if (s == "load") return "in DMA loads";
    if (s == "store") return "in DMA stores";
    if (s == "stall") return "stalled on DMA (NoC and DRAM)";
    if (s == "wait_token") return "waiting for a dependency token";
    if (s == "queue_full") return "blocked on a full command queue";
    return "in " + s;
}

}  // namespace

json load_run_json(const std::string& path) { return load_json(fs::path(path)); }

const json* stats_at_path(const json& stats, const std::string& path, bool exact) {
    const json* cur = &stats;
    // Keys may contain dots inside brackets (layer names): split on '.' outside brackets.
    std::string key;
    int depth = 0;
    for (std::size_t p = 0; p <= path.size(); ++p) {
        const char c = p < path.size() ? path[p] : '.';
        if (c == '[') ++depth;
        if (c == ']') --depth;
        if (c == '.' && depth == 0) {
            if (!cur->is_object() || !cur->contains(key)) return exact ? nullptr : cur;
            const json& next = (*cur)[key];
            if (!exact && !next.is_object()) return cur;
            cur = &next;
            key.clear();
        } else {
            key += c;
        }
    }
    return cur;
}

RunReport build_run_report(const std::string& dir) {
    const fs::path d(dir);
    const json stats_doc = load_json(d / "stats.json");
    if (stats_doc.is_null()) throw InputError(dir + ": not a run folder (no stats.json)");
    for (const char* k : {"meta", "stats"})
        if (!stats_doc.contains(k) || !stats_doc[k].is_object())
            throw InputError((d / "stats.json").string() + ": no \"" + k + "\" object: not the statistics file that vp-run writes");
    const json meta = stats_doc["meta"];
    const json& stats = stats_doc["stats"];
    const json run = load_json(d / "run.json");
    const json layers_doc = load_json(d / "layers.json");
    if (layers_doc.is_object() && layers_doc.contains("layers")) {
        const json& l = layers_doc["layers"];
        if (!l.is_array() || std::any_of(l.begin(), l.end(), [](const json& e) { return !e.is_object(); }))
            throw InputError((d / "layers.json").string() + ": \"layers\" is not an array of objects: not the layer "
                             "file that vp-run writes");
    }
    const json dict = load_json(d / "timeseries.columns.json");
    TimeData td = read_timeseries(d / "timeseries.csv");

    const std::string platform = meta.value("platform", "?"), workload = meta.value("workload_name", "?");
    const double sim_ns = meta.value("sim_time_ns", 0.0);
    RunReport R;
    R.title = "cnn-vp report: " + workload + " on " + platform;
    json& D = R.data;
    D["platform"] = platform;
    D["workload"] = workload;

    std::map<std::string, double> clocks;
    if (dict.is_object() && dict.contains("clocks_ps"))
        for (auto it = dict["clocks_ps"].begin(); it != dict["clocks_ps"].end(); ++it) clocks[it.key()] = it.value().get<double>();

    // ---- layers: figures from layers.json, intervals from the time series (or layers.json)
    json layers = json::array();
    double peak_macs = 0;
    json node_roles = json::object();
    if (layers_doc.is_object()) {
        layers = layers_doc.value("layers", json::array());
        peak_macs = layers_doc.value("peak_macs_per_s", 0.0);
        node_roles = layers_doc.value("node_roles", json::object());
        if (!layers.empty()) D["cycle_clock"] = layers[0].value("cycle_clock", "core");
    }
    std::map<std::string, int> td_layer;
    for (std::size_t i = 0; i < td.layers.size(); ++i) td_layer[td.layers[i]] = int(i);
    const int n_layers = int(layers.size());
    D["layer_count"] = std::max(1, n_layers);
    json lout = json::array(), marks = json::array();
    for (int i = 0; i < n_layers; ++i) {
        json l = layers[std::size_t(i)];
        const double est = l.value("est_cycles", 0.0), sim = l.value("sim_cycles", 0.0);
        lout.push_back({{"name", l.value("name", "")}, {"est_cycles", est}, {"sim_cycles", sim},
                        {"begin_ns", l.value("begin_ns", 0.0)}, {"end_ns", l.value("end_ns", 0.0)}, {"macs", l.value("macs", 0.0)}});
        marks.push_back({{"t_us", l.value("end_ns", 0.0) * 1e-3}, {"layer", l.value("name", "") + " ends"}});
    }
    D["layers"] = lout;
    if (n_layers > 1) {
        marks.erase(marks.end() - 1);  // the last layer ends with the run
        D["layer_marks"] = marks;
    }
    // The periods over which per-layer figures are computed: each layer, or the whole run.
    struct Period {
        std::string name;
        int td_layer;  // -1: whole run
        double dur_ns, macs;
    };
    std::vector<Period> periods;
    for (int i = 0; i < n_layers; ++i) {
        const json& l = layers[std::size_t(i)];
        const std::string nm = l.value("name", "");
        auto it = td_layer.find(nm);
        periods.push_back({nm, it == td_layer.end() ? -2 : it->second, l.value("end_ns", 0.0) - l.value("begin_ns", 0.0),
                           l.value("macs", 0.0)});
    }
    if (periods.empty()) periods.push_back({"whole run", -1, sim_ns, 0.0});
    auto sum_over = [&](const Period& p, std::uint32_t s) {
        if (p.td_layer == -1) return s < td.total.size() ? td.total[s] : 0.0;
        return td.layer_sum(p.td_layer, s);
    };
    auto find_series = [&](const std::string& m, const std::string& s) -> long {
        auto it = td.index.find(m + "\x1f" + s);
        return it == td.index.end() ? -1 : long(it->second);
    };

    // ---- breakdown per layer from the state statistics
    const std::vector<UnitKind> kinds = unit_kinds(td, dict);
    json bd = json::array();
    for (const UnitKind& k : kinds) {
        for (std::size_t pi = 0; pi < periods.size(); ++pi) {
            const Period& p = periods[pi];
            if (p.td_layer == -2) continue;
            const auto sh = state_shares(td, k, p.td_layer, p.dur_ns);
            for (std::size_t si = 0; si < k.states.size(); ++si)
                bd.push_back({{"unit", k.label + " (" + std::to_string(k.modules.size()) + ")"}, {"layer", p.name},
                              {"order", pi}, {"state", k.states[si]}, {"state_order", si}, {"share", sh.at(k.states[si])}});
        }
    }
    D["breakdown"] = bd;

    // ---- DRAM: per-period bytes, bus utilisation, queue; time series
    const long s_rd = find_series("dram", "bytes_read"), s_wr = find_series("dram", "bytes_written");
    const long s_q = find_series("dram", "queue_occupancy_integral"), s_busy = find_series("dram", "data_bus_busy_cycles");
    const long s_hit = find_series("dram", "row_hits"), s_miss = find_series("dram", "row_misses"),
               s_conf = find_series("dram", "row_conflicts");
    const long s_act = find_series("dram", "activates");
    const double act_interval = stat_value(stats, "dram.activation_interval");
    int channels = 0;
    for (const auto& s : td.series)
        if (s.module.rfind("dram.channel[", 0) == 0 && s.module.find('.', 5) == std::string::npos && s.statistic == "bytes_read") ++channels;
    channels = std::max(channels, 1);
    const double tck = clocks.count("dram") ? clocks["dram"] : 0.0;
    const double peak_bw = stat_value(stats, "dram.peak_bandwidth") * 1e9;
    auto ssum = [&](const Period& p, long s) { return s < 0 ? 0.0 : sum_over(p, std::uint32_t(s)); };

    // ---- roofline
    if (peak_macs > 0 && std::isfinite(peak_bw) && peak_bw > 0 && n_layers > 0) {
        json pts = json::array();
        for (const Period& p : periods) {
            const double bytes = ssum(p, s_rd) + ssum(p, s_wr);
            if (p.td_layer < 0 || bytes <= 0 || p.dur_ns <= 0 || p.macs <= 0) continue;
            pts.push_back({{"layer", p.name}, {"intensity", p.macs / bytes}, {"perf", p.macs / (p.dur_ns * 1e-9)},
                           {"share_of_time", sim_ns > 0 ? p.dur_ns / sim_ns : 0.0}});
        }
        D["roofline"] = {{"peak_macs_per_s", peak_macs}, {"peak_bytes_per_s", peak_bw}, {"points", pts}};
    }

    // ---- NoC links per period
    static const std::regex router_re(R"(^noc\.router\[(\d+)\]\[(\d+)\]$)");
    struct RouterSeries {
        int x, y;
        long out[5] = {-1, -1, -1, -1, -1}, stall[5] = {-1, -1, -1, -1, -1};
    };
    static const char* kPorts[5] = {"local", "east", "west", "north", "south"};
    std::map<std::pair<int, int>, RouterSeries> routers;
    int mesh_w = 0, mesh_h = 0;
    for (std::uint32_t i = 0; i < td.series.size(); ++i) {
        std::smatch m;
        const Series& s = td.series[i];
        if (!std::regex_match(s.module, m, router_re)) continue;
        const int x = std::stoi(m[1]), y = std::stoi(m[2]);
        RouterSeries& r = routers[{x, y}];
        r.x = x;
        r.y = y;
        mesh_w = std::max(mesh_w, x + 1);
        mesh_h = std::max(mesh_h, y + 1);
        for (int p = 0; p < 5; ++p) {
            if (s.statistic == std::string("flits_out_") + kPorts[p]) r.out[p] = long(i);
            if (s.statistic == std::string("credit_stall_") + kPorts[p]) r.stall[p] = long(i);
        }
    }
    // Routers without any traffic have no rows: take the mesh size from stats.json.
    if (stats.contains("noc"))
        for (auto it = stats["noc"].begin(); it != stats["noc"].end(); ++it) {
            std::smatch m;
            const std::string key = "noc." + it.key();
            if (std::regex_match(key, m, router_re)) {
                mesh_w = std::max(mesh_w, std::stoi(m[1]) + 1);
                mesh_h = std::max(mesh_h, std::stoi(m[2]) + 1);
            }
        }
    const double noc_ps = clocks.count("noc") ? clocks["noc"] : 0.0;
    auto role = [&](int x, int y) {
        const std::string k = "router[" + std::to_string(x) + "][" + std::to_string(y) + "]";
        return node_roles.contains(k) ? node_roles[k].get<std::string>() : std::string();
    };
    json links = json::array(), rlabels = json::array();
    double link_max = 0;
    if (mesh_w > 0 && noc_ps > 0) {
        for (int y = 0; y < mesh_h; ++y)
            for (int x = 0; x < mesh_w; ++x) {
                const std::string r = role(x, y);
                rlabels.push_back({{"x", x}, {"y", y}, {"label", r == "DRAM interface" ? "DRAM" : r == "master" ? "M" : ""}});
            }
        for (std::size_t pi = 0; pi < periods.size(); ++pi) {
            const Period& p = periods[pi];
            if (p.td_layer == -2 || p.dur_ns <= 0) continue;
            const double cyc = p.dur_ns * 1e3 / noc_ps;
            for (const auto& [xy, r] : routers)
                for (int port = 1; port < 5; ++port) {
                    const int dx = port == 1 ? 1 : port == 2 ? -1 : 0, dy = port == 4 ? 1 : port == 3 ? -1 : 0;
                    const int nx = r.x + dx, ny = r.y + dy;
                    if (nx < 0 || ny < 0 || nx >= mesh_w || ny >= mesh_h) continue;
                    const double u = ssum(p, r.out[port]) / cyc, st = ssum(p, r.stall[port]) / cyc;
                    link_max = std::max(link_max, u);
                    // Two directions of a link side by side: offset across the link.
                    const double ox = dy != 0 ? (dy > 0 ? 0.1 : -0.1) : 0.0, oy = dx != 0 ? (dx > 0 ? -0.1 : 0.1) : 0.0;
                    links.push_back({{"facet", p.name}, {"facet_order", pi},
                                     {"link", "router[" + std::to_string(r.x) + "][" + std::to_string(r.y) + "] " + kPorts[port]},
                                     {"x1", r.x + 0.18 * dx + ox}, {"y1", r.y + 0.18 * dy + oy},
                                     {"x2", r.x + 0.82 * dx + ox}, {"y2", r.y + 0.82 * dy + oy}, {"util", u}, {"stall", st}});
                }
        }
    }
    if (!links.empty()) {
        D["links"] = links;
        D["routers"] = rlabels;
        D["mesh_w"] = mesh_w;
        D["mesh_h"] = mesh_h;
        D["link_max"] = link_max;
    }

    // ---- time series (down-sampled to kMaxPoints buckets of equal simulated time)
    if (td.present && !td.series.empty() && sim_ns > 0) {  // every data row has a series
        const double bucket = sim_ns / double(kMaxPoints);
        struct Acc {
            double t0 = 1e300, t1 = 0, bytes = 0, queue = 0, macs = 0;
            std::map<std::string, double> share;  // kind label -> ps in its busy state
        };
        std::vector<Acc> acc(kMaxPoints);
        std::vector<long> role_macs(td.series.size(), 0);
        for (std::uint32_t i = 0; i < td.series.size(); ++i) role_macs[i] = td.series[i].statistic == "macs" ? 1 : 0;
        std::map<std::uint32_t, std::string> busy_of;  // series -> kind label (compute/busy state)
        for (const UnitKind& k : kinds)
            for (const char* st : {"compute", "busy"})
                if (k.by_state.count(st))
                    for (auto i : k.by_state.at(st)) busy_of[i] = k.label + " " + st;
        std::map<std::string, double> kind_units;
        for (const UnitKind& k : kinds)
            for (const char* st : {"compute", "busy"})
                if (k.by_state.count(st)) kind_units[k.label + " " + st] = double(k.modules.size());
        bool any_macs = false;
        // The second pass over the file; each row's value is spread over the buckets its
        // interval covers (in file order per bucket, as the intervals come).
        std::string key;
        scan_timeseries(d / "timeseries.csv", [&](const TsRow& r) {
            // Intervals longer than a bucket are spread over the buckets they cover.
            const double a = r.t0, b = r.t1, len = b - a;
            if (len <= 0) return;
            const long sl = series_of(td, r, key);
            if (sl < 0) return;
            const std::uint32_t s = std::uint32_t(sl);
            const double v = r.value;
            std::size_t k0 = std::min(kMaxPoints - 1, std::size_t(a / bucket)), k1 = std::min(kMaxPoints - 1, std::size_t(b / bucket));
            for (std::size_t k = k0; k <= k1; ++k) {
                const double lo = std::max(a, double(k) * bucket), hi = std::min(b, double(k + 1) * bucket);
                if (hi <= lo && k0 != k1) continue;
                const double f = k0 == k1 ? 1.0 : (hi - lo) / len;
                Acc& A = acc[k];
                A.t0 = std::min(A.t0, std::max(a, double(k) * bucket));
                A.t1 = std::max(A.t1, std::min(b, double(k + 1) * bucket));
                if (long(s) == s_rd || long(s) == s_wr) A.bytes += f * v;
                else if (long(s) == s_q) A.queue += f * v;
                else if (role_macs[s]) {
                    A.macs += f * v;
                    any_macs = true;
                } else {
                    auto it = busy_of.find(s);
                    if (it != busy_of.end()) A.share[it->second] += f * v;
                }
            }
        });
        json dram = json::array(), util = json::array();
        for (const Acc& A : acc) {
            if (A.t1 <= A.t0) continue;
            const double dur = A.t1 - A.t0;  // ns
            if (s_rd >= 0 || s_wr >= 0)
                dram.push_back({{"t_us", A.t0 * 1e-3}, {"bandwidth", A.bytes / dur},
                                {"queue", tck > 0 ? A.queue * tck / (dur * 1e3) : 0.0}});
            if (any_macs && peak_macs > 0)
                util.push_back({{"t_us", A.t0 * 1e-3}, {"series", "MAC utilisation (all MAC units)"},
                                {"value", A.macs / (dur * 1e-9 * peak_macs)}});
            for (const auto& [label, units] : kind_units)
                util.push_back({{"t_us", A.t0 * 1e-3}, {"series", label},
                                {"value", (A.share.count(label) ? A.share.at(label) : 0.0) / (dur * 1e3 * units)}});
        }
        if (!dram.empty()) D["dram_series"] = dram;
        if (!util.empty()) D["util_series"] = util;
    }

    // ---- bottlenecks in words
    std::vector<std::string> words;
    {
        std::vector<std::size_t> order(periods.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return periods[a].dur_ns > periods[b].dur_ns; });
        if (order.size() > 8) order.resize(8);
        for (std::size_t pi : order) {
            const Period& p = periods[pi];
            if (p.td_layer == -2 || p.dur_ns <= 0) continue;
            std::vector<std::pair<double, std::string>> facts;
            // NoC: the most credit-stalled port and the busiest link.
            if (noc_ps > 0 && !routers.empty()) {
                const double cyc = p.dur_ns * 1e3 / noc_ps;
                double best_st = 0, best_u = 0;
                std::string st_txt, u_txt;
                for (const auto& [xy, r] : routers)
                    for (int port = 0; port < 5; ++port) {
                        const double st = ssum(p, r.stall[port]) / cyc, u = ssum(p, r.out[port]) / cyc;
                        const std::string rn = "router[" + std::to_string(r.x) + "][" + std::to_string(r.y) + "]";
                        const std::string who = role(r.x, r.y).empty() ? rn : "the " + role(r.x, r.y) + " router (" + rn + ")";
                        if (st > best_st) {
                            best_st = st;
                            st_txt = who + "'s " + kPorts[port] + " output is credit-stalled " + pct(st) + " of NoC cycles";
                        }
                        if (u > best_u) {
                            best_u = u;
                            u_txt = who + "'s " + kPorts[port] + " output carries " + fmt("%.2f", u) + " flits/cycle";
                        }
                    }
                if (best_st >= 0.05) facts.emplace_back(best_st, st_txt);
                if (best_u >= 0.3) facts.emplace_back(best_u * 0.9, u_txt);
            }
            // DRAM: data bus busy, row hits, queue.
            if (tck > 0 && s_busy >= 0) {
                const double busy = ssum(p, s_busy) / (p.dur_ns * 1e3 / tck * channels);
                const double acc = ssum(p, s_hit) + ssum(p, s_miss) + ssum(p, s_conf);
                const double q = s_q >= 0 ? ssum(p, s_q) * tck / (p.dur_ns * 1e3) : 0.0;
                std::string t = "the DRAM data bus is busy " + pct(busy);
                if (acc > 0) t += " (row hits " + pct(ssum(p, s_hit) / acc) + ", mean queue " + fmt("%.1f", q) + " requests)";
                facts.emplace_back(busy, t);
                // Row activations against the most the four-activation window and ACT-to-ACT
                // spacing allow: a DRAM can be the bottleneck with its data bus far from busy.
                const double acts = ssum(p, s_act) * act_interval / (p.dur_ns * 1e3 / tck * channels);
                if (act_interval > 0 && acts >= 0.3)
                    facts.emplace_back(acts, "DRAM row activations use " + pct(acts) +
                                                 " of the rate tFAW and tRRD allow (" + pct(ssum(p, s_conf) / std::max(acc, 1.0)) +
                                                 " of the bursts are row conflicts)");
            }
            // Units: the state other than idle where each kind spends most time.
            for (const UnitKind& k : kinds) {
                const auto sh = state_shares(td, k, p.td_layer, p.dur_ns);
                std::string top;
                double topv = 0;
                for (const auto& st : k.states)
                    if (st != "idle" && sh.at(st) > topv) {
                        topv = sh.at(st);
                        top = st;
                    }
                const bool many = k.modules.size() > 1;
                const std::string who = k.label + (many ? " (mean of " + std::to_string(k.modules.size()) + ")" : "");
                if (top.empty() || topv < 0.02) {
                    facts.emplace_back(0.01, who + (many ? " are" : " is") + " idle");
                    continue;
                }
                facts.emplace_back(topv, who + (many ? " spend " : " spends ") + pct(topv) + " of the time " +
                                             state_phrase(top) + (sh.count("idle") ? ", " + pct(sh.at("idle")) + " idle" : ""));
            }
            std::stable_sort(facts.begin(), facts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
            if (facts.empty()) continue;
            std::string s = "<b>" + html_escape(p.name) + "</b>" +
                            (sim_ns > 0 && p.td_layer >= 0 ? " (" + pct(p.dur_ns / sim_ns) + " of the run)" : "") + ": ";
            for (std::size_t i = 0; i < facts.size() && i < 2; ++i) s += (i ? "; " : "") + html_escape(facts[i].second);
            words.push_back(s + ".");
        }
    }
    D["bottlenecks"] = words;

    // ---- static HTML: title, summary table (figures carry their stats.json path), bottlenecks
    std::string h;
    h += "<h1>" + html_escape(workload) + " on the " + html_escape(platform) + " platform</h1>\n";
    h += "<p class=\"note\">" + html_escape(meta.value("config", "")) + " &middot; " + html_escape(meta.value("workload", "")) +
         " &middot; seed " + std::to_string(meta.value("seed", 0)) + " &middot; cnn-vp " +
         html_escape(meta.value("version", "")) + " &middot; made from the run folder's files (vp-report regenerates it)</p>\n";
    // The partial outputs of a run that failed or was interrupted (vp-run's DIR.partial).
    if (meta.contains("state") && meta["state"].is_string())
        h += "<p class=\"warn\"><b>Partial run (" + html_escape(meta["state"].get<std::string>()) + "):</b> " +
             html_escape(meta.value("error", std::string())) + ". The figures cover the " + fmt("%.3f", sim_ns * 1e-3) +
             " us simulated before the run stopped.</p>\n";
    h += "<h2>Summary</h2>\n<table>\n";
    auto row = [&h](const std::string& label, const std::string& value, const std::string& path, double raw) {
        h += "<tr><td>" + html_escape(label) + "</td><td class=\"num\"";
        if (!path.empty()) h += " data-stat=\"" + html_escape(path) + "\" data-value=\"" + fmt("%.17g", raw) + "\"";
        h += ">" + html_escape(value) + "</td><td class=\"note\">" + html_escape(path) + "</td></tr>\n";
    };
    row("simulated time", fmt("%.3f", sim_ns * 1e-3) + " us", "meta.sim_time_ns", sim_ns);
    if (run.is_object() && run.contains("wall_time_s"))
        row("wall time", fmt("%.2f", run["wall_time_s"].get<double>()) + " s (" +
                             fmt("%.3g", run.value("sim_speed_ns_per_wall_s", 0.0)) + " simulated ns per s)", "", 0);
    struct Known {
        const char* path;
        const char* label;
        const char* field;
        double scale;
        const char* format;
        const char* unit;
    };
    static const Known kKnown[] = {
        {"nmp.macs", "MACs (NMP)", "value", 1, "%.0f", ""},
        {"nmp.cycles", "NMP cycles", "value", 1, "%.0f", ""},
        {"mesh.cycles", "mesh core cycles (simulated)", "value", 1, "%.0f", ""},
        {"mesh.est_cycles", "mesh core cycles (estimated)", "value", 1, "%.0f", ""},
        {"mesh.energy_pj", "energy (simulated counts)", "value", 1e-6, "%.2f", " uJ"},
        {"vta.cycles", "VTA core cycles", "value", 1, "%.0f", ""},
        {"vta.macs", "MACs (VTA GEMM)", "value", 1, "%.0f", ""},
        {"noc.flits_ejected", "NoC flits delivered", "value", 1, "%.0f", ""},
        {"noc.packet_latency_avg", "NoC packet latency (mean)", "value", 1, "%.1f", " cycles"},
        {"noc.accepted_throughput", "NoC accepted throughput", "value", 1, "%.4f", " flits/node/cycle"},
        {"dram.bytes_read", "DRAM bytes read", "value", 1, "%.0f", ""},
        {"dram.bytes_written", "DRAM bytes written", "value", 1, "%.0f", ""},
        {"dram.bandwidth", "DRAM bandwidth", "value", 1, "%.3f", " GB/s"},
        {"dram.peak_bandwidth", "DRAM peak bandwidth", "value", 1, "%.3f", " GB/s"},
        {"dram.bus_utilisation", "DRAM data bus busy", "value", 100, "%.1f", " %"},
        {"dram.row_hit_rate", "DRAM row hit rate", "value", 100, "%.1f", " %"},
        {"dram.latency", "DRAM latency (mean)", "mean", 1, "%.1f", " ns"},
    };
    for (const Known& k : kKnown) {
        const double v = stat_value(stats, k.path, k.field);
        if (!std::isfinite(v)) continue;
        row(k.label, fmt(k.format, v * k.scale) + k.unit, std::string(k.path) + (std::string(k.field) == "value" ? "" : std::string(".") + k.field), v);
    }
    double macs_total = 0;
    for (const auto& l : layers) macs_total += l.value("macs", 0.0);
    if (n_layers > 0) {
        double est = 0, sim = 0;
        for (const auto& l : layers) {
            est += l.value("est_cycles", 0.0);
            sim += l.value("sim_cycles", 0.0);
        }
        row("layers", std::to_string(n_layers), "", 0);
        row("MACs of the layers", fmt("%.0f", macs_total), "", 0);
        row("cycles, simulated / estimated", fmt("%.0f", sim) + " / " + fmt("%.0f", est) +
                                                 (est > 0 ? " (x" + fmt("%.3f", sim / est) + ")" : ""), "", 0);
    }
    // The mapper's trust record (mapping.json): how far the estimate held against this simulation.
    const json mapping = load_json(d / "mapping.json");
    if (mapping.is_object() && mapping.contains("trust") && mapping["trust"].is_object()) {
        const json& t = mapping["trust"];
        const std::string layer = t.contains("worst_layer") && t["worst_layer"].is_string() ? t["worst_layer"].get<std::string>() : "";
        std::string v = "median " + fmt("%.1f", 100 * t.value("median_abs_sim_over_est_minus_1", 0.0)) + " %, worst " +
                        refine::worst_layer_text(t.value("worst_abs_sim_over_est_minus_1", 0.0), layer,
                                                 t.value("worst_sim_over_est_minus_1", 0.0));
        if (t.contains("spearman_rho") && t["spearman_rho"].is_number())
            v += ", Spearman rho " + fmt("%.3f", t["spearman_rho"].get<double>());
        row("estimate vs simulation, |sim/est - 1| over " + std::to_string(t.value("layers", 0)) + " layers", v,
            "", 0);
    }
    if (dict.is_object() && dict.contains("epoch"))
        row("epoch statistics", dict["epoch"].value("setting", "") + ", " + std::to_string(dict["epoch"].value("intervals", 0)) +
                                    " intervals of " + fmt("%.4g", dict["epoch"].value("epoch_ns", 0.0)) + " ns (and layer ends)", "", 0);
    h += "</table>\n";
    h += "<h2>Where the time goes</h2>\n";
    if (words.empty()) h += "<p class=\"missing\">No epoch statistics in this folder (timeseries.csv).</p>\n";
    else {
        h += "<p class=\"note\">The longest layers first; for each, the two strongest signs among NoC credit stalls and link "
             "load, DRAM data-bus occupancy and the share of time the units spend in each state.</p>\n<ul class=\"bottlenecks\">\n";
        for (const auto& w : words) h += "<li>" + w + "</li>\n";
        h += "</ul>\n";
    }
    h += "<h2>Estimate and simulation per layer</h2>\n<div class=\"chart\" id=\"c-estsim\"></div>\n";
    h += "<h2>Time per state, per layer</h2>\n<p class=\"note\">Mean over the units of each kind (their number in "
         "brackets); load/store: DMA transfers, stall and wait_token: waiting for data or a dependency, idle: no work or "
         "synchronisation.</p>\n<div class=\"chart\" id=\"c-breakdown\"></div>\n";
    h += "<h2>Roofline</h2>\n<p class=\"note\">Per layer: MACs per DRAM byte and MACs per second; the roof is the platform's "
         "peak compute rate and its DRAM peak bandwidth.</p>\n<div class=\"chart\" id=\"c-roofline\"></div>\n";
    h += "<h2>NoC link utilisation</h2>\n<p class=\"note\">Flits per cycle on each router output (arrows drawn side by side, "
         "one per direction), per layer.</p>\n<div class=\"chart\" id=\"c-links\"></div>\n";
    h += "<h2>DRAM over time</h2>\n<div class=\"chart\" id=\"c-dram\"></div>\n";
    h += "<h2>Compute utilisation over time</h2>\n<div class=\"chart\" id=\"c-util\"></div>\n";
    R.html = h;
    return R;
}

}  // namespace vp::report
