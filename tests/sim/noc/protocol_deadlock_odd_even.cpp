// Protocol deadlock avoided: the scenario of protocol_deadlock.h (DRAM interface in the middle of
// a 5x5 mesh, odd_even routing, requests, responses and syncs) with requests and responses on
// separate VCs (noc.message_classes: separate) completes: every transaction answered, every sync
// delivered, nothing left in flight. protocol_deadlock_shared.cpp shows that the same traffic
// deadlocks when the classes share their VCs.
#include "protocol_deadlock.h"

int sc_main(int argc, char** argv) { return noc_test::expect_completion(argc, argv, "odd_even"); }
