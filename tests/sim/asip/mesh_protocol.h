#pragma once
// Mesh-platform protocol-deadlock scenario shared by mesh_protocol_deadlock_long.cpp and
// mesh_protocol_deadlock_shared.cpp: AlexNet's conv2 on the 8x8 mesh with all 62 cores, the DRAM
// interface in the middle (node (4, 3)), the master in the corner and west-first adaptive routing.
// At the layer's start every core loads at once: the DRAM interface fills up and refuses request
// heads; with shared VCs a start sync that waits behind requests blocks a response of the DRAM
// interface (measured: no flit moves from NoC cycle 18244 on). Which interface position deadlocks
// depends on the cores' timing: (3, 3) stopped deadlocking once the AT initiators ended a request
// phase only on their own BEGIN_RESP. With separate message classes the layer completes.
#include <cstdlib>
#include <fstream>
#include <string>

#include <unistd.h>

#include "mapper/common/errors.h"
#include "mesh_run.h"

namespace mesh_test {

struct ProtocolResult {
    bool deadlock = false;
    std::string error;
    vp::InvariantCheck invariants;
    bool exact = true;  // per-layer flits == mapper
};

inline ProtocolResult run_mesh_protocol(const std::string& classes) {
    init_kernel();
    const std::string dir = "/tmp/vp_sim_mesh_protocol_" + std::to_string(::getpid());
    std::system(("mkdir -p " + dir).c_str());
    std::ofstream(dir + "/conv2.json")
        << R"({"name": "alexnet_conv2", "precision": 8, "layers": [{"name": "conv2", "type": "conv", "C": 96, "K": 256,)"
           R"( "H": 27, "W": 27, "R": 5, "S": 5, "stride": 1, "pad": 2, "groups": 2}]})";
    ProtocolResult out;
    const std::string root = VP_SOURCE_DIR;
    MeshBench b(root + "/configs/mesh-8x8.yaml", dir + "/conv2.json",
                {"mesh.dram_ifs=[[4,3]]", "mesh.master=[0,0]", "noc.routing=west_first", "mapper.mode=all-cores",
                 "noc.message_classes=" + classes,
                 // The scenario was built on the paper model's mapping of conv2; the calibration file
                 // is made for XY routing and separate classes.
                 "mapper.mesh_model=paper", "mapper.calibration=none"});
    std::system(("rm -rf " + dir).c_str());
    b.run();
    const vp::platform::MeshPlatform& plat = b.plat;
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
