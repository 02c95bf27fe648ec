// mesh.packet.write_ack: false (posted writes) reaches the model: the DRAM interfaces send no
// write acks, the NoC carries exactly the mapper's flits for every layer (the mapper counts no
// ack packets then), every posted write is served before the run ends, and all end-of-run
// invariants hold. Regression for a run that printed "NoC 1401339 flits (mapper: 1365563)" and
// exited 0 because the DRAM interface still sent acks.
#include "mesh_run.h"

using mesh_test::check;

int sc_main(int, char**) {
    mesh_test::init_kernel();
    int fails = 0;
    try {
        const std::string root = VP_SOURCE_DIR;
        // The calibration file is made for acknowledged writes: run without it.
        mesh_test::MeshBench b(root + "/configs/mesh-4x4.yaml", root + "/workloads/resnet20.json",
                               {"mesh.packet.write_ack=false", "mapper.mode=all-cores", "mapper.calibration=none"});
        b.run();
        const vp::platform::MeshPlatform& plat = b.plat;
        vp::InvariantCheck chk;
        plat.collect_invariants(chk);
        fails += check(chk.ok(), "all " + std::to_string(chk.checked()) + " end-of-run invariants hold" +
                                     (chk.ok() ? "" : ":\n" + chk.report()));
        std::uint64_t sim = 0, map = 0, write_bytes = 0;
        for (const auto& r : plat.results()) {
            const auto& l = plat.mapping().layers[r.map_index];
            fails += check(r.sim_flits == l.flits, l.name + ": NoC flits " + std::to_string(r.sim_flits) +
                                                       " == mapper " + std::to_string(l.flits));
            sim += r.sim_flits;
            map += l.flits;
            write_bytes += r.counts.dram_write_bytes;
        }
        fails += check(sim == map, "whole network: " + std::to_string(sim) + " flits == mapper " + std::to_string(map));
        const nlohmann::json types = b.reg.to_json().at("noc").at("packet_types");
        auto n = [&types](const char* k) { return types.at(k).at("value").get<std::uint64_t>(); };
        fails += check(n("write_ack") == 0 && n("write_request") == 0, "no acknowledged write and no write ack");
        // Transfers are at most max_payload_bytes (64 B here): at least one posted write per 64 bytes written.
        fails += check(n("posted_write") >= write_bytes / 64 && n("posted_write") > 0,
                       std::to_string(n("posted_write")) + " posted writes for " + std::to_string(write_bytes) +
                           " bytes written");
        fails += check(n("read_response") == n("read_request"), "one response per read request");
    } catch (const std::exception& e) {
        std::printf("FAIL: exception: %s\n", e.what());
        return 1;
    }
    std::printf("%s\n", fails ? "FAILED" : "ALL PASSED");
    return fails ? 1 : 0;
}
