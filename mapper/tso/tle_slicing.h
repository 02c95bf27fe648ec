#pragma once
// Algorithm 13 of Tensor Slicing and Optimization for Multicore NPUs (TLESlicing) and the split of a TLE's filters over its TLTs
// (Algorithm 14, line 7). Unbalanced splits give the remainder to the lowest ids (seed,
// said for TLTs; assumed for TLEs too).
#include <vector>

#include "mapper/tso/tso_types.h"

namespace vp::mapper::tso {

// `total` items into `parts` contiguous ranges; the first total % parts get one more.
std::vector<Range> split_even(int total, int parts);

// KS&OFM grid for n TLEs: rows split into `row_sets` (the largest divisor of n not above
// sqrt(n)), filters into n / row_sets (2 x 2 for the paper's 4 TLEs; RECONSTRUCTED for other n).
int ks_ofm_row_sets(int n_tle);

// One slice per TLE (index = TLE id). P = OFM rows, M = filters. KS&OFM: TLE id =
// row_set * filter_sets + filter_set.
std::vector<TleSlice> tle_slicing(TleSlicing p, int P, int M, int n_tle);

// Filters of one TLE over its TLTs (index = TLT id); absolute filter ranges.
std::vector<Range> tlt_filter_split(const Range& tle_filters, int n_tlt);

}  // namespace vp::mapper::tso
