// Fuzz target: DRAM traffic, DRAM trace and NoC synthetic-traffic workloads (JSON), read as
// vp-run reads them, and checked against a platform as --check does (a noc_traffic workload is
// merged over the traffic section of configs/mesh-8x8-synthetic.yaml and validated).
#include "fuzz/fuzz_target.h"
#include "platform/config/platform_spec.h"
#include "platform/run/input_check.h"
#include "platform/workload/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    static const config::PlatformSpec dram = config::load_platform(fuzz::source_path("configs/dram-ddr3.yaml"), {});
    static const config::PlatformSpec noc =
        config::load_platform(fuzz::source_path("configs/mesh-8x8-synthetic.yaml"), {});
    static const std::string path = fuzz::source_path("workloads/traffic/fuzz-input.json");
    fuzz::expect_clean([&] {
        const workload::Workload wl = workload::parse_workload(fuzz::text(data, size), path);
        (void)wl.doc.dump();
        // A dram_trace workload names a file anywhere (/dev/zero ...): its kind is checked, the file is not read.
        if (wl.kind == workload::WorkloadKind::DramTrace) run::check_workload_kind(dram, wl);
        else (void)run::check_run_inputs(wl.kind == workload::WorkloadKind::NocTraffic ? noc : dram, wl, {}, false);
    });
    return 0;
}
