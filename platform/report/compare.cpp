#include "platform/report/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "platform/report/report.h"
#include "platform/report/sweep.h"  // csv_field, number

namespace vp::report {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Stat {
    double value = 0;
    std::string unit;
};

// What a run folder holds for the comparison.
struct Run {
    std::string dir;
    json meta;
    std::map<std::string, Stat> stats;                // stats.csv's column name -> value
    std::vector<std::string> stat_order;              // names in stats.csv's order
    std::map<std::string, std::string> config;        // dotted key -> scalar text of config.yaml
    bool has_config = false;
    struct Layer {
        std::string name;
        double time_ns = 0, sim_cycles = 0, est_cycles = 0;
    };
    std::vector<Layer> layers;
    bool has_layers = false;
};

// vp-run nests statistics a few levels deep (module, instance, statistic); a file nested far deeper
// is not one of its files, and walking it recursively would exhaust the stack.
constexpr int kMaxDepth = 64;

// Every statistic of stats.json ("stats"): an object with a numeric "value", named by its path.
void flatten_stats(const json& node, const std::string& prefix, Run& r, int depth = 0) {
    if (depth > kMaxDepth)
        throw InputError(r.dir + "/stats.json: statistics nested more than " + std::to_string(kMaxDepth) +
                         " levels deep: not the statistics file that vp-run writes");
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (!it.value().is_object()) continue;
        const std::string name = prefix.empty() ? it.key() : prefix + "." + it.key();
        const json& v = it.value();
        if (v.contains("value") && v["value"].is_number()) {
            Stat s;
            s.value = v["value"].get<double>();
            if (v.contains("unit") && v["unit"].is_string()) s.unit = v["unit"].get<std::string>();
            if (r.stats.emplace(name, s).second) r.stat_order.push_back(name);
        } else {
            flatten_stats(v, name, r, depth + 1);
        }
    }
}

// stats.csv: one header line and one row, every statistic flattened as sweeps see it (scalars,
// and a distribution's mean / percentiles or a state statistic's per-state times as columns of
// their own). The meta columns before sim_time_ns are not statistics; the units come from
// stats.json.
void read_stats_csv(const fs::path& path, const json& stats, Run& r) {
    std::ifstream f(path);
    std::string header, row, extra;
    if (!f || !std::getline(f, header) || !std::getline(f, row))
        throw InputError(path.string() + ": expected a header line and one row, as vp-run writes");
    while (std::getline(f, extra))
        if (!extra.empty() && extra != "\r") throw InputError(path.string() + ": more than one row: not the file that vp-run writes");
    const std::vector<std::string> names = split_csv(header), values = split_csv(row);
    if (names.size() != values.size())
        throw InputError(path.string() + ": the row has " + std::to_string(values.size()) + " fields, the header " +
                         std::to_string(names.size()));
    const auto first = std::find(names.begin(), names.end(), "sim_time_ns");
    if (first == names.end()) throw InputError(path.string() + ": no sim_time_ns column: not the file that vp-run writes");
    for (std::size_t i = std::size_t(first - names.begin()); i < names.size(); ++i) {
        const std::optional<double> v = number(values[i]);
        if (!v || r.stats.count(names[i])) continue;
        Stat st;
        st.value = *v;
        if (names[i] == "sim_time_ns") {
            st.unit = "ns";
        } else {
            const json* o = stats_at_path(stats, names[i], false);
            if (o->is_object() && o->contains("unit") && (*o)["unit"].is_string()) st.unit = (*o)["unit"].get<std::string>();
        }
        r.stats.emplace(names[i], st);
        r.stat_order.push_back(names[i]);
    }
}

