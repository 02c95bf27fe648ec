#pragma once
// Calibration files of the TSO time model (written by vp-calibrate, included by a config
// with tso.calibration: FILE). A file records the platform and the resolved dram and nmp
// sections it was fitted for (made_for) and the fitted coefficients. A configuration for
// another platform or DRAM cannot use it (vp::InputError naming the key and both values); one
// whose nmp section differs gets a warning (the coefficients are corrections of the physics,
// which the model still takes from the configuration) and the coefficients.
//
//   platform: nmp
//   model: calibrated
//   made_for: {dram: {...}, nmp: {...}}
//   coefficients: {latency_scale: ..., bus_scale: ..., contention: ..., txn_ns: ..., compute_scale: ...}
//   fit: {...}          # vp-calibrate's residuals (informative only)
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "mapper/tso/time_model.h"
#include "platform/config/platform_spec.h"

namespace vp::config {

// The sections of `spec` a calibration depends on, as YAML (the resolved values).
YAML::Node calibration_key(const PlatformSpec& spec);
// Warnings (one line each, without a prefix) are appended to `warnings` when given.
mapper::tso::TsoCoefficients load_calibration(const std::string& path, const PlatformSpec& spec,
                                              std::vector<std::string>* warnings = nullptr);
// The file content; `fit` is stored as given.
std::string calibration_yaml(const PlatformSpec& spec, const mapper::tso::TsoCoefficients& c, const YAML::Node& fit);

}  // namespace vp::config
