// Scheduler and timing of one DRAM channel, driven cycle by cycle without a kernel.
// Expected latencies are the analytic DDR3-1600 formulas (JEDEC timing sums), counted as
// Ramulator 2, DRAMSys and DRAMsim3 count them: from the cycle the request is accepted
// (that cycle included; the first command goes out in the next one) to the last data beat.
#include <catch2/catch.hpp>

#include <random>

#include "models/dram/address_mapper.h"
#include "models/dram/dram_channel.h"
#include "models/dram/dram_params.h"
#include "models/dram/timing_table.h"

using namespace vp::dram;

namespace {

DramParams ddr3(bool refresh = false) {
    DramParams p = DramParams::from_preset("ddr3-1600", "dram.preset");
    p.refresh = refresh;
    return p;
}

// fn(p, m) for every preset under every address mapping, with 2 channels and 2 ranks (so that
// every field of an address has bits).
template <class Fn>
void for_each_mapping(Fn&& fn) {
    for (const std::string& scheme : AddressMapper::names()) {
        for (const std::string& preset : DramParams::preset_names()) {
            DramParams p = DramParams::from_preset(preset, "k");
            p.channels = 2;
            p.ranks = 2;
            p.address_mapping = scheme;
            const AddressMapper m(p);
            fn(p, m);
        }
    }
}

// Runs the channel until `tag` completes; returns the completion cycle.
std::uint64_t run_until_done(DramChannel& ch, void* tag, std::uint64_t& now) {
    for (int guard = 0; guard < 1000000; ++guard) {
        ch.step(now);
        for (const auto& c : ch.completions())
            if (c.tag == tag) {
                std::uint64_t done = c.cycle;
                ch.completions().clear();
                return done;
            }
        ch.completions().clear();
        now = ch.next_wake(now);
    }
    FAIL("request never completed");
    return 0;
}

// Closed-loop driver: keeps `outstanding` requests queued, returns the cycles taken.
struct Driver {
    DramParams p;
    AddressMapper map;
    TimingTable table;
    DramChannel ch;
    explicit Driver(const DramParams& params) : p(params), map(p), table(p), ch(p, map, table) {}

    template <typename AddrFn>
    std::uint64_t run(std::uint64_t n, unsigned outstanding, AddrFn addr_of, double read_frac = 1.0,
                      std::uint64_t seed = 1) {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> uni(0, 1);
        std::uint64_t issued = 0, done = 0, now = 0, last = 0;
        unsigned in_flight = 0;
        while (done < n) {
            while (issued < n && in_flight < outstanding && !ch.full()) {
                bool rd = uni(rng) < read_frac;
                ch.enqueue(reinterpret_cast<void*>(issued + 1), !rd, addr_of(issued, rng), 64, now);
                ++issued;
                ++in_flight;
            }
            ch.step(now);
            for (const auto& c : ch.completions()) {
                ++done;
                --in_flight;
                last = std::max(last, c.cycle);
            }
            ch.completions().clear();
            now = (issued < n && in_flight < outstanding) ? now + 1 : ch.next_wake(now);
        }
        ch.finish(last);
        return last;
    }
};

}  // namespace

