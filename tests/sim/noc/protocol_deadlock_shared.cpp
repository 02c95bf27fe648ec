// The control case of protocol_deadlock_{west_first,odd_even}.cpp: the same traffic with
// requests, syncs and responses sharing every VC (noc.message_classes: shared) deadlocks
// (responses of the DRAM interface wait behind syncs that wait behind requests that wait for the
// interface), and the NoC watchdog reports it instead of hanging. Deterministic: the same seedless
// traffic deadlocks at the same cycle on every run.
#include "protocol_deadlock.h"

int sc_main(int argc, char** argv) {
    const char* classes = argc > 1 ? argv[1] : "shared";
    const char* routing = argc > 2 ? argv[2] : "odd_even";
    const noc_test::ProtocolRun r = noc_test::run_protocol_scenario(classes, routing);
    int fails = 0;
    fails += noc_test::check(r.deadlock, "the watchdog reports a deadlock");
    fails += noc_test::check(r.report.find("deadlock") != std::string::npos &&
                                 r.report.find("head not accepted") != std::string::npos,
                             "the report shows the DRAM interface refusing request heads");
    fails += noc_test::check(r.done < r.total, "the run did not complete");
    fails += noc_test::check(r.report.find("noc.message_classes is shared") != std::string::npos,
                             "the report names the shared message classes as the cause");
    return fails ? 1 : 0;
}
