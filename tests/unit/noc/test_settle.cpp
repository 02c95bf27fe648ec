// Sleeping routers account their occupancy and credit stalls lazily (Router::settle): the
// counters read through Network::router at any cycle, and the sum of buffered flits over the
// cycles, must equal those of stepping every router in every cycle. A regression test of the
// lazy accounting against the eager reference (stepping "all"), plus a brute-force occupancy
// sum taken from the routers' buffered() in every cycle of a third network that is never read
// mid-run (so its routers really sleep for long stretches).
#include <catch2/catch.hpp>

#include <vector>

#include "models/noc/synthetic_traffic.h"

using namespace vp::noc;

namespace {
struct Occupancy : TraceHook {  // per-cycle buffered flits, without settling anything
    std::vector<std::uint32_t> now;
    explicit Occupancy(unsigned n) : now(n, 0) {}
    void router_changed(unsigned r, std::uint64_t, std::uint32_t occ, std::uint32_t) override { now[r] = occ; }
};
}  // namespace

TEST_CASE("lazily settled router counters equal stepping every router, read at any cycle", "[noc][settle]") {
    for (double rate : {0.05, 0.5}) {
        NocParams p;
        p.width = p.height = 4;
        p.buffer_depth = 2;
        p.num_vcs = 2;
        p.validate("noc");
        NocParams pa = p;
        pa.stepping = "all";
        Network lazy(p), eager(pa), untouched(p);
        TrafficParams t;
        t.rate = rate;
        t.packet_flits = 4;
        t.pattern = "hotspot";
        t.hotspot_fraction = 0.5;
        SyntheticTraffic tl(lazy, t), te(eager, t), tu(untouched, t);
        Occupancy occ(p.num_nodes());
        untouched.set_trace_hook(&occ);
        std::vector<std::uint64_t> brute(p.num_nodes(), 0);
        for (std::uint64_t c = 0; c < 3000; ++c) {
            tl.inject();
            te.inject();
            tu.inject();
            lazy.step();
            eager.step();
            untouched.step();
            for (unsigned r = 0; r < p.num_nodes(); ++r) brute[r] += occ.now[r];
            if (c % 97 == 13) {  // mid-run reads settle the lazy network to its cycle
                for (unsigned r = 0; r < p.num_nodes(); ++r) {
                    const RouterCounters& a = lazy.router(r).counters();
                    const RouterCounters& b = eager.router(r).counters();
                    REQUIRE(a.occupancy_sum == b.occupancy_sum);
                    for (unsigned q = 0; q < kNumPorts; ++q) REQUIRE(a.credit_stall[q] == b.credit_stall[q]);
                }
            }
        }
        std::uint64_t stalls = 0;
        for (unsigned r = 0; r < p.num_nodes(); ++r) {
            const RouterCounters& a = lazy.router(r).counters();
            const RouterCounters& b = eager.router(r).counters();
            const RouterCounters& u = untouched.router(r).counters();
            CHECK(a.occupancy_sum == b.occupancy_sum);
            CHECK(u.occupancy_sum == b.occupancy_sum);
            CHECK(u.occupancy_sum == brute[r]);
            for (unsigned q = 0; q < kNumPorts; ++q) {
                CHECK(a.credit_stall[q] == b.credit_stall[q]);
                CHECK(u.credit_stall[q] == b.credit_stall[q]);
                stalls += b.credit_stall[q];
            }
        }
        // The active networks stepped fewer routers than every router in every cycle (routers slept).
        CHECK(untouched.router_steps() < eager.router_steps());
        if (rate > 0.3) CHECK(stalls > 0);  // past saturation: credit stalls were accounted
    }
}
