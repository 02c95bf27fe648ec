// The channel scheduler's command stream, read by the independent protocol checker
// (models/dram/check, which shares no code with the scheduler or its timing table):
// nothing is reported across presets, address mappings, 1 and 2 ranks, open and closed
// page, both schedulers and many traffic patterns. Plus regression tests for three
// findings: one command per tCK, tWTR_L against every earlier write, the starvation cap.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "models/dram/address_mapper.h"
#include "models/dram/dram_channel.h"
#include "models/dram/dram_params.h"
#include "models/dram/protocol_monitor.h"
#include "models/dram/timing_table.h"

using namespace vp::dram;

namespace {

struct Recorder : CommandObserver {
    std::vector<CommandRecord> cmds;
    void on_command(const CommandRecord& r) override { cmds.push_back(r); }
};

struct Fan : CommandObserver {
    std::vector<CommandObserver*> to;
    void on_command(const CommandRecord& r) override {
        for (auto* o : to) o->on_command(r);
    }
};

enum class Pattern { Sequential, Strided, Random, Mixed, Hotspot };

// One channel driven closed-loop with `outstanding` requests, every command checked.
struct Rig {
    DramParams p;
    AddressMapper map;
    TimingTable table;
    DramChannel ch;
    ProtocolMonitor monitor;
    Recorder rec;
    Fan fan;
    std::uint64_t double_issues = 0;  // cycles in which a second step() issued a command
    explicit Rig(const DramParams& params) : p(params), map(p), table(p), ch(p, map, table), monitor(p) {
        fan.to = {&monitor, &rec};
        ch.set_observer(&fan);
    }

    // Returns the last completion cycle. step() is called twice per visited cycle: the
    // second call must never issue (one command per tCK).
    std::uint64_t run(Pattern pat, std::uint64_t n, unsigned outstanding, double read_frac, std::uint64_t seed,
                      unsigned bytes = 64) {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> uni(0, 1);
        const std::uint64_t cap = p.capacity_bytes();
        std::uint64_t issued = 0, done = 0, now = 0, last = 0;
        unsigned in_flight = 0;
        while (done < n) {
            while (issued < n && in_flight < outstanding && !ch.full()) {
                std::uint64_t a = 0;
                switch (pat) {
                case Pattern::Sequential: a = issued * bytes % cap; break;
                case Pattern::Strided: a = issued * 8192 * 3 % cap; break;
                case Pattern::Random: a = rng() % (cap / bytes) * bytes; break;
                case Pattern::Mixed: a = issued % 2 ? rng() % (cap / bytes) * bytes : (issued / 2) * bytes % cap; break;
                case Pattern::Hotspot: a = (rng() % 4 ? rng() % 64 : rng() % (cap / bytes)) * bytes; break;
                }
                if (a + bytes > cap) a = 0;
                const bool rd = uni(rng) < read_frac;
                ch.enqueue(reinterpret_cast<void*>(issued + 1), !rd, a, bytes, now);
                ++issued;
                ++in_flight;
            }
            const bool first = ch.step(now);
            if (ch.step(now) && first) ++double_issues;
            for (const auto& c : ch.completions()) {
                ++done;
                --in_flight;
                last = std::max(last, c.cycle);
            }
            ch.completions().clear();
            // Sometimes let a few idle cycles pass, so that requests also meet idle banks.
            const bool pause = (rng() & 63) == 0;
            now = (issued < n && in_flight < outstanding && !pause) ? now + 1 : ch.next_wake(now);
        }
        ch.finish(last);
        monitor.finish(last);
        return last;
    }
};

DramParams preset(const std::string& name) {
    DramParams p = DramParams::from_preset(name, "dram.preset");
    p.refresh = true;
    return p;
}

void require_legal(Rig& rig, const std::string& what) {
    INFO(what << ": " << rig.monitor.first().message);
    CHECK(rig.monitor.ok());
    CHECK(rig.monitor.commands() == rig.rec.cmds.size());
    CHECK(rig.monitor.commands() > 0);
    CHECK(rig.double_issues == 0);
}

// DDR3 names one tCCD, tRRD and tWTR (DramParams::validate): its _L values follow the _S ones.
void ddr3_pairs_equal(DramParams& p) {
    if (p.standard != "ddr3") return;
    p.t.tRRD_L = p.t.tRRD_S;
    p.t.tCCD_L = p.t.tCCD_S;
    p.t.tWTR_L = p.t.tWTR_S;
}

// A random pattern, request size, request count (base to 2 x base), depth and read share on a rig
// of `p`, every command checked.
void run_random_legal(const DramParams& p, std::mt19937_64& rng, unsigned base, const std::string& what) {
    p.validate("dram");
    Rig rig(p);
    const Pattern pat = Pattern(rng() % 5);
    const unsigned bytes = 64u << (rng() % 3);
    rig.run(pat, base + rng() % base, 1 + unsigned(rng() % 40), double(rng() % 11) / 10.0, rng(), bytes);
    require_legal(rig, what + " " + p.preset + " " + p.address_mapping + " ranks=" + std::to_string(p.ranks) + " " +
                           to_string(p.page_policy) + " " + to_string(p.scheduler));
}

}  // namespace

