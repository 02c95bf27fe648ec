#pragma once
// Near ties: a mapper's pick and its runner-up estimated this close (relative) are below what
// the time models resolve (docs/mesh.md, "Outputs": refits of the mesh model flip such picks,
// which then simulate 5-11 % apart). The mesh mapper records the runner-up, and its reports name
// the layers picked among near ties, where simulation in the loop (--refine K) decides. (TSO's
// shortlist holds several choices of the same estimate in nearly every layer, so a report there
// would name every layer; it has none.)
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace vp::mapper {

constexpr double kNearTieReport = 0.005;

inline bool near_tie(double pick, double runner_up) {
    return pick > 0 && runner_up > 0 && std::abs(runner_up / pick - 1.0) <= kNearTieReport;
}

// One line (ending in a newline) naming the tied layers (the first four), or "" when none.
inline std::string near_tie_text(const std::vector<std::string>& tied, std::size_t layers) {
    if (tied.empty()) return "";
    std::string names;
    for (std::size_t i = 0; i < tied.size() && i < 4; ++i) names += (i ? ", " : "") + tied[i];
    if (tied.size() > 4) names += ", ...";
    char buf[160];
    std::snprintf(buf, sizeof buf, "a runner-up estimated within %.1f %% of the pick in %zu of %zu layers (",
                  100 * kNearTieReport, tied.size(), layers);
    return buf + names + "); the model cannot order such choices, --refine K simulates the K best\n";
}

}  // namespace vp::mapper
