// The reporting path of the mesh platform's end-of-run invariants: a deliberate error injected
// through the test-only hook (MeshPlatform::set_invariant_fault_for_test) into one per-layer law
// and, separately, checked against the untouched run, makes check_invariants() throw
// vp::SimulationError (exit code 3 in vp-run) naming the law, the layer, the expected figure (the
// mapper's) and the actual one. No model is broken: the fault only changes a reported figure.
#include <cstdio>
#include <string>

#include <systemc>

#include "mapper/common/errors.h"
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
    sc_set_time_resolution(1, SC_PS);
    sc_report_handler::set_actions(SC_ERROR, SC_DISPLAY | SC_THROW);
    int fails = 0;
    try {
        const std::string root = VP_SOURCE_DIR;
        vp::config::PlatformSpec spec = vp::config::load_platform(root + "/configs/mesh-4x4.yaml", {});
        vp::workload::Workload wl = vp::workload::load_workload(root + "/workloads/lenet5.json");
        vp::stats::Registry reg;
        vp::trace::Tracer tracer(spec.trace);
        vp::SimControl ctrl("sim_control");
        vp::PayloadPool pool;
        vp::platform::RunContext ctx{spec, wl, reg, tracer, ctrl, pool};
        vp::platform::MeshPlatform plat(ctx);
        sc_start();
        plat.finish();
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
