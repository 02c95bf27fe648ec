// The independent DRAM protocol checker on hand-made command streams: each JEDEC rule
// is reported on a stream that breaks it (and only it), and a legal stream passes.
// The timing numbers are typed in here from the DDR4-2400 16-16-16 speed bin (JESD79-4B,
// x8 devices, 4 Gb), not taken from the model's presets.
#include <catch2/catch.hpp>

#include <initializer_list>

#include "models/dram/check/protocol_checker.h"

using namespace vp::dramcheck;

namespace {

JedecParams ddr4(unsigned ranks = 1) {
    JedecParams p;
    p.channels = 1;
    p.ranks = ranks;
    p.bank_groups = 4;
    p.banks_per_group = 4;
    p.burst_cycles = 4;
    p.CL = 16;
    p.CWL = 12;
    p.tRCD = 16;
    p.tRP = 16;
    p.tRAS = 39;
    p.tRC = 55;
    p.tCCD_S = 4;
    p.tCCD_L = 6;
    p.tRRD_S = 4;
    p.tRRD_L = 6;
    p.tFAW = 26;
    p.tWR = 18;
    p.tWTR_S = 3;
    p.tWTR_L = 9;
    p.tRTP = 9;
    p.tRTRS = 1;
    p.tRFC = 312;
    p.tREFI = 9360;
    p.refresh = false;
    return p;
}

// A command; bank is the bank within its group (0..3), so bank index = bg * 4 + b.
Cmd c(std::uint64_t cycle, Op op, unsigned bg = 0, unsigned b = 0, std::uint64_t row = 1, unsigned rank = 0) {
    Cmd x;
    x.cycle = cycle;
    x.op = op;
    x.rank = rank;
    x.bank_group = bg;
    x.bank = bg * 4 + b;
    x.row = row;
    x.column = 0;
    return x;
}

// Feeds the stream; every command but the last must pass, the last must break `rule`.
void expect_rule(const JedecParams& p, std::initializer_list<Cmd> cmds, const std::string& rule) {
    ProtocolChecker k(p);
    std::size_t i = 0;
    for (const Cmd& x : cmds) {
        const bool last = ++i == cmds.size();
        const bool ok = k.check(x);
        INFO("command " << i << " (" << op_name(x.op) << " at " << x.cycle << "): " << k.first().message);
        CHECK(ok == !last);
    }
    REQUIRE(!k.ok());
    INFO(k.first().message);
    CHECK(k.first().rule == rule);
    CHECK(k.first().message.find(rule) == 0);
}

}  // namespace

TEST_CASE("a legal DDR4 command stream passes the checker", "[dram][checker]") {
    JedecParams p = ddr4(2);
    p.refresh = true;
    ProtocolChecker k(p);
    std::vector<Cmd> s = {
        c(0, Op::Act, 0, 0, 5),  c(4, Op::Act, 1, 0, 7),   c(16, Op::Rd, 0, 0, 5),  c(20, Op::Rd, 1, 0, 7),
        c(26, Op::Rd, 0, 0, 5),  c(36, Op::Wr, 0, 0, 5),   c(42, Op::Wr, 1, 0, 7),  c(46, Op::Act, 2, 0, 3),
        c(62, Op::Wr, 2, 0, 3),  c(90, Op::Rd, 3 - 3, 0, 5),
        c(100, Op::Pre, 0, 0),   c(116, Op::Act, 0, 0, 9), c(132, Op::Rda, 0, 0, 9), c(190, Op::Act, 0, 0, 10),
        c(206, Op::Wra, 0, 0, 10), c(270, Op::Prea),        c(286, Op::Ref),         c(598, Op::Act, 0, 1, 2),
    };
    Cmd other_rank = c(105, Op::Act, 0, 0, 4, 1);
    s.insert(s.begin() + 11, other_rank);
    for (const Cmd& x : s) {
        INFO(op_name(x.op) << " at " << x.cycle << ": " << k.first().message);
        CHECK(k.check(x));
    }
    CHECK(k.finish(9000));
    CHECK(k.ok());
    CHECK(k.commands() == s.size());
}