TEST_CASE("DDR3-1600 unloaded read latencies equal the timing formulas", "[dram]") {
    DramParams p = ddr3();
    AddressMapper map(p);
    TimingTable table(p);
    DramChannel ch(p, map, table);
    const auto& t = p.t;
    std::uint64_t now = 0;
    int a = 1, b = 2, c = 3;

    // Closed bank: accepted in cycle 0, ACT in cycle 1, RD tRCD later, last data CL + BL/2 after RD.
    ch.enqueue(&a, false, 0, 64, now);
    std::uint64_t start = now;
    std::uint64_t done = run_until_done(ch, &a, now);
    CHECK(done - start == 1 + t.tRCD + t.CL + p.burst_cycles());
    CHECK((done - start) * p.tck_ps == 31250);  // 31.25 ns

    // Row hit: same row, later.
    now = done + 100;
    start = now;
    ch.enqueue(&b, false, 64, 64, now);
    done = run_until_done(ch, &b, now);
    CHECK(done - start == 1 + t.CL + p.burst_cycles());
    CHECK((done - start) * p.tck_ps == 18750);  // 18.75 ns

    // Row conflict: another row of bank 0 (tRAS long elapsed): PRE, ACT, RD.
    DramAddress other = map.decode(0);
    other.row = 5;
    now = done + 100;
    start = now;
    ch.enqueue(&c, false, map.encode(other), 64, now);
    done = run_until_done(ch, &c, now);
    CHECK(done - start == 1 + t.tRP + t.tRCD + t.CL + p.burst_cycles());
    CHECK((done - start) * p.tck_ps == 43750);  // 43.75 ns

    CHECK(ch.counters().row_misses == 1);
    CHECK(ch.counters().row_hits == 1);
    CHECK(ch.counters().row_conflicts == 1);
}

TEST_CASE("a conflict right after an ACT waits for tRAS", "[dram]") {
    DramParams p = ddr3();
    AddressMapper map(p);
    TimingTable table(p);
    DramChannel ch(p, map, table);
    int a = 1, b = 2;
    std::uint64_t now = 0;
    ch.enqueue(&a, false, 0, 64, now);
    run_until_done(ch, &a, now);
    DramAddress other = map.decode(0);
    other.row = 9;
    ch.enqueue(&b, false, map.encode(other), 64, now);
    std::uint64_t done = run_until_done(ch, &b, now);
    // PRE no earlier than tRAS after the ACT at cycle 1, then tRP + tRCD + CL + burst.
    CHECK(done == 1 + p.t.tRAS + p.t.tRP + p.t.tRCD + p.t.CL + p.burst_cycles());
}

TEST_CASE("write then read of the same address keeps order (read-after-write)", "[dram]") {
    DramParams p = ddr3();
    AddressMapper map(p);
    TimingTable table(p);
    DramChannel ch(p, map, table);
    int w = 1, r = 2;
    std::uint64_t now = 0;
    ch.enqueue(&w, true, 4096, 64, now);
    ch.enqueue(&r, false, 4096, 64, now);
    std::vector<void*> order;
    for (int i = 0; i < 1000 && order.size() < 2; ++i) {
        ch.step(now);
        for (auto& c : ch.completions()) order.push_back(c.tag);
        ch.completions().clear();
        now = ch.next_wake(now);
    }
    REQUIRE(order.size() == 2);
    CHECK(order[0] == &w);
    CHECK(order[1] == &r);
}

TEST_CASE("sequential reads reach at least 90 % of the 12.8 GB/s peak with refresh on", "[dram]") {
    Driver d(ddr3(true));
    const std::uint64_t n = 100000;
    std::uint64_t cycles = d.run(n, 32, [](std::uint64_t i, std::mt19937_64&) { return i * 64; });
    double gbps = double(n * 64) / (double(cycles) * d.p.tck_ps * 1e-12) * 1e-9;
    INFO("sequential bandwidth " << gbps << " GB/s");
    CHECK(gbps >= 0.9 * 12.8);
    CHECK(gbps <= 12.8);
    CHECK(d.ch.counters().refreshes >= cycles / d.p.t.tREFI - 1);
    CHECK(d.ch.counters().refreshes <= cycles / d.p.t.tREFI + 1);
}

TEST_CASE("random reads reach far less than sequential, the ACT window limits them", "[dram]") {
    Driver d(ddr3(true));
    const std::uint64_t n = 50000;
    std::uint64_t cycles = d.run(n, 32, [](std::uint64_t, std::mt19937_64& rng) { return (rng() % (1u << 24)) * 64; });
    double gbps = double(n * 64) / (double(cycles) * d.p.tck_ps * 1e-12) * 1e-9;
    INFO("random bandwidth " << gbps << " GB/s");
    // At most 4 ACTs per tFAW: 4 x 64 B / 30 ns = 8.53 GB/s for a row-miss-only stream.
    CHECK(gbps < 4.0 * 64 / (d.p.t.tFAW * d.p.tck_ps * 1e-12) * 1e-9 * 1.001);
    CHECK(gbps < 0.75 * 12.8);
    CHECK(d.ch.counters().row_conflicts + d.ch.counters().row_misses > n * 9 / 10);
}

