#pragma once
// Helpers shared by the TSO unit tests: random small layers and an independent reference
// that replays the tile walker and counts bytes/bursts/cycles per operation.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "mapper/tso/cost_model.h"
#include "mapper/tso/tile_walker.h"
#include "mapper/tso/tle_slicing.h"
#include "platform/config/hw_figures.h"

namespace tso_test {

using namespace vp::mapper;
using namespace vp::mapper::tso;

// A conv layer of C -> K channels on a square hw x hw input, square r x r kernel, stride 1 and
// `pad` on every side.
inline Layer square_conv(int C, int K, int hw, int r, int pad = 0) {
    Layer l;
    l.C = C;
    l.K = K;
    l.H = l.W = hw;
    l.R = l.S = r;
    l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = pad;
    return l;
}

inline Layer random_layer(std::mt19937_64& rng, int max_c = 10, int max_k = 24, int max_hw = 12) {
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Layer l;
    l.name = "rnd";
    if (uni(0, 9) == 0) {  // fc
        l.kind = LayerKind::FullyConnected;
        l.C = uni(1, 4 * max_c);
        l.K = uni(1, max_k);
        return l;
    }
    l.kind = LayerKind::Conv;
    l.groups = uni(0, 4) == 0 ? uni(1, 3) : 1;
    l.C = l.groups * uni(1, max_c);
    l.K = l.groups * uni(1, std::max(1, max_k / l.groups));
    l.H = uni(1, max_hw);
    l.W = uni(1, max_hw);
    l.R = uni(1, std::min(5, l.H + 2));
    l.S = uni(1, std::min(5, l.W + 2));
    l.stride_h = uni(1, 3);
    l.stride_w = uni(1, 3);
    // padding smaller than the kernel, and the padded input at least the kernel
    l.pad_top = uni(0, l.R - 1);
    l.pad_bottom = uni(0, l.R - 1);
    l.pad_left = uni(0, l.S - 1);
    l.pad_right = uni(0, l.S - 1);
    // Dilated kernels in a quarter of the convs (the window spans (R - 1) d + 1 rows).
    if (uni(0, 3) == 0) {
        l.dilation_h = uni(1, 3);
        l.dilation_w = uni(1, 3);
    }
    while (l.H + l.pad_top + l.pad_bottom < l.window_h()) ++l.pad_bottom;
    while (l.W + l.pad_left + l.pad_right < l.window_w()) ++l.pad_right;
    return l;
}

// The paper's NMP (defaults of NmpParams) on the DDR3-1600 preset the platform uses.
inline NmpParams seed_hw(const char* preset = "ddr3-1600") {
    NmpParams hw;
    hw.dram = vp::config::dram_figures(vp::dram::DramParams::from_preset(preset, "dram"));
    return hw;
}

inline NmpParams random_hw(std::mt19937_64& rng) {
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    NmpParams hw = seed_hw();
    hw.n_tle = uni(1, 5);
    hw.n_tlt = uni(1, 4);
    hw.mb0_bytes = uni(50, 1200);
    hw.mb1_bytes = uni(50, 1200);
    hw.mb2_bytes = uni(20, 600);
    hw.macs_per_cycle = uni(1, 20);
    hw.clock_mhz = 100.0 * uni(1, 10);
    const int bursts[] = {4, 8, 16, 32, 64, 128};
    hw.burst_bytes = bursts[uni(0, 5)];
    hw.dram.peak_bw_bytes_per_s = 1e9 * uni(1, 20);
    hw.dram.tck_ns = 0.25 * uni(1, 8);
    hw.dram.CL = unsigned(uni(0, 20));
    hw.sw_cycles_per_instr = uni(0, 30);
    return hw;
}

// Independent reference of the cost counts: replays walk_tle for every TLE and prices every
// operation on its own (plane rule coded again here). Also checks the coverage of the walk:
// every (output element, input channel) pair is computed exactly once.
// Also the critical TLE's transfers, transactions and bytes (the first TLE moving the most
// bytes), the busiest TLT's DMA completions, and the busiest TLT port (the first TLT, in TLE then
// TLT order, with the largest load + store bytes), each summed op by op; they are exact without
// the IFM_CH reduction (whose owner share the closed form takes as 1 / n).
struct RefResult {
    CostCounts counts;
    bool coverage_ok = true;
};

inline RefResult reference_counts(const ConvShape& c, const NmpParams& hw, TleSlicing p, TltSchedule q,
                                  const Tile& tile) {
    const auto slices = tle_slicing(p, c.P, c.M, c.N, hw.n_tle);
    const std::uint64_t eb = c.elem_bytes, B = hw.burst_bytes, rs = std::uint64_t(c.R) * c.S;
    auto cdiv = [](std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; };
    RefResult res;
    CostCounts& k = res.counts;
    std::vector<std::uint32_t> cover(std::size_t(c.groups) * c.M * c.N * c.P * c.Q, 0);
    // IFM-CH: the k-th store of a TLE's sequence goes to DRAM from its owner only.
    std::vector<int> active;
    for (int t = 0; t < hw.n_tle; ++t)
        if (slices[std::size_t(t)].rows.count > 0 && slices[std::size_t(t)].filters.count > 0) active.push_back(t);
    const bool reduce = p == TleSlicing::IFM_CH && active.size() > 1;
    for (int t = 0; t < hw.n_tle; ++t) {
        const auto tlts = tlt_filter_split(slices[std::size_t(t)].filters, hw.n_tlt);
        std::uint64_t store_k = 0;
        std::vector<std::uint64_t> cyc(std::size_t(hw.n_tlt), 0), instr(std::size_t(hw.n_tlt), 0);
        std::uint64_t tle_xfers = 0, tle_txns = 0, tle_bytes = 0, in_ops = 0, in_b = 0;
        std::vector<std::uint64_t> syncs(std::size_t(hw.n_tlt), 0), port_l(std::size_t(hw.n_tlt), 0),
            port_s(std::size_t(hw.n_tlt), 0);
        walk_tle(c, t, slices[std::size_t(t)], tlts, q, tile, hw.macs_per_cycle, [&](const TileOp& o) {
            switch (o.kind) {
            case OpKind::LoadIn: {
                ++k.in_loads;
                k.in_bytes += std::uint64_t(o.cn) * o.hn * o.wn * eb;
                const std::uint64_t per_ch = o.wn == c.W ? cdiv(std::uint64_t(o.hn) * o.wn * eb, B)
                                                         : std::uint64_t(o.hn) * cdiv(std::uint64_t(o.wn) * eb, B);
                const std::uint64_t bytes = std::uint64_t(o.cn) * o.hn * o.wn * eb;
                const std::uint64_t bursts = std::uint64_t(o.cn) * (o.hn > 0 && o.wn > 0 ? per_ch : 0);
                k.in_bursts += bursts;
                ++tle_xfers;
                tle_txns += bursts;
                tle_bytes += bytes;
                ++in_ops;  // every TLT waits for the multicast
                in_b += bytes;
                break;
            }
            case OpKind::LoadW: {
                const std::uint64_t bytes = std::uint64_t(o.mn) * o.cn * rs * eb;
                const std::uint64_t bursts = std::uint64_t(o.mn) * cdiv(std::uint64_t(o.cn) * rs * eb, B);
                ++k.w_loads;
                k.w_bytes += bytes;
                k.w_bursts += bursts;
                ++tle_xfers;
                tle_txns += bursts;
                tle_bytes += bytes;
                ++syncs[std::size_t(o.tlt)];
                port_l[std::size_t(o.tlt)] += bytes;
                break;
            }
            case OpKind::StoreOut: {
                const std::uint64_t bytes = std::uint64_t(o.mn) * o.rn * o.qn * eb;
                ++syncs[std::size_t(o.tlt)];
                port_s[std::size_t(o.tlt)] += bytes;
                if (reduce && active[std::size_t(store_k++ % active.size())] != t) {
                    k.ring_bytes += bytes;
                    break;
                }
                ++k.out_stores;
                k.out_bytes += bytes;
                const std::uint64_t per_f = o.qn == c.Q ? cdiv(std::uint64_t(o.rn) * o.qn * eb, B)
                                                        : std::uint64_t(o.rn) * cdiv(std::uint64_t(o.qn) * eb, B);
                k.out_bursts += std::uint64_t(o.mn) * per_f;
                ++tle_xfers;
                tle_txns += std::uint64_t(o.mn) * per_f;
                tle_bytes += bytes;
                break;
            }
            case OpKind::Compute: {
                const std::uint64_t per = std::uint64_t(o.rn) * o.qn * rs;
                k.macs += per * o.cn * o.mn;
                cyc[std::size_t(o.tlt)] += cdiv(per, hw.macs_per_cycle) * o.cn * o.mn;
                ++instr[std::size_t(o.tlt)];
                for (int m = o.m0; m < o.m0 + o.mn; ++m)
                    for (int n = o.c0; n < o.c0 + o.cn; ++n)
                        for (int r = o.r0; r < o.r0 + o.rn; ++r)
                            for (int qq = o.q0; qq < o.q0 + o.qn; ++qq)
                                ++cover[((std::size_t(o.group) * c.M + m) * c.N + n) * c.P * c.Q +
                                        std::size_t(r) * c.Q + qq];
                break;
            }
            }
        });
        for (int j = 0; j < hw.n_tlt; ++j) {
            const std::size_t u = std::size_t(j);
            k.mac_cycles = std::max(k.mac_cycles, cyc[u]);
            k.sw_instr = std::max(k.sw_instr, instr[u]);
            k.tlt_syncs = std::max(k.tlt_syncs, in_ops + syncs[u]);
            if (in_b + port_l[u] + port_s[u] > k.port_load_bytes + k.port_store_bytes) {
                k.port_load_bytes = in_b + port_l[u];
                k.port_store_bytes = port_s[u];
            }
        }
        if (tle_bytes > k.tle_bytes) {
            k.tle_bytes = tle_bytes;
            k.tle_txns = tle_txns;
            k.tle_transfers = tle_xfers;
        }
    }
    for (auto v : cover)
        if (v != 1) res.coverage_ok = false;
    return res;
}

}  // namespace tso_test
