#pragma once
// Single-core tiling optimiser (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect Section IV, Eqs. 21/22): chooses T'_of, T'_if,
// T'_ix (through T'_ox) minimising C_total (min-comp) or N_dram (min-dram) subject to the
// SRAM capacity (Eq. 19) and 1 <= T'_x <= N'_x (Eq. 20).
//
// Why the search is exact (proven global optimum over the whole integer domain):
//  * The domain is finite: T'_of in [1, N_of], T'_if in [1, N_if], T'_ox in [1, N_ox].
//  * Dominance in T'_if: for fixed (T'_of, T'_ox), every cost term depends on T'_if only
//    through S'_if = ceil(N_if / T'_if), and is non-decreasing in S'_if: filter words and
//    ifmap words do not depend on it (the if tiles partition N_if), C_comp neither
//    (sum of tif over tiles = N_if, no ceiling on the if dimension), psum loads
//    (S'_if - 1) * ..., stores S'_if * ... and C_pfetch (S'_if - 1) * ... grow with it.
//    S'_if is non-increasing in T'_if, so the largest T'_if that satisfies Eq. 19 (a bound
//    computed in closed form, max_t_if(), because Eq. 19 is linear in T'_if) is at least as
//    good as every smaller one.
//  * Every feasible (T'_of, T'_ox) pair is enumerated, each with that T'_if. The only pairs
//    skipped are infeasible ones: Eq. 19's smallest footprint grows with T'_of and with T'_ox,
//    so the loops stop at the first T'_of (resp. T'_ox) where even T'_if = 1 does not fit.
//  Ties are broken by one total order (better() below): objective, then the other
//  objective, then larger T'_if, larger T'_of, larger T'_ox. Under this order the
//  enumerated point of each pair is the best of its pair, hence the global argmin is
//  among the enumerated points. Cost O(N_of * N_ox) closed-form evaluations.
#include <cstdint>
#include <string>

#include "mapper/tiling/tiling_cost.h"

namespace vp::mapper::tiling {

enum class Objective { MinComp, MinDram };

const char* to_string(Objective o);
// Parses "min-comp" / "min-dram"; throws vp::InputError naming `key` otherwise.
Objective parse_objective(const std::string& s, const std::string& key);

struct TilingResult {
    Tiling tiling;
    TilingCost cost;
    std::uint64_t evaluated = 0;  // closed-form evaluations spent
};

// The total order used by the optimiser (and by brute-force references): true if (a, ta)
// is strictly better than (b, tb).
bool better(const TilingCost& a, const Tiling& ta, const TilingCost& b, const Tiling& tb, Objective obj);

// Exact optimum; false if not even T' = (1, 1, 1) fits the SRAM.
bool optimize_tiling(const SliceDims& d, const CostContext& ctx, Objective obj, TilingResult* out);

// As optimize_tiling(), but throws vp::InputError naming the layer when nothing fits.
TilingResult optimize_tiling_or_throw(const SliceDims& d, const CostContext& ctx, Objective obj,
                                      const std::string& layer_name);

}  // namespace vp::mapper::tiling
