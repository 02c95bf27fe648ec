// The report of a vp-sweep folder: DIR/report.html (the counts, the points that did not finish,
// the Pareto front of two statistics, every varying statistic against each swept parameter, the
// points linking their own reports), DIR/pareto.csv with --pareto, and every point's report.html.
// The charts are Vega-Lite specifications drawn in the page (sweep_template.html).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "mapper/common/errors.h"
#include "platform/report/report.h"
#include "platform/report/sweep.h"

namespace vp::report {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kOpenCharts = 12;  // statistics drawn at once; the others when unfolded
constexpr std::size_t kTableStats = 4;   // statistics in the points table

// A parameter value as the charts show it: config and workload files by their base name.
std::string shown(const std::string& param, const std::string& value) {
    if (param.size() > 5 && param.compare(param.size() - 5, 5, "_file") == 0) return fs::path(value).filename().string();
    return value;
}

// The last component of a dotted key ("dram.queue_depth" -> "queue_depth"), for legends.
std::string short_key(const std::string& k) {
    const auto p = k.rfind('.');
    return p == std::string::npos ? k : k.substr(p + 1);
}

json value_json(const std::string& s) {
    if (const auto v = number(s)) return *v;
    return s;
}

// The folder's own name, also for "out/" and ".".
std::string folder_name(const fs::path& d) {
    fs::path a = fs::absolute(d).lexically_normal();
    if (a.filename().empty()) a = a.parent_path();
    return a.filename().string();
}

void write_text(const fs::path& p, const std::string& text) {
    const fs::path tmp = p.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        if (!out) throw std::runtime_error("cannot write " + tmp.string());
    }
    fs::rename(tmp, p);
}

// The x axis of a parameter: numeric values on a linear or (all positive, spanning 8x and more)
// log2 scale, anything else as categories in the order of sweep.csv.
json axis_of(const SweepTable& t, const std::vector<std::size_t>& rows, const std::string& p) {
    std::vector<std::string> order;
    bool numeric = true, positive = true;
    double lo = 0, hi = 0;
    for (const std::size_t r : rows) {
        const std::string v = shown(p, t.at(r, p));
        if (std::find(order.begin(), order.end(), v) == order.end()) order.push_back(v);
        const auto x = number(v);
        if (!x) {
            numeric = false;
            continue;
        }
        positive = positive && *x > 0;
        lo = order.size() == 1 ? *x : std::min(lo, *x);
        hi = order.size() == 1 ? *x : std::max(hi, *x);
    }
    const bool log = numeric && positive && hi >= 8 * lo;
    return {{"name", p}, {"type", numeric ? "quantitative" : "nominal"}, {"log", log}, {"order", order}};
}

std::string param_cells(const SweepTable& t, std::size_t r, const std::vector<std::string>& params) {
    std::string h;
    for (const auto& p : params) h += "<td>" + html_escape(shown(p, t.at(r, p))) + "</td>";
    return h;
}

std::string param_heads(const std::vector<std::string>& params) {
    std::string h;
    for (const auto& p : params) h += "<th>" + html_escape(p) + "</th>";
    return h;
}

}  // namespace

