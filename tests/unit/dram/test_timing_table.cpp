// Timing rules as data: the tables resolve to the JEDEC distances (typed in here from
// the DDR3-1600 11-11-11/10-10-10 and DDR4-2400 16-16-16 figures), presets are rows of
// data, and TimingState enforces every row of the table it is given (the last test is a
// regression test of TimingState against the same table, not an independent check).
#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "models/dram/dram_params.h"
#include "models/dram/dram_presets.h"
#include "models/dram/timing_state.h"
#include "models/dram/timing_table.h"

using namespace vp::dram;

TEST_CASE("DDR3-1600 timing table distances", "[dram][timing]") {
    DramParams p = DramParams::from_preset("ddr3-1600", "k");
    TimingTable t(p);
    // 10-10-10, CWL 8, BL8 = 4 tCK on the bus.
    CHECK(t.distance(Level::Bank, Command::Act, Command::Rd) == 10);   // tRCD
    CHECK(t.distance(Level::Bank, Command::Act, Command::Pre) == 28);  // tRAS
    CHECK(t.distance(Level::Bank, Command::Pre, Command::Act) == 10);  // tRP
    CHECK(t.distance(Level::Bank, Command::Act, Command::Act) == 38);  // tRC
    CHECK(t.distance(Level::Bank, Command::Wr, Command::Pre) == 8 + 4 + 12);   // CWL + BL/2 + tWR
    CHECK(t.distance(Level::Bank, Command::Rda, Command::Act) == 6 + 10);      // tRTP + tRP
    CHECK(t.distance(Level::Rank, Command::Rd, Command::Wr) == 10 + 4 + 2 - 8);  // tRTW
    CHECK(t.distance(Level::Rank, Command::Wr, Command::Rd) == 8 + 4 + 6);       // CWL + BL/2 + tWTR
    CHECK(t.distance(Level::Rank, Command::Rd, Command::Rd, true) == 4 + 1);     // BL/2 + tRTRS
    CHECK(t.distance(Level::Rank, Command::Ref, Command::Act) == 88);            // tRFC
    CHECK(t.distance(Level::Channel, Command::Act, Command::Rd) == 1);           // command bus
    REQUIRE(t.window_rule(Level::Rank, Command::Act, Command::Act));
    CHECK(t.window_rule(Level::Rank, Command::Act, Command::Act)->distance == 24);  // tFAW
    CHECK(t.window_rule(Level::Rank, Command::Act, Command::Act)->window == 4);
}

TEST_CASE("DDR4-2400 timing table distances, bank groups included", "[dram][timing]") {
    DramParams p = DramParams::from_preset("ddr4-2400", "k");
    TimingTable t(p);
    CHECK(t.distance(Level::BankGroup, Command::Rd, Command::Rd) == 6);            // tCCD_L
    CHECK(t.distance(Level::Rank, Command::Rd, Command::Rd) == 4);                 // tCCD_S
    CHECK(t.distance(Level::BankGroup, Command::Act, Command::Act) == 6);          // tRRD_L
    CHECK(t.distance(Level::Rank, Command::Act, Command::Act) == 4);               // tRRD_S
    CHECK(t.distance(Level::BankGroup, Command::Wr, Command::Rd) == 12 + 4 + 9);   // tWTR_L
    CHECK(t.distance(Level::Rank, Command::Wr, Command::Rd) == 12 + 4 + 3);        // tWTR_S
    CHECK(t.distance(Level::Rank, Command::Rd, Command::Wr) == 16 + 4 + 2 - 12);   // tRTW
    CHECK(t.distance(Level::Rank, Command::Wr, Command::Rd, true) == 12 + 4 + 1 - 16 + 0);  // rank switch
    CHECK(t.distance(Level::Rank, Command::Prea, Command::Act) == 16);             // tRP after PREA
    CHECK(t.distance(Level::Rank, Command::Act, Command::Prea) == 39);             // tRAS before PREA
}

