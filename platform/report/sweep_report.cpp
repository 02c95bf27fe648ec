// The report of a sweep folder: any folder with sweep.csv (one row per point: its parameters,
// its status and its statistics) and one folder per point holding a vp-run output. Read
// generically: parameter columns are the varying columns that are not statistics of a point
// (stats.csv header) nor bookkeeping; metrics are the varying numeric statistics.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "mapper/common/errors.h"
#include "platform/report/report.h"

namespace vp::report {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool is_number(const std::string& s, double& v) {
    if (s.empty()) return false;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return end && *end == 0 && std::isfinite(v);
}

void find_points(const fs::path& d, int depth, std::vector<fs::path>& out) {
    if (depth > 2) return;
    std::vector<fs::path> subs;
    for (const auto& e : fs::directory_iterator(d))
        if (e.is_directory()) subs.push_back(e.path());
    std::sort(subs.begin(), subs.end());
    for (const auto& s : subs) {
        if (fs::exists(s / "stats.json")) out.push_back(s);
        else find_points(s, depth + 1, out);
    }
}

}  // namespace

void write_sweep_report(const std::string& dir) {
    const fs::path d(dir);
    std::ifstream in(d / "sweep.csv");
    if (!in) throw InputError(dir + ": no sweep.csv");
    std::string line;
    if (!std::getline(in, line)) throw InputError((d / "sweep.csv").string() + ": empty");
    const std::vector<std::string> head = split_csv(line);
    std::vector<std::vector<std::string>> rows;
    std::size_t ln = 1;
    while (std::getline(in, line)) {
        ++ln;
        if (line.empty()) continue;
        auto f = split_csv(line);
        if (f.size() != head.size())
            throw InputError((d / "sweep.csv").string() + ": line " + std::to_string(ln) + ": " + std::to_string(f.size()) +
                             " fields, the header has " + std::to_string(head.size()));
        rows.push_back(std::move(f));
    }

    // Point folders: their own reports, and the names of the statistics columns.
    std::vector<fs::path> points;
    find_points(d, 0, points);
    std::set<std::string> stat_cols;
    std::map<std::string, std::string> folder_of;  // folder name -> path relative to dir
    std::size_t reports = 0;
    // A row names its point by a folder name on the way to the point's output (points/0007/run):
    // names shared by several points ("points", "run") identify none.
    std::map<std::string, int> name_uses;
    for (const auto& p : points)
        for (fs::path a = p; a != d && a.has_filename(); a = a.parent_path()) {
            ++name_uses[a.filename().string()];
            folder_of[a.filename().string()] = fs::relative(p, d).string();
        }
    for (const auto& [n, uses] : name_uses)
        if (uses > 1) folder_of.erase(n);
    for (const auto& p : points) {
        try {
            write_report(p.string());
            ++reports;
        } catch (const std::exception& e) {
            std::cerr << "vp-report: warning: " << p.string() << ": " << e.what() << "\n";
        }
        if (stat_cols.empty()) {
            std::ifstream sc(p / "stats.csv");
            std::string h;
            if (std::getline(sc, h))
                for (const auto& c : split_csv(h)) stat_cols.insert(c);
        }
    }
    static const std::set<std::string> kBook = {"point", "id", "hash", "dir", "folder", "exit", "exit_code", "status",
                                                "error", "message", "seconds", "wall_s"};
    std::vector<std::string> params, metrics, numeric_params;
    for (std::size_t c = 0; c < head.size(); ++c) {
        std::set<std::string> vals;
        bool numeric = true;
        for (const auto& r : rows) {
            if (r[c].empty()) continue;
            vals.insert(r[c]);
            double v;
            numeric = numeric && is_number(r[c], v);
        }
        if (vals.size() < 2) continue;
        const std::string& name = head[c];
        if (stat_cols.count(name)) {
            if (numeric && name.find('[') == std::string::npos && metrics.size() < 80) metrics.push_back(name);
        } else if (!kBook.count(name) && vals.size() < rows.size() + 1) {
            // A parameter takes few values compared with the points, or names a setting.
            bool folder_name = false;
            for (const auto& v : vals) folder_name = folder_name || folder_of.count(v);
            if (folder_name) continue;
            params.push_back(name);
            if (numeric) numeric_params.push_back(name);
        }
    }
    auto sim_first = std::find(metrics.begin(), metrics.end(), "sim_time_ns");
    if (sim_first != metrics.end()) std::rotate(metrics.begin(), sim_first, sim_first + 1);

    json jrows = json::array();
    std::string table = "<table>\n<tr>";
    for (const auto& p : params) table += "<th>" + html_escape(p) + "</th>";
    const std::vector<std::string> shown(metrics.begin(), metrics.begin() + std::min<std::size_t>(metrics.size(), 4));
    for (const auto& m : shown) table += "<th>" + html_escape(m) + "</th>";
    table += "<th>report</th></tr>\n";
    std::map<std::string, std::size_t> col;
    for (std::size_t c = 0; c < head.size(); ++c) col[head[c]] = c;
    for (const auto& r : rows) {
        json o = json::object();
        for (const auto& p : params) {
            double v;
            if (is_number(r[col[p]], v)) o[p] = v;
            else o[p] = r[col[p]];
        }
        for (const auto& m : metrics) {
            double v;
            if (is_number(r[col[m]], v)) o[m] = v;
        }
        jrows.push_back(o);
        table += "<tr>";
        for (const auto& p : params) table += "<td>" + html_escape(r[col[p]]) + "</td>";
        for (const auto& m : shown) table += "<td class=\"num\">" + html_escape(r[col[m]]) + "</td>";
        std::string link;
        for (const auto& cell : r)
            if (folder_of.count(cell)) link = folder_of[cell];
        table += "<td>" + (link.empty() ? std::string("&ndash;")
                                        : "<a href=\"" + html_escape(link) + "/report.html\">" + html_escape(link) + "</a>") +
                 "</td></tr>\n";
    }
    table += "</table>\n";

    std::string h = "<h1>Sweep: " + html_escape(d.filename().string()) + "</h1>\n";
    h += "<p class=\"note\">" + std::to_string(rows.size()) + " points in sweep.csv, " + std::to_string(points.size()) +
         " point folders (" + std::to_string(reports) + " reports written) &middot; parameters: " +
         html_escape([&] {
             std::string s;
             for (const auto& p : params) s += (s.empty() ? "" : ", ") + p;
             return s.empty() ? std::string("none found") : s;
         }()) +
         "</p>\n";
    h += "<h2>Statistics against each parameter</h2>\n<p class=\"note\">Pick the statistic below each chart.</p>\n";
    for (std::size_t i = 0; i < params.size(); ++i) h += "<div class=\"chart\" id=\"c-param-" + std::to_string(i) + "\"></div>\n";
    if (params.empty() || metrics.empty())
        h += "<p class=\"missing\">No parameter or statistic varies across the points.</p>\n";
    h += "<h2>Points</h2>\n" + table;
    const json data = {{"rows", jrows}, {"params", params}, {"numeric_params", numeric_params}, {"metrics", metrics}};
    const std::string page = render_page("sweep_template", "cnn-vp sweep " + d.filename().string(), h, data);
    std::ofstream out(d / "report.html", std::ios::binary);
    out << page;
    if (!out) throw std::runtime_error("cannot write " + (d / "report.html").string());
}

}  // namespace vp::report
