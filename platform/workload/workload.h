#pragma once
// A workload file: a network (layers), a DRAM traffic description, or a VTA IR
// program, or synthetic NoC traffic. The kind is read from the document ("kind", or the
// presence of "layers" / "MATRICES").
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/workload/network.h"
#include "models/tgen/traffic_params.h"

namespace vp::workload {

enum class WorkloadKind { Network, Traffic, VtaIr, NocTraffic };

struct Workload {
    std::string path;
    std::string name;
    WorkloadKind kind = WorkloadKind::Network;
    nlohmann::json doc;                           // the parsed document
    mapper::Network network;                      // kind == Network
    std::vector<tgen::TrafficParams> streams;     // kind == Traffic
};

// Reads and validates; throws vp::InputError with the JSON pointer of the problem.
Workload load_workload(const std::string& path);

}  // namespace vp::workload
