#pragma once
// Calibration files of the TSO time model (written by vp-calibrate, included by a config
// with tso.calibration: FILE). A file records the platform and the resolved dram and nmp
// sections it was fitted for (made_for) and the fitted coefficients; a configuration that
// differs in any of those keys cannot use it (vp::InputError naming the key and both values).
//
//   platform: nmp
//   model: calibrated
//   made_for: {dram: {...}, nmp: {...}}
//   coefficients: {latency_scale: ..., bus_scale: ..., contention: ..., txn_ns: ..., compute_scale: ...}
//   fit: {...}          # vp-calibrate's residuals (informative only)
#include <string>

#include <yaml-cpp/yaml.h>

#include "mapper/tso/time_model.h"
#include "platform/config/platform_spec.h"

namespace vp::config {

// The sections of `spec` a calibration depends on, as YAML (the resolved values).
YAML::Node calibration_key(const PlatformSpec& spec);
mapper::tso::TsoCoefficients load_calibration(const std::string& path, const PlatformSpec& spec);
// First dotted key whose value differs between `want` and `have` ("" when equal), with both
// values as YAML text (for the mesh calibration files too).
std::string calibration_mismatch(const YAML::Node& want, const YAML::Node& have, std::string& want_v,
                                 std::string& have_v);
// The file content; `fit` is stored as given.
std::string calibration_yaml(const PlatformSpec& spec, const mapper::tso::TsoCoefficients& c, const YAML::Node& fit);

}  // namespace vp::config
