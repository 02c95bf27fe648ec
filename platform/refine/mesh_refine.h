#pragma once
// Simulation in the loop for the mesh mapper: for every distinct layer shape, the K best
// (T, k) candidates of the estimate (LayerMapping::ranked, best first, so the unrefined pick
// is candidate 0) are simulated each on its own (a single-layer workload forced to that choice
// with mapper.fixed_slices), and the fastest in simulation becomes the mapping of every layer
// of that shape (ties keep the better estimate). Then, as for the NMP (tso_refine.h), the refined
// and the unrefined mappings are simulated as whole networks with every layer's cycles; changed
// layers that are slower in the network are reverted to their unrefined choice until none is
// (at most kMeshNetworkRounds refined whole-network simulations), and the refined mapping is kept
// only when the whole network is not slower (per layer "used" = "pick", or 0 when reverted or
// not kept).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/waving/layer_mapping.h"
#include "platform/config/platform_spec.h"
#include "platform/workload/workload.h"

namespace vp::refine {

// The mesh mapper's options from the configuration (model, calibration, fixed choice, K).
mapper::waving::MapperOptions mesh_mapper_options(const config::PlatformSpec& spec);

struct MeshRefinement {
    int k = 0;
    std::vector<nlohmann::json> per_layer;    // per layer of the mapping: candidates and pick (null if unmapped)
    std::vector<double> cand_est, cand_sim;   // every simulated candidate [core cycles]
    // Whole-network check: refined_cycles, unrefined_cycles, kept ("refined" | "unrefined"), rounds.
    nlohmann::json network;
};

// Refined whole-network simulations at most (bound of the revert rounds' fixed point).
constexpr int kMeshNetworkRounds = 6;

// A shape with fewer than k candidates has all of them simulated, a k beyond every shape's count
// is vp::InputError naming the largest; a network without mapped layers is returned unrefined
// (network null).
MeshRefinement refine_mesh(mapper::waving::NetworkMapping& map, const workload::Workload& wl,
                           const config::PlatformSpec& spec, const std::string& vp_run);

// The --set override that forces one (T, k).
std::string mesh_choice_set(const mapper::waving::SliceChoice& c);

// The child workload of the whole-network runs: the layers renamed l<j> (j = index in the
// document; names with dots would not survive a statistic path), producers dropped. The name
// network layer i takes in it (batch copies get @b<n>, as mapper::expand_batch names them).
nlohmann::json network_child_workload(const nlohmann::json& doc);
std::string network_child_layer_name(std::size_t layer, std::size_t doc_layers);

}  // namespace vp::refine
