#pragma once
// The simulation-faithful time model of the NMP (default): what the NMP model does, priced
// with the figures of the simulated DRAM (DramFigures) and the DMA engine's limits.
//
// Structure (the NMP model's TLE controller, models/nmp/tle.cpp): each TLE runs its tile
// sequence in order; a DMA transfer blocks the controller until its last response; a TLT's
// compute overlaps the transfers that follow it until a load into that TLT (or the next
// multicast IN load) waits for it. The layer ends with the slowest TLE.
//
// One transfer of n transactions moving b DRAM bursts (counted on the real addresses, so a
// 128-B transaction that straddles a 64-B boundary costs three bursts):
//   T = latency_scale * L_first + max((n - 1) * L / O, (b - b_first) * t_burst * bus_scale * s,
//                                     (b - b_first) * tCCD_L)
//       + n * txn_ns
// L = frontend + half a tCK to the next edge + CL (CWL for writes) + the transaction's bursts
// on the bus; O = dma_max_outstanding: Little's law caps one engine's rate at O / L. The data
// bus is shared: s = 1 + contention * (active TLEs - 1) * (sync + (1 - sync) * d), d = the
// share of a TLE's time spent in DMA (a fixed point: the duty at the slowdown it causes); the
// bus time per burst includes the refresh share tREFI / (tREFI - tRFC); sync is the part of the
// sharing that does not scale with d (the TLEs run the same tile sequence from the same
// barrier, so their transfers meet). Every OUT store transfer adds turnaround_ns * active TLEs.
//
// screen() evaluates the same formula on the aggregate counts of the TLE that moves the most
// bytes (expected bursts (bytes + txns * (B - 1)) / B, every transfer alike) plus T_MAC + T_SW
// of the critical TLT; replay() counts the DRAM bursts of every TLE on the real addresses,
// takes the TLE with the most as critical, shares the bus with the others in proportion to
// their bursts (s = 1 + contention * p * sum of their bursts / its bursts, p = sync + (1 -
// sync) * d), and walks its tile sequence with the exact transactions and the compute overlap.
// The replay alone adds five things the closed form leaves out: the row activation that a
// transfer's first transaction waits for (first_row_activation_ck, part of L_first: the TLEs'
// tensors share the banks, so a transfer into another tensor often finds another row open);
// the duty from the walk itself (a first walk at the screen's duty gives the critical TLE's
// DMA time and total T, a second walk shares the bus with p = sync + (1 - sync) DMA / T: the
// in-order controller overlaps transfers with computes, which DMA / (DMA + compute) ignores);
// the lockstep at the layer
// start (the i-th transfer meets every other TLE with weight e^(-i / lockstep_transfers): they
// leave the barrier together and drift apart); the bus round of a short transfer (when the
// TLEs meet, the transfer ends with the round of its own and the others' bursts on the bus,
// b * t_burst * bus_scale * (1 + contention * their bursts per own burst); the excess of that
// round over the latency path at full sharing is added with the sharing's p); and the FCFS
// queue ahead of a transfer shorter than the others keep outstanding (queue_scale).
// Bank groups (DDR4, where tCCD_L exceeds the burst's bus time): a TLE's bursts follow each
// other in one bank, tCCD_L apart, so a lone stream is not bus-bound (the tCCD_L term above,
// in both); in the replay the other TLEs' bursts that fall in the same bank groups in the same
// step (same_group_bursts, from the addresses) are served tCCD_L apart too, and those that left
// the lockstep in the groups of their transfers next to that step (they run the same tile
// sequence and drift by about a transfer). No coefficient of its own; on DDR3 (tCCD = the burst
// time) the term is absent and the model is the one before it.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "mapper/tso/time_model.h"

