#include "mapper/tso/calibrated_model.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "mapper/tso/burst_count.h"
#include "mapper/tso/dma_box.h"
#include "mapper/tso/tile_walker.h"
#include "mapper/tso/tle_slicing.h"
#include "mapper/tso/tlt_tiling.h"

namespace vp::mapper::tso {

namespace {

// Unloaded latency of one transaction of `bursts` DRAM bursts [s]: acceptance on the next
// clock edge (half a tCK on average), the frontend, CAS (or CWL) and the bursts on the bus.
double txn_latency_s(const DramFigures& d, bool write, double bursts) {
    return (double(d.frontend_latency_ck) + 0.5 + double(write ? d.CWL : d.CL) + bursts * d.burst_cycles) *
           d.tck_ns * 1e-9;
}

// Share of time the DRAM can move data: an all-bank refresh blocks it tRFC of every tREFI
// (1.4 % on DDR3-1600); its time is added to every burst on the bus.
double refresh_stretch(const DramFigures& d) {
    return d.refresh && d.tREFI > d.tRFC ? double(d.tREFI) / double(d.tREFI - d.tRFC) : 1.0;
}

// The data buses that carry a stream's bursts: every channel's when the channels interleave burst
// by burst (row_col_bank), else one (a transfer stays in one channel for a row or more; which
// channel the TLEs' transfers meet in is not modelled).
double bus_channels(const DramFigures& d) {
    const std::uint64_t granule = d.channel_mask & (~d.channel_mask + 1);
    return d.channel_mask && granule <= std::uint64_t(d.burst_bytes) ? double(std::max(1u, d.channels)) : 1.0;
}

// The bursts of one run of `bytes` from `a` cut into transactions of `txn` bytes (a transaction
// that starts or ends inside a burst moves the whole burst), in O(1) when the transaction size
// is a multiple of the burst: every full transaction of the run starts at the same offset within
// a burst, so it touches txn / B bursts, one more when that offset is not 0. Shifts and masks
// where both sizes are powers of two (the walks call this for every run of every TLE).
class RunBursts {
public:
    RunBursts(std::uint64_t txn, std::uint64_t B)
        : m_txn(txn), m_B(B), m_pow2(txn > 0 && B > 0 && (txn & (txn - 1)) == 0 && (B & (B - 1)) == 0 && txn >= B),
          m_ts(m_pow2 ? unsigned(__builtin_ctzll(txn)) : 0), m_bs(m_pow2 ? unsigned(__builtin_ctzll(B)) : 0) {}
    std::uint64_t operator()(std::uint64_t a, std::uint64_t bytes) const {
        if (bytes == 0) return 0;
        if (m_pow2) {
            const std::uint64_t full = bytes >> m_ts, rest = bytes & (m_txn - 1);
            std::uint64_t n = full * ((m_txn >> m_bs) + ((a & (m_B - 1)) != 0 ? 1 : 0));
            if (rest > 0) {
                const std::uint64_t s = a + (full << m_ts);
                n += ((s + rest - 1) >> m_bs) - (s >> m_bs) + 1;
            }
            return n;
        }
        std::uint64_t n = 0;
        if (m_txn % m_B != 0) {
            for (std::uint64_t off = 0; off < bytes; off += m_txn) {
                const std::uint64_t s = a + off, len = std::min(m_txn, bytes - off);
                n += (s + len - 1) / m_B - s / m_B + 1;
            }
            return n;
        }
        const std::uint64_t full = bytes / m_txn, rest = bytes % m_txn;
        n += full * (m_txn / m_B + (a % m_B != 0 ? 1 : 0));
        if (rest > 0) {
            const std::uint64_t s = a + full * m_txn;
            n += (s + rest - 1) / m_B - s / m_B + 1;
        }
        return n;
    }