TEST_CASE("checker: one hand-made bad stream per JEDEC rule", "[dram][checker]") {
    const JedecParams p = ddr4();
    SECTION("tRCD") { expect_rule(p, {c(10, Op::Act), c(25, Op::Rd)}, "tRCD"); }
    SECTION("tRAS") { expect_rule(p, {c(10, Op::Act), c(48, Op::Pre)}, "tRAS"); }
    SECTION("tRP") { expect_rule(p, {c(10, Op::Act), c(49, Op::Pre), c(64, Op::Act, 0, 0, 2)}, "tRP"); }
    SECTION("tRP after PREA") { expect_rule(p, {c(0, Op::Act), c(39, Op::Prea), c(54, Op::Act, 0, 0, 2)}, "tRP"); }
    SECTION("tRP after auto-precharge") {
        // RDA at 16: the precharge starts at max(16 + tRTP, 0 + tRAS) = 39, so the next ACT waits until 55.
        expect_rule(p, {c(0, Op::Act), c(16, Op::Rda), c(54, Op::Act, 0, 0, 2)}, "tRP");
    }
    SECTION("tRC") {
        JedecParams q = p;
        q.tRC = 60;  // longer than tRAS + tRP, so that tRC alone is broken
        expect_rule(q, {c(10, Op::Act), c(49, Op::Pre), c(66, Op::Act, 0, 0, 2)}, "tRC");
    }
    SECTION("tRRD_L") { expect_rule(p, {c(10, Op::Act, 0, 0), c(15, Op::Act, 0, 1)}, "tRRD_L"); }
    SECTION("tRRD_S") { expect_rule(p, {c(10, Op::Act, 0, 0), c(13, Op::Act, 1, 0)}, "tRRD_S"); }
    SECTION("tFAW") {
        expect_rule(p,
                    {c(10, Op::Act, 0, 0), c(16, Op::Act, 1, 0), c(22, Op::Act, 2, 0), c(28, Op::Act, 3, 0),
                     c(35, Op::Act, 0, 1)},
                    "tFAW");
    }
    SECTION("tCCD_L") { expect_rule(p, {c(0, Op::Act), c(16, Op::Rd), c(21, Op::Rd)}, "tCCD_L"); }
    SECTION("tCCD_S") {
        expect_rule(p, {c(0, Op::Act, 0, 0), c(4, Op::Act, 1, 0), c(20, Op::Rd, 0, 0), c(23, Op::Rd, 1, 0)}, "tCCD_S");
    }
    SECTION("tWTR_L") { expect_rule(p, {c(0, Op::Act), c(16, Op::Wr), c(40, Op::Rd)}, "tWTR_L"); }
    SECTION("tWTR_L against an older write of the same bank group") {
        // The newest write is in another bank group (tWTR_S is met); the older one is not.
        expect_rule(p,
                    {c(0, Op::Act, 0, 0), c(6, Op::Act, 1, 0), c(22, Op::Wr, 0, 0), c(26, Op::Wr, 1, 0),
                     c(46, Op::Rd, 0, 0)},
                    "tWTR_L");
    }
    SECTION("tWTR_S") {
        expect_rule(p, {c(0, Op::Act, 0, 0), c(4, Op::Act, 1, 0), c(20, Op::Wr, 0, 0), c(38, Op::Rd, 1, 0)}, "tWTR_S");
    }
    SECTION("tRTP") { expect_rule(p, {c(0, Op::Act), c(35, Op::Rd), c(43, Op::Pre)}, "tRTP"); }
    SECTION("tWR") { expect_rule(p, {c(0, Op::Act), c(30, Op::Wr), c(63, Op::Pre)}, "tWR"); }
    SECTION("tRTW") { expect_rule(p, {c(0, Op::Act), c(16, Op::Rd), c(25, Op::Wr)}, "tRTW"); }
    SECTION("tRFC") { expect_rule(p, {c(100, Op::Ref), c(411, Op::Act)}, "tRFC"); }
    SECTION("command bus") { expect_rule(p, {c(10, Op::Act, 0, 0), c(10, Op::Act, 1, 0)}, "command bus"); }
    SECTION("data bus") {
        // Two ranks: no tCCD between them, but their bursts overlap on the shared data bus.
        JedecParams q = ddr4(2);
        expect_rule(q, {c(0, Op::Act), c(4, Op::Act, 0, 0, 1, 1), c(20, Op::Rd), c(23, Op::Rd, 0, 0, 1, 1)},
                    "data bus");
    }
    SECTION("tRTRS") {
        JedecParams q = ddr4(2);
        expect_rule(q, {c(0, Op::Act), c(4, Op::Act, 0, 0, 1, 1), c(20, Op::Rd), c(24, Op::Rd, 0, 0, 1, 1)}, "tRTRS");
    }
    SECTION("bank state: RD to a precharged bank") { expect_rule(p, {c(10, Op::Rd)}, "bank state"); }
    SECTION("bank state: RD to another row") { expect_rule(p, {c(0, Op::Act, 0, 0, 1), c(16, Op::Rd, 0, 0, 2)}, "bank state"); }
    SECTION("bank state: ACT to an open bank") { expect_rule(p, {c(0, Op::Act), c(60, Op::Act, 0, 0, 2)}, "bank state"); }
    SECTION("bank state: REF with a bank open") { expect_rule(p, {c(0, Op::Act), c(60, Op::Ref)}, "bank state"); }
    SECTION("tREFI: more than 8 refreshes postponed") {
        JedecParams q = p;
        q.refresh = true;
        expect_rule(q, {c(9 * 9360, Op::Act)}, "tREFI");
    }
}

