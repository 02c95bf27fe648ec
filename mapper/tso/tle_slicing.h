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

// One slice per TLE (index = TLE id). P = OFM rows, M = filters, N = input channels (per
// group). KS&OFM: TLE id = row_set * filter_sets + filter_set. IFM_CH: every TLE all rows and
// filters, channels split_even(N, n_tle); a TLE left without channels (N < n_tle) gets an
// empty slice (no rows, no filters). The other slicings leave `chans` at {0, N}.
std::vector<TleSlice> tle_slicing(TleSlicing p, int P, int M, int N, int n_tle);

// IFM_CH reduction: the TLEs that compute partial sums (those with channels), in id order.
// The OUT tile of store number k (the k-th StoreOut of a TLE's tile sequence, the same on
// every TLE) is owned by active[k % active.size()]: the owner adds the others' partial tiles
// and stores the sum to DRAM; the others send theirs over the ring.
std::vector<int> ifm_ch_active(const std::vector<TleSlice>& slices);

// Filters of one TLE over its TLTs (index = TLT id); absolute filter ranges.
std::vector<Range> tlt_filter_split(const Range& tle_filters, int n_tlt);

}  // namespace vp::mapper::tso
