// The tracing hook reports value changes of per-router occupancy and flits sent per
// cycle; replaying the changes must reproduce the routers' own counters.
#include <catch2/catch.hpp>

#include <vector>

#include "models/noc/synthetic_traffic.h"

using namespace vp::noc;

namespace {
struct Change {
    unsigned router;
    std::uint64_t cycle;
    std::uint32_t occ, out;
};
struct Recorder : TraceHook {
    std::vector<Change> changes;
    void router_changed(unsigned r, std::uint64_t c, std::uint32_t occ, std::uint32_t out) override {
        changes.push_back({r, c, occ, out});
    }
};
}  // namespace

TEST_CASE("trace hook value changes replay to the router counters", "[noc][trace]") {
    NocParams p;
    p.width = p.height = 3;
    p.validate("noc");
    Network net(p);
    Recorder rec;
    net.set_trace_hook(&rec);
    TrafficParams t;
    t.rate = 0.2;
    t.packet_flits = 3;
    t.warmup_cycles = 0;
    t.measure_cycles = 500;
    t.drain_max_cycles = 0;
    SyntheticTraffic traffic(net, t);
    traffic.run();
    const std::uint64_t end = net.cycle();
    std::vector<std::uint64_t> out_sum(9, 0), occ_sum(9, 0);
    std::vector<std::uint32_t> occ_max(9, 0);
    // Hold each router's last reported values from its change cycle up to the next change.
    std::vector<Change> last(9, Change{0, 0, 0, 0});
    auto flush = [&](unsigned r, std::uint64_t until) {
        const Change& l = last[r];
        out_sum[r] += std::uint64_t(l.out) * (until - l.cycle);
        occ_sum[r] += std::uint64_t(l.occ) * (until - l.cycle);
        if (l.occ > occ_max[r]) occ_max[r] = l.occ;
    };
    for (const Change& c : rec.changes) {
        flush(c.router, c.cycle);
        last[c.router] = c;
    }
    for (unsigned r = 0; r < 9; ++r) flush(r, end);
    REQUIRE(!rec.changes.empty());
    for (unsigned r = 0; r < 9; ++r) {
        const RouterCounters& c = net.router(r).counters();
        std::uint64_t out = 0;
        for (unsigned q = 0; q < kNumPorts; ++q) out += c.flits_out[q];
        REQUIRE(out_sum[r] == out);
        REQUIRE(occ_sum[r] == c.occupancy_sum);
        REQUIRE(occ_max[r] == c.occupancy_max);
    }
}
