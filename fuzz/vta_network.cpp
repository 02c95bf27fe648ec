// Fuzz target: a VTA network file ("kind": "vta_network": layers with explicit skip
// connections and weight files), read as vp-run reads it. Files resolve against workloads/vta/.
#include "fuzz/fuzz_target.h"
#include "platform/workload/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    static const std::string path = fuzz::source_path("workloads/vta/fuzz-input.json");
    fuzz::expect_clean([&] {
        const workload::Workload wl = workload::parse_workload(fuzz::text(data, size), path);
        (void)wl.doc.dump();
    });
    return 0;
}