namespace vp::mapper::tso {

// DRAM bursts each TLE moves under a choice (index = TLE id), counted on the real addresses of
// every transaction of its tile sequence (walk_tle, the DMA cut of dma_box.h): slices that
// start inside a burst (a row tile starting mid-row, rows shorter than a transaction) cost up to
// 1.5x the bursts of an aligned one, so TLEs with equal work can differ.
std::vector<std::uint64_t> tle_burst_counts(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c);

// Whether the active TLEs stay in step through a WS layer (no decay of the lockstep): every IN
// load but the last takes every TLE the same rounds of `dma_max_outstanding` transactions, and
// their last batches end within the first transaction's unloaded latency of each other.
bool ws_lockstep_holds(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c);

// Row activations the first transaction of each of TLE `crit`'s DRAM transfers waits for, in
// tCK (index = its DRAM transfers in walk order): tRP + tRCD when its bank holds another open
// row (a conflict), tRCD when the bank is closed (or under the closed-page policy), 0 on a row
// hit. The open rows are tracked over the transfers of every TLE in lockstep (the TLEs run the
// same tile sequence from the same barrier): before step i, the rows left open by the steps
// before i of all TLEs; every TLE requesting the row in step i waits for its activation. The
// layer starts with the rows its own sequence leaves open at its end (warm start: the layer
// before it is placed at the same addresses), not with every bank closed.
// Banks and rows come from DramFigures::bank_mask / row_mask (empty when they are unknown).
std::vector<double> first_row_activation_ck(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c,
                                            std::size_t crit);

// Per DRAM transfer of TLE `crit` (walk order, as first_row_activation_ck): the bursts of the
// other TLEs' transfers of the same step that fall in the bank groups of its own bursts, per
// own burst (sum over groups g of own_g / own * others_g / own; the TLEs run the same tile
// sequence from the same barrier, so step i of every TLE meets). Such bursts are tCCD_L apart
// from the critical TLE's, not tCCD_S. Groups come from DramFigures::group_mask (0: one group).
// With `near`: also, per transfer i of `crit`, the share of the other TLEs' bursts that falls in
// its groups (sum over g of own_g / own * others_g / others) over their transfers j - window ..
// j + window, where j = i x (their transfers) / (crit's transfers) is their step at the same
// point of the sequence; 0 where those transfers move nothing.
std::vector<double> same_group_bursts(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c,
                                      std::size_t crit, std::vector<double>* near = nullptr,
                                      std::size_t window = 0);

class CalibratedModel final : public TimeModel {
public:
    static constexpr int kShortlist = 8;  // best screened candidates replayed per conv
    static constexpr int kDutyIterations = 6;  // fixed-point steps of the DMA duty (see sharing())
    static constexpr int kReplayPasses = 2;    // walks of replay(): the second at the duty of the first

    explicit CalibratedModel(const TsoCoefficients& c) : m_c(c) {}
    const char* name() const override { return "calibrated"; }
    CostTimes screen(const CostCounts& k, const NmpParams& hw) const override;
    // Gives up after a step of the duty's fixed point whose total already reaches `bound`.
    bool screen_below(const CostCounts& k, const NmpParams& hw, double bound, CostTimes* out) const override;
    // The candidates' fixed points step by step side by side (their divisions overlap).
    void screen_below_n(const CostCounts* k, std::size_t n, const NmpParams& hw, double bound, CostTimes* out,
                        bool* below) const override;
    int shortlist() const override { return kShortlist; }
    CostTimes replay(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c) const override;
    const TsoCoefficients& coefficients() const { return m_c; }

private:
    // DMA time of the critical TLE at bus slowdown s: fixed + max(little, bus * s).
    struct DmaTerms {
        double fixed = 0, little = 0, bus = 0;
        double stream = 0;  // the bursts of a lone stream, tCCD_L apart (stream_burst_s())
        double at(double s) const { return fixed + std::max({little, stream, bus * s}); }
    };
    struct Sharing {
        double s = 1, p = 0;  // bus slowdown, share of time the other TLEs transfer
    };
    DmaTerms dma_terms(const CostCounts& k, const NmpParams& hw) const;
    // The times that do not depend on the DMA time [s]: compute (Eq. 7), software, ring.
    struct Parts {
        double t_mac = 0, t_sw = 0, t_ring = 0;
    };
    Parts parts(const CostCounts& k, const NmpParams& hw) const;
    // The duty's fixed point from s = 1 (kDutyIterations steps). With `gave_up`, it stops early
    // and sets *gave_up once total_floor() at a step's s reaches `give_up_at` (see
    // screen_below()).
    Sharing sharing(const CostCounts& k, const NmpParams& hw, const DmaTerms& t, const Parts& f,
                    double give_up_at = 0, bool* gave_up = nullptr) const;
    // One step of the fixed point from x, `busy` the compute and software time, `share` the
    // contention of the other active TLEs.
    Sharing duty_step(const DmaTerms& t, double busy, double share, int active_tles, Sharing x) const {
        const double dma = t.at(x.s);
        const double duty = dma + busy > 0 ? dma / (dma + busy) : 0;
        x.p = active_tles > 1 ? m_c.sync + (1.0 - m_c.sync) * duty : 0.0;
        x.s = 1.0 + share * x.p;
        return x;
    }
    // A lower bound of times_at(...).total_s at the DMA time t_dram, cheaper to compute.
    double total_floor(const CostCounts& k, const NmpParams& hw, const Parts& f, double t_dram) const;
    // The screen's times with the DMA time d.at(s).
    CostTimes times_at(const CostCounts& k, const NmpParams& hw, const Parts& f, const DmaTerms& d, double s) const;

    TsoCoefficients m_c;
};

}  // namespace vp::mapper::tso
