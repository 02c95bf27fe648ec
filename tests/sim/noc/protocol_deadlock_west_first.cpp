// Protocol deadlock avoided: the scenario of protocol_deadlock.h (DRAM interface in the middle of
// a 5x5 mesh, west_first routing, requests, responses and syncs) with requests and responses on
// separate VCs (noc.message_classes: separate) completes: every transaction answered, every sync
// delivered, nothing left in flight. protocol_deadlock_shared.cpp shows that the same traffic
// deadlocks when the classes share their VCs.
#include "protocol_deadlock.h"

int sc_main(int argc, char** argv) {
    const char* classes = argc > 1 ? argv[1] : "separate";
    const char* routing = argc > 2 ? argv[2] : "west_first";
    const noc_test::ProtocolRun r = noc_test::run_protocol_scenario(classes, routing);
    int fails = 0;
    fails += noc_test::check(!r.deadlock, "no deadlock");
    fails += noc_test::check(r.done == r.total && r.errors == 0, "every transaction answered");
    fails += noc_test::check(r.served == r.requests && r.syncs_received == r.syncs_sent,
                             "memory served every request once, every sync delivered");
    fails += noc_test::check(r.drained, "nothing left in flight");
    return fails ? 1 : 0;
}
