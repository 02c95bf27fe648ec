// CalBurstCount (Tensor Slicing and Optimization for Multicore NPUs, Algorithm 14) against the paper's worked example.
#include <catch2/catch.hpp>

#include "tso_test_util.h"

#include "mapper/tso/burst_count.h"
#include "mapper/tso/cost_model.h"

using namespace vp::mapper;
using namespace vp::mapper::tso;

namespace {

// InceptionV3's 5th conv: 80 IFMs of 73x73, 192 filters of 80x3x3, 16 bit, valid padding.
ConvShape inception_conv5() {
    Layer l;
    l.name = "conv5";
    l.C = 80;
    l.K = 192;
    l.H = l.W = 73;
    l.R = l.S = 3;
    return make_conv_shape(l, 2);
}

}  // namespace

TEST_CASE("worked example: IN tile 14x4x73 takes 70 bursts, 16x11x20 takes 176", "[tso][burst]") {
    // Seed: "584 bytes aligned sequentially (4 x 73 x 2B), which requires 5 memory bursts for
    // each tile's channel ... a total of 70 memory bursts".
    CHECK(plane_bursts(4, 73, 73, 2, 128) == 5);
    CHECK(14 * plane_bursts(4, 73, 73, 2, 128) == 70);
    // "16x11x20 ... only 20 bytes aligned ... one memory burst for each row ... 176".
    CHECK(16 * plane_bursts(11, 20, 73, 2, 128) == 176);
}

TEST_CASE("worked example through the cost model's tile accounting", "[tso][burst]") {
    const ConvShape c = inception_conv5();
    REQUIRE(c.P == 71);
    REQUIRE(c.Q == 71);
    NmpParams hw = tso_test::seed_hw();
    ConvCostModel m(c, hw, TleSlicing::KS);
    // 14x4x73 is the IN tile of T_R = 2, T_C = 71 (whole width).
    CHECK(m.t_h(2) == 4);
    CHECK(m.t_l(71) == 73);
    // One OUT row pair at the top: the first row tile of T_R = 2 reads 4 input rows.
    AxisStats rows = axis_stats(0, 2, 2, 1, 3, 0, 73, 73, 71, 2, 128);
    AxisStats cols = m.col_stats(71);
    REQUIRE(cols.n == 1);
    REQUIRE(cols.n_in_whole == 1);
    ConvCostModel::RcTerms rc = m.rc_terms(0, rows, cols);
    CHECK(14 * rc.in_bursts_ch == 70);
    CHECK(14 * rc.in_bytes_ch == 14 * 4 * 73 * 2);
    // 16x11x20 is the IN tile of T_R = 9, T_C = 18 (11 = 8 + 3, 20 = 17 + 3), not whole width.
    CHECK(m.t_h(9) == 11);
    CHECK(m.t_l(18) == 20);
    AxisStats rows9 = axis_stats(0, 9, 9, 1, 3, 0, 73, 73, 71, 2, 128);
    AxisStats cols18 = axis_stats(0, 18, 18, 1, 3, 0, 73, 1, 1, 2, 128);
    ConvCostModel::RcTerms rc9 = m.rc_terms(0, rows9, cols18);
    CHECK(16 * rc9.in_bursts_ch == 176);
    // Burst-model time of one tile (Algorithm 14b): the full-width tile moves more bytes but
    // needs fewer than half the CAS penalties.
    const double cas = hw.cas_s(), bw = hw.dram_bw_bytes_per_s();
    const double t_burst = 70 * cas + 14 * 4 * 73 * 2 / bw;
    const double t_narrow = 176 * cas + 16 * 11 * 20 * 2 / bw;
    CHECK(t_burst < t_narrow);
}

TEST_CASE("plane rule: partial rows are one run per row, whole rows merge", "[tso][burst]") {
    CHECK(plane_bursts(3, 10, 10, 1, 16) == 2);    // 30 B contiguous
    CHECK(plane_bursts(3, 9, 10, 1, 16) == 3);     // 3 rows of 9 B
    CHECK(plane_bursts(2, 20, 30, 2, 16) == 6);    // 2 rows x ceil(40/16)
    CHECK(plane_bursts(0, 20, 30, 2, 16) == 0);
}
