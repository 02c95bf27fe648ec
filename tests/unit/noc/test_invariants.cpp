// The NoC's conservation laws (check_network) hold at every cycle of a loaded network, not only
// when it is empty: the totals agree with a census of every buffer, link and queue, and every
// router holds exactly the flits it received and did not send. A regression test of the laws
// against the model's own counters; the census counts the buffers one by one.
#include <catch2/catch.hpp>

#include "models/common/invariant_check.h"
#include "models/noc/noc_invariants.h"
#include "models/noc/synthetic_traffic.h"

using namespace vp::noc;

TEST_CASE("conservation laws hold at every cycle under load, and the empty network passes the end-of-run laws",
          "[noc][invariants]") {
    for (unsigned vcs : {1u, 3u}) {
        NocParams p;
        p.width = p.height = 4;
        p.num_vcs = vcs;
        p.buffer_depth = 2;
        p.routing = "odd_even";
        p.validate("noc");
        Network net(p);
        TrafficParams t;
        t.rate = 0.4;  // past saturation: full buffers and source queues
        t.packet_flits = 5;
        SyntheticTraffic traffic(net, t);
        for (int c = 0; c < 3000; ++c) {
            traffic.inject();
            net.step();
            if (c % 97 == 0) {
                vp::InvariantCheck chk;
                check_network(net, chk, false);
                INFO("cycle " << c << ": " << chk.report());
                REQUIRE(chk.ok());
                REQUIRE(chk.checked() == 3 + 16);
            }
        }
        REQUIRE(net.census().flits_at_sources > 0);
        vp::InvariantCheck busy;
        check_network(net, busy, true);  // not empty: the end-of-run laws must fail
        REQUIRE_FALSE(busy.ok());
        for (int c = 0; c < 200000 && !net.idle(); ++c) net.step();
        vp::InvariantCheck end;
        check_network(net, end, true);
        INFO(end.report());
        REQUIRE(end.ok());
    }
}