TEST_CASE("every table row names a known parameter, bad formulas are rejected", "[dram][timing]") {
    for (const std::string& s : TimingTable::standard_names()) {
        const StandardSpec* spec = TimingTable::find_standard(s);
        REQUIRE(spec);
        CHECK(spec->count > 20);
        DramParams p = DramParams::from_preset(s == "ddr3" ? "ddr3-1600" : "ddr4-2400", "k");
        CHECK(p.standard == s);
        CHECK_NOTHROW(TimingTable(p));
    }
    DramParams p;
    CHECK(TimingTable::evaluate("CL + BL + 2 - CWL", p, "x") == 10 + 4 + 2 - 8);
    CHECK_THROWS_AS(TimingTable::evaluate("CL + tXYZ", p, "x"), vp::InputError);
    CHECK_THROWS_AS(TimingTable::evaluate("CL +", p, "x"), vp::InputError);
    CHECK_THROWS_AS(TimingTable::evaluate("CL CWL", p, "x"), vp::InputError);
    p.standard = "ddr9";
    CHECK_THROWS_AS(p.validate("dram"), vp::InputError);
}

TEST_CASE("presets are data: DramParams defaults equal the ddr3-1600 row", "[dram][timing]") {
    const DramParams d;
    const DramParams p = DramParams::from_preset("ddr3-1600", "k");
    CHECK(d.tck_ps == p.tck_ps);
    CHECK(d.standard == p.standard);
    CHECK(d.bank_groups == p.bank_groups);
    CHECK(d.banks_per_group == p.banks_per_group);
    CHECK(d.rows == p.rows);
    CHECK(d.columns == p.columns);
    CHECK(d.t.CL == p.t.CL);
    CHECK(d.t.tRFC == p.t.tRFC);
    CHECK(d.t.tREFI == p.t.tREFI);
    for (const std::string& n : preset_names()) {
        const DramPreset* row = find_preset(n);
        REQUIRE(row);
        CHECK(std::string(row->source).size() > 10);
        CHECK_NOTHROW(DramParams::from_preset(n, "k").validate("dram"));
    }
    try {
        DramParams::from_preset("ddr5-6400", "dram.preset");
        FAIL("no error");
    } catch (const vp::InputError& e) {
        CHECK(std::string(e.what()).find("known presets: ddr3-1600, ddr4-2400") != std::string::npos);
    }
}

TEST_CASE("TimingState enforces every row of the table (regression)", "[dram][timing]") {
    for (const std::string& name : DramParams::preset_names()) {
        DramParams p = DramParams::from_preset(name, "k");
        p.ranks = 2;
        TimingTable table(p);
        for (const TimingRule& r : table.rules()) {
            if (r.window > 1) continue;
            TimingState st(p, table);
            // `from` on rank 0, bank group 0, bank 0 at cycle 1000; `to` on the same node,
            // or for a sibling row on the sibling node of r.level.
            const unsigned bg2 = p.bank_groups > 1 ? 1 : 0;
            unsigned rank = 0, bg = 0, bank = 0;
            if (r.sibling) {
                if (r.level == Level::Rank) rank = 1;
                if (r.level == Level::BankGroup) bg = bg2, bank = bg2 * p.banks_per_group;
                if (r.level == Level::Bank) bank = 1;
            }
            st.issue(r.from, 0, 0, 0, 1000);
            INFO(name << ": " << r.name << " " << to_string(r.level) << " " << to_string(r.from) << " -> "
                      << to_string(r.to) << " " << r.distance);
            CHECK(st.earliest(r.to, rank, bg, bank) >= 1000 + r.distance);
        }
        // tFAW: the fifth ACT of a rank waits for the first + tFAW.
        TimingState st(p, table);
        for (unsigned i = 0; i < 4; ++i) {
            const unsigned g = i % p.bank_groups;
            st.issue(Command::Act, 0, g, g * p.banks_per_group + i / p.bank_groups, 100 + p.t.tRRD_S * i);
        }
        REQUIRE(100 + 4 * p.t.tRRD_S < 100 + p.t.tFAW);  // tFAW binds, not tRRD
        const unsigned fifth = p.bank_groups > 1 ? 1 : 5;  // a bank of group 0 not yet activated
        CHECK(st.earliest(Command::Act, 0, 0, fifth) == 100 + p.t.tFAW);
    }
}