// config.yaml as dotted keys (sequence items as [i]) with their scalar text.
void flatten_yaml(const YAML::Node& n, const std::string& key, std::map<std::string, std::string>& out, int depth = 0) {
    if (depth > kMaxDepth)
        throw InputError("keys nested more than " + std::to_string(kMaxDepth) + " levels deep: not the configuration that vp-run writes");
    if (n.IsMap()) {
        for (auto it = n.begin(); it != n.end(); ++it) {
            const std::string k = it->first.as<std::string>();
            flatten_yaml(it->second, key.empty() ? k : key + "." + k, out, depth + 1);
        }
    } else if (n.IsSequence()) {
        if (n.size() == 0) out[key] = "[]";
        for (std::size_t i = 0; i < n.size(); ++i) flatten_yaml(n[i], key + "[" + std::to_string(i) + "]", out, depth + 1);
    } else if (n.IsScalar()) {
        out[key] = n.Scalar();
    } else {
        out[key] = "~";
    }
}

Run read_run(const std::string& dir) {
    Run r;
    r.dir = dir;
    const fs::path d(dir);
    std::error_code ec;
    if (!fs::is_directory(d, ec)) throw InputError(dir + ": no such folder (give two vp-run output folders)");
    const json doc = load_run_json((d / "stats.json").string());
    if (doc.is_null()) throw InputError(dir + ": not a run folder (no stats.json)");
    for (const char* k : {"meta", "stats"})
        if (!doc.contains(k) || !doc[k].is_object())
            throw InputError((d / "stats.json").string() + ": no \"" + k + "\" object: not the statistics file that vp-run writes");
    r.meta = doc["meta"];
    const fs::path csv = d / "stats.csv";
    if (fs::exists(csv, ec)) {
        read_stats_csv(csv, doc["stats"], r);
    } else {  // a folder without stats.csv (copied in part): the statistics with one value
        if (r.meta.contains("sim_time_ns") && r.meta["sim_time_ns"].is_number()) {
            r.stats["sim_time_ns"] = Stat{r.meta["sim_time_ns"].get<double>(), "ns"};
            r.stat_order.push_back("sim_time_ns");
        }
        flatten_stats(doc["stats"], "", r);
    }

    const fs::path cfg = d / "config.yaml";
    if (fs::exists(cfg, ec)) {
        try {
            flatten_yaml(YAML::LoadFile(cfg.string()), "", r.config);
        } catch (const YAML::Exception& e) {
            throw InputError(cfg.string() + ": not the YAML that vp-run writes: " + e.what());
        } catch (const InputError& e) {
            throw InputError(cfg.string() + ": " + e.what());
        }
        r.has_config = true;
    }

    const json ldoc = load_run_json((d / "layers.json").string());
    if (ldoc.is_object() && ldoc.contains("layers")) {
        const json& l = ldoc["layers"];
        if (!l.is_array() || std::any_of(l.begin(), l.end(), [](const json& e) { return !e.is_object(); }))
            throw InputError((d / "layers.json").string() + ": \"layers\" is not an array of objects: not the layer "
                             "file that vp-run writes");
        for (const json& e : l) {
            Run::Layer x;
            x.name = e.value("name", std::string());
            x.time_ns = e.value("end_ns", 0.0) - e.value("begin_ns", 0.0);
            x.sim_cycles = e.value("sim_cycles", 0.0);
            x.est_cycles = e.value("est_cycles", 0.0);
            r.layers.push_back(x);
        }
        r.has_layers = true;
    }
    return r;
}

Run load_run(const std::string& dir) {
    try {
        return read_run(dir);
    } catch (const json::exception& e) {
        // Valid JSON of another shape than vp-run writes (a number where a name belongs ...).
        throw InputError(dir + ": a file of the folder does not hold what vp-run writes: " + e.what());
    } catch (const YAML::Exception& e) {
        throw InputError(dir + "/config.yaml: not the configuration that vp-run writes: " + e.what());
    }
}

std::string num(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.10g", v);
    return b;
}

// other / base - 1 as text: "+12.34 %", "0 %" when equal, "from 0" when only the other is not 0.
std::string change(double base, double other) {
    if (base == other) return "0 %";
    if (base == 0) return "from 0";
    char b[64];
    std::snprintf(b, sizeof b, "%+.2f %%", 100.0 * (other / base - 1.0));
    return b;
}
double rel(double base, double other) {
    if (base == other) return 0;
    if (base == 0) return HUGE_VAL;
    return std::fabs(other / base - 1.0);
}

