#pragma once
// Conservation laws of the NoC, checked at the end of a run: the network's totals against a
// census of its buffers, links and queues counted one by one (Network::census), and per router
// flits received - flits sent = flits buffered.
#include "models/common/invariant_check.h"
#include "models/noc/network.h"

namespace vp::noc {

// expect_empty: the run ended with every packet delivered (platform runs driven by the kernel);
// false for synthetic runs that stop while traffic is still flowing.
void check_network(const Network& net, InvariantCheck& chk, bool expect_empty);

}  // namespace vp::noc
