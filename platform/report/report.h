#pragma once
// The run report: one self-contained HTML page (report.html) per output folder, made from the
// folder's files alone (stats.json, run.json, layers.json, timeseries.csv and its dictionary),
// so that vp-run writes it and vp-report regenerates it. The run's data is embedded as JSON;
// the vendored Vega-Lite draws the charts (no network, no Python); the summary table and the
// bottlenecks in words are plain HTML.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vp::report {

// Writes DIR/report.html. Throws vp::InputError when DIR is not a run folder (no stats.json).
void write_report(const std::string& dir);
// A vp-sweep folder (with sweep.csv): DIR/report.html compares the points, DIR/pareto.csv holds
// the Pareto front when asked for, and every point's run folder gets its own report.html.
// Throws vp::InputError (no sweep.csv, bad options).
struct SweepOptions {
    std::string stats;   // only the statistics whose name matches this ECMAScript regex ("" = all)
    std::string pareto;  // "X,Y": the Pareto front of two statistics, "max:NAME" maximised ("" = none)
};
void write_sweep_report(const std::string& dir, const SweepOptions& opt = {});
bool is_sweep_folder(const std::string& dir);

// --- shared by the writers (report.cpp, report_data.cpp, sweep_report.cpp) ---

// An embedded asset: "template", "sweep_template", "page_head", "vega", "vega_lite", "vega_embed".
std::string asset(const std::string& name);
// The page: a template with the libraries inlined, the static HTML and the data (JSON).
std::string render_page(const std::string& template_name, const std::string& title, const std::string& static_html,
                        const nlohmann::json& data);
std::string html_escape(const std::string& s);
std::string read_file(const std::string& path);  // "" when missing
// A JSON file of a run folder: null when it does not exist; vp::InputError naming the file when it
// is empty, not valid JSON or not an object (vp-run writes every one as an object).
nlohmann::json load_run_json(const std::string& path);
// A dotted path of stats.json's statistics ("dram.latency", "mesh.layer[a.b].cycles": '.' splits
// outside brackets, since instance names may hold dots). exact: the value at the path, null when
// absent; otherwise the deepest object on the way (a stats.csv column "dram.latency.p99" ends at
// the statistic "dram.latency").
const nlohmann::json* stats_at_path(const nlohmann::json& stats, const std::string& path, bool exact);
// Splits one CSV line (RFC 4180 quoting, no embedded newlines).
std::vector<std::string> split_csv(const std::string& line);

// The report data of a run folder: the JSON embedded in the page and the static HTML.
struct RunReport {
    nlohmann::json data;
    std::string html;
    std::string title;
};
RunReport build_run_report(const std::string& dir);

}  // namespace vp::report
