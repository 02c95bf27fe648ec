// The row-conflict prediction of the mesh calibration's measurement aid
// (mapper::waving::interleaved_row_conflicts, lockstep_row_conflicts; docs/mesh.md, "Tried: an
// entry's critical path, and the row conflicts of interleaved streams"): the interleaved formula
// against a hand computation, and its limits (one core, equal rows, no masks).
#include <catch2/catch.hpp>

#include <vector>

#include "mapper/waving/mesh_profile.h"

using namespace vp::mapper::waving;

TEST_CASE("row conflicts: the interleaved formula by hand", "[waving][row_conflicts]") {
    // Two cores, one entry each. Core 0: 3 bursts on (bank 0, row 0), 1 on (bank 1, row 0);
    // core 1: 2 on (bank 0, row 1), 2 on (bank 0, row 0). pi_0 = 3/4, 1/4; pi_1 = 1/2, 1/2.
    //   core 0 on (0, 0): core 1 in bank 0 with weight 1, on another row 1/2: 3 x 0.5 / 2 = 0.75
    //   core 0 on (1, 0): core 1 never in bank 1: 0
    //   core 1 on (0, 1): core 0 in bank 0 with 3/4, all of it row 0: 2 x 0.75 / 1.75 = 6/7
    //   core 1 on (0, 0): core 0's bank-0 share is on the same row: 0
    const std::vector<std::vector<PageBursts>> e = {
        {PageBursts{{{0, 0}, 3.0}, {{1, 0}, 1.0}}},
        {PageBursts{{{0, 1}, 2.0}, {{0, 0}, 2.0}}},
    };
    CHECK(interleaved_row_conflicts(e) == Approx(0.75 + 6.0 / 7.0));
    // A second entry of core 0 alone (core 1 has finished): nothing to interleave with.
    auto e2 = e;
    e2[0].push_back(PageBursts{{{0, 5}, 10.0}});
    CHECK(interleaved_row_conflicts(e2) == Approx(0.75 + 6.0 / 7.0));
    // One core, or cores on the same rows: no conflicts.
    CHECK(interleaved_row_conflicts({e[0]}) == 0.0);
    CHECK(interleaved_row_conflicts({e[0], e[0]}) == 0.0);
}

TEST_CASE("row conflicts: nothing is counted without the DRAM masks", "[waving][row_conflicts]") {
    vp::mapper::DramFigures d;  // bank_mask = row_mask = 0: the address mapping is unknown
    d.burst_bytes = 64;
    const RowConflictEstimate r = lockstep_row_conflicts({}, {}, {}, PacketFormat{}, d);
    CHECK(r.bursts == 0.0);
    CHECK(r.own == 0.0);
    CHECK(r.interleaved == 0.0);
}
