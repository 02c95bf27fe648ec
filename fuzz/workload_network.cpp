// Fuzz target: a network workload (JSON "layers" list, any "kind" the loader knows), read as
// vp-run reads it. Property beyond a clean accept/reject: an accepted network written back as a
// workload file (what vp-import writes) reads again as the same network.
#include "fuzz/fuzz_target.h"
#include "mapper/workload/network.h"
#include "platform/workload/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    static const std::string path = fuzz::source_path("workloads/fuzz-input.json");
    fuzz::expect_clean([&] {
        const workload::Workload wl = workload::parse_workload(fuzz::text(data, size), path);
        (void)wl.doc.dump();  // the workload hash of stats.json
        if (wl.kind != workload::WorkloadKind::Network) return;
        const std::string once = mapper::network_json_text(mapper::network_to_json(wl.network));
        std::string twice;
        try {
            const workload::Workload back = workload::parse_workload(once, path);
            twice = mapper::network_json_text(mapper::network_to_json(back.network));
        } catch (const InputError& e) {
            fuzz::violated(std::string("the network written back does not load: ") + e.what() + "\n" + once);
        }
        if (twice != once) fuzz::violated("the network written back reads as a different network:\n" + once);
    });
    return 0;
}
