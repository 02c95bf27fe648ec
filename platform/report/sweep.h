#pragma once
// The data of a sweep report, read from a vp-sweep folder's sweep.csv (docs/sweeps.md): one row
// per point with `point`, the parameter columns, `state`, `exit_code`, `error`, `wall_s`, then
// the points' statistics. Pure logic (no page, no kernel), so that it is unit-tested.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vp::report {

struct SweepTable {
    std::string path;  // DIR/sweep.csv, for messages
    std::vector<std::string> head;
    std::vector<std::vector<std::string>> rows;  // every row has head.size() fields
    std::vector<std::string> params;             // the columns between `point` and `state`
    std::size_t first_stat = 0;                  // column of the first statistic (wall_s)

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    std::size_t col(const std::string& name) const;  // npos when missing
    const std::string& at(std::size_t row, const std::string& name) const;
};

// Reads DIR/sweep.csv. Throws vp::InputError naming the file (and line) when it is missing or is
// not a vp-sweep sweep.csv.
SweepTable read_sweep_table(const std::string& dir);

// A finite number, or nothing ("", "nan", "12ab").
std::optional<double> number(const std::string& s);

// Indices of the points that no other point dominates (at least as good in both coordinates and
// better in one; smaller is better unless max_x / max_y), ordered by x then y. Points equal to a
// point of the front are on it too. Sort and scan, O(n log n).
std::vector<std::size_t> pareto_front(const std::vector<std::pair<double, double>>& pts, bool max_x, bool max_y);

// One coordinate of --pareto: "NAME" (minimised) or "max:NAME".
struct ParetoAxis {
    std::string name;
    bool maximise = false;
};
// Parses "X,Y" against the columns of the table. Throws vp::InputError (unknown column with the
// closest names, not two names).
std::pair<ParetoAxis, ParetoAxis> parse_pareto(const std::string& spec, const SweepTable& t);

// What the report plots: the statistics (numeric in every done point, varying, matching the
// filter) and the parameters that vary across the done points.
struct SweepSelection {
    std::vector<std::size_t> done;        // rows whose state is "done"
    std::vector<std::string> varied;      // parameters with more than one value over all rows
    std::vector<std::string> plotted;     // ... and over the done rows: the x axes
    std::vector<std::string> stats;       // the charted statistics, in sweep.csv order
    std::size_t partial = 0;              // statistics only some done points have
};
// stats_regex: ECMAScript regular expression searched in each name ("" = all). Throws
// vp::InputError for a bad expression.
SweepSelection select_sweep(const SweepTable& t, const std::string& stats_regex);

// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& s);

}  // namespace vp::report