TEST_CASE("checker: refresh postponement up to 8 tREFI is legal, beyond is not", "[dram][checker]") {
    JedecParams p = ddr4();
    p.refresh = true;
    ProtocolChecker ok(p);
    CHECK(ok.check(c(8 * 9360 + 9359, Op::Act)));  // 8 refreshes owed: the standard's limit
    CHECK(ok.finish(8 * 9360 + 9359));
    ProtocolChecker late(p);
    CHECK(!late.finish(9 * 9360));  // 9 owed at the end of the run
    CHECK(late.first().rule == "tREFI");
    // Nine REFs in a row at tRFC spacing are pulled in too far at the start.
    ProtocolChecker early(p);
    bool all = true;
    for (unsigned i = 0; i < 9; ++i) all = early.check(c(100 + i * 312, Op::Ref)) && all;
    CHECK(!all);
    CHECK(early.first().rule == "tREFI");
}

TEST_CASE("checker: the report names the rule, both commands and their times", "[dram][checker]") {
    ProtocolChecker k(ddr4());
    k.set_tck_ps(833);
    k.check(c(0, Op::Act, 2, 1, 77));
    k.check(c(20, Op::Wr, 2, 1, 77));
    CHECK(!k.check(c(44, Op::Rd, 2, 1, 77)));
    const Violation& v = k.first();
    CHECK(v.rule == "tWTR_L");
    CHECK(v.has_earlier);
    CHECK(v.earlier.cycle == 20);
    CHECK(v.later.cycle == 44);
    CHECK(v.required == 12 + 4 + 9);
    CHECK(v.actual == 24);
    CHECK(v.message.find("RD (channel 0, rank 0, bank group 2, bank 9, row 77") != std::string::npos);
    CHECK(v.message.find("WR (channel 0, rank 0, bank group 2, bank 9, row 77, column 0) at cycle 20") !=
          std::string::npos);
    CHECK(v.message.find("at cycle 44 (36.652 ns)") != std::string::npos);  // 44 x 0.833 ns
}
