#include "mapper/tso/cost_model.h"

#include <algorithm>

#include "mapper/tso/burst_count.h"
#include "mapper/tso/tle_slicing.h"

namespace vp::mapper::tso {

using u64 = std::uint64_t;

AxisStats axis_stats(int out_begin, int out_count, int tile, int stride, int kernel, int pad_before, int in_size,
                     int other_in, int other_out, int elem_bytes, int burst) {
    AxisStats a;
    if (out_count <= 0 || tile <= 0) return a;
    a.size_a = std::min(tile, out_count);
    a.cnt_a = out_count / a.size_a;
    a.size_b = out_count - a.cnt_a * a.size_a;
    a.cnt_b = a.size_b > 0 ? 1 : 0;
    a.n = a.cnt_a + a.cnt_b;
    const int end = out_begin + out_count;
    for (int o = out_begin; o < end; o += a.size_a) {
        const int sz = std::min(a.size_a, end - o);
        const int lo = std::max(0, o * stride - pad_before);
        const int hi = std::min(in_size, (o + sz - 1) * stride - pad_before + kernel);
        const u64 in = hi > lo ? u64(hi - lo) : 0;
        a.sum_in += in;
        if (in == u64(in_size)) {
            ++a.n_in_whole;
        } else {
            a.in_ceil_self += ceil_div(in * u64(elem_bytes), u64(burst));
        }
        a.in_ceil_whole += ceil_div(in * u64(other_in) * u64(elem_bytes), u64(burst));
        a.out_ceil_whole += ceil_div(u64(sz) * u64(other_out) * u64(elem_bytes), u64(burst));
        a.out_ceil_self += ceil_div(u64(sz) * u64(elem_bytes), u64(burst));
    }
    return a;
}

ConvCostModel::ConvCostModel(const ConvShape& conv, const NmpParams& hw, TleSlicing p)
    : m_conv(conv), m_hw(hw), m_slicing(p), m_slices(tle_slicing(p, conv.P, conv.M, conv.N, hw.n_tle)) {
    for (int b = 0; b < 63; ++b)
        if (hw.burst_bytes > 0 && std::uint64_t(hw.burst_bytes) == (std::uint64_t(1) << b)) m_burst_shift = b;
    for (const auto& s : m_slices) {
        const int base = s.filters.count / hw.n_tlt, extra = s.filters.count % hw.n_tlt;
        m_tlt_base.push_back(base);
        m_tlt_extra.push_back(extra);
        m_tlt_max.push_back(base + (extra > 0 ? 1 : 0));
        m_chans.push_back(s.chans.count);
        if (s.rows.count > 0 && s.filters.count > 0) {
            m_max_chans = std::max(m_max_chans, s.chans.count);
            m_max_rows = std::max(m_max_rows, s.rows.count);
            m_max_tlt_m = std::max(m_max_tlt_m, m_tlt_max.back());
        }
    }
}

bool ConvCostModel::fits(TltSchedule q, const Tile& t) const {
    const auto& c = m_conv;
    if (t.t_r < 1 || t.t_r > m_max_rows || t.t_c < 1 || t.t_c > c.Q || t.t_n < 1 || t.t_n > m_max_chans || t.t_m < 1 ||
        t.t_m > m_max_tlt_m)
        return false;
    const u64 eb = u64(c.elem_bytes), rs = u64(c.R) * u64(c.S);
    // Eq. 2 (double-buffered MB0/MB1: half of each per tile).
    if (u64(t.t_n) * u64(in_h(t.t_r)) * u64(in_w(t.t_c)) * eb > u64(m_hw.in_tile_bytes())) return false;
    const u64 w_ch = q == TltSchedule::WS ? u64(m_max_chans) : u64(t.t_n);
    if (u64(t.t_m) * w_ch * rs * eb > u64(m_hw.w_tile_bytes())) return false;
    // IS accumulates the partial sums of all the TLT's filters in MB2 (Fig. 4).
    const u64 out_m = q == TltSchedule::IS ? u64(m_max_tlt_m) : u64(t.t_m);
    if (out_m * u64(t.t_r) * u64(t.t_c) * eb > u64(m_hw.mb2_bytes)) return false;
    return true;
}

AxisStats ConvCostModel::row_stats(int tle, int t_r) const {
    const auto& c = m_conv;
    const auto& r = m_slices[std::size_t(tle)].rows;
    return axis_stats(r.begin, r.count, t_r, c.stride_h, c.window_h(), c.pad_top, c.H, c.W, c.Q, c.elem_bytes,
                      m_hw.burst_bytes);
}

AxisStats ConvCostModel::col_stats(int t_c) const {
    const auto& c = m_conv;
    return axis_stats(0, c.Q, t_c, c.stride_w, c.window_w(), c.pad_left, c.W, 1, 1, c.elem_bytes, m_hw.burst_bytes);
}

ConvCostModel::RcTerms ConvCostModel::rc_terms(int tle, const AxisStats& rows, const AxisStats& cols) const {
    RcTerms r;
    const auto& s = m_slices[std::size_t(tle)];
    r.active = s.rows.count > 0 && s.filters.count > 0;
    if (!r.active) return r;
    const u64 eb = u64(m_conv.elem_bytes);
    r.n_rc = u64(rows.n) * u64(cols.n);
    r.in_bytes_ch = rows.sum_in * cols.sum_in * eb;
    // CalBurstCount summed over the (row tile, col tile) pairs of one channel.
    r.in_bursts_ch = u64(cols.n_in_whole) * rows.in_ceil_whole + cols.in_ceil_self * rows.sum_in;
    r.out_bursts_f = cols.n == 1 ? rows.out_ceil_whole : u64(s.rows.count) * cols.out_ceil_self;
    // Eq. 7: ceil(T_R*T_C*K*K / MAC_per_cycle) per (channel, filter), summed over tiles.
    const u64 rs = u64(m_conv.R) * u64(m_conv.S), mpc = u64(m_hw.macs_per_cycle);
    const int rsz[2] = {rows.size_a, rows.size_b}, rcnt[2] = {rows.cnt_a, rows.cnt_b};
    const int csz[2] = {cols.size_a, cols.size_b}, ccnt[2] = {cols.cnt_a, cols.cnt_b};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            if (rcnt[i] > 0 && ccnt[j] > 0)
                r.mac_cyc_ch_f += u64(rcnt[i]) * u64(ccnt[j]) * ceil_div(u64(rsz[i]) * u64(csz[j]) * rs, mpc);
    return r;
}

void ConvCostModel::counts_into(TltSchedule q, int t_n, int t_m, const std::vector<RcTerms>& rc, CostCounts& k) const {
    const auto& c = m_conv;
    const u64 rs = u64(c.R) * u64(c.S), eb = u64(c.elem_bytes);
    const u64 tn = u64(t_n), tm = u64(t_m), n_tlt = u64(m_hw.n_tlt);
    const bool ch = m_slicing == TleSlicing::IFM_CH;
    u64 n_act = 0;  // TLEs with work (IFM_CH: the reduction's participants)
    for (std::size_t t = 0; t < m_slices.size(); ++t) n_act += rc[t].active ? 1 : 0;
    const bool reduce = ch && n_act > 1;
    // A copy of zeros: value-initialising the struct compiles to a string store whose start-up
    // cost showed as a tenth of this function's time.
    static CostCounts kZero{};  // not const: the compiler would see the zeros and store them the slow way
    k = kZero;
    u64 ring_pair = 0;  // IFM_CH: payload each active TLE sends to each other active TLE
    // The divisions below depend on the TLE only through its channels N and its filter split
    // (base, extra, max): most TLEs share them with the TLE before, so they are computed when
    // those change (the search calls this for every candidate tile).
    const u64 tn_chunk_bursts = burst_ceil(tn * rs * eb);
    u64 N = 0, nN = 0, remN = 0, w_chunk_bursts = 0, w_full_bursts = 0;
    u64 base = 0, extra = 0, mmax = 0, n_m_star = 0, sum_n_m = 0;
    bool have_n = false, have_m = false;
    for (std::size_t t = 0; t < m_slices.size(); ++t) {
        const RcTerms& r = rc[t];
        if (!r.active) continue;
        if (!have_n || u64(m_chans[t]) != N) {
            N = u64(m_chans[t]);  // this TLE's input channels
            nN = ceil_div(N, tn);
            remN = N - (nN - 1) * tn;
            w_chunk_bursts = (nN - 1) * tn_chunk_bursts + burst_ceil(remN * rs * eb);
            w_full_bursts = burst_ceil(N * rs * eb);
            have_n = true;
        }
        const u64 Mt = u64(m_slices[t].filters.count), rows = u64(m_slices[t].rows.count);
        if (!have_m || u64(m_tlt_base[t]) != base || u64(m_tlt_extra[t]) != extra || u64(m_tlt_max[t]) != mmax) {
            base = u64(m_tlt_base[t]);
            extra = u64(m_tlt_extra[t]);
            mmax = u64(m_tlt_max[t]);
            n_m_star = ceil_div(mmax, tm);  // filter chunks of the TLE's busiest TLT
            sum_n_m = extra * ceil_div(base + 1, tm) + (n_tlt - extra) * ceil_div(base, tm);
            have_m = true;
        }
        // IN: one multicast load per (row, col, filter chunk, channel chunk) step of the TLE;
        // IS keeps it stationary over the filter chunks (Eq. 3).
        const u64 in_passes = q == TltSchedule::IS ? 1 : n_m_star;
        k.in_loads += in_passes * r.n_rc * nN;
        k.in_bytes += in_passes * N * r.in_bytes_ch;
        k.in_bursts += in_passes * N * r.in_bursts_ch;
        if (q == TltSchedule::WS) {  // Eq. 5: every W tile loaded once
            k.w_loads += sum_n_m;
            k.w_bytes += Mt * N * rs * eb;
            k.w_bursts += Mt * w_full_bursts;
        } else {  // Eqs. 3-4: W tiles reloaded for every OUT position
            k.w_loads += r.n_rc * nN * sum_n_m;
            k.w_bytes += r.n_rc * Mt * N * rs * eb;
            k.w_bursts += r.n_rc * Mt * w_chunk_bursts;
        }
        // IS stores each TLT's whole OUT tile (all its filters) once per (row, col) tile.
        const u64 act = base > 0 ? n_tlt : extra;
        const u64 stores = r.n_rc * (q == TltSchedule::IS ? act : sum_n_m);
        const u64 out_b = Mt * rows * u64(c.Q) * eb, out_txn = Mt * r.out_bursts_f;
        // IFM_CH: every TLE has every OUT tile; only its owner stores it (counted once, here
        // for the first active TLE); the TLE's own share of the stores is 1 / n.
        const bool count_out = !reduce || k.active_tles == 0;
        if (count_out) {
            k.out_stores += stores;
            k.out_bytes += out_b;
            k.out_bursts += out_txn;
        }
        const u64 own_stores = reduce ? ceil_div(stores, n_act) : stores;
        const u64 own_b = reduce ? ceil_div(out_b, n_act) : out_b;
        const u64 own_txn = reduce ? ceil_div(out_txn, n_act) : out_txn;
        const u64 mac_cyc = r.mac_cyc_ch_f * N * mmax;
        k.mac_cycles = std::max(k.mac_cycles, mac_cyc);
        // This TLE's own transfers, transactions and bytes (for the time models' critical TLE).
        const u64 xfers = in_passes * r.n_rc * nN +
                          (q == TltSchedule::WS ? sum_n_m : r.n_rc * nN * sum_n_m) + own_stores;
        const u64 txns = in_passes * N * r.in_bursts_ch +
                         (q == TltSchedule::WS ? Mt * w_full_bursts : r.n_rc * Mt * w_chunk_bursts) + own_txn;
        const u64 bytes = in_passes * N * r.in_bytes_ch + (q == TltSchedule::WS ? 1 : r.n_rc) * Mt * N * rs * eb + own_b;
        ++k.active_tles;
        if (bytes > k.tle_bytes) {
            k.tle_bytes = bytes;
            k.tle_txns = txns;
            k.tle_transfers = xfers;
        }
        k.sw_instr = std::max(k.sw_instr, r.n_rc * n_m_star * nN);
        // DMA completions the busiest TLT waits for: the TLE's IN loads, its W loads and its
        // OUT stores (IFM-CH: to DRAM or to the ring).
        const u64 w_tlt = q == TltSchedule::WS ? n_m_star : r.n_rc * nN * n_m_star;
        const u64 out_tlt = r.n_rc * (q == TltSchedule::IS ? 1 : n_m_star);
        k.tlt_syncs = std::max(k.tlt_syncs, in_passes * r.n_rc * nN + w_tlt + out_tlt);
        {  // the busiest port of this TLE: the TLT with the most filters
            const u64 pl = in_passes * N * r.in_bytes_ch + (q == TltSchedule::WS ? 1 : r.n_rc) * mmax * N * rs * eb;
            const u64 ps = mmax * rows * u64(c.Q) * eb;
            if (pl + ps > k.port_load_bytes + k.port_store_bytes) {
                k.port_load_bytes = pl;
                k.port_store_bytes = ps;
            }
        }
        if (reduce) {
            // Sent: the partial tiles of the others' stores. Added: (n - 1) partial tiles per
            // owned tile, one element per MAC lane and cycle, on the busiest TLT.
            if (k.active_tles == 1) k.ring_bytes = (n_act - 1) * out_b;  // every TLE has the whole OUT
            k.tle_ring_bytes = std::max(k.tle_ring_bytes, out_b - own_b);
            k.tle_ring_msgs = std::max(k.tle_ring_msgs, stores - own_stores);
            ring_pair = std::max(ring_pair, ceil_div(out_b, n_act));
            const u64 tlt_elems = mmax * rows * u64(c.Q);
            k.reduce_cycles = std::max(k.reduce_cycles, (n_act - 1) * ceil_div(ceil_div(tlt_elems, n_act),
                                                                                u64(m_hw.macs_per_cycle)));
        }
    }
    if (reduce) {  // the busiest directed link, every active TLE sending ring_pair to every other
        const int n = int(m_slices.size());
        std::vector<u64> link(2 * std::size_t(n), 0);
        for (int a = 0; a < n; ++a)
            for (int o = 0; o < n; ++o) {
                if (a == o || !rc[std::size_t(a)].active || !rc[std::size_t(o)].active) continue;
                bool cw = true;
                const int h = ring_route(a, o, n, &cw);
                for (int i = 0, at = a; i < h; ++i, at = (at + (cw ? 1 : n - 1)) % n)
                    link[2 * std::size_t(at) + (cw ? 0 : 1)] += ring_pair;
            }
        for (u64 v : link) k.ring_link_bytes_max = std::max(k.ring_link_bytes_max, v);
    }
    const u64 g = u64(c.groups);
    if (g != 1) {  // grouped: every group repeats the counts (skipped for g = 1: the read-modify-writes are not free)
        k.in_loads *= g;
        k.w_loads *= g;
        k.out_stores *= g;
        k.in_bursts *= g;
        k.w_bursts *= g;
        k.out_bursts *= g;
        k.in_bytes *= g;
        k.w_bytes *= g;
        k.out_bytes *= g;
        k.mac_cycles *= g;
        k.sw_instr *= g;
        k.tle_transfers *= g;
        k.tle_txns *= g;
        k.tle_bytes *= g;
        k.ring_bytes *= g;
        k.ring_link_bytes_max *= g;
        k.tle_ring_bytes *= g;
        k.tle_ring_msgs *= g;
        k.reduce_cycles *= g;
        k.tlt_syncs *= g;
        k.port_load_bytes *= g;
        k.port_store_bytes *= g;
    }
    k.macs = c.macs();
}

CostCounts ConvCostModel::counts(TltSchedule q, const Tile& t) const {
    const AxisStats cols = col_stats(t.t_c);
    std::vector<RcTerms> rc(m_slices.size());
    for (std::size_t i = 0; i < m_slices.size(); ++i)
        rc[i] = rc_terms(int(i), row_stats(int(i), t.t_r), cols);
    return counts(q, t.t_n, t.t_m, rc);
}

}  // namespace vp::mapper::tso
