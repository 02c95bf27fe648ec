#pragma once
// Simulation in the loop for the TSO mapper (nmp): in network order, the K best candidates of
// every conv/fc layer (ConvMapping::ranked; ranked[0] is the pick without refinement) are
// simulated each in a child run of two layers, the predecessor with its refined pick and the
// candidate (tso.fixed_layers), measuring the candidate layer only; the fastest becomes the
// layer's mapping. Equal contexts (predecessor shape and pick, layer shape) are simulated once.
// Last, the refined and the unrefined mappings are simulated in full with every layer's cycles;
// changed layers that are slower in the network are reverted to the unrefined choice until none
// is (bounded number of whole-network simulations), and the refined mapping is kept only when
// the network is not slower (per conv "used" is then "pick", or 0 when reverted or not kept).
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
    std::vector<double> pick_est, pick_sim;   // per conv: the used choice's estimate and simulation (in context)
    // Whole-network check: refined_cycles, unrefined_cycles, kept ("refined" | "unrefined").
    nlohmann::json network;
};

// A layer with fewer than k candidates has all of them simulated, a k beyond every layer's count
// is vp::InputError naming the largest; a network without conv/fc layers is returned unrefined
// (network null).
TsoRefinement refine_tso(mapper::tso::TsoResult& map, const workload::Workload& wl, const config::PlatformSpec& spec,
                         const std::string& vp_run);

// The --set overrides that force one TSO choice.
std::vector<std::string> tso_choice_sets(const mapper::tso::ChoiceCost& c);

}  // namespace vp::refine