TEST_CASE("the controller's commands pass the independent checker across configurations", "[dram][legality]") {
    const Pattern patterns[] = {Pattern::Sequential, Pattern::Strided, Pattern::Random, Pattern::Mixed,
                                Pattern::Hotspot};
    const char* pattern_names[] = {"sequential", "strided", "random", "mixed", "hotspot"};
    std::uint64_t seed = 1;
    for (const std::string& name : DramParams::preset_names())
        for (const std::string& mapping : AddressMapper::names())
            for (unsigned ranks : {1u, 2u})
                for (PagePolicy page : {PagePolicy::Open, PagePolicy::Closed})
                    for (Scheduler sched : {Scheduler::FrFcfs, Scheduler::Fcfs})
                        for (unsigned pi = 0; pi < 5; ++pi) {
                            DramParams p = preset(name);
                            p.address_mapping = mapping;
                            p.ranks = ranks;
                            p.page_policy = page;
                            p.scheduler = sched;
                            // Shorter refresh interval, so that every run crosses several refreshes.
                            p.t.tREFI = p.t.tRFC * 6;
                            Rig rig(p);
                            rig.run(patterns[pi], 1500, 24, 0.7, ++seed, pi == 1 ? 128 : 64);
                            require_legal(rig, name + " " + mapping + " ranks=" + std::to_string(ranks) + " " +
                                                   to_string(page) + " " + to_string(sched) + " " + pattern_names[pi]);
                        }
}

TEST_CASE("random mixes of configuration and traffic pass the independent checker", "[dram][legality]") {
    std::mt19937_64 rng(20240611);
    for (int trial = 0; trial < 60; ++trial) {
        DramParams p = preset(DramParams::preset_names()[rng() % 2]);
        p.address_mapping = AddressMapper::names()[rng() % AddressMapper::names().size()];
        p.ranks = 1u << (rng() % 2);
        p.channels = 1;
        p.page_policy = rng() % 2 ? PagePolicy::Open : PagePolicy::Closed;
        p.scheduler = rng() % 4 ? Scheduler::FrFcfs : Scheduler::Fcfs;
        p.queue_depth = 1 + unsigned(rng() % 48);
        p.starvation_cap = unsigned(rng() % 3) * 8;  // 0 (off), 8, 16
        p.frontend_latency_ck = unsigned(rng() % 3);
        p.t.tREFI = p.t.tRFC * (3 + unsigned(rng() % 6));
        // Perturb the timing (keeping the documented orderings) so that other rows bind.
        p.t.tRRD_L = p.t.tRRD_S + unsigned(rng() % 3);
        p.t.tCCD_L = p.t.tCCD_S + unsigned(rng() % 3);
        p.t.tWTR_L = p.t.tWTR_S + unsigned(rng() % 8);
        p.t.tFAW = p.t.tFAW + unsigned(rng() % 12);
        p.t.tRTRS = unsigned(rng() % 3);
        ddr3_pairs_equal(p);
        run_random_legal(p, rng, 800, "trial " + std::to_string(trial) + " q=" + std::to_string(p.queue_depth));
    }
}

