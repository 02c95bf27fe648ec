#pragma once
// vp-calibrate for the mesh platform: fits the free coefficients of the mesh time
// models (mapper/waving/mesh_time_model.h) to single-layer mesh simulations. The design is a
// set of synthetic conv and fc shapes spread over channels, map size, kernel and stride, each
// with up to five (T, k) choices spread over the core counts (the estimate's best, the best
// on one core, the best on the most cores, a middle-ranked one, one on 6-12 cores), and every
// second shape with up to two choices of more than 8 cores on an 8x8 mesh (when the config's
// mesh is smaller); every sample runs as its own child vp-run (mapper.fixed_slices). Least
// squares on est/sim - 1; prints the residuals (also by mesh and core count); writes the
// calibration file (mesh_calibration.h).
#include <cstdint>
#include <string>

#include "platform/config/platform_spec.h"

namespace vp::refine {

struct MeshCalibrateOptions {
    std::string out = "calibration.yaml";
    int shapes = 40;
    std::uint64_t seed = 1;
    unsigned jobs = 1;
    std::string refit;  // an earlier calibration file (same seed): reuse its simulated cycles, simulate
                        // only the samples it lacks, fit again
    std::string row_conflicts;  // if set: a CSV of every sample's predicted DRAM row conflicts
                                // (wv::lockstep_row_conflicts), written before the fits
};

// Returns the exit code; throws InputError / SimulationError like vp-calibrate.
int mesh_calibrate(const config::PlatformSpec& spec, const MeshCalibrateOptions& o);

}  // namespace vp::refine