std::string describe(const Run& r) {
    std::string s = r.meta.value("platform", std::string("?")) + ", workload " + r.meta.value("workload_name", std::string("?"));
    if (r.meta.contains("seed") && r.meta["seed"].is_number()) s += ", seed " + num(r.meta["seed"].get<double>());
    return s;
}

// Left-aligned and right-aligned columns of a text table.
void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, std::size_t left_cols) {
    if (rows.empty()) return;
    std::vector<std::size_t> w(rows[0].size(), 0);
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
    for (const auto& r : rows) {
        std::string line = "    ";
        for (std::size_t i = 0; i < r.size(); ++i) {
            const std::string pad(w[i] - r[i].size(), ' ');
            line += i < left_cols ? r[i] + pad : pad + r[i];
            if (i + 1 < r.size()) line += "  ";
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << "\n";
    }
}

}  // namespace

void compare_runs(const std::string& base_dir, const std::string& other_dir, const CompareOptions& opt, std::ostream& os) {
    std::ostringstream out;  // printed only when complete: an error leaves no half summary
    if (opt.top < 1) throw InputError("--top: expected a row count of at least 1");
    std::regex filter;
    if (!opt.stats.empty()) {
        try {
            filter = std::regex(opt.stats, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            throw InputError("--stats: not a valid regular expression (ECMAScript): " + opt.stats + " (" + e.what() + ")");
        }
    }
    const Run a = load_run(base_dir), b = load_run(other_dir);
    // The file written for --csv (a symbolic link's target; not a folder, device or FIFO).
    const std::string csv = opt.csv.empty() ? std::string() : output_file_target(opt.csv, "--csv");
    if (!csv.empty()) {
        // "writes nothing into them": a CSV inside either run folder would become a file that the
        // folder's run.json does not list (and could replace one it does).
        std::error_code ec;
        for (fs::path p = fs::absolute(fs::path(csv), ec).parent_path(); !ec && !p.empty(); p = p.parent_path()) {
            for (const std::string& d : {base_dir, other_dir}) {
                std::error_code e2;
                if (fs::equivalent(p, fs::path(d), e2))
                    throw InputError("--csv " + opt.csv + ": inside the run folder " + d +
                                     ", which holds what vp-run wrote only (write the CSV elsewhere)");
            }
            if (p == p.root_path()) break;
        }
    }

    out << "vp-report: " << other_dir << " compared with " << base_dir << " (change = other / base - 1)\n";
    out << "  base     " << base_dir << ": " << describe(a) << "\n";
    out << "  other    " << other_dir << ": " << describe(b) << "\n";

    // ---- configuration
    struct ConfigDiff {
        std::string key, base, other;
    };
    std::vector<ConfigDiff> cdiff;
    if (a.has_config && b.has_config) {
        std::set<std::string> keys;
        for (const auto& [k, v] : a.config) keys.insert(k);
        for (const auto& [k, v] : b.config) keys.insert(k);
        for (const std::string& k : keys) {
            const auto ia = a.config.find(k), ib = b.config.find(k);
            const std::string va = ia == a.config.end() ? "(absent)" : ia->second;
            const std::string vb = ib == b.config.end() ? "(absent)" : ib->second;
            if (va != vb) cdiff.push_back({k, va, vb});
        }
        out << "  config   " << (cdiff.empty() ? std::string("the same (config.yaml, every resolved key)")
                                               : std::to_string(cdiff.size()) + " of " + std::to_string(keys.size()) +
                                                     " resolved keys differ (config.yaml):")
            << "\n";
        std::vector<std::vector<std::string>> rows;
        for (std::size_t i = 0; i < cdiff.size() && i < std::size_t(opt.top); ++i)
            rows.push_back({cdiff[i].key, cdiff[i].base, "->", cdiff[i].other});
        print_table(out, rows, 4);
        if (cdiff.size() > std::size_t(opt.top)) out << "    ... " << cdiff.size() - std::size_t(opt.top) << " more\n";
    } else {
        out << "  config   not compared (config.yaml missing in " << (a.has_config ? other_dir : base_dir) << ")\n";
    }
    const std::string wa = a.meta.value("workload_hash", std::string()), wb = b.meta.value("workload_hash", std::string());
    if (wa != wb)
        out << "  workload differs: " << a.meta.value("workload_name", std::string("?")) << " (" << wa << ") -> "
            << b.meta.value("workload_name", std::string("?")) << " (" << wb << ")\n";

    // ---- statistics
    const auto listed = [&](const std::string& name) {
        return opt.stats.empty() ? name.find('[') == std::string::npos : std::regex_search(name, filter);
    };
    struct StatDiff {
        std::string name, unit;
        double base, other;
    };
    std::vector<StatDiff> sdiff;
    std::size_t considered = 0, only_a = 0, only_b = 0;
    for (const std::string& n : a.stat_order) {
        const auto ib = b.stats.find(n);
        if (ib == b.stats.end()) {
            ++only_a;
            continue;
        }
        if (!listed(n)) continue;
        ++considered;
        const Stat& sa = a.stats.at(n);
        if (sa.value != ib->second.value) sdiff.push_back({n, sa.unit, sa.value, ib->second.value});
    }
    for (const auto& [n, s] : b.stats) only_b += a.stats.count(n) == 0;
    std::stable_sort(sdiff.begin(), sdiff.end(),
                     [](const StatDiff& x, const StatDiff& y) { return rel(x.base, x.other) > rel(y.base, y.other); });
    const std::string which = opt.stats.empty() ? "module totals; --stats REGEX for others" : "matching " + opt.stats;
    out << "  statistics " << sdiff.size() << " of " << considered << " differ (" << which << ")"
        << (sdiff.empty() ? "" : ", largest change first:") << "\n";
    {
        std::vector<std::vector<std::string>> rows{{"statistic", "unit", "base", "other", "change"}};
        for (std::size_t i = 0; i < sdiff.size() && i < std::size_t(opt.top); ++i)
            rows.push_back({sdiff[i].name, sdiff[i].unit, num(sdiff[i].base), num(sdiff[i].other), change(sdiff[i].base, sdiff[i].other)});
        if (rows.size() > 1) print_table(out, rows, 2);
        if (sdiff.size() > std::size_t(opt.top)) out << "    ... " << sdiff.size() - std::size_t(opt.top) << " more\n";
    }
    if (only_a || only_b)
        out << "  statistics in one run only: " << only_a << " in base, " << only_b << " in other (other modules or sizes)\n";

    // ---- layers (matched by name)
    struct LayerDiff {
        std::string name;
        double base_ns, other_ns;
    };
    std::vector<LayerDiff> ldiff;
    std::size_t matched = 0, layers_only_a = 0, layers_only_b = 0;
    std::map<std::string, const Run::Layer*> bl;  // the other run's layers by name
    for (const auto& l : b.layers) bl.emplace(l.name, &l);
    if (a.has_layers && b.has_layers) {
        std::set<std::string> seen;
        for (const auto& l : a.layers) {
            const auto it = bl.find(l.name);
            if (it == bl.end()) {
                ++layers_only_a;
                continue;
            }
            seen.insert(l.name);
            ++matched;
            if (l.time_ns != it->second->time_ns) ldiff.push_back({l.name, l.time_ns, it->second->time_ns});
        }
        for (const auto& l : b.layers) layers_only_b += seen.count(l.name) == 0;
        std::stable_sort(ldiff.begin(), ldiff.end(), [](const LayerDiff& x, const LayerDiff& y) {
            return std::fabs(x.other_ns - x.base_ns) > std::fabs(y.other_ns - y.base_ns);
        });
        out << "  layers   " << matched << " in both, " << ldiff.size() << " with another time"
            << (ldiff.empty() ? "" : ", largest change in time first:") << "\n";
        std::vector<std::vector<std::string>> rows{{"layer", "base us", "other us", "change"}};
        for (std::size_t i = 0; i < ldiff.size() && i < std::size_t(opt.top); ++i) {
            char x[32], y[32];
            std::snprintf(x, sizeof x, "%.3f", ldiff[i].base_ns * 1e-3);
            std::snprintf(y, sizeof y, "%.3f", ldiff[i].other_ns * 1e-3);
            rows.push_back({ldiff[i].name, x, y, change(ldiff[i].base_ns, ldiff[i].other_ns)});
        }
        if (rows.size() > 1) print_table(out, rows, 1);
        if (ldiff.size() > std::size_t(opt.top)) out << "    ... " << ldiff.size() - std::size_t(opt.top) << " more\n";
        if (layers_only_a || layers_only_b)
            out << "  layers in one run only: " << layers_only_a << " in base, " << layers_only_b << " in other\n";
    } else if (a.has_layers || b.has_layers) {
        out << "  layers   not compared (layers.json missing in " << (a.has_layers ? other_dir : base_dir) << ")\n";
    }

    // ---- CSV: everything, both sides, in the base's order then the other's extras
    if (!csv.empty()) {
        const std::string tmp = csv + ".incomplete-" + std::to_string(::getpid());
        {
            std::ofstream f(tmp);
            if (!f) throw InputError("--csv " + opt.csv + ": cannot write " + tmp);
            f << "kind,name,unit,base,other,other_over_base_minus_1\n";
            const auto ratio = [](double x, double y) { return x == 0 ? std::string() : num(y / x - 1.0); };
            for (const ConfigDiff& c : cdiff)
                f << "config," << csv_field(c.key) << ",," << csv_field(c.base) << "," << csv_field(c.other) << ",\n";
            for (const std::string& n : a.stat_order) {
                const Stat& sa = a.stats.at(n);
                const auto ib = b.stats.find(n);
                f << "stat," << csv_field(n) << "," << csv_field(sa.unit) << "," << num(sa.value) << ",";
                if (ib != b.stats.end()) f << num(ib->second.value) << "," << ratio(sa.value, ib->second.value);
                else f << ",";
                f << "\n";
            }
            for (const std::string& n : b.stat_order)
                if (!a.stats.count(n)) f << "stat," << csv_field(n) << "," << csv_field(b.stats.at(n).unit) << ",," << num(b.stats.at(n).value) << ",\n";
            struct Field {
                const char* kind;
                const char* unit;
                double Run::Layer::*value;
            };
            static constexpr Field kFields[] = {{"layer_time", "ns", &Run::Layer::time_ns},
                                                {"layer_sim_cycles", "cycles", &Run::Layer::sim_cycles},
                                                {"layer_est_cycles", "cycles", &Run::Layer::est_cycles}};
            std::set<std::string> done;
            for (const auto& l : a.layers) {
                const auto it = bl.find(l.name);
                for (const Field& fd : kFields) {
                    const double va = l.*fd.value;
                    f << fd.kind << "," << csv_field(l.name) << "," << fd.unit << "," << num(va) << ",";
                    if (it != bl.end()) f << num(it->second->*fd.value) << "," << ratio(va, it->second->*fd.value);
                    else f << ",";
                    f << "\n";
                }
                done.insert(l.name);
            }
            for (const auto& l : b.layers)
                if (!done.count(l.name))
                    for (const Field& fd : kFields) f << fd.kind << "," << csv_field(l.name) << "," << fd.unit << ",," << num(l.*fd.value) << ",\n";
            f.flush();
            if (!f) {
                std::error_code ec;
                fs::remove(tmp, ec);
                throw InputError("--csv " + opt.csv + ": writing " + tmp + " failed");
            }
        }
        std::error_code ec;
        fs::rename(tmp, csv, ec);
        if (ec) {
            const std::string why = ec.message();
            fs::remove(tmp, ec);
            throw InputError("--csv " + opt.csv + ": cannot rename the written file to it (" + why + ")");
        }
        out << "  csv      " << opt.csv << " (every configuration difference, statistic and layer of both runs)\n";
    }
    os << out.str();
}

}  // namespace vp::report
