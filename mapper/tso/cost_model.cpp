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
            // A TLE's terms depend on its slice only through its rows (the range: its border
            // tiles clip differently), its filter count and its channel count.
            auto same = [&](const TleGroup& g) {
                const TleSlice& f = m_slices[std::size_t(g.first)];
                return f.rows.begin == s.rows.begin && f.rows.count == s.rows.count &&
                       f.filters.count == s.filters.count && f.chans.count == s.chans.count;
            };
            auto it = std::find_if(m_groups.begin(), m_groups.end(), same);
            if (it == m_groups.end()) it = m_groups.insert(m_groups.end(), TleGroup{int(&s - m_slices.data()), 0});
            ++it->count;
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

void ConvCostModel::plan(TltSchedule q, const std::vector<RcTerms>& rc, RcPlan& p) const {
    const auto& c = m_conv;
    const u64 rs = u64(c.R) * u64(c.S), eb = u64(c.elem_bytes), n_tlt = u64(m_hw.n_tlt);
    const bool ws = q == TltSchedule::WS;
    p.q = q;
    p.cls.clear();
    p.n_act = 0;  // TLEs with work (IFM_CH: the reduction's participants)
    for (const TleGroup& g : m_groups) p.n_act += g.count;
    p.reduce = m_slicing == TleSlicing::IFM_CH && p.n_act > 1;
    p.mac_cycles = p.ring_bytes = p.ring_link_bytes_max = p.tle_ring_bytes = p.reduce_cycles = 0;
    const u64 n_act = p.n_act;
    u64 ring_pair = 0;  // IFM_CH: payload each active TLE sends to each other active TLE
    bool first = true;
    for (const TleGroup& grp : m_groups) {
        const std::size_t t = std::size_t(grp.first);
        const RcTerms& r = rc[t];
        RcPlan::Cls x;
        const u64 N = u64(m_chans[t]);  // this TLE's input channels
        const u64 Mt = u64(m_slices[t].filters.count), rows = u64(m_slices[t].rows.count);
        x.N = N;
        x.base = u64(m_tlt_base[t]);
        x.extra = u64(m_tlt_extra[t]);
        x.mmax = u64(m_tlt_max[t]);
        x.act = x.base > 0 ? n_tlt : x.extra;  // TLTs with filters
        x.n_rc = r.n_rc;
        x.in_b = N * r.in_bytes_ch;
        x.in_bu = N * r.in_bursts_ch;
        x.w_full_bursts = burst_ceil(N * rs * eb);
        // WS (Eq. 5): every W tile loaded once; IS, OS (Eqs. 3-4): reloaded for every OUT position.
        x.w_b = (ws ? 1 : r.n_rc) * Mt * N * rs * eb;
        x.w_bu_ws = Mt * x.w_full_bursts;
        x.w_f = r.n_rc * Mt;
        x.out_b = Mt * rows * u64(c.Q) * eb;
        x.out_txn = Mt * r.out_bursts_f;
        // IFM_CH: every TLE has every OUT tile; only its owner stores it; the TLE's own share of
        // the stores is 1 / n (the exact round robin differs by at most one store).
        x.own_b = p.reduce ? ceil_div(x.out_b, n_act) : x.out_b;
        x.own_txn = p.reduce ? ceil_div(x.out_txn, n_act) : x.out_txn;
        // The busiest port of this TLE: the TLT with the most filters.
        x.pl_w = (ws ? 1 : r.n_rc) * x.mmax * N * rs * eb;
        x.ps = x.mmax * rows * u64(c.Q) * eb;
        p.mac_cycles = std::max(p.mac_cycles, r.mac_cyc_ch_f * N * x.mmax);
        if (p.reduce) {
            // Sent: the partial tiles of the others' stores. Added: (n - 1) partial tiles per
            // owned tile, one element per MAC lane and cycle, on the busiest TLT.
            if (first) p.ring_bytes = (n_act - 1) * x.out_b;  // every TLE has the whole OUT
            p.tle_ring_bytes = std::max(p.tle_ring_bytes, x.out_b - x.own_b);
            ring_pair = std::max(ring_pair, ceil_div(x.out_b, n_act));
            const u64 tlt_elems = x.mmax * rows * u64(c.Q);
            p.reduce_cycles = std::max(p.reduce_cycles, (n_act - 1) * ceil_div(ceil_div(tlt_elems, n_act),
                                                                                  u64(m_hw.macs_per_cycle)));
        }
        // IFM_CH: each OUT tile is counted once, for the first active TLE (the first group's first).
        const u64 out_mult = !p.reduce ? grp.count : first ? 1 : 0;
        first = false;
        auto same = [&x](const RcPlan::Cls& y) {
            return y.N == x.N && y.base == x.base && y.extra == x.extra && y.mmax == x.mmax && y.n_rc == x.n_rc &&
                   y.in_b == x.in_b && y.in_bu == x.in_bu && y.w_b == x.w_b && y.w_bu_ws == x.w_bu_ws &&
                   y.w_f == x.w_f && y.out_b == x.out_b && y.out_txn == x.out_txn && y.own_b == x.own_b &&
                   y.own_txn == x.own_txn && y.pl_w == x.pl_w && y.ps == x.ps;
        };
        auto it = std::find_if(p.cls.begin(), p.cls.end(), same);
        if (it == p.cls.end()) it = p.cls.insert(p.cls.end(), x);
        it->mult += grp.count;
        it->out_mult += out_mult;
    }
    if (p.reduce) {  // the busiest directed link, every active TLE sending ring_pair to every other
        const int n = int(m_slices.size());
        auto active = [this](int t) {
            const TleSlice& s = m_slices[std::size_t(t)];
            return s.rows.count > 0 && s.filters.count > 0;
        };
        std::vector<u64> link(2 * std::size_t(n), 0);
        for (int a = 0; a < n; ++a)
            for (int o = 0; o < n; ++o) {
                if (a == o || !active(a) || !active(o)) continue;
                bool cw = true;
                const int h = ring_route(a, o, n, &cw);
                for (int i = 0, at = a; i < h; ++i, at = (at + (cw ? 1 : n - 1)) % n)
                    link[2 * std::size_t(at) + (cw ? 0 : 1)] += ring_pair;
            }
        for (u64 v : link) p.ring_link_bytes_max = std::max(p.ring_link_bytes_max, v);
    }
}

