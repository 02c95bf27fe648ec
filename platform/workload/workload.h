#pragma once
// A workload file: a network (layers), a DRAM traffic description, a DRAM request
// trace to replay, a VTA IR program, a binary VTA program (program.json of its folder), or synthetic NoC traffic. The kind is read from the document ("kind", or the
// presence of "layers" / "MATRICES").
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/workload/network.h"
#include "models/noc/noc_params.h"
#include "models/noc/traffic_params.h"
#include "models/tgen/trace_player_params.h"
#include "models/tgen/traffic_params.h"
#include "platform/import/onnx_import.h"

namespace vp::workload {

enum class WorkloadKind { Network, Traffic, VtaIr, VtaBinary, NocTraffic, DramTrace };

struct Workload {
    std::string path;
    std::string name;
    WorkloadKind kind = WorkloadKind::Network;
    nlohmann::json doc;                           // the parsed document
    mapper::Network network;                      // kind == Network
    std::vector<tgen::TrafficParams> streams;     // kind == Traffic
    tgen::TracePlayerParams dram_trace;           // kind == DramTrace
    // An ONNX model imported on the fly (path ends in .onnx): the network written as a workload
    // file (OUT/workload.json), the import summary, and the model's int8 weights per layer when
    // the platform computes values (empty otherwise or for a layer without them).
    bool imported = false;
    std::string workload_text, import_summary;
    std::vector<std::vector<std::int8_t>> weight_values;
    std::vector<std::vector<std::int32_t>> bias_values;
};

// Reads and validates; throws vp::InputError with the JSON pointer of the problem. A path
// ending in .onnx is imported with `onnx` (docs/onnx-import.md). A network with "batch": N
// comes back as N copies of its layers (mapper::expand_batch).
Workload load_workload(const std::string& path, const import::ImportOptions& onnx = {});
// The same for a JSON workload's text; `path` names it in errors and anchors relative paths.
Workload parse_workload(const std::string& text, const std::string& path);

// A noc_traffic workload's fields over the configuration's `traffic` section (the workload's
// value wins), validated against the NoC. Throws InputError naming the workload and the config.
noc::TrafficParams noc_traffic(const Workload& wl, const noc::TrafficParams& config_traffic, const noc::NocParams& noc,
                               std::uint64_t seed, const std::string& config_source);

}  // namespace vp::workload
