#include "mapper/tso/tlt_tiling.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>


namespace vp::mapper::tso {

using u64 = std::uint64_t;

namespace {

Tile make_tile(const ConvCostModel& m, int t_m, int t_n, int t_r, int t_c) {
    return Tile{t_m, t_n, t_r, t_c, m.t_h(t_r), m.t_l(t_c)};
}

void keep(TopChoices& top, const ConvCostModel& m, TltSchedule q, const Tile& t, const CostCounts& k,
          const CostTimes& tm) {
    ChoiceCost c;
    c.found = true;
    c.slicing = m.slicing();
    c.schedule = q;
    c.tile = t;
    c.counts = k;
    c.times = tm;
    top.consider(c);  // if would_keep(tm.total_s)
}

void consider(TopChoices& top, const ConvCostModel& m, TltSchedule q, const Tile& t, const CostCounts& k,
              const TimeModel& model, const NmpParams& hw) {
    CostTimes tm;
    if (!top.full()) tm = model.screen(k, hw);
    else if (!model.screen_below(k, hw, top.worst_s(), &tm)) return;  // as !would_keep(tm.total_s)
    keep(top, m, q, t, k, tm);
}

// Candidates considered in order, screened in batches: while the list fills, one by one; once it
// is full, at the bound of the batch's start (the worst kept only falls as choices are kept, so a
// candidate at or above that bound would not have been kept later in the batch either), then
// kept in order, each against the list as it is then: the list of considering them one by one.
class Batch {
public:
    static constexpr std::size_t kSize = 16;
    Batch(TopChoices& top, const ConvCostModel& m, TltSchedule q, const TimeModel& model, const NmpParams& hw)
        : m_top(top), m_m(m), m_q(q), m_model(model), m_hw(hw) {}
    // The candidate of (T_N, T_M) in the current (T_R, T_C) with terms p.
    void add(int t_m, int t_n, int t_r, int t_c, const ConvCostModel::RcPlan& p) {
        const Tile t = make_tile(m_m, t_m, t_n, t_r, t_c);
        m_m.counts_into(t_n, t_m, p, m_k[m_n]);
        if (!m_top.full() && m_n == 0) return consider(m_top, m_m, m_q, t, m_k[0], m_model, m_hw);
        m_tiles[m_n] = t;
        if (++m_n == kSize) flush();
    }
    void flush() {
        std::size_t i = 0;
        for (; i < m_n && !m_top.full(); ++i) consider(m_top, m_m, m_q, m_tiles[i], m_k[i], m_model, m_hw);
        if (i < m_n) {
            CostTimes out[kSize];
            bool below[kSize];
            m_model.screen_below_n(&m_k[i], m_n - i, m_hw, m_top.worst_s(), out, below);
            for (std::size_t j = i; j < m_n; ++j)
                if (below[j - i]) keep(m_top, m_m, m_q, m_tiles[j], m_k[j], out[j - i]);
        }
        m_n = 0;
    }

private:
    TopChoices& m_top;
    const ConvCostModel& m_m;
    TltSchedule m_q;
    const TimeModel& m_model;
    const NmpParams& m_hw;
    Tile m_tiles[kSize];
    CostCounts m_k[kSize];
    std::size_t m_n = 0;
};

}  // namespace

void TopChoices::consider(const ChoiceCost& c) {
    if (!would_keep(c.times.total_s)) return;
    auto at = std::upper_bound(m_list.begin(), m_list.end(), c.times.total_s,
                               [](double t, const ChoiceCost& x) { return t < x.times.total_s; });
    m_list.insert(at, c);
    if (m_list.size() > m_keep) m_list.pop_back();
}

double TopChoices::prune_s() const {
    double t = full() ? worst_s() : std::numeric_limits<double>::infinity();
    if (m_shared && m_shared->full() && !m_list.empty())
        t = std::min(t, std::max(m_shared->worst_s(), m_list.front().times.total_s));
    return t;
}

void tlt_tiling(const ConvCostModel& m, TltSchedule q, const TimeModel& model, const NmpParams& hw, TopChoices& top) {
    const ConvShape& c = m.conv();
    const u64 eb = u64(c.elem_bytes), rs = u64(c.R) * u64(c.S);
    // Eq. 2 per tile: half of MB0/MB1 when they are double-buffered.
    const u64 mb0 = u64(hw.in_tile_bytes()), mb1 = u64(hw.w_tile_bytes()), mb2 = u64(hw.mb2_bytes);
    const int n_tle = int(m.slices().size());
    const u64 m_all = u64(m.max_tlt_filters());
    const u64 n_ch = u64(m.max_chans());  // T_N domain: the largest channel share of a TLE
    if (m_all == 0) return;

    std::vector<AxisStats> cols(std::size_t(c.Q) + 1);
    std::vector<char> have_col(std::size_t(c.Q) + 1, 0);
    std::vector<AxisStats> rows(static_cast<std::size_t>(n_tle));
    std::vector<ConvCostModel::RcTerms> rc(static_cast<std::size_t>(n_tle));
    ConvCostModel::RcPlan plan;
    CostCounts lb;
    Batch batch(top, m, q, model, hw);

    for (int t_r = 1; t_r <= m.max_rows(); ++t_r) {
        const u64 th = u64(m.in_h(t_r));
        if (th * u64(m.in_w(1)) * eb > mb0 || u64(t_r) * eb > mb2) break;  // grows with T_R
        for (const auto& g : m.tle_groups()) rows[std::size_t(g.first)] = m.row_stats(g.first, t_r);
        for (int t_c = 1; t_c <= c.Q; ++t_c) {
            const u64 tl = u64(m.in_w(t_c));
            if (th * tl * eb > mb0 || u64(t_r) * u64(t_c) * eb > mb2) break;  // grows with T_C
            if (!have_col[std::size_t(t_c)]) {
                cols[std::size_t(t_c)] = m.col_stats(t_c);
                have_col[std::size_t(t_c)] = 1;
            }
            for (const auto& g : m.tle_groups())  // plan() reads the groups' first TLEs only
                rc[std::size_t(g.first)] = m.rc_terms(g.first, rows[std::size_t(g.first)], cols[std::size_t(t_c)]);
            m.plan(q, rc, plan);
            const u64 tn_max = std::min<u64>(n_ch, mb0 / (th * tl * eb));
            // IS keeps the partial sums of every filter of the TLT in MB2 (Fig. 4).
            if (q == TltSchedule::IS && m_all * u64(t_r) * u64(t_c) * eb > mb2) break;  // grows with T_C
            const u64 m_out = q == TltSchedule::IS ? m_all : mb2 / (u64(t_r) * u64(t_c) * eb);
            // Bound: no tile of this (T_R, T_C) costs less than counts(T_N = N, T_M = its
            // largest value over all T_N): IN passes and nmp_conv2d count fall with T_M and
            // T_N, W bursts sum ceil(n_k*x) >= ceil(N*x), every other term is fixed here, and
            // the time is monotone in every count. Skipping when bound >= best keeps the optimum.
            const double bound_s = top.prune_s();
            if (bound_s < std::numeric_limits<double>::infinity()) {
                const u64 m_hi = std::min({m_all, m_out, mb1 / ((q == TltSchedule::WS ? n_ch : 1) * rs * eb)});
                if (m_hi < 1) continue;
                m.counts_into(int(n_ch), int(m_hi), plan, lb);
                CostTimes lb_times;
                if (!model.screen_below(lb, hw, bound_s, &lb_times)) continue;  // lb's time >= bound_s
            }
            for (u64 t_n = 1; t_n <= tn_max; ++t_n) {
                const u64 w_ch = q == TltSchedule::WS ? n_ch : t_n;
                const u64 m_lim = std::min({m_all, m_out, mb1 / (w_ch * rs * eb)});
                if (m_lim < 1) break;  // the W bound only tightens with T_N
                const u64 t_m = m_lim;  // largest T_M is optimal (see header)
                batch.add(int(t_m), int(t_n), t_r, t_c, plan);
            }
            batch.flush();  // before the next (T_R, T_C)'s bound reads the list
        }
    }
}

void tlt_tiling_brute_force(const ConvCostModel& m, TltSchedule q, const TimeModel& model, const NmpParams& hw,
                            TopChoices& top) {
    const ConvShape& c = m.conv();
    for (int t_r = 1; t_r <= m.max_rows(); ++t_r)
        for (int t_c = 1; t_c <= c.Q; ++t_c)
            for (int t_n = 1; t_n <= m.max_chans(); ++t_n)
                for (int t_m = 1; t_m <= m.max_tlt_filters(); ++t_m) {
                    const Tile t = make_tile(m, t_m, t_n, t_r, t_c);
                    if (!m.fits(q, t)) continue;
                    consider(top, m, q, t, m.counts(q, t), model, hw);
                }
}

bool same_choice(const ChoiceCost& a, const ChoiceCost& b) {
    return a.slicing == b.slicing && a.schedule == b.schedule && a.tile.t_m == b.tile.t_m && a.tile.t_n == b.tile.t_n &&
           a.tile.t_r == b.tile.t_r && a.tile.t_c == b.tile.t_c;
}

ChoiceCost evaluate_choice(const ConvShape& conv, const NmpParams& hw, TleSlicing p, TltSchedule q, const Tile& t,
                           const TimeModel& model) {
    ConvCostModel m(conv, hw, p);
    ChoiceCost r;
    r.slicing = p;
    r.schedule = q;
    r.tile = make_tile(m, t.t_m, t.t_n, t.t_r, t.t_c);
    r.found = m.fits(q, r.tile);
    r.counts = m.counts(q, r.tile);
    r.times = model.screen(r.counts, hw);
    if (r.found && model.shortlist() > 0) r.times = model.replay(conv, hw, r);
    return r;
}

}  // namespace vp::mapper::tso
