#pragma once
// A workload file: a network (layers), a DRAM traffic description, a DRAM request
// trace to replay, a VTA IR program, or synthetic NoC traffic. The kind is read from the document ("kind", or the
// presence of "layers" / "MATRICES").
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/workload/network.h"
#include "models/tgen/trace_player_params.h"
#include "models/tgen/traffic_params.h"

namespace vp::workload {

enum class WorkloadKind { Network, Traffic, VtaIr, NocTraffic, DramTrace };

struct Workload {
    std::string path;
    std::string name;
    WorkloadKind kind = WorkloadKind::Network;
    nlohmann::json doc;                           // the parsed document
    mapper::Network network;                      // kind == Network
    std::vector<tgen::TrafficParams> streams;     // kind == Traffic
    tgen::TracePlayerParams dram_trace;           // kind == DramTrace
};

// Reads and validates; throws vp::InputError with the JSON pointer of the problem.
Workload load_workload(const std::string& path);

}  // namespace vp::workload