TEST_CASE("FR-FCFS beats FCFS on a mixed stream", "[dram]") {
    // Two interleaved streams: sequential reads in one region, random writes/reads in another.
    auto addr = [](std::uint64_t i, std::mt19937_64& rng) -> std::uint64_t {
        if (i % 2 == 0) return (i / 2) * 64;
        return (1u << 28) + (rng() % (1u << 20)) * 64;
    };
    DramParams pf = ddr3(true);
    pf.scheduler = Scheduler::FrFcfs;
    DramParams pc = pf;
    pc.scheduler = Scheduler::Fcfs;
    Driver fr(pf), fc(pc);
    std::uint64_t c_fr = fr.run(40000, 32, addr, 0.8, 5);
    std::uint64_t c_fc = fc.run(40000, 32, addr, 0.8, 5);
    INFO("FR-FCFS " << c_fr << " cycles, FCFS " << c_fc << " cycles");
    CHECK(c_fr < c_fc);
    CHECK(fr.ch.counters().row_hits > fc.ch.counters().row_hits);
}

TEST_CASE("closed-page policy turns every isolated access into a row miss", "[dram]") {
    DramParams p = ddr3();
    p.page_policy = PagePolicy::Closed;
    AddressMapper map(p);
    TimingTable table(p);
    DramChannel ch(p, map, table);
    int a = 1, b = 2;
    std::uint64_t now = 0;
    ch.enqueue(&a, false, 0, 64, now);
    std::uint64_t d1 = run_until_done(ch, &a, now);
    now = d1 + 100;
    ch.enqueue(&b, false, 64, 64, now);  // same row, but it was closed
    std::uint64_t d2 = run_until_done(ch, &b, now);
    CHECK(d2 - (d1 + 100) == 1 + p.t.tRCD + p.t.CL + p.burst_cycles());
    CHECK(ch.counters().row_hits == 0);
    CHECK(ch.counters().row_misses == 2);
}

TEST_CASE("a multi-burst request completes after all its bursts, back to back", "[dram]") {
    DramParams p = ddr3();
    AddressMapper map(p);
    TimingTable table(p);
    DramChannel ch(p, map, table);
    int a = 1;
    std::uint64_t now = 0;
    ch.enqueue(&a, false, 0, 256, now);  // 4 bursts in one row
    std::uint64_t done = run_until_done(ch, &a, now);
    CHECK(done == 1 + p.t.tRCD + p.t.CL + 4 * p.burst_cycles());
    CHECK(ch.counters().read_bursts == 4);
    CHECK(ch.counters().bytes_read == 256);
}

TEST_CASE("address mappers are bijective on burst addresses", "[dram]") {
    for_each_mapping([](const DramParams& p, const AddressMapper& m) {
        std::mt19937_64 rng(3);
        for (int i = 0; i < 2000; ++i) {
            std::uint64_t a = (rng() % p.capacity_bytes()) / p.burst_bytes() * p.burst_bytes();
            DramAddress d = m.decode(a);
            CHECK(d.row < p.rows);
            CHECK(d.bank < p.banks());
            CHECK(d.channel < p.channels);
            CHECK(d.rank < p.ranks);
            CHECK(m.encode(d) == a);
        }
    });
}

