#pragma once
// Closed-form cost of one (TLE slicing, TLT schedule, tile) choice of a conv: the alpha
// counts of Eqs. 3-5, bursts and bytes of Eq. 9 (CalBurstCount per tile), MAC cycles of
// Eqs. 7-8, all summed exactly over the real tiles (border tiles are smaller; IN tiles are
// clipped at the feature-map border, padding is not loaded).
//
// Execution model (RECONSTRUCTED, see docs in tso_status.md):
//  * A TLE's TLTs share its OFM rows and split its filters (remainder to the lowest ids);
//    they walk the same tile sequence in lock step, so one IN tile load is MULTICAST to all
//    of them; W tiles and OUT tiles are per TLT.
//  * OS (Eq. 4): for OUT row tile, col tile, filter chunk (T_M), channel chunk (T_N): load IN,
//    load W (T_M x T_N), compute; store OUT after the channel loop.
//  * IS (Eq. 3, Fig. 4): for OUT row tile, col tile, channel chunk: load IN once (it stays in
//    MB0), then for every filter chunk: load W (T_M x T_N), compute into the partial sums of
//    all the TLT's filters, which MB2 holds ("the W tile has to include all the filters
//    designated to the TLT"); store OUT (all filters) after the channel loop. IN is loaded
//    once per (row, col, channel) position, W reloaded for every IN position.
//  * WS (Eq. 5): per filter chunk, load W (T_M x all N channels) once, then every IN tile.
//  * T_MAC: critical TLT; T_DRAM: every transfer of every TLE (one shared DRAM); T_SW:
//    nmp_conv2d instructions of the critical TLT. Grouped convs: `groups` times one group.
//  * IFM_CH: every TLE walks all rows and filters over its own channels; each OUT tile is
//    stored once, by its owner (tle_slicing.h: store k owned by active[k % n]); the other
//    active TLEs send their partial tile over the ring. The counts take the owners' share as
//    1 / n of every TLE's stores (the exact round robin differs by at most one store).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "mapper/tso/conv_shape.h"
#include "mapper/tso/nmp_params.h"
#include "mapper/tso/tso_types.h"

namespace vp::mapper::tso {

// Tiling of one axis (OFM rows of a TLE, or OFM columns) by out-tiles of size `tile`.
struct AxisStats {
    int n = 0;                  // number of tiles
    int size_a = 0, cnt_a = 0;  // full tiles
    int size_b = 0, cnt_b = 0;  // last, smaller tile (cnt_b 0 or 1)
    std::uint64_t sum_in = 0;           // sum of clipped input extents
    int n_in_whole = 0;                 // tiles whose clipped input extent is the whole input
    std::uint64_t in_ceil_whole = 0;    // sum ceil(in_i * other_in * type / BURST)  (rows axis)
    std::uint64_t in_ceil_self = 0;     // sum over non-whole tiles of ceil(in_i * type / BURST) (cols)
    std::uint64_t out_ceil_whole = 0;   // sum ceil(out_i * other_out * type / BURST) (rows axis)
    std::uint64_t out_ceil_self = 0;    // sum ceil(out_i * type / BURST)              (cols axis)
};

// out range [out_begin, out_begin + out_count), input window of out index o:
// [o*stride - pad_before, o*stride - pad_before + kernel) clipped to [0, in_size); kernel is the
// window's extent ((taps - 1) dilation + 1).
AxisStats axis_stats(int out_begin, int out_count, int tile, int stride, int kernel, int pad_before, int in_size,
                     int other_in, int other_out, int elem_bytes, int burst);

class ConvCostModel {
public:
    // Per-TLE terms that depend only on (T_R, T_C).
    struct RcTerms {
        bool active = false;
        std::uint64_t n_rc = 0;            // OUT row tiles x col tiles
        std::uint64_t in_bytes_ch = 0;     // IN bytes of one pass, per channel
        std::uint64_t in_bursts_ch = 0;    // IN bursts of one pass, per channel
        std::uint64_t out_bursts_f = 0;    // OUT bursts per filter (whole TLE share)
        std::uint64_t mac_cyc_ch_f = 0;    // MAC cycles per (channel, filter) (Eq. 7 ceil)
    };

    ConvCostModel(const ConvShape& conv, const NmpParams& hw, TleSlicing p);

    const ConvShape& conv() const { return m_conv; }
    const std::vector<TleSlice>& slices() const { return m_slices; }
    TleSlicing slicing() const { return m_slicing; }
    int max_rows() const { return m_max_rows; }        // T_R domain upper bound
    int max_tlt_filters() const { return m_max_tlt_m; } // T_M domain upper bound
    int max_chans() const { return m_max_chans; }       // T_N domain upper bound (IFM_CH: a TLE's share)
    int t_h(int t_r) const { return (t_r - 1) * m_conv.stride_h + m_conv.window_h(); }
    int t_l(int t_c) const { return (t_c - 1) * m_conv.stride_w + m_conv.window_w(); }
    // The IN rows / columns a tile of T_R / T_C loads into MB0 at most: T_H / T_L clipped to the
    // map, since padding is not loaded (the walker loads the window's part inside the map). Equal
    // to T_H / T_L unless a tile's window reaches past the map on both sides (small maps, large or
    // dilated windows); Eq. 2 is checked with these.
    int in_h(int t_r) const { return std::min(t_h(t_r), m_conv.H); }
    int in_w(int t_c) const { return std::min(t_l(t_c), m_conv.W); }

