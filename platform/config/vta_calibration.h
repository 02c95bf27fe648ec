#pragma once
// Calibration files of the VTA compiler's "calibrated" estimate (written by vp-calibrate on a
// vta configuration, included with vta_compiler.calibration: FILE). Same layout as the TSO
// files (calibration.h): the platform, the resolved dram and vta sections it was fitted for
// (made_for) and the coefficients; a configuration that differs in any of those keys cannot use
// it (vp::InputError naming the key and both values).
//
//   platform: vta
//   model: calibrated
//   made_for: {dram: {...}, vta: {...}}
//   coefficients: {latency_scale: ..., bus_scale: ..., txn_cycles: ..., insn_cycles: ...}
//   fit: {...}          # vp-calibrate's residuals (informative only)
#include <string>

#include <yaml-cpp/yaml.h>

#include "mapper/vta/pipeline_estimate.h"
#include "platform/config/platform_spec.h"

namespace vp::config {

mapper::vta::VtaCoefficients load_vta_calibration(const std::string& path, const PlatformSpec& spec);
std::string vta_calibration_yaml(const PlatformSpec& spec, const mapper::vta::VtaCoefficients& c, const YAML::Node& fit);

}  // namespace vp::config
