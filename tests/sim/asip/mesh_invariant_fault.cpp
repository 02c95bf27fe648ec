// The reporting path of the mesh platform's end-of-run invariants: the untouched run passes;
// a deliberate error injected through the test-only hook (MeshPlatform::set_invariant_fault_for_test)
// into a per-layer law, a run-level law or a router's law makes check_invariants() throw
// vp::SimulationError (exit code 3 in vp-run) naming the law, its scope, the expected figure (for
// the layer: the mapper's) and the actual one. No model is broken: the fault changes a reported figure.
#include "mapper/common/errors.h"
#include "mesh_run.h"

using mesh_test::check;

namespace {
std::string failure(const vp::platform::MeshPlatform& plat) {
    try {
        plat.check_invariants();
    } catch (const vp::SimulationError& e) {
        return e.what();
    }
    return {};
}
}  // namespace

int sc_main(int, char**) {
    mesh_test::init_kernel();
    int fails = 0;
    try {
        const std::string root = VP_SOURCE_DIR;
        mesh_test::MeshBench b(root + "/configs/mesh-4x4.yaml", root + "/workloads/lenet5.json", {});
        b.run();
        vp::platform::MeshPlatform& plat = b.plat;
        fails += check(failure(plat).empty(), "the untouched run passes every invariant");
        const auto res = plat.results();
        const auto& last = plat.mapping().layers[res.back().map_index];
        const std::string layer = "layer " + last.name;

        plat.set_invariant_fault_for_test({"NoC flits of the layer", layer, +5});
        std::string msg = failure(plat);
        std::printf("%s\n", msg.c_str());
        const std::string want = "invariant \"NoC flits of the layer = flits counted by the mapper (Eq. 23)\" broken in " +
                                 layer + ": expected " + std::to_string(last.flits) + ", actual " +
                                 std::to_string(last.flits + 5);
        fails += check(msg.find(want) != std::string::npos, "the message names law, layer, expected and actual");
        fails += check(msg.find("1 of ") == 0, "exactly one law reported broken");

        plat.set_invariant_fault_for_test({"bytes served by the DRAM", "run", -64});
        msg = failure(plat);
        std::printf("%s\n", msg.c_str());
        fails += check(msg.find("\"bytes served by the DRAM = bytes requested at the DRAM controller\" broken in run") !=
                           std::string::npos,
                       "a run-level law is reported with scope run");

        plat.set_invariant_fault_for_test({"flits received - flits sent = flits buffered", "router[1][0]", +1});
        msg = failure(plat);
        fails += check(msg.find("broken in router[1][0]: expected 0, actual 1") != std::string::npos,
                       "a NoC census law is reported per router");
    } catch (const std::exception& e) {
        std::printf("FAIL: exception: %s\n", e.what());
        return 1;
    }
    std::printf("%s\n", fails ? "FAILED" : "ALL PASSED");
    return fails ? 1 : 0;
}