    // Eq. 2 (MB0/MB1/MB2) and the tile domain; IS's MB2 holds the OUT tile of every filter of the TLT.
    bool fits(TltSchedule q, const Tile& t) const;

    AxisStats row_stats(int tle, int t_r) const;
    AxisStats col_stats(int t_c) const;
    RcTerms rc_terms(int tle, const AxisStats& rows, const AxisStats& cols) const;
    // The terms of one (schedule, T_R, T_C) for every (T_N, T_M) the search then tries: the
    // active TLEs folded into classes of TLEs whose terms are all equal (each counted with its
    // multiplicity: a TLE's counts are a function of its terms only), with the products that do
    // not depend on (T_N, T_M) formed once.
    struct RcPlan {
        struct Cls {
            std::uint64_t mult = 0, out_mult = 0;  // TLEs in the class; of them, whose stores count
            std::uint64_t N = 0, base = 0, extra = 0, mmax = 0, act = 0;  // channels, filter split, busy TLTs
            std::uint64_t n_rc = 0;
            std::uint64_t in_b = 0, in_bu = 0;       // IN bytes, bursts of one pass over the channels
            std::uint64_t w_b = 0, w_bu_ws = 0, w_f = 0;  // W bytes; WS bursts; n_rc x filters (x chunk bursts)
            std::uint64_t out_b = 0, out_txn = 0, own_b = 0, own_txn = 0;
            std::uint64_t pl_w = 0, ps = 0;          // busiest port: W bytes, OUT bytes
            std::uint64_t w_full_bursts = 0;
        };
        TltSchedule q = TltSchedule::IS;
        bool reduce = false;  // IFM_CH with more than one active TLE
        std::uint64_t n_act = 0;
        std::vector<Cls> cls;
        // Counts independent of (T_N, T_M), before the groups' factor.
        std::uint64_t mac_cycles = 0, ring_bytes = 0, ring_link_bytes_max = 0, tle_ring_bytes = 0,
                      reduce_cycles = 0;
    };
    // The active TLEs whose slices give them equal terms at every tile (the same rows, filters
    // and channels), in order of their first TLE: plan() reads the terms of `first` only.
    struct TleGroup {
        int first = 0;
        std::uint64_t count = 0;
    };
    const std::vector<TleGroup>& tle_groups() const { return m_groups; }
    // Build p (reusing its storage) from the (T_R, T_C) terms rc (size n_tle; read at the groups'
    // first TLEs).
    void plan(TltSchedule q, const std::vector<RcTerms>& rc, RcPlan& p) const;
    // Counts of (T_N, T_M) into k (whatever it held): the search fills its batch in place.
    void counts_into(int t_n, int t_m, const RcPlan& p, CostCounts& k) const;
    // Counts given the (T_R, T_C) terms of every TLE (size n_tle).
    CostCounts counts(TltSchedule q, int t_n, int t_m, const std::vector<RcTerms>& rc) const {
        RcPlan p;
        plan(q, rc, p);
        CostCounts k;
        counts_into(t_n, t_m, p, k);
        return k;
    }
    // Convenience: everything from scratch (no fit check).
    CostCounts counts(TltSchedule q, const Tile& t) const;

private:
    ConvShape m_conv;
    NmpParams m_hw;
    TleSlicing m_slicing;
    std::vector<TleSlice> m_slices;
    std::vector<int> m_tlt_base, m_tlt_extra, m_tlt_max;  // per TLE: filters per TLT
    std::vector<int> m_chans;                              // per TLE: input channels
    std::vector<TleGroup> m_groups;                        // the active TLEs grouped (tle_groups())
    int m_max_rows = 0, m_max_tlt_m = 0, m_max_chans = 0;
    template <TltSchedule Q, bool Reduce>
    void counts_q(std::uint64_t tn, std::uint64_t tm, const RcPlan& p, CostCounts& k) const;
    int m_burst_shift = -1;  // log2(burst_bytes) when it is a power of two (a shift for the division)
    // ceil(a / burst_bytes)
    std::uint64_t burst_ceil(std::uint64_t a) const {
        const std::uint64_t B = std::uint64_t(m_hw.burst_bytes);
        return m_burst_shift >= 0 ? (a + B - 1) >> m_burst_shift : (a + B - 1) / B;
    }
};

}  // namespace vp::mapper::tso