    // The address of the burst that holds byte a.
    std::uint64_t burst_start(std::uint64_t a) const { return m_pow2 ? a & ~(m_B - 1) : a / m_B * m_B; }

private:
    std::uint64_t m_txn, m_B;
    bool m_pow2;
    unsigned m_ts, m_bs;
};

// DRAM bursts of a box as the DMA engine cuts it (for_each_txn), run by run.
std::uint64_t box_bursts(const Box& b, const RunBursts& bursts) {
    std::uint64_t n = 0;
    for_each_run(b, [&](std::uint64_t a, std::uint64_t bytes) { n += bursts(a, bytes); });
    return n;
}

// The hardware's part of dma_terms(): the unloaded latency of a transaction and the bus time of
// a burst [s]. Kept per thread for the last figures seen (the search calls dma_terms() for every
// candidate of a layer with the same hardware): computed again whenever a figure they use differs.
struct HwTerms {
    double L = 0, t_b = 0;
};

const HwTerms& hw_terms(const NmpParams& hw) {
    using Key = std::tuple<double, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, bool, int, double>;
    const DramFigures& d = hw.dram;
    const Key key{d.tck_ns, d.burst_bytes, d.burst_cycles, d.CL, d.tRFC, d.tREFI, d.frontend_latency_ck, d.refresh,
                  hw.txn_bytes(), bus_channels(d)};
    thread_local Key last;
    thread_local HwTerms h;
    thread_local bool set = false;
    if (set && key == last) return h;
    const double B = d.burst_bytes, txn = hw.txn_bytes();
    h.L = txn_latency_s(d, false, std::ceil(txn / B));
    h.t_b = d.burst_cycles * d.tck_ns * 1e-9 * refresh_stretch(d) / bus_channels(d);
    last = key;
    set = true;
    return h;
}

// A lone stream's time per burst where it exceeds the bus's (0 elsewhere): its bursts follow
// each other in one bank (the columns of one row), so they are tCCD_L apart (DDR4-2400: 6 tCK,
// where the bus carries a burst in 4; DDR3: tCCD = 4 tCK = BL8 / 2, the bus term alone).
double stream_burst_s(const DramFigures& d) {
    return d.tCCD_L > d.burst_cycles ? double(d.tCCD_L) * d.tck_ns * 1e-9 * refresh_stretch(d) : 0.0;
}

// Every DRAM transfer of every TLE under a choice, TLE by TLE in walk order: fn(t, op) for each
// load and each store that goes to DRAM (IFM_CH: only the owner of a tile stores it; the others
// send it over the ring).
template <class Fn>
void for_each_dram_transfer(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c,
                            const std::vector<TleSlice>& slices, Fn&& fn) {
    const std::vector<int> active = ifm_ch_active(slices);
    const bool reduce = c.slicing == TleSlicing::IFM_CH && active.size() > 1;
    for (std::size_t t = 0; t < slices.size(); ++t) {
        const auto split = tlt_filter_split(slices[t].filters, hw.n_tlt);
        std::uint64_t k = 0;
        walk_tle(conv, int(t), slices[t], split, c.schedule, c.tile, hw.macs_per_cycle, [&](const TileOp& op) {
            if (op.kind == OpKind::Compute) return;
            if (reduce && op.kind == OpKind::StoreOut && active[std::size_t(k++ % active.size())] != int(t)) return;
            fn(t, op);
        });
    }
}

// The other TLEs that have left the lockstep are near the same step, not anywhere in the
// layer: they run the same tile sequence, each at its own pace, and drift by about a transfer
// (docs/nmp.md, "The bank groups of the TLEs near the same step"). Their bursts are counted
// over this many transfers on either side of the step.
constexpr std::size_t kNearWindow = 1;

}  // namespace

CalibratedModel::DmaTerms CalibratedModel::dma_terms(const CostCounts& k, const NmpParams& hw) const {
    const DramFigures& d = hw.dram;
    const double B = d.burst_bytes;
    const double n = double(k.tle_txns), xfers = double(k.tle_transfers);
    DmaTerms t;
    if (n <= 0) return t;
    // Monotone in every count (the search's bound relies on it): a fixed latency per
    // transaction of txn_bytes, every transfer pays one latency, the rest is the larger of
    // the Little's-law and the bus time.
    const double bursts = (double(k.tle_bytes) + n * (B - 1)) / B;
    const HwTerms& h = hw_terms(hw);
    const double L = h.L, t_b = h.t_b;
    t.fixed = xfers * L * m_c.latency_scale + n * m_c.txn_ns * 1e-9 +
              double(k.out_stores) * m_c.turnaround_ns * 1e-9;  // all TLEs' stores: each turns the bus for all
    t.little = n * L / hw.dma_max_outstanding;
    t.bus = bursts * t_b * m_c.bus_scale;
    t.stream = bursts * stream_burst_s(d);
    return t;
}

CalibratedModel::Sharing CalibratedModel::sharing(const CostCounts& k, const NmpParams& hw, const DmaTerms& t,
                                                  const Parts& f, double give_up_at, bool* gave_up) const {
    const double busy = f.t_mac + f.t_sw;
    const double share = m_c.contention * double(std::max(k.active_tles - 1, 0));
    // The duty d is the share of the TLE's time in DMA at the sharing it causes, so it is a
    // fixed point of d = dma(s(d)) / (dma(s(d)) + busy); the map is increasing and
    // bounded, so iterating it from d = 0 climbs monotonically towards the least fixed point
    // (stopped after kDutyIterations steps). Taking d without sharing (the earlier model) made
    // DMA-bound layers look compute-bound.
    // Giving up: the steps never lower s (s_1 >= s_0 = 1, as contention >= 0 and p >= 0, and the
    // map is non-decreasing while the DMA time is not negative: t.at(s) grows with s (bus >= 0),
    // and so does dma / (dma + busy)). total_floor() is non-decreasing in the DMA time and not
    // above the screen's total at the same s, so its value at a step's s bounds the final total
    // from below; the margin of 1e-9 covers the rounding, which need not be monotone to the last bit.
    const bool climbs = gave_up && t.at(1.0) >= 0;
    Sharing x;
    for (int it = 0; it < kDutyIterations; ++it) {
        x = duty_step(t, busy, share, k.active_tles, x);
        if (climbs && it + 1 < kDutyIterations && total_floor(k, hw, f, t.at(x.s)) * (1.0 - 1e-9) >= give_up_at) {
            *gave_up = true;
            return x;
        }
    }
    return x;
}

CalibratedModel::Parts CalibratedModel::parts(const CostCounts& k, const NmpParams& hw) const {
    Parts f;
    f.t_mac = double(k.mac_cycles) * hw.cycle_s() * m_c.compute_scale;
    f.t_sw = sw_time_s(k, hw);
    f.t_ring = ring_time_s(k, hw);
    return f;
}

double CalibratedModel::total_floor(const CostCounts& k, const NmpParams& hw, const Parts& f, double t_dram) const {
    // times_at()'s total without the fabric's term (>= 0).
    if (hw.double_buffer) {
        const double compute = f.t_mac + f.t_sw, moves = t_dram + f.t_ring;
        return std::max(compute, moves) + moves / double(std::max<std::uint64_t>(1, k.tle_transfers));
    }
    return f.t_mac + f.t_sw + t_dram + f.t_ring;
}

CostTimes CalibratedModel::screen(const CostCounts& k, const NmpParams& hw) const {
    const DmaTerms d = dma_terms(k, hw);
    const Parts f = parts(k, hw);
    return times_at(k, hw, f, d, sharing(k, hw, d, f).s);
}

bool CalibratedModel::screen_below(const CostCounts& k, const NmpParams& hw, double bound, CostTimes* out) const {
    const DmaTerms d = dma_terms(k, hw);
    const Parts f = parts(k, hw);
    bool gave_up = false;
    const Sharing x = sharing(k, hw, d, f, bound, &gave_up);
    if (gave_up) return false;
    *out = times_at(k, hw, f, d, x.s);
    return out->total_s < bound;
}

void CalibratedModel::screen_below_n(const CostCounts* k, std::size_t n, const NmpParams& hw, double bound,
                                     CostTimes* out, bool* below) const {
    constexpr std::size_t kLanes = 16;
    for (std::size_t at = 0; at < n; at += kLanes) {
        const std::size_t m = std::min(kLanes, n - at);
        DmaTerms d[kLanes];
        Parts f[kLanes];
        Sharing x[kLanes];
        double busy[kLanes], share[kLanes];
        bool live[kLanes], climbs[kLanes];
        for (std::size_t i = 0; i < m; ++i) {
            const CostCounts& c = k[at + i];
            d[i] = dma_terms(c, hw);
            f[i] = parts(c, hw);
            busy[i] = f[i].t_mac + f[i].t_sw;  // as sharing() takes them
            share[i] = m_c.contention * double(std::max(c.active_tles - 1, 0));
            climbs[i] = d[i].at(1.0) >= 0;
            live[i] = true;
        }
        // sharing() with give_up_at = bound, the candidates' steps side by side.
        for (int it = 0; it < kDutyIterations; ++it)
            for (std::size_t i = 0; i < m; ++i) {
                if (!live[i]) continue;
                const CostCounts& c = k[at + i];
                x[i] = duty_step(d[i], busy[i], share[i], c.active_tles, x[i]);
                if (climbs[i] && it + 1 < kDutyIterations && total_floor(c, hw, f[i], d[i].at(x[i].s)) * (1.0 - 1e-9) >= bound)
                    live[i] = false;
            }
        for (std::size_t i = 0; i < m; ++i) {
            below[at + i] = false;
            if (!live[i]) continue;
            out[at + i] = times_at(k[at + i], hw, f[i], d[i], x[i].s);
            below[at + i] = out[at + i].total_s < bound;
        }
    }
}

CostTimes CalibratedModel::times_at(const CostCounts& k, const NmpParams& hw, const Parts& f, const DmaTerms& d,
                                    double s) const {
    CostTimes t;
    t.t_mac_s = f.t_mac;
    t.t_sw_s = f.t_sw;
    t.t_dram_s = d.at(s);
    t.t_ring_s = f.t_ring;
    t.t_fabric_s = fabric_extra_s(k, hw, t.t_dram_s);
    t.total_s = t.t_mac_s + t.t_sw_s + t.t_dram_s + t.t_ring_s + t.t_fabric_s;
    if (hw.double_buffer) {
        // Loads of the next tile overlap the compute on the current one: the longer of the two
        // paths, plus one transfer that nothing hides (the first load).
        const double compute = t.t_mac_s + t.t_sw_s, moves = t.t_dram_s + t.t_ring_s + t.t_fabric_s;
        t.total_s = std::max(compute, moves) + moves / double(std::max<std::uint64_t>(1, k.tle_transfers));
    }
    t.total_cycles = t.total_s / hw.cycle_s();
    return t;
}

std::vector<std::uint64_t> tle_burst_counts(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c) {
    const auto slices = tle_slicing(c.slicing, conv.P, conv.M, conv.N, hw.n_tle);
    const LayerAddresses addr = layer_addresses(conv, 0);
    const RunBursts cut(std::uint64_t(hw.txn_bytes()), hw.dram.burst_bytes);
    std::vector<std::uint64_t> n(slices.size(), 0);
    for_each_dram_transfer(conv, hw, c, slices,
                           [&](std::size_t t, const TileOp& op) { n[t] += box_bursts(op_box(op, conv, addr), cut); });
    return n;
}

// WS lockstep (docs/nmp.md, "Tried: the WS lockstep from the last batch of an IN load"): each DMA
// engine keeps `dma_max_outstanding` requests, and a request it re-issues after a response queues
// behind the other engines' requests, so the DRAM serves the TLEs in rounds of O transactions per
// TLE, and every TLE ends an IN load in the round of its last, partial batch. When every active
// TLE needs the same number of rounds and the TLEs leave the load closer together than the first
// transaction's unloaded latency (the bursts of the last batches but the largest, on the one data
// bus), the first TLE's re-issued requests queue behind the others' again and the rounds form in
// the same order at the next load: the TLEs stay in step. Checked on every IN load but the layer's
// last (only the stores follow it), with the transactions cut on the real addresses.
bool ws_lockstep_holds(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c) {
    if (c.schedule != TltSchedule::WS || c.slicing == TleSlicing::IFM_CH) return false;
    const auto slices = tle_slicing(c.slicing, conv.P, conv.M, conv.N, hw.n_tle);
    const LayerAddresses addr = layer_addresses(conv, 0);
    const DramFigures& d = hw.dram;
    const std::uint64_t B = d.burst_bytes, txn = std::uint64_t(hw.txn_bytes());
    const std::uint64_t O = std::max<std::uint64_t>(1, std::uint64_t(hw.dma_max_outstanding));
    struct Load {
        std::uint64_t rounds = 0, last_bursts = 0, first_bursts = 0;
    };
    std::vector<std::vector<Load>> loads;  // per active TLE, its IN loads in walk order
    for (std::size_t t = 0; t < slices.size(); ++t) {
        const auto split = tlt_filter_split(slices[t].filters, hw.n_tlt);
        std::vector<Load> mine;
        walk_tle(conv, int(t), slices[t], split, c.schedule, c.tile, hw.macs_per_cycle, [&](const TileOp& op) {
            if (op.kind != OpKind::LoadIn) return;
            Load l;  // rounds counts the transactions until the end, last_bursts restarts every O of them
            for_each_txn(op_box(op, conv, addr), txn, [&](std::uint64_t a, std::uint64_t len) {
                const std::uint64_t nb = (a + len - 1) / B - a / B + 1;
                if (l.rounds == 0) l.first_bursts = nb;
                if (l.rounds++ % O == 0) l.last_bursts = 0;
                l.last_bursts += nb;
            });
            if (l.rounds == 0) return;
            l.rounds = (l.rounds + O - 1) / O;
            mine.push_back(l);
        });
        if (!mine.empty()) loads.push_back(std::move(mine));
    }
    if (loads.size() < 2) return false;
    for (const auto& l : loads)
        if (l.size() != loads.front().size()) return false;
    const std::size_t n = loads.front().size();
    if (n < 2) return false;
    const double t_b = d.burst_cycles * d.tck_ns * refresh_stretch(d) / bus_channels(d);  // ns
    for (std::size_t i = 0; i + 1 < n; ++i) {
        std::uint64_t sum = 0, largest = 0, first = ~std::uint64_t(0);
        for (const auto& l : loads) {
            if (l[i].rounds != loads.front()[i].rounds) return false;
            sum += l[i].last_bursts;
            largest = std::max(largest, l[i].last_bursts);
            first = std::min(first, l[i].first_bursts);
        }
        const double unloaded = (0.5 + double(d.CL) + double(first) * d.burst_cycles) * d.tck_ns;
        if (double(sum - largest) * t_b >= unloaded) return false;
    }
    return true;
}

std::vector<double> first_row_activation_ck(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c,
                                            std::size_t crit) {
    const DramFigures& d = hw.dram;
    if (d.bank_mask == 0 && d.row_mask == 0) return {};
    const auto slices = tle_slicing(c.slicing, conv.P, conv.M, conv.N, hw.n_tle);
    const LayerAddresses addr = layer_addresses(conv, 0);
    const std::uint64_t txn = std::uint64_t(hw.txn_bytes());
    // Per TLE: the (bank, row) pages its transfers touch in order (consecutive repeats merged),
    // and where each DRAM transfer starts in that list.
    struct Page {
        std::uint64_t bank, row;
        bool operator==(const Page& o) const { return bank == o.bank && row == o.row; }
    };
    std::vector<std::vector<Page>> pages(slices.size());
    std::vector<std::vector<std::size_t>> starts(slices.size());
    // The pages of the transactions' first and last bytes. Bank and row are constant over each
    // aligned segment of `seg` bytes (the lowest bank or row bit); when a segment is at least a
    // transaction long, every segment a run overlaps holds a transaction's first or last byte
    // (no two consecutive ones are more than a transaction apart), so the run's pages are its
    // segments' and the transactions need not be visited one by one.
    const std::uint64_t pmask = d.bank_mask | d.row_mask, seg = pmask & (~pmask + 1);
    for_each_dram_transfer(conv, hw, c, slices, [&](std::size_t t, const TileOp& op) {
        auto& pg = pages[t];
        const std::size_t before = pg.size();
        auto add = [&](std::uint64_t x) {
            const Page p{x & d.bank_mask, x & d.row_mask};
            if (pg.size() == before || !(pg.back() == p)) pg.push_back(p);
        };
        if (seg >= txn) {
            for_each_run(op_box(op, conv, addr), [&](std::uint64_t a, std::uint64_t bytes) {
                if (bytes == 0) return;
                for (std::uint64_t x = a; x < a + bytes; x = (x | (seg - 1)) + 1) add(x);  // next segment
            });
        } else {
            for_each_txn(op_box(op, conv, addr), txn, [&](std::uint64_t a, std::uint64_t len) {
                add(a);
                add(a + len - 1);
            });
        }
        if (pg.size() > before) starts[t].push_back(before);
    });
    if (crit >= slices.size()) return {};
    std::vector<Page> open;  // the open row per bank (few banks: a linear search)
    auto find = [&](std::uint64_t bank) {
        return std::find_if(open.begin(), open.end(), [&](const Page& p) { return p.bank == bank; });
    };
    const double conflict = double(d.tRP) + double(d.tRCD), miss = double(d.tRCD);
    std::vector<double> act(starts[crit].size(), 0.0);
    std::size_t steps = 0;
    for (const auto& s : starts) steps = std::max(steps, s.size());
    // Warm start (docs/nmp.md, "The warm row start"): the layer begins with the rows that its
    // own sequence leaves open, not with every bank closed. Every layer is placed at the same
    // addresses (layer_addresses(conv, 0), as in the simulation), so the layer before it, a
    // calibration sample's warm-up copy of itself or a network's predecessor, leaves rows of
    // the same banks open; a small layer's tensors lie in the first rows of one or two banks,
    // which stay open from one layer to the next (the simulated LeNets and the small layers of
    // random networks open no row at all). The first walk only opens rows, the second records
    // the activations.
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < steps; ++i) {
            if (pass == 1 && i < starts[crit].size()) {
                const Page& f = pages[crit][starts[crit][i]];
                const auto it = find(f.bank);
                act[i] = !d.open_page || it == open.end() ? miss : it->row != f.row ? conflict : 0.0;
            }
            if (!d.open_page) continue;
            for (std::size_t t = 0; t < slices.size(); ++t) {
                if (i >= starts[t].size()) continue;
                const std::size_t end = i + 1 < starts[t].size() ? starts[t][i + 1] : pages[t].size();
                for (std::size_t j = starts[t][i]; j < end; ++j) {
                    const auto it = find(pages[t][j].bank);
                    if (it == open.end()) open.push_back(pages[t][j]);
                    else it->row = pages[t][j].row;
                }
            }
        }
    }
    return act;
}