TEST_CASE("random timing sets pass the independent checker", "[dram][legality]") {
    // Every timing parameter drawn in its valid range (DramParams::validate), tRC anywhere from
    // tRAS up: with tRC < tRAS + tRP an ACT after an auto-precharge must still wait tRAS + tRP
    // from the bank's previous ACT (the precharge cannot start before tRAS), which tRC alone
    // did not enforce (found with tRAS 35, tRP 23, tRC 38, closed page).
    std::mt19937_64 rng(20261207);
    unsigned lockout_bound = 0;  // trials whose tRAS + tRP exceeds tRC
    for (int trial = 0; trial < 80; ++trial) {
        DramParams p = preset(DramParams::preset_names()[rng() % 2]);
        p.address_mapping = AddressMapper::names()[rng() % AddressMapper::names().size()];
        p.ranks = 1u << (rng() % 2);
        p.page_policy = rng() % 2 ? PagePolicy::Open : PagePolicy::Closed;
        p.scheduler = rng() % 4 ? Scheduler::FrFcfs : Scheduler::Fcfs;
        p.queue_depth = 1 + unsigned(rng() % 48);
        auto draw = [&](unsigned lo, unsigned hi) { return lo + unsigned(rng() % (hi - lo + 1)); };
        DramTiming& t = p.t;
        t.CL = draw(5, 24);
        t.CWL = draw(4, 20);
        t.tRCD = draw(3, 24);
        t.tRP = draw(3, 24);
        t.tRAS = draw(8, 50);
        t.tRC = t.tRAS + draw(0, 30);
        t.tCCD_S = draw(1, 8);
        t.tCCD_L = t.tCCD_S + draw(0, 4);
        t.tRRD_S = draw(1, 8);
        t.tRRD_L = t.tRRD_S + draw(0, 4);
        t.tFAW = draw(0, 50);
        t.tWR = draw(0, 24);
        t.tWTR_S = draw(0, 8);
        t.tWTR_L = t.tWTR_S + draw(0, 8);
        t.tRTP = draw(0, 12);
        t.tRTRS = draw(0, 4);
        t.tRFC = draw(20, 300);
        t.tREFI = t.tRFC + t.tRP + draw(200, 3000);
        ddr3_pairs_equal(p);
        lockout_bound += t.tRC < t.tRAS + t.tRP;
        run_random_legal(p, rng, 600, "trial " + std::to_string(trial) + " tRAS=" + std::to_string(t.tRAS) +
                                          " tRP=" + std::to_string(t.tRP) + " tRC=" + std::to_string(t.tRC));
    }
    CHECK(lockout_bound > 20);
}

TEST_CASE("regression: a hit that waits for an older overlapping write does not hold its row open", "[dram][legality]") {
    // A 256-B write over two rows of one bank (128-B rows, bank_row_col), and a younger read of its
    // first bytes. After the write's bursts in row 0 the write needs a PRE; the read hits row 0 but
    // must wait for the write (overlapping bytes). Holding row 0 open for that hit deadlocked both
    // (found with streams sharing a range on a 16-column DRAM).
    for (bool reference : {false, true})
        for (Scheduler sched : {Scheduler::FrFcfs, Scheduler::Fcfs}) {
            DramParams p = preset("ddr3-1600");
            p.refresh = false;
            p.columns = 16;  // 16 x 8 B = 128-B rows: two 64-B bursts
            p.address_mapping = "bank_row_col";
            p.scheduler = sched;
            p.reference_scheduler = reference;
            Rig rig(p);
            int w = 0, r = 0;
            rig.ch.enqueue(&w, true, 0, 256, 0);
            rig.ch.enqueue(&r, false, 0, 64, 0);
            std::uint64_t now = 0;
            std::vector<void*> done;
            for (int i = 0; i < 10000 && rig.ch.occupancy(); ++i) {
                rig.ch.step(now);
                for (const auto& c : rig.ch.completions()) done.push_back(c.tag);
                rig.ch.completions().clear();
                now = rig.ch.next_wake(now);
            }
            INFO("reference " << reference << ", " << to_string(sched));
            REQUIRE(done.size() == 2);
            CHECK(done[0] == &w);  // the read comes after the write it overlaps
            CHECK(done[1] == &r);
            rig.monitor.finish(now);
            CHECK(rig.monitor.ok());
        }
}

TEST_CASE("DDR3 refuses different _S and _L values of tCCD, tRRD and tWTR", "[dram][legality]") {
    DramParams p = preset("ddr3-1600");
    p.t.tWTR_L = p.t.tWTR_S + 2;
    CHECK_THROWS_WITH(p.validate("dram"), Catch::Contains("dram.timing.tWTR_L: DDR3 has one tWTR") &&
                                              Catch::Contains("got 6 and 8 (set both)"));
    p = preset("ddr3-1600");
    p.t.tRRD_S = 4;
    p.t.tRRD_L = 4;
    p.t.tCCD_S = p.t.tCCD_L = 5;
    CHECK_NOTHROW(p.validate("dram"));
    p.t.tCCD_S = 3;
    CHECK_THROWS_WITH(p.validate("dram"), Catch::Contains("dram.timing.tCCD_L: DDR3 has one tCCD"));
    DramParams q = preset("ddr4-2400");
    q.t.tWTR_L = q.t.tWTR_S + 2;  // DDR4: bank groups, _L may exceed _S
    CHECK_NOTHROW(q.validate("dram"));
}

TEST_CASE("regression: no two commands share a tCK on DDR3 random and mixed traffic", "[dram][legality]") {
    for (Pattern pat : {Pattern::Random, Pattern::Mixed}) {
        Rig rig(preset("ddr3-1600"));
        rig.run(pat, 20000, 32, 0.7, 7);
        std::map<std::uint64_t, unsigned> per_cycle;
        for (const auto& c : rig.rec.cmds) ++per_cycle[c.cycle];
        unsigned shared = 0;
        for (const auto& [cycle, n] : per_cycle) shared += n > 1;
        CHECK(shared == 0);
        CHECK(rig.rec.cmds.size() > 40000);
    }
}

