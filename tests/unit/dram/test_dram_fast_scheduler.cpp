// The per-bank scheduler with next-event wake-ups against the reference, which scans the
// whole queue and is stepped at every cycle: on the same request stream both must issue the
// same commands at the same cycles, complete the same requests at the same cycles and end
// with the same counters, across presets, mappings, ranks, page policies, schedulers,
// starvation caps, multi-burst requests and overlapping reads and writes.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>
#include <tuple>

#include "models/dram/address_mapper.h"
#include "models/dram/dram_channel.h"
#include "models/dram/dram_params.h"
#include "models/dram/timing_table.h"

using namespace vp::dram;

namespace {

struct Log : CommandObserver {
    std::vector<CommandRecord> cmds;
    void on_command(const CommandRecord& r) override { cmds.push_back(r); }
};

struct Arrival {
    std::uint64_t cycle;
    bool write;
    std::uint64_t addr;
    unsigned bytes;
};

struct Outcome {
    std::vector<std::tuple<std::uint64_t, int, unsigned, unsigned, unsigned, std::uint64_t, std::uint64_t>> cmds;
    std::vector<std::pair<std::uint64_t, std::uintptr_t>> done;  // completion cycle, request number
    ChannelCounters counters;
    std::uint64_t steps = 0;  // cycles at which step() was called
};

// Open-loop arrivals (cycle stamps drawn up front) gated by `outstanding`: the stream that
// enters the channel does not depend on which cycles the driver visits, only on completions,
// which both schedulers report at the cycle of the last column command.
Outcome drive(const DramParams& p, bool reference, const std::vector<Arrival>& arrivals, unsigned outstanding) {
    AddressMapper map(p);
    TimingTable table(p);
    DramChannel ch(p, map, table, 0, reference);
    Log log;
    ch.set_observer(&log);
    Outcome o;
    std::size_t next = 0;
    unsigned in_flight = 0;
    std::uint64_t now = 0, last = 0;
    while (o.done.size() < arrivals.size()) {
        while (next < arrivals.size() && in_flight < outstanding && !ch.full() && arrivals[next].cycle <= now) {
            const Arrival& a = arrivals[next];
            ch.enqueue(reinterpret_cast<void*>(next + 1), a.write, a.addr, a.bytes, now);
            ++next;
            ++in_flight;
        }
        ch.step(now);
        ++o.steps;
        for (const auto& c : ch.completions()) {
            o.done.emplace_back(c.cycle, reinterpret_cast<std::uintptr_t>(c.tag));
            --in_flight;
            last = std::max(last, c.cycle);
        }
        ch.completions().clear();
        std::uint64_t wake = ch.next_wake(now);
        if (next < arrivals.size() && in_flight < outstanding && !ch.full())
            wake = std::min(wake, std::max(arrivals[next].cycle, now + 1));
        REQUIRE(wake > now);
        REQUIRE(wake != kNever);
        now = wake;
    }
    ch.finish(last);
    for (const auto& c : log.cmds) o.cmds.emplace_back(c.cycle, int(c.cmd), c.rank, c.bank_group, c.bank, c.row, c.column);
    o.counters = ch.counters();
    return o;
}

enum class Traffic { Random, Mixed, Hotspot };

std::vector<Arrival> arrivals(const DramParams& p, Traffic t, std::size_t n, double read_frac, unsigned max_bursts,
                              std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uni(0, 1);
    const std::uint64_t cap = p.capacity_bytes(), bb = p.burst_bytes();
    std::vector<Arrival> v;
    std::uint64_t cycle = 0;
    for (std::size_t i = 0; i < n; ++i) {
        cycle += (rng() % 4 == 0) ? rng() % 40 : 0;  // bursts of back-to-back arrivals, then gaps
        const unsigned bytes = unsigned(bb * (1 + rng() % max_bursts) - (rng() % 2 ? rng() % bb : 0));
        std::uint64_t a = 0;
        switch (t) {
        case Traffic::Random: a = rng() % (cap / bb) * bb; break;
        case Traffic::Mixed: a = i % 2 ? rng() % (cap / bb) * bb : (i / 2) * bb % cap; break;
        case Traffic::Hotspot: a = (rng() % 4 ? rng() % 256 : rng() % (cap / bb)) * bb + rng() % 8; break;
        }
        if (a + bytes > cap) a = 0;
        v.push_back({cycle, uni(rng) >= read_frac, a, bytes});
    }
    return v;
}

void require_same(const Outcome& fast, const Outcome& ref, const std::string& what) {
    INFO(what << ": " << fast.cmds.size() << " commands, fast path stepped " << fast.steps << " cycles, reference "
              << ref.steps);
    REQUIRE(fast.cmds.size() == ref.cmds.size());
    for (std::size_t i = 0; i < fast.cmds.size(); ++i) {
        INFO("command " << i << " at cycle " << std::get<0>(ref.cmds[i]));
        REQUIRE(fast.cmds[i] == ref.cmds[i]);
    }
    REQUIRE(fast.done == ref.done);
    const ChannelCounters &a = fast.counters, &b = ref.counters;
    CHECK(a.reads == b.reads);
    CHECK(a.writes == b.writes);
    CHECK(a.read_bursts == b.read_bursts);
    CHECK(a.write_bursts == b.write_bursts);
    CHECK(a.bytes_read == b.bytes_read);
    CHECK(a.bytes_written == b.bytes_written);
    CHECK(a.row_hits == b.row_hits);
    CHECK(a.row_misses == b.row_misses);
    CHECK(a.row_conflicts == b.row_conflicts);
    CHECK(a.activates == b.activates);
    CHECK(a.precharges == b.precharges);
    CHECK(a.refreshes == b.refreshes);
    CHECK(a.starvation_caps == b.starvation_caps);
    CHECK(a.data_bus_busy_cycles == b.data_bus_busy_cycles);
    CHECK(a.occupancy_integral == b.occupancy_integral);
    CHECK(a.max_occupancy == b.max_occupancy);
    CHECK(a.bank_activates == b.bank_activates);
    CHECK(a.bank_bursts == b.bank_bursts);
    CHECK(fast.steps < ref.steps);  // the point of the fast path: it skips cycles
}

}  // namespace