std::vector<double> same_group_bursts(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c,
                                      std::size_t crit, std::vector<double>* near, std::size_t window) {
    const DramFigures& d = hw.dram;
    const auto slices = tle_slicing(c.slicing, conv.P, conv.M, conv.N, hw.n_tle);
    if (crit >= slices.size()) return {};
    const LayerAddresses addr = layer_addresses(conv, 0);
    const std::uint64_t B = d.burst_bytes, txn = std::uint64_t(hw.txn_bytes());
    const std::uint64_t lowest = d.group_mask & (~d.group_mask + 1);  // the lowest group bit
    const bool whole = lowest > 0 && lowest % B == 0;
    const RunBursts cut(txn, B);
    using Groups = std::vector<std::pair<std::uint64_t, std::uint64_t>>;  // (group, bursts), few groups
    std::vector<std::vector<Groups>> xfers(slices.size());               // per TLE, per DRAM transfer
    for_each_dram_transfer(conv, hw, c, slices, [&](std::size_t t, const TileOp& op) {
        Groups g;
        std::size_t last = 0;  // the entry of the previous burst: consecutive bursts mostly share a group
        auto add = [&](std::uint64_t key, std::uint64_t n) {
            if (last < g.size() && g[last].first == key) {
                g[last].second += n;
                return;
            }
            auto it = std::find_if(g.begin(), g.end(), [&](const auto& e) { return e.first == key; });
            if (it == g.end()) it = g.emplace(g.end(), key, 0);
            it->second += n;
            last = std::size_t(it - g.begin());
        };
        for_each_run(op_box(op, conv, addr), [&](std::uint64_t a, std::uint64_t bytes) {
            if (bytes == 0) return;
            // A run inside one aligned segment of the lowest group bit (a whole number of bursts
            // long) is in one group: its bursts at once.
            // (lowest is one bit: the run's ends lie in one segment iff no bit from it up differs)
            if (lowest == 0 || (whole && (a ^ (a + bytes - 1)) < lowest)) {
                add(cut.burst_start(a) & d.group_mask, cut(a, bytes));
                return;
            }
            for (std::uint64_t off = 0; off < bytes; off += txn) {
                const std::uint64_t s = a + off, e = s + std::min(txn, bytes - off) - 1;
                for (std::uint64_t b = s / B; b <= e / B; ++b) add((b * B) & d.group_mask, 1);
            }
        });
        if (!g.empty()) xfers[t].push_back(std::move(g));
    });
    std::vector<double> same(xfers[crit].size(), 0.0);
    // Near the same step: the groups seen, and per other TLE the prefix sums of its bursts per
    // group over its transfers; step i of the critical TLE is step i x n_t / n_crit of TLE t
    // (the TLEs run the same tile sequence, each at its own pace).
    std::vector<std::uint64_t> keys;
    std::vector<std::vector<double>> prefix(slices.size());  // per TLE: (transfers + 1) x groups
    auto index = [&](std::uint64_t key) { return std::size_t(std::find(keys.begin(), keys.end(), key) - keys.begin()); };
    if (near) {
        for (const auto& tle : xfers)
            for (const auto& g : tle)
                for (const auto& e : g)
                    if (index(e.first) == keys.size()) keys.push_back(e.first);
        const std::size_t ng = keys.size();
        for (std::size_t t = 0; t < slices.size(); ++t) {
            if (t == crit) continue;
            auto& pf = prefix[t];
            pf.assign((xfers[t].size() + 1) * ng, 0.0);
            for (std::size_t j = 0; j < xfers[t].size(); ++j) {
                std::copy(pf.begin() + std::ptrdiff_t(j * ng), pf.begin() + std::ptrdiff_t((j + 1) * ng),
                          pf.begin() + std::ptrdiff_t((j + 1) * ng));
                for (const auto& e : xfers[t][j]) pf[(j + 1) * ng + index(e.first)] += double(e.second);
            }
        }
        near->assign(same.size(), 0.0);
    }
    const std::size_t ng = keys.size();
    const double n_crit = double(xfers[crit].size());
    std::vector<double> sum(ng);
    for (std::size_t i = 0; i < same.size(); ++i) {
        double own = 0;
        for (const auto& e : xfers[crit][i]) own += double(e.second);
        double s = 0;
        for (std::size_t t = 0; t < slices.size(); ++t) {
            if (t == crit || i >= xfers[t].size()) continue;
            for (const auto& o : xfers[t][i])
                for (const auto& e : xfers[crit][i])
                    if (e.first == o.first) s += double(e.second) / own * double(o.second);
        }
        same[i] = s / own;
        if (!near) continue;
        std::fill(sum.begin(), sum.end(), 0.0);
        double all = 0;
        for (std::size_t t = 0; t < slices.size(); ++t) {
            const std::size_t n_t = xfers[t].size();
            if (t == crit || n_t == 0) continue;
            const std::size_t j = std::min(n_t - 1, std::size_t(double(i) * double(n_t) / n_crit));
            const std::size_t lo = j > window ? j - window : 0, hi = std::min(n_t, j + window + 1);
            for (std::size_t g = 0; g < ng; ++g) {
                const double x = prefix[t][hi * ng + g] - prefix[t][lo * ng + g];
                sum[g] += x;
                all += x;
            }
        }
        if (all <= 0) continue;
        double in = 0;
        for (const auto& e : xfers[crit][i]) in += double(e.second) / own * sum[index(e.first)] / all;
        (*near)[i] = in;
    }
    return same;
}

