#pragma once
// Simulation in the loop for the TSO mapper (nmp): for every distinct conv shape, the K best
// candidates of the estimate (ConvMapping::ranked) are simulated each on its own (a
// single-layer workload forced to that choice with tso.fixed_*), and the fastest in
// simulation becomes the mapping of every layer of that shape.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/tso/tso.h"
#include "platform/config/platform_spec.h"
#include "platform/workload/workload.h"

namespace vp::refine {

struct TsoRefinement {
    int k = 0;
    std::vector<nlohmann::json> per_conv;     // per conv of the mapping: candidates and pick
    std::vector<double> cand_est, cand_sim;   // every simulated candidate [cycles]
    std::vector<double> pick_est, pick_sim;   // per conv: the pick's estimate and simulation
};

// The candidate count must be >= k for every shape (vp::InputError naming the layer).
TsoRefinement refine_tso(mapper::tso::TsoResult& map, const workload::Workload& wl, const config::PlatformSpec& spec,
                         const std::string& vp_run);

// The --set overrides that force one TSO choice.
std::vector<std::string> tso_choice_sets(const mapper::tso::ChoiceCost& c);

}  // namespace vp::refine
