// A terminal whose sink notifies when it frees room (Network::set_sink_notifies) sleeps while the
// sink refuses every head and is woken by sink_ready(): the same packets are delivered in the same
// cycles, with the same counters, as with a terminal that polls its refused heads every cycle,
// also when the room is freed at the instant of a cycle before that cycle's step refuses a head.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "models/noc/network.h"

using namespace vp::noc;

namespace {
// The hot node takes at most `slots` requests at a time; the test frees one every `period` cycles.
// Other nodes accept everything.
struct SlotSink : PacketSink {
    const Network* net = nullptr;
    unsigned hot = 0, slots = 0, taken = 0;
    // A slot freed at the instant of cycle hold_until - 1, before its step, counts as taken in
    // that cycle (as FreedSlots does for the NI models).
    unsigned held = 0;
    std::uint64_t hold_until = 0;
    std::uint64_t refusals = 0;
    std::vector<std::uint64_t> delivered;  // (cycle << 16 | node << 8 | src) per delivery
    bool can_accept(unsigned n, const PacketInfo&) override {
        if (n != hot) return true;
        if (taken + (net->cycle() < hold_until ? held : 0) >= slots) {
            ++refusals;
            return false;
        }
        ++taken;
        return true;
    }
    void deliver(unsigned n, std::uint32_t, const PacketInfo& info, std::uint64_t c) override {
        delivered.push_back(c << 16 | std::uint64_t(n) << 8 | info.src);
    }
};

struct Run {
    std::vector<std::uint64_t> delivered;
    std::uint64_t refusals = 0, flits_ejected = 0, end_cycle = 0;
};

Run run(bool notifies, unsigned vcs, unsigned slots, unsigned period) {
    NocParams p;
    p.width = 4;
    p.height = 4;
    p.num_vcs = vcs;
    p.buffer_depth = 4;
    p.eject_depth = 4;
    p.watchdog_cycles = 2000;
    p.validate("noc");
    Network net(p);
    SlotSink sink;
    sink.hot = 5;
    sink.slots = slots;
    sink.net = &net;
    net.set_sink(&sink);
    if (notifies) net.set_sink_notifies(sink.hot);
    // Every node sends requests of 1-4 flits to the hot node, and some traffic between the others.
    std::uint32_t n = 0;
    for (unsigned round = 0; round < 6; ++round)
        for (unsigned s = 0; s < 16; ++s) {
            if (s == sink.hot) continue;
            net.send(s, sink.hot, PacketType::kReadRequest, 8 * (1 + (s + round) % 4) - 8);
            net.send(s, (s + 3) % 16 == sink.hot ? 0 : (s + 3) % 16, PacketType::kReadResponse, 16);
            ++n;
        }
    std::uint64_t freed = 0;
    for (int i = 0; i < 20000 && net.packets_alive() > 0; ++i) {
        // Free a slot, alternately between two cycles (the sink may accept in the next stepped
        // cycle) and at the instant of the next cycle before its step (from the cycle after it).
        if (net.cycle() % period == 0 && sink.taken > 0 && freed < n) {
            --sink.taken;
            if (++freed % 2) {
                net.sink_ready(sink.hot, net.cycle());
            } else {
                sink.held = 1;
                sink.hold_until = net.cycle() + 1;
                net.sink_ready(sink.hot, net.cycle() + 1);
            }
        }
        net.step();
    }
    REQUIRE(net.packets_alive() == 0);
    Run r;
    r.delivered = sink.delivered;
    r.refusals = sink.refusals;
    r.flits_ejected = net.totals().term.flits_ejected;
    r.end_cycle = net.cycle();
    return r;
}
}  // namespace

TEST_CASE("a terminal sleeping on a refusing sink ejects as one that polls every cycle", "[noc][ejection]") {
    for (unsigned vcs : {1u, 2u, 3u})
        for (unsigned slots : {1u, 2u, 4u})
            for (unsigned period : {1u, 3u, 7u}) {
                INFO("vcs " << vcs << " slots " << slots << " period " << period);
                const Run poll = run(false, vcs, slots, period), sleep = run(true, vcs, slots, period);
                if (period > 1) REQUIRE(poll.refusals > 0);
                REQUIRE(sleep.delivered == poll.delivered);
                REQUIRE(sleep.flits_ejected == poll.flits_ejected);
                REQUIRE(sleep.end_cycle == poll.end_cycle);
                // The sleeping terminal asks the sink less often.
                REQUIRE(sleep.refusals <= poll.refusals);
                if (period > 1) REQUIRE(sleep.refusals < poll.refusals);
            }
}
