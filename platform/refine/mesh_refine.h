#pragma once
// Simulation in the loop for the mesh mapper: for every distinct layer shape, the K best
// (T, k) candidates of the estimate (LayerMapping::ranked, best first, so the unrefined pick
// is candidate 0) are simulated each on its own (a single-layer workload forced to that choice
// with mapper.fixed_slices), and the fastest in simulation becomes the mapping of every layer
// of that shape (ties keep the better estimate).
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
};

// The candidate count must be >= k for every mapped shape (vp::InputError naming the layer).
MeshRefinement refine_mesh(mapper::waving::NetworkMapping& map, const workload::Workload& wl,
                           const config::PlatformSpec& spec, const std::string& vp_run);

// The --set override that forces one (T, k).
std::string mesh_choice_set(const mapper::waving::SliceChoice& c);

}  // namespace vp::refine
