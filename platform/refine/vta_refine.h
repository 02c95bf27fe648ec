#pragma once
// Simulation in the loop for the VTA compiler: for every distinct conv / fc layer shape, the K
// best partitioning strategies (1-4) of the estimate (mapper/vta/strategy_candidates.h) are
// simulated, each as its own single-layer vp-run forced with vta_compiler.strategy, and the
// fastest in simulation becomes the strategy of every layer of that shape
// (DriverOptions::layer_strategy).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/vta/net_graph.h"
#include "mapper/vta/network_driver.h"
#include "platform/config/platform_spec.h"

namespace vp::refine {

struct VtaRefinement {
    static constexpr int kMaxCandidates = 4;  // strategies 1-4
    int k = 0;
    std::vector<nlohmann::json> per_layer;   // per layer: candidates and pick (null: no choice)
    std::vector<int> strategy;               // per layer: the picked strategy (0: no choice)
    std::vector<double> cand_est, cand_sim;  // every simulated candidate [cycles]
};

// The compiler options a vta configuration resolves to: vta_compiler, the seed, and the estimate
// (model by name, hardware figures of the simulated core and DRAM, coefficients).
mapper::vta::DriverOptions vta_driver_options(const config::PlatformSpec& spec);

// K < 1 or K > 4 is vp::InputError. A shape with fewer distinct candidates than K simulates
// the ones it has (one: nothing to simulate).
VtaRefinement refine_vta(const mapper::vta::NetGraph& g, const mapper::vta::DriverOptions& opt,
                         const config::PlatformSpec& spec, const std::string& vp_run);

}  // namespace vp::refine
