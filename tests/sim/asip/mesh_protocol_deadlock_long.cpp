// Protocol deadlock avoided on the mesh platform: the scenario of mesh_protocol.h (DRAM interface
// in the middle, west-first adaptive routing, 62 cores starting at once) completes with the
// default separate message classes, every invariant holds and the NoC carries exactly the
// mapper's flits. mesh_protocol_deadlock_shared.cpp is the control that deadlocks.
#include "mesh_protocol.h"

int sc_main(int, char**) {
    const mesh_test::ProtocolResult r = mesh_test::run_mesh_protocol("separate");
    int fails = 0;
    fails += mesh_test::check(!r.deadlock && r.error.empty(), "completes" + (r.error.empty() ? "" : ": " + r.error));
    fails += mesh_test::check(r.invariants.ok() && r.invariants.checked() > 0,
                              std::to_string(r.invariants.checked()) + " invariants hold");
    fails += mesh_test::check(r.exact, "NoC flits == mapper flits");
    std::printf("%s\n", fails ? "FAILED" : "ALL PASSED");
    return fails ? 1 : 0;
}
