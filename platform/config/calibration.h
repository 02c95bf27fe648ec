#pragma once
// Calibration files of the TSO time model (written by vp-calibrate, included by a config
// with tso.calibration: FILE). A file records the platform and the resolved dram and nmp
// sections it was fitted for (made_for) and the fitted coefficients. A configuration for
// another platform or DRAM preset cannot use it (vp::InputError naming the key and both values);
// one that differs in any other key gets a warning (the coefficients are corrections of the
// physics, which the models still take from the configuration) and the coefficients.
//
//   platform: nmp
//   model: calibrated
//   made_for: {dram: {...}, nmp: {...}}
//   coefficients: {latency_scale: ..., bus_scale: ..., contention: ..., txn_ns: ..., compute_scale: ...}
//   fit: {...}          # vp-calibrate's residuals and samples (read by vp-calibrate --refit only)
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "mapper/tso/time_model.h"
#include "platform/config/platform_spec.h"

namespace vp::config {

// The sections of `spec` a calibration depends on, as YAML (the resolved values): platform,
// dram and the platform's own section (nmp, or vta for the VTA compiler's estimate).
YAML::Node calibration_key(const PlatformSpec& spec);
// First key (dotted) whose value differs between `want` and `have`; "" when equal.
std::string first_mismatch(const YAML::Node& want, const YAML::Node& have, const std::string& path, std::string& want_v,
                           std::string& have_v);
// Opens a calibration file and checks its layout; returns its root. `include_key` names the
// including key in errors. A trailing fit section (vp-calibrate's record, which its --refit reads
// on its own) is left out of the root and not parsed.
YAML::Node read_calibration_root(const std::string& path, const std::string& include_key);
// Checks the file's made_for against `cur` (the configuration's calibration key): another
// platform or DRAM preset is a vp::InputError; any other difference is a line appended to
// `warnings` (the coefficients still apply), or an error when `warnings` is null.
void check_made_for(const YAML::Node& root, const YAML::Node& cur, const std::string& path, const PlatformSpec& spec,
                    std::vector<std::string>* warnings);
// read_calibration_root + check_made_for against calibration_key(spec); the caller binds "coefficients".
YAML::Node read_calibration_file(const std::string& path, const PlatformSpec& spec, const std::string& include_key,
                                 std::vector<std::string>* warnings = nullptr);
// A calibration file for `spec` around `coefficients` (a YAML map).
std::string calibration_file_text(const PlatformSpec& spec, const YAML::Node& coefficients, const YAML::Node& fit,
                                  const std::string& include_key);
// Warnings (one line each, without a prefix) are appended to `warnings` when given.
mapper::tso::TsoCoefficients load_calibration(const std::string& path, const PlatformSpec& spec,
                                              std::vector<std::string>* warnings = nullptr);
// The file content; `fit` is stored as given.
std::string calibration_yaml(const PlatformSpec& spec, const mapper::tso::TsoCoefficients& c, const YAML::Node& fit);

}  // namespace vp::config
