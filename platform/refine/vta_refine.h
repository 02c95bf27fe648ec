#pragma once
// Simulation in the loop for the VTA compiler: for every distinct conv / fc layer shape, the K
// best candidates of the estimate (mapper/vta/strategy_candidates.h: the direct lowering and the
// im2row lowering with partitioning strategies 1-4) are simulated, each as its own single-layer
// vp-run forced with vta_compiler.conv_lowering / vta_compiler.strategy, and the fastest in
// simulation becomes the lowering and strategy of every layer of that shape
// (DriverOptions::layer_lowering, DriverOptions::layer_strategy).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/vta/net_graph.h"
#include "mapper/vta/network_driver.h"
#include "platform/config/platform_spec.h"

namespace vp::refine {

struct VtaRefinement {
    static constexpr int kMaxCandidates = 5;  // direct, im2row with strategies 1-4
    int k = 0;
    std::vector<nlohmann::json> per_layer;   // per layer: candidates and pick (null: no choice)
    std::vector<int> strategy;               // per layer: the picked im2row strategy (0: no choice or direct)
    std::vector<mapper::vta::DriverOptions::ConvLowering> lowering;  // per layer: the pick's lowering (Auto: no choice)
    std::vector<double> cand_est, cand_sim;  // every simulated candidate [cycles]
};

// The compiler options a vta configuration resolves to: vta_compiler, the seed, and the estimate
// (model by name, hardware figures of the simulated core and DRAM, coefficients).
mapper::vta::DriverOptions vta_driver_options(const config::PlatformSpec& spec);

// The most candidates a layer can have under `opt` (4 with conv_lowering im2row, else 5).
int vta_max_candidates(const mapper::vta::DriverOptions& opt);

// Throws vp::InputError for K < 1 or K > vta_max_candidates(opt) (mapper.refine, --refine).
void check_vta_refine_k(int k, const mapper::vta::DriverOptions& opt);

// K is checked by check_vta_refine_k. A shape with fewer distinct candidates than K simulates
// the ones it has (one: nothing to simulate).
VtaRefinement refine_vta(const mapper::vta::NetGraph& g, const mapper::vta::DriverOptions& opt,
                         const config::PlatformSpec& spec, const std::string& vp_run);

}  // namespace vp::refine
