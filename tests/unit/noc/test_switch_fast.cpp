// Switch allocation of a single candidate VC (Router::switch_one) and of requests without conflicts
// (Router::switch_conflict_free) are fast paths of the general iSLIP allocator (allocate_switch),
// and VC allocation grants a single requester without the grant stage's arrays: a network using
// them must end every cycle in the same state as one that always runs the general allocators.
// Compared under synthetic traffic below and past saturation (where most routers hold one candidate
// stalled on credits), with 1 to 3 VCs and XY and odd-even routing: every router counter, read at
// intervals and at the end, the delivered flits and packets, the latency statistics and the number
// of router steps. A third network stepping every router in every cycle checks the wake-up times
// (Router::wake_after) as well.
#include <catch2/catch.hpp>

#include "models/noc/synthetic_traffic.h"

using namespace vp::noc;

namespace {
void require_same(const Network& a, const Network& b) {
    REQUIRE(a.totals().term.flits_ejected == b.totals().term.flits_ejected);
    REQUIRE(a.totals().term.packets_ejected == b.totals().term.packets_ejected);
    REQUIRE(a.totals().term.flits_injected == b.totals().term.flits_injected);
    for (unsigned r = 0; r < a.num_nodes(); ++r) {
        const RouterCounters& x = a.router(r).counters();
        const RouterCounters& y = b.router(r).counters();
        for (unsigned q = 0; q < kNumPorts; ++q) {
            REQUIRE(x.flits_in[q] == y.flits_in[q]);
            REQUIRE(x.flits_out[q] == y.flits_out[q]);
            REQUIRE(x.credit_stall[q] == y.credit_stall[q]);
        }
        REQUIRE(x.packets_routed == y.packets_routed);
        REQUIRE(x.sa_conflicts == y.sa_conflicts);
        REQUIRE(x.occupancy_sum == y.occupancy_sum);
        REQUIRE(x.occupancy_max == y.occupancy_max);
    }
}
}  // namespace

TEST_CASE("fast switch and VC allocation equal the general allocators", "[noc][switch]") {
    for (const char* routing : {"xy", "odd_even"}) {
        for (unsigned vcs : {1u, 2u, 3u}) {
            for (const char* pattern : {"hotspot", "transpose", "uniform"}) {
                for (double rate : {0.05, 0.3, 0.6}) {
                    CAPTURE(routing, vcs, pattern, rate);
                    NocParams p;
                    p.width = p.height = 4;
                    p.buffer_depth = 3;
                    p.num_vcs = vcs;
                    p.routing = routing;
                    p.validate("noc");
                    NocParams pa = p;
                    pa.stepping = "all";
                    Network fast(p), general(p), eager(pa);
                    general.set_general_allocation(true);
                    TrafficParams t;
                    t.rate = rate;
                    t.packet_flits = 3;
                    t.pattern = pattern;
                    t.hotspot_fraction = 0.5;
                    SyntheticTraffic tf(fast, t), tg(general, t), te(eager, t);
                    for (std::uint64_t c = 0; c < 2000; ++c) {
                        tf.inject();
                        tg.inject();
                        te.inject();
                        fast.step();
                        general.step();
                        eager.step();
                        if (c % 89 == 7) {
                            require_same(fast, general);
                            require_same(fast, eager);
                        }
                    }
                    require_same(fast, general);
                    require_same(fast, eager);
                    REQUIRE(fast.router_steps() == general.router_steps());
                    REQUIRE(fast.packet_latency().count() == general.packet_latency().count());
                    REQUIRE(fast.packet_latency().sum() == general.packet_latency().sum());
                    REQUIRE(fast.packet_latency().sum() == eager.packet_latency().sum());
                    REQUIRE(fast.network_latency().sum() == general.network_latency().sum());
                    REQUIRE(fast.totals().term.flits_ejected > 0);
                }
            }
        }
    }
}
