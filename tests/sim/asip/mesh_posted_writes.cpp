// mesh.packet.write_ack: false (posted writes) reaches the model: the DRAM interfaces send no
// write acks, the NoC carries exactly the mapper's flits for every layer (the mapper counts no
// ack packets then), every posted write is served before the run ends, and all end-of-run
// invariants hold. Regression for a run that printed "NoC 1401339 flits (mapper: 1365563)" and
// exited 0 because the DRAM interface still sent acks.
#include <cstdio>
#include <string>

#include <systemc>

#include "models/common/payload_pool.h"
#include "models/common/sim_control.h"
#include "platform/builders/mesh_platform.h"
#include "platform/config/platform_spec.h"
#include "platform/workload/workload.h"

using namespace sc_core;

namespace {
int check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
    return ok ? 0 : 1;
}
}  // namespace

int sc_main(int, char**) {
    sc_set_time_resolution(1, SC_PS);
    sc_report_handler::set_actions(SC_ERROR, SC_DISPLAY | SC_THROW);
    int fails = 0;
    try {
        const std::string root = VP_SOURCE_DIR;
        vp::config::PlatformSpec spec = vp::config::load_platform(
            root + "/configs/mesh-4x4.yaml", {"mesh.packet.write_ack=false", "mapper.mode=all-cores"});
        vp::workload::Workload wl = vp::workload::load_workload(root + "/workloads/resnet20.json");
        vp::stats::Registry reg;
        vp::trace::Tracer tracer(spec.trace);
        vp::SimControl ctrl("sim_control");
        vp::PayloadPool pool;
        vp::platform::RunContext ctx{spec, wl, reg, tracer, ctrl, pool};
        vp::platform::MeshPlatform plat(ctx);
        sc_start();
        plat.finish();
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
        const nlohmann::json types = reg.to_json().at("noc").at("packet_types");
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
