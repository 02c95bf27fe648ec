#include "platform/run/input_check.h"

#include <filesystem>

#include "mapper/common/errors.h"
#include "platform/config/platform_keys.h"
#include "vp_version.h"

namespace fs = std::filesystem;

namespace vp::run {

namespace {
const char* kind_name(workload::WorkloadKind k) {
    switch (k) {
    case workload::WorkloadKind::Network: return "network";
    case workload::WorkloadKind::Traffic: return "traffic";
    case workload::WorkloadKind::VtaIr: return "vta_ir";
    case workload::WorkloadKind::VtaBinary: return "vta_binary";
    case workload::WorkloadKind::NocTraffic: return "noc_traffic";
    case workload::WorkloadKind::DramTrace: return "dram_trace";
    }
    return "?";
}
}  // namespace

void check_workload_kind(const config::PlatformSpec& spec, const workload::Workload& wl) {
    using config::PlatformKind;
    using workload::WorkloadKind;
    const WorkloadKind k = wl.kind;
    const char* wants = nullptr;
    switch (spec.kind) {
    case PlatformKind::Dram:
        if (k != WorkloadKind::Traffic && k != WorkloadKind::DramTrace)
            wants = "traffic workloads (\"kind\": \"traffic\") and DRAM traces (\"kind\": \"dram_trace\")";
        break;
    case PlatformKind::Nmp:
    case PlatformKind::Mesh:
        if (k != WorkloadKind::Network) wants = "network workloads (a \"layers\" list)";
        break;
    case PlatformKind::Noc:
        if (k != WorkloadKind::NocTraffic) wants = "synthetic traffic workloads (\"kind\": \"noc_traffic\")";
        break;
    case PlatformKind::Vta:
        if (k != WorkloadKind::Network && k != WorkloadKind::VtaIr && k != WorkloadKind::VtaBinary)
            wants = "networks, VTA IR programs and binary VTA programs (\"kind\": \"network\" | \"vta_ir\" | \"vta_binary\")";
        break;
    }
    if (wants)
        throw InputError(wl.path + ": the " + config::to_string(spec.kind) + " platform runs " + wants + ", not a " +
                         kind_name(k) + " workload; " + spec.source + " selects platform: " +
                         config::to_string(spec.kind));
    // The noc platform merges the workload's fields over the config's traffic section.
    if (spec.kind == PlatformKind::Noc) (void)workload::noc_traffic(wl, spec.traffic, spec.noc, spec.seed, spec.source);
}

void check_overrides_for_workload(const config::PlatformSpec& spec, const workload::Workload& wl,
                                  const std::vector<std::string>& overrides) {
    for (const std::string& o : overrides) {
        const std::string key = config::override_key(o);
        if (spec.kind == config::PlatformKind::Vta &&
            (wl.kind == workload::WorkloadKind::VtaIr || wl.kind == workload::WorkloadKind::VtaBinary) &&
            config::key_within(key, "vta_compiler"))
            throw InputError("--set " + key + ": " + wl.path + " is a " +
                             (wl.kind == workload::WorkloadKind::VtaIr ? "VTA IR" : "binary VTA") + " program, which runs as written: vta_compiler settings apply to "
                             "networks only (--allow-unused sets it anyway)");
        if (spec.kind == config::PlatformKind::Noc && wl.kind == workload::WorkloadKind::NocTraffic) {
            for (const auto& [field, value] : wl.doc.items()) {
                if (!config::key_within(key, "traffic." + field)) continue;
                throw InputError("--set " + key + ": " + wl.path + " sets \"" + field +
                                 "\" itself, and the workload's value wins over the config's traffic section " +
                                 "(--allow-unused sets it anyway)");
            }
        }
    }
}

std::string find_data_file(const std::string& path) {
    std::error_code ec;
    if (path.empty() || fs::exists(path, ec) || fs::path(path).is_absolute()) return path;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return path;
    const fs::path installed = exe.parent_path().parent_path() / VP_DATA_SUBDIR / path;
    return fs::exists(installed, ec) ? installed.string() : path;
}

}  // namespace vp::run
