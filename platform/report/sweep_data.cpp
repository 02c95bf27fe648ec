#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <regex>
#include <set>

#include "mapper/common/errors.h"
#include "platform/report/report.h"
#include "platform/report/sweep.h"

namespace vp::report {

namespace fs = std::filesystem;

namespace {

// Columns of sweep.csv that describe a point rather than measure it.
const std::set<std::string> kNotStats = {"config_hash", "seed", "platform", "workload"};

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    std::iota(prev.begin(), prev.end(), 0);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace

std::size_t SweepTable::col(const std::string& name) const {
    const auto it = std::find(head.begin(), head.end(), name);
    return it == head.end() ? npos : static_cast<std::size_t>(it - head.begin());
}

const std::string& SweepTable::at(std::size_t row, const std::string& name) const {
    static const std::string empty;
    const std::size_t c = col(name);
    return c == npos ? empty : rows[row][c];
}

SweepTable read_sweep_table(const std::string& dir) {
    SweepTable t;
    t.path = (fs::path(dir) / "sweep.csv").string();
    std::ifstream in(t.path);
    if (!in) throw InputError(t.path + ": cannot read it (run vp-sweep first)");
    std::string line;
    if (!std::getline(in, line)) throw InputError(t.path + ": empty file, expected a header line");
    t.head = split_csv(line);
    const std::size_t state = t.col("state");
    if (t.head.empty() || t.head[0] != "point" || state == SweepTable::npos)
        throw InputError(t.path + ": line 1: not a vp-sweep sweep.csv (expected the columns point, ..., state)");
    t.params.assign(t.head.begin() + 1, t.head.begin() + static_cast<std::ptrdiff_t>(state));
    t.first_stat = state + 1;
    // exit_code and error describe the run; wall_s (the run's wall time) is charted with the statistics.
    while (t.first_stat < t.head.size() && (t.head[t.first_stat] == "exit_code" || t.head[t.first_stat] == "error"))
        ++t.first_stat;
    std::size_t ln = 1;
    while (std::getline(in, line)) {
        ++ln;
        if (line.empty() || line == "\r") continue;
        auto f = split_csv(line);
        if (f.size() != t.head.size())
            throw InputError(t.path + ": line " + std::to_string(ln) + ": " + std::to_string(f.size()) +
                             " fields, the header has " + std::to_string(t.head.size()));
        t.rows.push_back(std::move(f));
    }
    // vp-sweep writes one row per point of points.csv, and a sweep has at least one point: a header
    // alone is a damaged or hand-made file, not an empty report.
    if (t.rows.empty())
        throw InputError(t.path + ": no points (a header line and no row; vp-sweep writes one row per point: run it "
                         "again, or `vp-sweep merge DIR` to rewrite sweep.csv)");
    return t;
}

std::optional<double> number(const std::string& s) {
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::vector<std::size_t> pareto_front(const std::vector<std::pair<double, double>>& pts, bool max_x, bool max_y) {
    const double sx = max_x ? -1.0 : 1.0, sy = max_y ? -1.0 : 1.0;
    std::vector<std::size_t> order(pts.size());
    std::iota(order.begin(), order.end(), 0);
    auto key = [&](std::size_t i) { return std::make_pair(sx * pts[i].first, sy * pts[i].second); };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    // In (x, y) order, a point is on the front when its y beats every y before it; a point equal
    // to the last one kept is not dominated by it either.
    std::vector<std::size_t> front;
    for (const std::size_t i : order)
        if (front.empty() || key(i).second < key(front.back()).second || key(i) == key(front.back())) front.push_back(i);
    return front;
}

std::pair<ParetoAxis, ParetoAxis> parse_pareto(const std::string& spec, const SweepTable& t) {
    const auto parts = split_csv(spec);
    if (parts.size() != 2)
        throw InputError("--pareto \"" + spec + "\": expected two statistics X,Y (max:NAME to maximise one)");
    ParetoAxis ax[2];
    for (int i = 0; i < 2; ++i) {
        std::string n = parts[static_cast<std::size_t>(i)];
        n.erase(0, n.find_first_not_of(' '));
        n.erase(n.find_last_not_of(' ') + 1);
        if (n.rfind("max:", 0) == 0) {
            ax[i].maximise = true;
            n = n.substr(4);
        }
        if (t.col(n) == SweepTable::npos || t.col(n) < t.first_stat) {
            std::vector<std::pair<std::size_t, std::string>> near;
            for (std::size_t c = t.first_stat; c < t.head.size(); ++c) near.push_back({edit_distance(n, t.head[c]), t.head[c]});
            std::sort(near.begin(), near.end());
            std::string hint;
            for (std::size_t k = 0; k < near.size() && k < 3 && near[k].first <= std::max<std::size_t>(3, n.size() / 3); ++k)
                hint += (hint.empty() ? " (did you mean " : ", ") + near[k].second;
            throw InputError("--pareto: " + t.path + " has no statistic \"" + n + "\"" + (hint.empty() ? "" : hint + "?)"));
        }
        ax[i].name = n;
    }
    return {ax[0], ax[1]};
}

SweepSelection select_sweep(const SweepTable& t, const std::string& stats_regex) {
    SweepSelection s;
    const std::size_t state = t.col("state");
    for (std::size_t r = 0; r < t.rows.size(); ++r)
        if (t.rows[r][state] == "done") s.done.push_back(r);
    for (std::size_t c = 1; c < state; ++c) {
        std::set<std::string> all, done;
        for (std::size_t r = 0; r < t.rows.size(); ++r) all.insert(t.rows[r][c]);
        for (const std::size_t r : s.done) done.insert(t.rows[r][c]);
        if (all.size() > 1) s.varied.push_back(t.head[c]);
        if (done.size() > 1) s.plotted.push_back(t.head[c]);
    }
    std::regex rx;
    try {
        if (!stats_regex.empty()) rx = std::regex(stats_regex, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        throw InputError("--stats \"" + stats_regex + "\": not a regular expression: " + e.what());
    }
    for (std::size_t c = t.first_stat; c < t.head.size(); ++c) {
        const std::string& n = t.head[c];
        if (kNotStats.count(n) || (!stats_regex.empty() && !std::regex_search(n, rx))) continue;
        std::set<double> vals;
        std::size_t have = 0;
        for (const std::size_t r : s.done)
            if (const auto v = number(t.rows[r][c])) {
                vals.insert(*v);
                ++have;
            }
        if (!s.done.empty() && have == s.done.size() && vals.size() > 1) s.stats.push_back(n);
        else if (have > 0 && have < s.done.size()) ++s.partial;
    }
    // The wall time depends on the machine: after the simulated figures.
    const auto wall = std::find(s.stats.begin(), s.stats.end(), "wall_s");
    if (wall != s.stats.end()) std::rotate(wall, wall + 1, s.stats.end());
    return s;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace vp::report
