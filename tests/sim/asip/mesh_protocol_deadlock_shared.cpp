// Control for mesh_protocol_deadlock_long.cpp: with requests, syncs and responses sharing their
// VCs (noc.message_classes: shared) the same run deadlocks, and the NoC watchdog stops it with a
// report (vp-run exit code 3) that shows the DRAM interface refusing request heads.
#include "mesh_protocol.h"

int sc_main(int, char**) {
    const mesh_test::ProtocolResult r = mesh_test::run_mesh_protocol("shared");
    int fails = 0;
    fails += mesh_test::check(r.deadlock, "the watchdog reports a deadlock");
    fails += mesh_test::check(r.error.find("head not accepted") != std::string::npos,
                              "the DRAM interface's ejection queues hold refused request heads");
    std::printf("%s\n", fails ? "FAILED" : "ALL PASSED");
    return fails ? 1 : 0;
}