CostTimes CalibratedModel::replay(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c) const {
    const auto slices = tle_slicing(c.slicing, conv.P, conv.M, conv.N, hw.n_tle);
    const LayerAddresses addr = layer_addresses(conv, 0);
    const DramFigures& d = hw.dram;
    const std::uint64_t B = d.burst_bytes, txn = std::uint64_t(hw.txn_bytes());
    const std::vector<std::uint64_t> tle_bursts = tle_burst_counts(conv, hw, c);
    // The critical TLE: the most bursts, then the largest share (remainders go to the lowest ids).
    std::size_t crit = 0;
    auto share = [&](std::size_t t) { return std::uint64_t(slices[t].rows.count) * std::uint64_t(slices[t].filters.count); };
    for (std::size_t t = 1; t < slices.size(); ++t)
        if (tle_bursts[t] > tle_bursts[crit] || (tle_bursts[t] == tle_bursts[crit] && share(t) > share(crit))) crit = t;
    double others = 0;  // the other TLEs' bursts per burst of the critical one
    for (std::size_t t = 0; t < slices.size(); ++t)
        if (t != crit && tle_bursts[crit] > 0) others += double(tle_bursts[t]) / double(tle_bursts[crit]);
    const auto tlts = tlt_filter_split(slices[crit].filters, hw.n_tlt);
    const double cyc = hw.cycle_s(), t_b = d.burst_cycles * d.tck_ns * 1e-9 * refresh_stretch(d) / bus_channels(d);
    const Sharing sh = sharing(c.counts, hw, dma_terms(c.counts, hw), parts(c.counts, hw));
    // The row activation each of the critical TLE's transfers waits for (tCK), in walk order.
    const std::vector<double> act_ck = first_row_activation_ck(conv, hw, c, crit);
    // The bus shared with the others in proportion to their bursts (the closed form assumes
    // every active TLE moves as many as the busiest).
    const double bus_own = t_b * m_c.bus_scale;
    // Bank groups (DDR4): a burst is tCCD_L after the last one of its group, which is longer
    // than the bus's burst time; the critical TLE's bursts and the others' of its groups in the
    // same step are served that far apart (same_group_bursts). Where tCCD_L is the burst time
    // (DDR3) the bus term alone holds.
    const bool grouped = d.tCCD_L > d.burst_cycles;
    const double t_grp = stream_burst_s(d);
    std::vector<double> near;
    const std::vector<double> same =
        grouped ? same_group_bursts(conv, hw, c, crit, &near, kNearWindow) : std::vector<double>{};
    const double O = hw.dma_max_outstanding;
    const double turn = double(c.counts.active_tles) * m_c.turnaround_ns * 1e-9;
    // Lockstep (TsoCoefficients::lockstep_transfers): the share of the other TLEs still in step
    // with the critical one at its i-th transfer, e^(-i / tau); those transfer whenever it does
    // (p = 1), the rest with the probability of the duty model (sh.p).
    // A layer whose IN loads keep the TLEs in step (ws_lockstep_holds) does not decay.
    const double step_decay = m_c.lockstep_transfers <= 0            ? 0.0
                              : ws_lockstep_holds(conv, hw, c) ? 1.0
                                                                : std::exp(-1.0 / m_c.lockstep_transfers);
    // Queue ahead (TsoCoefficients::queue_scale): the other TLEs keep up to min(O, their
    // transactions per transfer) transactions queued, each of the critical TLE's average
    // bursts per transaction (the TLEs run the same kind of tile sequence).
    const double crit_txns = double(c.counts.tle_txns), crit_xfers = double(c.counts.tle_transfers);
    const double q_bursts = crit_txns > 0 && crit_xfers > 0
                                ? std::min(O, crit_txns / crit_xfers) * double(tle_bursts[crit]) / crit_txns
                                : 0.0;

    const double sw = double(hw.conv_sw_cycles()) * cyc;  // nmp_conv2d issue + loop bookkeeping
    // The duty of the sharing: the screen takes DMA / (DMA + compute), as if no transfer
    // overlapped a compute. The in-order controller does overlap them (W loads and stores of
    // the other TLTs while one computes), so the share of the layer's time the other TLEs'
    // DMA engines are busy is DMA / T of the walk itself: a first walk at the screen's duty
    // gives DMA and T, a second walk uses p = sync + (1 - sync) DMA / T (one TLE: no sharing).
    const int passes = c.counts.active_tles > 1 ? kReplayPasses : 1;
    double p_duty = sh.p;
    double now = 0, ring_t = 0, fab_t = 0;
    for (int pass = 0; pass < passes; ++pass) {
        double in_step = m_c.lockstep_transfers > 0 ? 1.0 : 0.0;
        std::size_t xfer_i = 0;  // the critical TLE's DRAM transfers so far (index into act_ck)
        double last_end = 0;     // when the critical TLE's last DMA transfer ended
        auto xfer = [&](bool write, const Box& b) {
            std::uint64_t n = 0, bursts = 0, first = 0;
            for_each_txn(b, txn, [&](std::uint64_t a, std::uint64_t len) {
                const std::uint64_t nb = (a + len - 1) / B - a / B + 1;
                if (n == 0) first = nb;
                ++n;
                bursts += nb;
            });
            if (n == 0) return 0.0;
            const double p = in_step + (1.0 - in_step) * p_duty;
            const double step_share = in_step;
            in_step *= step_decay;
            const double shared = m_c.contention * p * others;  // the others' bursts per own burst on the bus
            const double act = xfer_i < act_ck.size() ? act_ck[xfer_i] * d.tck_ns * 1e-9 : 0.0;
            // The others' bursts in the groups of the own ones, per own burst: those still in step
            // meet in the same step (same_group_bursts); those that left it are near that step, so
            // their bursts fall in the groups of their transfers around it (`near`: the share in
            // the own groups), not in any group alike.
            const double grp_step = xfer_i < same.size() ? same[xfer_i] : 0.0;
            const double grp_near = xfer_i < near.size() ? near[xfer_i] : 0.0;
            const double grp_all = step_share * grp_step + (1.0 - step_share) * others * grp_near;
            const double grp_met = step_share * grp_step + (1.0 - step_share) * p_duty * others * grp_near;
            ++xfer_i;
            // k own bursts: on the shared bus, or with the others' bursts of their groups tCCD_L
            // apart (g of them per own burst).
            auto bursts_time = [&](double k, double others_share, double g) {
                const double bus = k * bus_own * (1.0 + others_share);
                return grouped ? std::max(bus, k * t_grp * (1.0 + g)) : bus;
            };
            const double L_first = txn_latency_s(d, write, double(first)) + act;
            const double L = txn_latency_s(d, write, double(bursts) / double(n));
            const double rest = double(bursts - first);
            const double own =
                m_c.latency_scale * L_first + std::max(double(n - 1) * L / O, bursts_time(rest, shared, grp_met));
            // Bus round (docs/nmp.md, "The bus round of short transfers in lockstep"): the TLEs
            // run the same tile sequence, so when they meet, a short transfer is served in a
            // round with the others' transfers of the same step, and it ends when the round
            // does: all its b bursts and the others' on the one data bus. The latency path
            // above counts the first transaction's bursts as latency, not shared with anyone
            // (measured on LeNet-5 C1's 196-B stores of 5 bursts: the round of the four TLEs
            // takes 4 x 5 bursts = 101 ns per store, back to back on the bus; the latency
            // path charged ~70 ns). The excess of the round over that path, were the others
            // all transferring, is charged with the probability p that they are. A long
            // transfer streams its rest at the shared rate anyway: there the excess is 0.
            const double all = m_c.contention * others;  // the others' bursts per own burst when all transfer
            const double round = bursts_time(double(bursts), all, grp_all);
            const double in_round =
                m_c.latency_scale * L_first + std::max(double(n - 1) * L / O, bursts_time(rest, all, grp_all));
            double core = own + p * std::max(0.0, round - in_round);
            // WS pipeline (docs/nmp.md, "The WS pipeline: the others' transfers in a TLE's compute
            // gap"): under WS a transfer that follows a gap g without DMA (every TLT computing on
            // the IN tile, or the store's TLT on its last chunk) does not meet the TLEs that have
            // left the lockstep: they transfer in that gap, one after the other. In the steady
            // state of such a pipeline the one data bus carries the round of all TLEs' bursts in
            // a period of transfer + gap, so the transfer lasts max(its unshared latency path,
            // round - g), and never more than the sharing above charges. The share still in step
            // (step_share) meets as before. No coefficient of its own (measured on SqueezeNet
            // 1.1 fire3/squeeze1x1 at 16 bit: the data bus 97 % busy, a TLE's period 1,860 ns =
            // transfer 1,033 + compute 827, where the sharing charged 1,560 ns per IN load).
            const double gap = now - last_end;
            if (gap > 0 && c.schedule == TltSchedule::WS) {
                const double alone =
                    m_c.latency_scale * L_first + std::max(double(n - 1) * L / O, bursts_time(rest, 0.0, 0.0));
                const double piped = std::min(core, std::max(alone, round - gap));
                core = step_share * core + (1.0 - step_share) * piped;
            }
            return core +
                   m_c.queue_scale * shared * bus_own * std::max(0.0, q_bursts - rest) + double(n) * m_c.txn_ns * 1e-9;
        };

        now = 0;
        ring_t = 0;
        fab_t = 0;
        double dma = 0;
        std::vector<double> busy(tlts.size(), 0.0);
        const double issue = double(hw.control.dma_issue_cycles) * cyc, sync = double(hw.control.sync_cycles) * cyc;
        std::vector<double> syncs(tlts.size(), 0.0);  // DMA completions each TLT has not waited for yet
        // Double buffering: a load may start once the computes on the tile it overwrites (the one
        // before the current one) are done: the busy times recorded at the previous load.
        const bool db = hw.double_buffer;
        double in_release = 0;
        std::vector<double> w_release(tlts.size(), 0.0);
        // IFM_CH: the owner of every store (tle_slicing.h) and the ring's share: a link carrying
        // more than the critical TLE sends slows its sends in proportion.
        const std::vector<int> active = ifm_ch_active(slices);
        const bool reduce = c.slicing == TleSlicing::IFM_CH && active.size() > 1;
        const double n_act = double(active.size());
        const double ring_share =
            c.counts.tle_ring_bytes > 0
                ? std::max(1.0, double(c.counts.ring_link_bytes_max) / double(c.counts.tle_ring_bytes))
                : 1.0;
        std::uint64_t store_k = 0;
        int max_hops = 0;  // of the critical TLE's partial tiles' senders
        for (int a : active) max_hops = std::max(max_hops, ring_route(a, int(crit), hw.n_tle, nullptr));
        auto wait_for = [&](double t) { now = std::max(now, t); };
        // The fabric (NmpParams::fabric), as the model schedules it (models/nmp/fabric.h): per
        // port of the critical TLE its free time; per TLT when its last load is delivered. A load
        // streams through its ports from max(request, ports free) until max(that + bytes / width,
        // its last DRAM response), delivered latency later; a store drains MB2 through its port
        // before the DRAM write.
        const bool fab = hw.fabric.enabled;
        const double f_lat = double(hw.fabric.latency_cycles) * cyc;
        std::vector<double> port_free(tlts.size(), 0.0), ready(tlts.size(), 0.0);
        // fab_t: fabric time on the critical path: store drains, computes waiting for a delivery
        auto deliver = [&](const std::vector<std::size_t>& ports, std::uint64_t bytes, double t_req, double t_end) {
            double start = t_req;
            for (std::size_t j : ports) start = std::max(start, port_free[j]);
            const double end = std::max(start + double(hw.fabric.cycles(bytes)) * cyc, t_end);
            for (std::size_t j : ports) {
                port_free[j] = end;
                ready[j] = std::max(ready[j], end + f_lat);
            }
        };
        auto drain = [&](std::size_t j, std::uint64_t bytes) {  // from `now`; returns the time it takes
            const double start = std::max(now, port_free[j]);
            port_free[j] = start + double(hw.fabric.cycles(bytes)) * cyc;
            return port_free[j] + f_lat - now;
        };
        // A store's OUT tile leaves MB2 through its port once the DMA transfer is programmed
        // (`issue` after now); returns the drain time (0 without the fabric).
        auto store_drain = [&](std::size_t j, std::uint64_t bytes) {
            if (!fab || bytes == 0) return 0.0;
            now += issue;
            const double dr = drain(j, bytes);
            now -= issue;
            fab_t += dr;
            return dr;
        };
        walk_tle(conv, int(crit), slices[crit], tlts, c.schedule, c.tile, hw.macs_per_cycle, [&](const TileOp& op) {
            double x = 0;
            switch (op.kind) {
            case OpKind::LoadIn: {
                double all = 0;
                for (std::size_t j = 0; j < tlts.size(); ++j)
                    if (tlts[j].count > 0) {
                        all = std::max(all, busy[j]);
                        syncs[j] += 1;
                    }
                wait_for(db ? in_release : all);
                if (db) in_release = all;
                const Box b = op_box(op, conv, addr);
                x = issue + xfer(false, b);
                if (fab && b.bytes() > 0) {
                    std::vector<std::size_t> ports;
                    for (std::size_t j = 0; j < tlts.size(); ++j)
                        if (tlts[j].count > 0) ports.push_back(j);
                    deliver(ports, b.bytes(), now + issue, now + x);
                }
                break;
            }
            case OpKind::LoadW: {
                const std::size_t j = std::size_t(op.tlt);
                wait_for(db ? w_release[j] : busy[j]);
                if (db) w_release[j] = busy[j];
                syncs[j] += 1;
                const Box b = op_box(op, conv, addr);
                x = issue + xfer(false, b);
                if (fab && b.bytes() > 0) deliver({j}, b.bytes(), now + issue, now + x);
                break;
            }
            case OpKind::Compute: {
                double& bu = busy[std::size_t(op.tlt)];
                const double r = ready[std::size_t(op.tlt)];
                if (r > std::max(bu, now)) fab_t += r - std::max(bu, now);
                bu = std::max({bu, now, r}) + double(op.mac_cycles) * cyc * m_c.compute_scale + sw +
                     syncs[std::size_t(op.tlt)] * sync;
                syncs[std::size_t(op.tlt)] = 0;
                return;
            }
            case OpKind::StoreOut: {
                const Box b = op_box(op, conv, addr);
                if (reduce) {
                    const int owner = active[std::size_t(store_k++ % active.size())];
                    if (owner != int(crit)) {  // the partial tile goes to its owner over the ring
                        wait_for(busy[std::size_t(op.tlt)]);
                        syncs[std::size_t(op.tlt)] += 1;
                        const double dr = store_drain(std::size_t(op.tlt), b.bytes());
                        x = issue + dr + (double(hw.ring.flits(b.bytes())) * ring_share + hw.ring.hop_cycles) * cyc;
                        ring_t += x - dr;
                        now += x;
                        return;
                    }
                    // Owner: the others reach this store about when it does, and their partial tiles
                    // arrive one transfer later (the farthest over the most hops); its TLT adds them,
                    // then the sum is stored.
                    const double arrive = (double(hw.ring.flits(b.bytes())) * ring_share +
                                           double(max_hops) * double(hw.ring.packet_flits + hw.ring.hop_cycles)) * cyc;
                    ring_t += arrive;
                    now += arrive;
                    double& bu = busy[std::size_t(op.tlt)];
                    const double add = (n_act - 1) *
                                       double((b.bytes() / std::uint64_t(conv.elem_bytes) + std::uint64_t(hw.macs_per_cycle) - 1) /
                                              std::uint64_t(hw.macs_per_cycle)) * cyc;
                    bu = std::max(bu, now) + add;
                    ring_t += add;
                }
                wait_for(busy[std::size_t(op.tlt)]);
                syncs[std::size_t(op.tlt)] += 1;
                const double dr = store_drain(std::size_t(op.tlt), b.bytes());
                x = issue + dr + xfer(true, b) + turn;
                break;
            }
            }
            now += x;
            dma += x;
            last_end = now;
        });
        for (double b : busy) wait_for(b);
        if (now > 0) p_duty = m_c.sync + (1.0 - m_c.sync) * std::min(1.0, dma / now);
    }
    CostTimes t;
    t.t_mac_s = double(c.counts.mac_cycles) * cyc * m_c.compute_scale;
    t.t_sw_s = hw.control.is_default() ? double(c.counts.sw_instr) * sw : sw_time_s(c.counts, hw);
    t.t_ring_s = ring_t;
    t.t_fabric_s = fab_t;
    t.total_s = now;
    t.t_dram_s = std::max(0.0, now - t.t_mac_s - t.t_sw_s - t.t_ring_s - t.t_fabric_s);  // DMA time not hidden behind compute
    t.total_cycles = now / cyc;
    return t;
}

}  // namespace vp::mapper::tso
