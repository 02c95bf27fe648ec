#pragma once
// Mesh-platform protocol-deadlock scenario shared by mesh_protocol_deadlock_long.cpp and
// mesh_protocol_deadlock_shared.cpp: AlexNet's conv2 on the 8x8 mesh with all 62 cores, the DRAM
// interface in the middle (node (3, 3)), the master in the corner and west-first adaptive routing.
// At the layer's start every core loads at once: the DRAM interface fills up and refuses request
// heads; with shared VCs a start sync that waits behind requests blocks a response of the DRAM
// interface (measured: no flit moves from NoC cycle 12099 on). With separate message classes
// the layer completes.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <systemc>
#include <unistd.h>

#include "mapper/common/errors.h"
#include "models/common/payload_pool.h"
#include "models/common/sim_control.h"
#include "platform/builders/mesh_platform.h"
#include "platform/config/platform_spec.h"
#include "platform/workload/workload.h"

namespace mesh_test {

inline int check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
    return ok ? 0 : 1;
}

struct ProtocolResult {
    bool deadlock = false;
    std::string error;
    vp::InvariantCheck invariants;
    bool exact = true;  // per-layer flits == mapper
};

inline ProtocolResult run_mesh_protocol(const std::string& classes) {
    using namespace sc_core;
    sc_set_time_resolution(1, SC_PS);
    sc_report_handler::set_actions(SC_ERROR, SC_DISPLAY | SC_THROW);
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    const std::string dir = "/tmp/vp_sim_mesh_protocol_" + std::to_string(::getpid());
    std::system(("mkdir -p " + dir).c_str());
    std::ofstream(dir + "/conv2.json")
        << R"({"name": "alexnet_conv2", "precision": 8, "layers": [{"name": "conv2", "type": "conv", "C": 96, "K": 256,)"
           R"( "H": 27, "W": 27, "R": 5, "S": 5, "stride": 1, "pad": 2, "groups": 2}]})";
    ProtocolResult out;
    const std::string root = VP_SOURCE_DIR;
    vp::config::PlatformSpec spec = vp::config::load_platform(
        root + "/configs/mesh-8x8.yaml", {"mesh.dram_ifs=[[3,3]]", "mesh.master=[0,0]", "noc.routing=west_first",
                                          "mapper.mode=all-cores", "noc.message_classes=" + classes});
    vp::workload::Workload wl = vp::workload::load_workload(dir + "/conv2.json");
    std::system(("rm -rf " + dir).c_str());
    vp::stats::Registry reg;
    vp::trace::Tracer tracer(spec.trace);
    vp::SimControl ctrl("sim_control");
    vp::PayloadPool pool;
    vp::platform::RunContext ctx{spec, wl, reg, tracer, ctrl, pool};
    vp::platform::MeshPlatform plat(ctx);
    sc_start();
    plat.finish();
    try {
        plat.check_invariants();
    } catch (const vp::SimulationError& e) {
        out.error = e.what();
        out.deadlock = out.error.find("deadlock") != std::string::npos;
    }
    if (!out.deadlock) {
        plat.collect_invariants(out.invariants);
        for (const auto& r : plat.results()) out.exact = out.exact && r.sim_flits == plat.mapping().layers[r.map_index].flits;
    }
    std::printf("%s classes: %s\n", classes.c_str(), out.deadlock ? "deadlock" : "completed");
    return out;
}

}  // namespace mesh_test