TEST_CASE("regression: DDR4 tWTR_L holds against an older write of the same bank group", "[dram][legality]") {
    DramParams p = preset("ddr4-2400");
    p.refresh = false;
    p.address_mapping = "row_col_bank";  // consecutive bursts over bank groups and banks
    Rig rig(p);
    AddressMapper& m = rig.map;
    DramAddress bg0 = m.decode(0), bg1 = m.decode(0);
    bg1.bank_group = 1;
    bg1.bank = 1 * p.banks_per_group;
    DramAddress bg0b = bg0;
    bg0b.bank = bg0.bank + 1;  // another bank of bank group 0
    int w0 = 0, w1 = 0, r0 = 0;
    std::uint64_t now = 0;
    rig.ch.enqueue(&w0, true, m.encode(bg0), 64, now);
    rig.ch.enqueue(&w1, true, m.encode(bg1), 64, now);
    rig.ch.enqueue(&r0, false, m.encode(bg0b), 64, now);
    for (int i = 0; i < 1000 && rig.ch.occupancy(); ++i) {
        rig.ch.step(now);
        rig.ch.completions().clear();
        now = rig.ch.next_wake(now);
    }
    std::uint64_t wr_bg0 = 0, wr_bg1 = 0, rd = 0;
    for (const auto& c : rig.rec.cmds) {
        if (c.cmd == Command::Wr && c.bank_group == 0) wr_bg0 = c.cycle;
        if (c.cmd == Command::Wr && c.bank_group == 1) wr_bg1 = c.cycle;
        if (c.cmd == Command::Rd) rd = c.cycle;
    }
    REQUIRE(rd > 0);
    REQUIRE(wr_bg1 > wr_bg0);  // the newest write is in the other bank group
    // JESD79-4B: a read waits CWL + BL/2 + tWTR_L after a write to its bank group.
    CHECK(rd - wr_bg0 >= p.t.CWL + p.burst_cycles() + p.t.tWTR_L);
    CHECK(rd - wr_bg1 >= p.t.CWL + p.burst_cycles() + p.t.tWTR_S);
    CHECK(rig.monitor.ok());
}

namespace {
// A stream of row hits to one bank that never ends while the queue has room, and one
// request to another row of that bank queued behind 8 hits. Returns the completion
// cycle of that request and the number of hits completed before it. (The same bound
// holds for a write kept out by the read-to-write turnaround of a read stream.)
std::pair<std::uint64_t, unsigned> starve(unsigned cap) {
    DramParams p = preset("ddr3-1600");
    p.refresh = false;
    p.starvation_cap = cap;
    Rig rig(p);
    AddressMapper& m = rig.map;
    int conflict = 0;
    DramAddress other = m.decode(0);
    other.row = 7;
    std::uint64_t now = 0, next_col = 0, hits_before = 0;
    std::uint64_t done = 0;
    auto add_hit = [&] {
        DramAddress a = m.decode(0);
        a.column = next_col++ % (p.columns / p.burst_length);
        rig.ch.enqueue(reinterpret_cast<void*>(next_col + 100), false, m.encode(a), 64, now);
    };
    for (int i = 0; i < 8; ++i) add_hit();
    rig.ch.enqueue(&conflict, false, m.encode(other), 64, now);
    for (int i = 0; i < 200000 && !done; ++i) {
        while (!rig.ch.full() && next_col < 4000) add_hit();
        rig.ch.step(now);
        for (const auto& c : rig.ch.completions()) {
            if (c.tag == &conflict) done = c.cycle;
            else if (!done) ++hits_before;
        }
        rig.ch.completions().clear();
        now = std::min(rig.ch.next_wake(now), now + 1);
    }
    CHECK(rig.monitor.ok());
    return {done, unsigned(hits_before)};
}
}  // namespace

TEST_CASE("regression: the FR-FCFS starvation cap bounds the wait of a row conflict", "[dram][legality]") {
    const unsigned cap = 16;
    auto [capped_done, capped_hits] = starve(cap);
    auto [free_done, free_hits] = starve(0);
    INFO("cap " << cap << ": conflict done at " << capped_done << " after " << capped_hits << " hits; no cap: " << free_done
                                    << " after " << free_hits);
    REQUIRE(capped_done > 0);
    REQUIRE(free_done > 0);
    // With the cap, the 8 older hits and at most `cap` younger ones go first; without it
    // the whole younger stream does.
    CHECK(capped_hits <= 8 + cap);
    CHECK(capped_hits >= 8);
    CHECK(free_hits >= 3900);
    CHECK(capped_done < free_done / 50);
}
