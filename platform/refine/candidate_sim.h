#pragma once
// Simulation of mapping candidates on their own, shared by every mapper's refinement and by
// vp-calibrate: a candidate is a single-layer workload plus the --set overrides that force
// the mapper's choice (nmp: tso.fixed_slicing/schedule/tile; mesh: the (T, k) of a layer;
// vta: vta_compiler.strategy). Each runs as `vp-run CONFIG LAYER.json --set ...` in a child
// process, CONFIG being the parent's resolved configuration, and reports one statistic.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/config/platform_spec.h"

namespace vp::refine {

struct CandidateJob {
    nlohmann::json workload;         // the single-layer workload document
    std::vector<std::string> sets;   // key=value overrides that force the candidate
};

struct CandidateResult {
    bool ok = false;
    double value = 0;     // the statistic (e.g. nmp.cycles)
    std::vector<double> extras;  // SimSetup::extra_stats, in that order
    std::string error;    // the child's last error line when !ok
};

struct SimSetup {
    std::string vp_run;        // program
    std::string stat_path;     // dotted path in stats.json's "stats", e.g. "nmp.cycles"
    std::vector<std::string> extra_stats;  // more statistics read from every job (e.g. per layer)
    unsigned parallel = 1;     // child processes at a time
    std::string tag = "refine";
};

// The parent configuration is written once (resolved, mapper.refine = 0 so children do not
// refine again); every job gets its own output folder; all is removed afterwards.
std::vector<CandidateResult> simulate_candidates(const config::PlatformSpec& spec, const SimSetup& setup,
                                                 const std::vector<CandidateJob>& jobs);

// A workload document with only layer `index` of `doc` (same precision, name + suffix), one
// sample (no batch), the layer without producers (it reads the network input).
nlohmann::json single_layer_workload(const nlohmann::json& doc, std::size_t index);

}  // namespace vp::refine
