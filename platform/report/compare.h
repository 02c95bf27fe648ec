#pragma once
// vp-report --compare BASE OTHER: what changed between two run folders, from their files alone
// (config.yaml, stats.json, layers.json): the configuration keys that differ, the statistics that
// differ (largest relative change first) and the layers whose time changed, as a text summary and,
// on request, every statistic and layer as one CSV.
#include <iosfwd>
#include <string>

namespace vp::report {

struct CompareOptions {
    std::string stats;  // ECMAScript regex: the statistics listed ("" = the module totals, no [i] instances)
    std::string csv;    // write every configuration key, statistic and layer to this file ("" = none)
    int top = 20;       // rows per table of the text summary
};

// Throws vp::InputError when a folder is not a run folder or a file is damaged (naming it), or
// when the regex or the CSV path is unusable. The CSV is written to a temporary file next to it and
// renamed when complete.
void compare_runs(const std::string& base, const std::string& other, const CompareOptions& opt, std::ostream& out);

}  // namespace vp::report
