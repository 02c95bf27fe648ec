#pragma once
// vp-calibrate on a vta configuration: fits the coefficients of the VTA compiler's calibrated
// estimate (mapper/vta/pipeline_estimate.h) to single-layer simulations of a designed set of
// synthetic layers (conv of every strategy that gives distinct programs, depthwise conv, fc,
// max pooling, eltwise add), each run as its own child vp-run; prints the residuals and writes
// the calibration file (platform/config/vta_calibration.h).
#include <cstdint>
#include <string>

#include "platform/config/platform_spec.h"

namespace vp::refine {

// Returns the exit code (0). Throws vp::InputError / vp::SimulationError like vp-calibrate.
int calibrate_vta(const config::PlatformSpec& spec, const std::string& out, int n_shapes, std::uint64_t seed,
                  unsigned jobs);

}  // namespace vp::refine