// counts_q() writes every field of the counts (it starts from no copy of zeros): a new field must
// be set there too.
static_assert(sizeof(CostCounts) == 24 * sizeof(std::uint64_t), "CostCounts changed: set the new field in counts_q()");

template <TltSchedule Q, bool Reduce>
void ConvCostModel::counts_q(u64 tn, u64 tm, const RcPlan& p, CostCounts& k) const {
    const auto& c = m_conv;
    const u64 rs = u64(c.R) * u64(c.S), eb = u64(c.elem_bytes), n_tlt = u64(m_hw.n_tlt);
    const u64 tn_chunk_bursts = burst_ceil(tn * rs * eb);
    u64 in_loads = 0, w_loads = 0, out_stores = 0, in_bursts = 0, w_bursts = 0, out_bursts = 0;
    u64 in_bytes = 0, w_bytes = 0, out_bytes = 0, sw_instr = 0, tle_transfers = 0, tle_txns = 0, tle_bytes = 0;
    u64 tle_ring_msgs = 0, tlt_syncs = 0, port_load = 0, port_store = 0;
    // The divisions depend on a class only through its channels N and its filter split (base,
    // extra, max): they are formed again only when those change from the class before.
    u64 N = 0, nN = 0, w_chunk_bursts = 0, base = 0, extra = 0, mmax = 0, n_m_star = 0, sum_n_m = 0;
    bool have_n = false, have_m = false;
    for (const RcPlan::Cls& x : p.cls) {
        if (!have_n || x.N != N) {
            N = x.N;
            nN = ceil_div(N, tn);
            if (Q != TltSchedule::WS) {
                const u64 remN = N - (nN - 1) * tn;
                w_chunk_bursts = (nN - 1) * tn_chunk_bursts + burst_ceil(remN * rs * eb);
            }
            have_n = true;
        }
        if (!have_m || x.base != base || x.extra != extra || x.mmax != mmax) {
            base = x.base;
            extra = x.extra;
            mmax = x.mmax;
            n_m_star = ceil_div(mmax, tm);  // filter chunks of the TLE's busiest TLT
            sum_n_m = extra * ceil_div(base + 1, tm) + (n_tlt - extra) * ceil_div(base, tm);
            have_m = true;
        }
        // IN: one multicast load per (row, col, filter chunk, channel chunk) step of the TLE;
        // IS keeps it stationary over the filter chunks (Eq. 3).
        const u64 in_passes = Q == TltSchedule::IS ? 1 : n_m_star;
        const u64 in_l = in_passes * x.n_rc * nN, in_by = in_passes * x.in_b, in_bu = in_passes * x.in_bu;
        const u64 w_l = Q == TltSchedule::WS ? sum_n_m : x.n_rc * nN * sum_n_m;
        const u64 w_bu = Q == TltSchedule::WS ? x.w_bu_ws : x.w_f * w_chunk_bursts;
        // IS stores each TLT's whole OUT tile (all its filters) once per (row, col) tile.
        const u64 stores = x.n_rc * (Q == TltSchedule::IS ? x.act : sum_n_m);
        in_loads += x.mult * in_l;
        in_bytes += x.mult * in_by;
        in_bursts += x.mult * in_bu;
        w_loads += x.mult * w_l;
        w_bytes += x.mult * x.w_b;
        w_bursts += x.mult * w_bu;
        out_stores += x.out_mult * stores;
        out_bytes += x.out_mult * x.out_b;
        out_bursts += x.out_mult * x.out_txn;
        const u64 own_stores = Reduce ? ceil_div(stores, p.n_act) : stores;
        // This TLE's own transfers, transactions and bytes (for the time models' critical TLE).
        const u64 bytes = in_by + x.w_b + x.own_b;
        if (bytes > tle_bytes) {
            tle_bytes = bytes;
            tle_txns = in_bu + w_bu + x.own_txn;
            tle_transfers = in_l + w_l + own_stores;
        }
        sw_instr = std::max(sw_instr, x.n_rc * n_m_star * nN);
        // DMA completions the busiest TLT waits for: the TLE's IN loads, its W loads and its
        // OUT stores (IFM-CH: to DRAM or to the ring).
        const u64 w_tlt = Q == TltSchedule::WS ? n_m_star : x.n_rc * nN * n_m_star;
        const u64 out_tlt = x.n_rc * (Q == TltSchedule::IS ? 1 : n_m_star);
        tlt_syncs = std::max(tlt_syncs, in_l + w_tlt + out_tlt);
        const u64 pl = in_by + x.pl_w;
        if (pl + x.ps > port_load + port_store) {
            port_load = pl;
            port_store = x.ps;
        }
        if (Reduce) tle_ring_msgs = std::max(tle_ring_msgs, stores - own_stores);
    }
    const u64 g = u64(c.groups);  // grouped: every group repeats the counts
    k.in_loads = g * in_loads;
    k.w_loads = g * w_loads;
    k.out_stores = g * out_stores;
    k.in_bursts = g * in_bursts;
    k.w_bursts = g * w_bursts;
    k.out_bursts = g * out_bursts;
    k.in_bytes = g * in_bytes;
    k.w_bytes = g * w_bytes;
    k.out_bytes = g * out_bytes;
    k.mac_cycles = g * p.mac_cycles;
    k.sw_instr = g * sw_instr;
    k.macs = c.macs();
    k.tle_transfers = g * tle_transfers;
    k.tle_txns = g * tle_txns;
    k.tle_bytes = g * tle_bytes;
    k.active_tles = int(p.n_act);
    k.ring_bytes = g * p.ring_bytes;
    k.ring_link_bytes_max = g * p.ring_link_bytes_max;
    k.tle_ring_bytes = g * p.tle_ring_bytes;
    k.tle_ring_msgs = g * tle_ring_msgs;
    k.reduce_cycles = g * p.reduce_cycles;
    k.tlt_syncs = g * tlt_syncs;
    k.port_load_bytes = g * port_load;
    k.port_store_bytes = g * port_store;
}