void write_sweep_report(const std::string& dir, const SweepOptions& opt) {
    const fs::path d(dir);
    const SweepTable t = read_sweep_table(dir);
    const SweepSelection sel = select_sweep(t, opt.stats);
    std::pair<ParetoAxis, ParetoAxis> pareto;
    if (!opt.pareto.empty()) pareto = parse_pareto(opt.pareto, t);

    // Every point's own report, and one of what a point that did not finish had simulated (vp-run's
    // DIR.partial, the run stopped by a failure or by the sweep's timeout).
    const std::size_t state = t.col("state");
    std::set<std::string> has_report, has_partial;
    for (const auto& row : t.rows) {
        for (const bool partial : {false, true}) {
            if (partial && row[state] == "done") continue;
            const fs::path run = d / "points" / row[0] / (partial ? "run.partial" : "run");
            if (!fs::exists(run / "stats.json")) continue;
            try {
                write_report(run.string());
                (partial ? has_partial : has_report).insert(row[0]);
            } catch (const std::exception& e) {
                std::cerr << "vp-report: warning: " << run.string() << ": " << e.what() << "\n";
            }
        }
    }

    std::map<std::string, std::size_t> counts;
    for (const auto& row : t.rows) ++counts[row[state]];
    std::string count_text;
    for (const auto& [s, n] : counts) count_text += (count_text.empty() ? "" : ", ") + std::to_string(n) + " " + s;
    auto joined = [](const std::vector<std::string>& v, const char* none) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
        return s.empty() ? std::string(none) : s;
    };

    std::string h = "<h1>Sweep " + html_escape(folder_name(d)) + "</h1>\n";
    h += "<p class=\"note\" id=\"sweep-counts\">" + std::to_string(t.rows.size()) + " points: " + html_escape(count_text) +
         ". Swept: " + html_escape(joined(sel.varied, "nothing")) + ".</p>\n";

    // Points that did not finish.
    const std::size_t exit_col = t.col("exit_code"), err_col = t.col("error");
    if (sel.done.size() < t.rows.size()) {
        h += "<h2>Points that did not finish</h2>\n<table id=\"unfinished\">\n<tr><th>point</th>" + param_heads(sel.varied) +
             "<th>state</th><th>exit code</th><th>error</th><th>simulated before it stopped</th></tr>\n";
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            if (t.rows[r][state] == "done") continue;
            const std::string log = "points/" + t.rows[r][0] + "/stderr.log";
            const std::string id = fs::exists(d / log)
                                       ? "<a href=\"" + html_escape(log) + "\">" + html_escape(t.rows[r][0]) + "</a>"
                                       : html_escape(t.rows[r][0]);
            h += "<tr data-point=\"" + html_escape(t.rows[r][0]) + "\"><td>" + id + "</td>" + param_cells(t, r, sel.varied) +
                 "<td>" + html_escape(t.rows[r][state]) + "</td><td>" +
                 html_escape(exit_col == SweepTable::npos ? "" : t.rows[r][exit_col]) + "</td><td>" +
                 html_escape(err_col == SweepTable::npos ? "" : t.rows[r][err_col]) + "</td><td>" +
                 (has_partial.count(t.rows[r][0])
                      ? "<a href=\"points/" + html_escape(t.rows[r][0]) + "/run.partial/report.html\">partial report</a>"
                      : std::string()) +
                 "</td></tr>\n";
        }
        h += "</table>\n";
    }

    // The Pareto front, over the done points that have both statistics.
    json jpareto = nullptr;
    if (!opt.pareto.empty()) {
        const auto& [ax, ay] = pareto;
        std::vector<std::pair<double, double>> pts;
        std::vector<std::size_t> rows_of;
        for (const std::size_t r : sel.done) {
            const auto x = number(t.at(r, ax.name)), y = number(t.at(r, ay.name));
            if (x && y) {
                pts.push_back({*x, *y});
                rows_of.push_back(r);
            }
        }
        const std::vector<std::size_t> front = pareto_front(pts, ax.maximise, ay.maximise);
        std::string csv = "point";
        for (const auto& v : sel.varied) csv += "," + csv_field(v);
        csv += "," + csv_field(ax.name) + "," + csv_field(ay.name) + "\n";
        std::string rows_html;
        std::vector<int> rank(pts.size(), -1);
        for (std::size_t k = 0; k < front.size(); ++k) {
            const std::size_t r = rows_of[front[k]];
            rank[front[k]] = static_cast<int>(k);
            csv += t.rows[r][0];
            for (const auto& v : sel.varied) csv += "," + csv_field(t.at(r, v));
            csv += "," + t.at(r, ax.name) + "," + t.at(r, ay.name) + "\n";
            rows_html += "<tr class=\"front\" data-point=\"" + html_escape(t.rows[r][0]) + "\"><td>" +
                         html_escape(t.rows[r][0]) + "</td>" + param_cells(t, r, sel.varied) + "<td class=\"num\">" +
                         html_escape(t.at(r, ax.name)) + "</td><td class=\"num\">" + html_escape(t.at(r, ay.name)) +
                         "</td></tr>\n";
        }
        write_text(d / "pareto.csv", csv);
        json jp = json::array();
        for (std::size_t i = 0; i < pts.size(); ++i) {
            const std::size_t r = rows_of[i];
            std::string label;
            for (const auto& v : sel.varied) label += (label.empty() ? "" : " ") + shown(v, t.at(r, v));
            jp.push_back({{"x", pts[i].first}, {"y", pts[i].second}, {"front", rank[i] >= 0}, {"rank", rank[i]},
                          {"label", label}, {"point", t.rows[r][0]}});
        }
        jpareto = {{"x", ax.name}, {"y", ay.name}, {"points", jp}};
        h += std::string("<h2>Pareto front (") + (ax.maximise ? "max " : "min ") + html_escape(ax.name) + ", " +
             (ay.maximise ? "max " : "min ") + html_escape(ay.name) + ")</h2>\n<p class=\"note\">" +
             std::to_string(front.size()) + " of " + std::to_string(pts.size()) +
             " done points are on the front (red; grey: dominated); also in <a href=\"pareto.csv\">pareto.csv</a>.</p>\n" +
             "<div class=\"chart\" id=\"c-pareto\"></div>\n<table id=\"pareto\">\n<tr><th>point</th>" +
             param_heads(sel.varied) + "<th>" + html_escape(ax.name) + "</th><th>" + html_escape(ay.name) + "</th></tr>\n" +
             rows_html + "</table>\n";
    }

    // Every statistic against each parameter.
    h += "<h2>Statistics against each swept parameter</h2>\n<p class=\"note\" id=\"stat-counts\">" +
         std::to_string(sel.stats.size()) + " statistics vary across the " + std::to_string(sel.done.size()) +
         " done points" + (opt.stats.empty() ? "" : " and match \"" + html_escape(opt.stats) + "\"") + "; constant ones are left out, and so are " +
         std::to_string(sel.partial) +
         " that only some points have (for example the per-router counters of the larger meshes). One line per "
         "combination of the other parameters. The first " +
         std::to_string(kOpenCharts) + " are drawn; unfold the others.</p>\n";
    if (sel.plotted.empty() || sel.stats.empty())
        h += "<p class=\"missing\">No parameter or statistic varies across the done points.</p>\n";
    else
        for (std::size_t i = 0; i < sel.stats.size(); ++i)
            h += std::string("<details id=\"d-stat-") + std::to_string(i) + "\"" + (i < kOpenCharts ? " open" : "") +
                 "><summary>" + html_escape(sel.stats[i]) + "</summary><div class=\"chart\" id=\"c-stat-" +
                 std::to_string(i) + "\"></div></details>\n";

    // The points, linking their reports; a few statistics with the path they come from.
    std::vector<std::string> shown_stats;
    if (t.col("sim_time_ns") != SweepTable::npos) shown_stats.push_back("sim_time_ns");
    for (const auto& s : sel.stats)
        if (shown_stats.size() < kTableStats && s != "sim_time_ns" && s != "wall_s") shown_stats.push_back(s);
    h += "<h2>Points</h2>\n<table id=\"points\">\n<tr><th>point</th>" + param_heads(sel.varied) + "<th>state</th>" +
         param_heads(shown_stats) + "</tr>\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const std::string& id = t.rows[r][0];
        h += "<tr><td>" +
             (has_report.count(id) ? "<a href=\"points/" + html_escape(id) + "/run/report.html\">" + html_escape(id) + "</a>"
                                   : html_escape(id)) +
             "</td>" + param_cells(t, r, sel.varied) + "<td>" + html_escape(t.rows[r][state]) + "</td>";
        for (const auto& s : shown_stats) {
            const std::string& v = t.at(r, s);
            h += number(v) ? "<td class=\"num\" data-point=\"" + html_escape(id) + "\" data-stat=\"" + html_escape(s) +
                                 "\" data-value=\"" + html_escape(v) + "\">" + html_escape(v) + "</td>"
                           : "<td class=\"num\">" + html_escape(v) + "</td>";
        }
        h += "</tr>\n";
    }
    h += "</table>\n";

    // The charts' data: done rows with parameters p<j>, series labels c<j> (the other plotted
    // parameters) and statistics s<i>; short keys keep dotted names out of Vega-Lite field paths.
    json jparams = json::array();
    for (const auto& p : sel.plotted) jparams.push_back(axis_of(t, sel.done, p));
    json jrows = json::array();
    for (const std::size_t r : sel.done) {
        json o = {{"point", t.rows[r][0]}};
        for (std::size_t j = 0; j < sel.plotted.size(); ++j) {
            const std::string& p = sel.plotted[j];
            o["p" + std::to_string(j)] = jparams[j]["type"] == "quantitative" ? value_json(shown(p, t.at(r, p)))
                                                                                : json(shown(p, t.at(r, p)));
            std::string series;
            for (const auto& q : sel.plotted)
                if (q != p) series += (series.empty() ? "" : ", ") + short_key(q) + "=" + shown(q, t.at(r, q));
            o["c" + std::to_string(j)] = series;
        }
        for (std::size_t i = 0; i < sel.stats.size(); ++i)
            if (const auto v = number(t.at(r, sel.stats[i]))) o["s" + std::to_string(i)] = *v;
        jrows.push_back(o);
    }
    const json data = {{"params", jparams}, {"stats", sel.stats}, {"rows", jrows}, {"pareto", jpareto}};
    write_text(d / "report.html",
               render_page("sweep_template", "cnn-vp sweep " + folder_name(d), h, data));
    std::cerr << "vp-report: " << (d / "report.html").string() << " (" << sel.stats.size() << " statistics x "
              << sel.plotted.size() << " parameters, " << has_report.size() << " point reports"
              << (opt.pareto.empty() ? "" : ", pareto.csv") << ")\n";
}

}  // namespace vp::report
