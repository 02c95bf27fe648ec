#pragma once
// Algorithm 14 of seed 000 (TLTTiling): best tile <T_M, T_N, T_R, T_C> of one TLE slicing
// and one TLT schedule, exhaustive over the tile space.
//
// tlt_tiling() is exact but skips T_M values that cannot win: for fixed (T_R, T_C, T_N)
// the time depends on T_M only through the number of filter chunks (IN reloads and
// nmp_conv2d count), which never grows with T_M (burst counts of W and OUT are per filter
// plane, see burst_count.h); so the largest T_M fitting MB1/MB2 is optimal. It also stops
// a loop once a bound of Eq. 2 fails, as every constraint is monotone in that loop variable,
// and skips a (T_R, T_C) pair whose lower bound (counts at T_N = N and the largest T_M,
// see tlt_tiling.cpp) is not below the best time found so far.
// tlt_tiling_brute_force() enumerates every tile of the domain with no pruning at all; the
// tests check that both give the same optimum time.
#include "mapper/tso/cost_model.h"

namespace vp::mapper::tso {

struct ChoiceCost {
    bool found = false;
    TleSlicing slicing = TleSlicing::KS;
    TltSchedule schedule = TltSchedule::IS;
    Tile tile;
    CostCounts counts;
    CostTimes times;
};

ChoiceCost tlt_tiling(const ConvCostModel& m, TltSchedule q, DramModel dram, const NmpParams& hw);
ChoiceCost tlt_tiling_brute_force(const ConvCostModel& m, TltSchedule q, DramModel dram, const NmpParams& hw);

// Cost of one given choice (for comparing mappings under another DRAM model).
ChoiceCost evaluate_choice(const ConvShape& conv, const NmpParams& hw, TleSlicing p, TltSchedule q, const Tile& t,
                           DramModel dram);

}  // namespace vp::mapper::tso