TEST_CASE("per-bank scheduler equals the reference stepped every cycle on random traffic", "[dram][fast]") {
    struct Case {
        const char* preset;
        const char* mapping;
        unsigned ranks;
        PagePolicy page;
        Scheduler sched;
        unsigned cap;
        Traffic traffic;
        double read_frac;
        unsigned max_bursts;
    };
    const Case cases[] = {
        {"ddr3-1600", "row_bank_col", 1, PagePolicy::Open, Scheduler::FrFcfs, 16, Traffic::Random, 1.0, 1},
        {"ddr3-1600", "row_bank_col", 1, PagePolicy::Open, Scheduler::FrFcfs, 16, Traffic::Mixed, 0.7, 1},
        {"ddr3-1600", "row_bank_col", 1, PagePolicy::Open, Scheduler::FrFcfs, 0, Traffic::Mixed, 0.5, 3},
        {"ddr3-1600", "row_col_bank", 2, PagePolicy::Open, Scheduler::FrFcfs, 16, Traffic::Hotspot, 0.6, 4},
        {"ddr3-1600", "bank_row_col", 1, PagePolicy::Closed, Scheduler::FrFcfs, 16, Traffic::Random, 0.7, 2},
        {"ddr3-1600", "row_bank_col", 1, PagePolicy::Open, Scheduler::Fcfs, 16, Traffic::Mixed, 0.7, 1},
        {"ddr4-2400", "row_bank_col", 1, PagePolicy::Open, Scheduler::FrFcfs, 16, Traffic::Random, 1.0, 1},
        {"ddr4-2400", "row_col_bank", 1, PagePolicy::Open, Scheduler::FrFcfs, 8, Traffic::Mixed, 0.7, 3},
        {"ddr4-2400", "row_bank_col", 2, PagePolicy::Closed, Scheduler::FrFcfs, 0, Traffic::Hotspot, 0.5, 2},
        {"ddr4-2400", "bank_row_col", 2, PagePolicy::Open, Scheduler::FrFcfs, 16, Traffic::Mixed, 0.8, 1},
    };
    std::uint64_t seed = 11;
    for (const Case& c : cases) {
        DramParams p = DramParams::from_preset(c.preset, "dram.preset");
        p.address_mapping = c.mapping;
        p.ranks = c.ranks;
        p.page_policy = c.page;
        p.scheduler = c.sched;
        p.starvation_cap = c.cap;
        p.refresh = true;
        p.validate("dram");
        const auto stream = arrivals(p, c.traffic, 4000, c.read_frac, c.max_bursts, seed++);
        std::ostringstream what;
        what << c.preset << " " << c.mapping << " ranks " << c.ranks << " " << to_string(c.page) << " "
             << to_string(c.sched) << " cap " << c.cap << " traffic " << int(c.traffic);
        require_same(drive(p, false, stream, 32), drive(p, true, stream, 32), what.str());
    }
}

TEST_CASE("the reference_scheduler parameter selects the reference", "[dram][fast]") {
    DramParams p = DramParams::from_preset("ddr3-1600", "dram.preset");
    p.reference_scheduler = true;
    AddressMapper map(p);
    TimingTable table(p);
    DramChannel ch(p, map, table);
    int a = 0;
    ch.enqueue(&a, false, 0, 64, 0);
    CHECK(ch.next_wake(0) == 1);   // stepped every cycle while requests are queued
    CHECK_FALSE(ch.step(0));       // accepted in cycle 0: schedulable from cycle 1
    p.reference_scheduler = false;
    DramChannel fast(p, map, table);
    fast.enqueue(&a, false, 0, 64, 0);
    CHECK(fast.next_wake(0) == 1);  // the ACT of the closed bank is legal at once
}
