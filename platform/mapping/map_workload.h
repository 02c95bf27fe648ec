#pragma once
// Runs the mapper that the platform names (no simulation): TSO for nmp, the waving
// mapper for mesh. Shared by vp-map and the platform builders' reports.
#include <string>

#include <nlohmann/json.hpp>

#include "platform/config/platform_spec.h"
#include "platform/workload/workload.h"

namespace vp::platform {

struct MappingReport {
    nlohmann::json json;  // the content of mapping.json
    std::string table;    // a readable table
};

// Throws vp::InputError when the platform has no mapper or the workload does not fit it.
MappingReport map_workload(const config::PlatformSpec& spec, const workload::Workload& wl);

}  // namespace vp::platform