void ConvCostModel::counts_into(int t_n, int t_m, const RcPlan& p, CostCounts& k) const {
    const u64 tn = u64(t_n), tm = u64(t_m);
    switch (p.q) {
    case TltSchedule::IS: return p.reduce ? counts_q<TltSchedule::IS, true>(tn, tm, p, k)
                                          : counts_q<TltSchedule::IS, false>(tn, tm, p, k);
    case TltSchedule::OS: return p.reduce ? counts_q<TltSchedule::OS, true>(tn, tm, p, k)
                                          : counts_q<TltSchedule::OS, false>(tn, tm, p, k);
    case TltSchedule::WS: return p.reduce ? counts_q<TltSchedule::WS, true>(tn, tm, p, k)
                                          : counts_q<TltSchedule::WS, false>(tn, tm, p, k);
    }
}

CostCounts ConvCostModel::counts(TltSchedule q, const Tile& t) const {
    const AxisStats cols = col_stats(t.t_c);
    std::vector<RcTerms> rc(m_slices.size());
    for (std::size_t i = 0; i < m_slices.size(); ++i)
        rc[i] = rc_terms(int(i), row_stats(int(i), t.t_r), cols);
    return counts(q, t.t_n, t.t_m, rc);
}

}  // namespace vp::mapper::tso
