#pragma once
// The exact tile sequence of one TLE under a TSO choice (Tensor Slicing and Optimization for Multicore NPUs, Section IV-C, IS/OS/WS
// loop orders), generated lazily through a callback. Used by the NMP model to replay a
// mapping in time, and by the tests as an independent check of the closed-form counts of
// cost_model.h. Loop orders (outermost first):
//   OS:    group, OUT row tile, OUT col tile, filter chunk l, channel chunk:
//            LoadIn (multicast), then per TLT with a chunk l: LoadW, Compute;
//          after the channel loop: StoreOut per TLT.
//   IS:    group, OUT row tile, OUT col tile, channel chunk: LoadIn (multicast, once), then
//            per filter chunk l, per TLT with a chunk l: LoadW, Compute (partial sums of all
//            the TLT's filters stay in MB2); after the channel loop: StoreOut per TLT of all
//            its filters.
// IFM_CH slices walk the same sequence over their own input channels only (TleSlice::chans).
//   WS:    group, filter chunk l: LoadW (all channels) per TLT; then OUT row tile, col tile,
//          channel chunk: LoadIn (multicast), Compute per TLT; StoreOut per TLT per (row, col).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "mapper/tso/conv_shape.h"
#include "mapper/tso/tso_types.h"

namespace vp::mapper::tso {

enum class OpKind { LoadIn, LoadW, Compute, StoreOut };

struct TileOp {
    OpKind kind = OpKind::Compute;
    int tle = 0;
    int tlt = -1;    // -1: LoadIn multicast to every TLT of the TLE
    int group = 0;
    int c0 = 0, cn = 0;                  // input channels within the group (IN, W, Compute)
    int h0 = 0, hn = 0, w0 = 0, wn = 0;  // IN window, clipped to the input map (IN, Compute)
    int m0 = 0, mn = 0;                  // filters within the group (W, Compute, OUT)
    int r0 = 0, rn = 0, q0 = 0, qn = 0;  // OUT window (Compute, OUT)
    std::uint64_t macs = 0;              // Compute: rn*qn*R*S*cn*mn
    std::uint64_t mac_cycles = 0;        // Compute: Eq. 7 ceil(rn*qn*R*S/MACs) * cn * mn
};

template <class Fn>
void walk_tle(const ConvShape& c, int tle, const TleSlice& slice, const std::vector<Range>& tlt_filters,
              TltSchedule q, const Tile& tile, int macs_per_cycle, Fn&& fn) {
    if (slice.rows.count <= 0 || slice.filters.count <= 0) return;
    int max_m = 0;
    for (const auto& f : tlt_filters) max_m = std::max(max_m, f.count);
    const int n_chunks = (max_m + tile.t_m - 1) / tile.t_m;
    const int n_tlt = int(tlt_filters.size());
    const std::uint64_t rs = std::uint64_t(c.R) * std::uint64_t(c.S);
    const int r_end = slice.rows.begin + slice.rows.count;
    // Input channels of the slice (IFM_CH: the TLE's share; otherwise all of them).
    const int ch0 = slice.chans.count > 0 ? slice.chans.begin : 0;
    const int ch_end = slice.chans.count > 0 ? slice.chans.begin + slice.chans.count : c.N;

    TileOp in, op;
    auto set_out = [&](TileOp& o, int r0, int rn, int q0, int qn) {
        o.r0 = r0;
        o.rn = rn;
        o.q0 = q0;
        o.qn = qn;
        const int hlo = std::max(0, r0 * c.stride_h - c.pad_top);
        const int hhi = std::min(c.H, (r0 + rn - 1) * c.stride_h - c.pad_top + c.window_h());
        const int wlo = std::max(0, q0 * c.stride_w - c.pad_left);
        const int whi = std::min(c.W, (q0 + qn - 1) * c.stride_w - c.pad_left + c.window_w());
        o.h0 = hlo;
        o.hn = std::max(0, hhi - hlo);
        o.w0 = wlo;
        o.wn = std::max(0, whi - wlo);
    };
    // Filter chunk l of TLT j; false when the TLT has no chunk l.
    auto chunk = [&](int j, int l, int& m0, int& mn) {
        const Range& f = tlt_filters[std::size_t(j)];
        const int off = l * tile.t_m;
        if (off >= f.count) return false;
        m0 = f.begin + off;
        mn = std::min(tile.t_m, f.count - off);
        return true;
    };
    auto compute = [&](int j, const TileOp& at, int m0, int mn) {
        op = at;
        op.kind = OpKind::Compute;
        op.tlt = j;
        op.m0 = m0;
        op.mn = mn;
        const std::uint64_t per = std::uint64_t(at.rn) * std::uint64_t(at.qn) * rs;
        op.macs = per * std::uint64_t(at.cn) * std::uint64_t(mn);
        op.mac_cycles = ((per + std::uint64_t(macs_per_cycle) - 1) / std::uint64_t(macs_per_cycle)) *
                        std::uint64_t(at.cn) * std::uint64_t(mn);
        fn(static_cast<const TileOp&>(op));
    };
    auto store = [&](int j, const TileOp& at, int m0, int mn) {
        op = at;
        op.kind = OpKind::StoreOut;
        op.tlt = j;
        op.m0 = m0;
        op.mn = mn;
        op.macs = op.mac_cycles = 0;
        fn(static_cast<const TileOp&>(op));
    };
    // The IN window of an OUT tile, one channel chunk of it loaded; per TLT with a chunk l
    // its W tile and the compute (IS, OS; WS uses the first two).
    auto begin_out = [&](int r0, int q0) {
        in.kind = OpKind::LoadIn;
        in.tlt = -1;
        set_out(in, r0, std::min(tile.t_r, r_end - r0), q0, std::min(tile.t_c, c.Q - q0));
    };
    auto load_in = [&](int c0) {
        in.c0 = c0;
        in.cn = std::min(tile.t_n, ch_end - c0);
        in.m0 = in.mn = 0;
        in.macs = in.mac_cycles = 0;
        fn(static_cast<const TileOp&>(in));
    };
    auto load_w_compute = [&](int l) {
        for (int j = 0; j < n_tlt; ++j) {
            int m0, mn;
            if (!chunk(j, l, m0, mn)) continue;
            op = in;
            op.kind = OpKind::LoadW;
            op.tlt = j;
            op.m0 = m0;
            op.mn = mn;
            fn(static_cast<const TileOp&>(op));
            compute(j, in, m0, mn);
        }
    };
    in.tle = op.tle = tle;
    for (int g = 0; g < c.groups; ++g) {
        in.group = op.group = g;
        if (q == TltSchedule::WS) {
            for (int l = 0; l < n_chunks; ++l) {
                for (int j = 0; j < n_tlt; ++j) {
                    int m0, mn;
                    if (!chunk(j, l, m0, mn)) continue;
                    op = TileOp{};
                    op.kind = OpKind::LoadW;
                    op.tle = tle;
                    op.tlt = j;
                    op.group = g;
                    op.c0 = ch0;
                    op.cn = ch_end - ch0;
                    op.m0 = m0;
                    op.mn = mn;
                    fn(static_cast<const TileOp&>(op));
                }
                for (int r0 = slice.rows.begin; r0 < r_end; r0 += tile.t_r)
                    for (int q0 = 0; q0 < c.Q; q0 += tile.t_c) {
                        begin_out(r0, q0);
                        for (int c0 = ch0; c0 < ch_end; c0 += tile.t_n) {
                            load_in(c0);
                            for (int j = 0; j < n_tlt; ++j) {
                                int m0, mn;
                                if (chunk(j, l, m0, mn)) compute(j, in, m0, mn);
                            }
                        }
                        for (int j = 0; j < n_tlt; ++j) {
                            int m0, mn;
                            if (chunk(j, l, m0, mn)) store(j, in, m0, mn);
                        }
                    }
            }
            continue;
        }
        if (q == TltSchedule::IS) {
            for (int r0 = slice.rows.begin; r0 < r_end; r0 += tile.t_r)
                for (int q0 = 0; q0 < c.Q; q0 += tile.t_c) {
                    begin_out(r0, q0);
                    for (int c0 = ch0; c0 < ch_end; c0 += tile.t_n) {
                        load_in(c0);  // stays in MB0 for every filter chunk
                        for (int l = 0; l < n_chunks; ++l) load_w_compute(l);
                    }
                    for (int j = 0; j < n_tlt; ++j) {
                        const Range& f = tlt_filters[std::size_t(j)];
                        if (f.count > 0) store(j, in, f.begin, f.count);
                    }
                }
            continue;
        }
        for (int r0 = slice.rows.begin; r0 < r_end; r0 += tile.t_r)
            for (int q0 = 0; q0 < c.Q; q0 += tile.t_c)
                for (int l = 0; l < n_chunks; ++l) {
                    begin_out(r0, q0);
                    for (int c0 = ch0; c0 < ch_end; c0 += tile.t_n) {
                        load_in(c0);
                        load_w_compute(l);
                    }
                    for (int j = 0; j < n_tlt; ++j) {
                        int m0, mn;
                        if (chunk(j, l, m0, mn)) store(j, in, m0, mn);
                    }
                }
    }
}

}  // namespace vp::mapper::tso
