#pragma once
// Calibration files of the VTA compiler's "calibrated" estimate (written by vp-calibrate on a
// vta configuration, included with vta_compiler.calibration: FILE). Same layout as the TSO
// files (calibration.h): the platform, the resolved dram and vta sections it was fitted for
// (made_for) and the coefficients; a configuration for another platform or DRAM preset cannot use
// it (vp::InputError naming the key and both values), one that differs in another key gets a warning.
//
//   platform: vta
//   model: calibrated
//   made_for: {dram: {...}, vta: {...}}
//   coefficients: {latency_scale: ..., bus_scale: ..., txn_cycles: ..., insn_cycles: ...}
//   fit: {...}          # vp-calibrate's residuals (informative only)
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "mapper/vta/pipeline_estimate.h"
#include "platform/config/platform_spec.h"

namespace vp::config {

// Warnings (one line each, without a prefix) are appended to `warnings` when given.
mapper::vta::VtaCoefficients load_vta_calibration(const std::string& path, const PlatformSpec& spec,
                                                  std::vector<std::string>* warnings = nullptr);
std::string vta_calibration_yaml(const PlatformSpec& spec, const mapper::vta::VtaCoefficients& c, const YAML::Node& fit);

}  // namespace vp::config
