#pragma once
// Calibration files of the mesh time model (written by vp-calibrate on a mesh config, included
// with mapper.calibration: FILE). Like the TSO files (calibration.h), a file records what it
// was fitted for (made_for: the DRAM, the NoC's timing parameters, the packet format and NoC
// clock, the core) and the coefficients; a configuration for another platform or DRAM preset
// cannot use it (vp::InputError naming the key and both values), one that differs in another of
// those keys gets a warning.
// The mesh size and the node placement are not part of the key: the model takes the hops and
// the number of active cores as inputs, so one file serves 4x4 and 8x8 alike.
//
//   platform: mesh
//   model: calibrated                # (every calibration file; the coefficients of the mesh's
//                                    # calibrated and queueing models, fitted on the same samples)
//   made_for: {dram: {...}, noc: {...}, mesh: {noc_mhz, packet}, core: {...}}
//   coefficients: {latency_scale, dram_scale, conflict, contention, shared_scale, port_scale,
//                  layer_cycles, wait_scale, slot_scale,                  (calibrated)
//                  mva_row_miss, mva_bus_scale, mva_stream_scale, mva_layer_cycles}   (queueing)
//   fit: {..., queueing: {...}}      # vp-calibrate's residuals (informative only)
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "mapper/waving/mesh_time_model.h"
#include "platform/config/platform_spec.h"

namespace vp::config {

YAML::Node mesh_calibration_key(const PlatformSpec& spec);
// Warnings (one line each, without a prefix) are appended to `warnings` when given.
mapper::waving::MeshCoefficients load_mesh_calibration(const std::string& path, const PlatformSpec& spec,
                                                       std::vector<std::string>* warnings = nullptr);
std::string mesh_calibration_yaml(const PlatformSpec& spec, const mapper::waving::MeshCoefficients& c,
                                  const YAML::Node& fit);

}  // namespace vp::config