TEST_CASE("bank_mask / row_mask / group_mask agree with the decoded fields", "[dram]") {
    // Two addresses agree on bank_mask iff they decode to the same channel, rank, bank group and
    // bank; on bank_mask and row_mask iff also the same row; on group_mask iff the same channel,
    // rank and bank group (the cost models use the masks without decoding).
    for_each_mapping([](const DramParams& p, const AddressMapper& m) {
        const std::uint64_t bm = m.bank_mask(), rm = m.row_mask(), gm = m.group_mask();
        std::mt19937_64 rng(5);
        for (int i = 0; i < 4000; ++i) {
            const std::uint64_t a = rng() % p.capacity_bytes();
            // Half of the pairs near each other (same row or group more often).
            const std::uint64_t b = i % 2 ? rng() % p.capacity_bytes() : (a ^ (rng() & 0x3FFFF)) % p.capacity_bytes();
            const DramAddress x = m.decode(a), y = m.decode(b);
            const bool group = x.channel == y.channel && x.rank == y.rank && x.bank_group == y.bank_group;
            const bool bank = group && x.bank == y.bank;
            CHECK(((a & gm) == (b & gm)) == group);
            CHECK(((a & bm) == (b & bm)) == bank);
            CHECK(((a & bm) == (b & bm) && (a & rm) == (b & rm)) == (bank && x.row == y.row));
            CHECK(((a & m.channel_mask()) == (b & m.channel_mask())) == (x.channel == y.channel));
        }
    });
}

TEST_CASE("row_bank_col keeps a whole row of consecutive addresses in one bank", "[dram]") {
    DramParams p = ddr3();
    AddressMapper m(p);
    DramAddress first = m.decode(0);
    for (std::uint64_t a = 0; a < p.row_bytes(); a += 64) {
        DramAddress d = m.decode(a);
        CHECK(d.bank == first.bank);
        CHECK(d.row == first.row);
    }
    CHECK(m.decode(p.row_bytes()).bank != first.bank);
}

TEST_CASE("bus_turnarounds counts the direction changes of the column commands on the bus", "[dram]") {
    // Independent count: an observer sees every command; a turnaround is a column command whose
    // direction differs from the previous column command's. One request at a time in issue order
    // (the count is then also the direction changes of the issued sequence), and 32 at a time with
    // FR-FCFS and FCFS, where the scheduler reorders.
    struct Count : CommandObserver {
        int last = -1;
        std::uint64_t changes = 0, columns = 0;
        void on_command(const CommandRecord& r) override {
            if (!is_column(r.cmd)) return;
            const int dir = is_write(r.cmd) ? 1 : 0;
            if (last >= 0 && dir != last) ++changes;
            last = dir;
            ++columns;
        }
    };
    auto addr = [](std::uint64_t, std::mt19937_64& rng) -> std::uint64_t { return (rng() % (1u << 22)) * 64; };
    {
        Driver d(ddr3(true));
        Count obs;
        d.ch.set_observer(&obs);
        // One at a time: the directions are those the driver draws, in order.
        std::mt19937_64 rng(3);
        std::uniform_real_distribution<double> uni(0, 1);
        std::uint64_t now = 0, expected = 0;
        int prev = -1;
        for (std::uint64_t i = 0; i < 2000; ++i) {
            const bool write = uni(rng) < 0.4;
            if (prev >= 0 && int(write) != prev) ++expected;
            prev = int(write);
            void* tag = reinterpret_cast<void*>(i + 1);
            d.ch.enqueue(tag, write, addr(i, rng), 64, now);
            run_until_done(d.ch, tag, now);
        }
        CHECK(obs.columns == 2000);
        CHECK(obs.changes == expected);
        CHECK(d.ch.counters().bus_turnarounds == expected);
        CHECK(expected > 500);
    }
    for (Scheduler s : {Scheduler::FrFcfs, Scheduler::Fcfs}) {
        DramParams p = ddr3(true);
        p.scheduler = s;
        Driver d(p);
        Count obs;
        d.ch.set_observer(&obs);
        d.run(20000, 32, addr, 0.7, 9);
        INFO("scheduler " << int(s) << ": " << obs.changes << " changes");
        CHECK(obs.changes == d.ch.counters().bus_turnarounds);
        CHECK(obs.changes > 1000);
    }
    Driver reads(ddr3(true));
    reads.run(5000, 32, addr, 1.0, 4);
    CHECK(reads.ch.counters().bus_turnarounds == 0);
}
