#pragma once
// The time models of TSO (Eq. 6 and its DRAM term): a small interface with named
// implementations, chosen by name from YAML (tso.dram_model) through one registry.
//   burst     TSO-burst of Tensor Slicing and Optimization for Multicore NPUs (Algorithm 14): bursts x CAS + bytes / BW, summed.
//   noburst   TSO-noburst (Algorithm 14, lines 12-13): bytes / BW.
//   calibrated  what the NMP model does: per-transfer latency, pipelining under the DMA
//             engine's outstanding-request limit (Little's law), the DRAM bursts and data-bus
//             time of the real access pattern, the bus shared with the other TLEs, compute not
//             hidden behind DMA; its free coefficients (TsoCoefficients) come from a
//             calibration file written by vp-calibrate.
// The exhaustive search ranks candidates with screen() (closed form, from CostCounts); a
// model with shortlist() > 0 then re-estimates that many best candidates with replay(),
// which walks the tile sequence of the critical TLE.
#include <memory>
#include <string>
#include <vector>

#include "mapper/tso/conv_shape.h"
#include "mapper/tso/nmp_params.h"
#include "mapper/tso/tso_types.h"

namespace vp::mapper::tso {

// Free coefficients of the calibrated model. Defaults: the physical figures uncorrected.
struct TsoCoefficients {
    double latency_scale = 1.0;  // x unloaded DRAM latency of the first transaction of a transfer
    double bus_scale = 1.0;      // x data-bus time per DRAM burst (row misses, turnarounds, refresh)
    double contention = 1.0;     // x DRAM demand of the other TLEs during a transfer (bus sharing)
    double txn_ns = 0.0;         // per DMA transaction [ns] (request handshake, response order)
    double compute_scale = 1.0;  // x MAC unit time (Eq. 7) exposed on the critical path
    // Share of the bus contention that does not scale with a TLE's DMA duty: the TLEs run the
    // same tile sequence from the same barrier, so their transfers meet (0: contention x duty,
    // 1: every active TLE transfers whenever this one does).
    double sync = 0.0;
    double turnaround_ns = 0.0;  // per OUT store transfer and active TLE [ns] (write-to-read turnarounds)
    // Lockstep at the layer start (replay only): the TLEs leave the barrier together, so their
    // first transfers meet in the DRAM; they drift apart as the bus arbitration serves one
    // before another. The share of the other TLEs still in step at the i-th transfer of the
    // critical TLE is exp(-i / lockstep_transfers) (0: no lockstep term, the model of before).
    double lockstep_transfers = 0.0;
    // Queue ahead of a short transfer (replay only): a transfer of fewer bursts than the other
    // TLEs keep outstanding (min(dma_max_outstanding, their transactions per transfer)) waits
    // behind their queued requests, not only behind as many as it moves itself; x that wait
    // (0: not charged, the model of before; 1: the wait of an FCFS queue).
    double queue_scale = 0.0;

    // Throws vp::InputError("<prefix>.<field>: ...").
    void validate(const std::string& prefix) const;
};

struct Tile;
struct ChoiceCost;

class TimeModel {
public:
    virtual ~TimeModel() = default;
    virtual const char* name() const = 0;
    // Eq. 6 time of a choice from its integer counts (the search's ranking).
    virtual CostTimes screen(const CostCounts& k, const NmpParams& hw) const = 0;
    // screen(k, hw) into *out and whether its total_s < bound; false as soon as the model knows
    // that the total is >= bound (then *out is not set), which may be cheaper than screening.
    // The search keeps what it would keep screening every candidate.
    virtual bool screen_below(const CostCounts& k, const NmpParams& hw, double bound, CostTimes* out) const {
        *out = screen(k, hw);
        return out->total_s < bound;
    }
    // screen_below() of n candidates at one bound: below[i], and out[i] where it is true, as
    // screen_below(k[i], hw, bound, &out[i]) gives them (a model may interleave their work).
    virtual void screen_below_n(const CostCounts* k, std::size_t n, const NmpParams& hw, double bound,
                                CostTimes* out, bool* below) const {
        for (std::size_t i = 0; i < n; ++i) below[i] = screen_below(k[i], hw, bound, &out[i]);
    }
    // Number of best screened candidates re-estimated by replay() (0: the screen is final).
    virtual int shortlist() const { return 0; }
    // Estimate of one choice from its tile sequence; default: the screen.
    virtual CostTimes replay(const ConvShape& conv, const NmpParams& hw, const ChoiceCost& c) const;
};

// Ring term of IFM_CH (an extension of Eq. 6; the paper has no IFM-channel slicing): the
// critical TLE's partial-sum sends, bounded by its own injection (one message at a time) or by
// the busiest link, whichever carries more, at ring.width_bytes per cycle; one hop latency per
// message (the send ends when the last packet left the first link); and the owners'
// partial-sum additions on the busiest TLT. 0 for the other slicings.
//   T_ring = (max(sent, link_max) / width + messages x hop_cycles + reduce_cycles) x cycle
double ring_time_s(const CostCounts& k, const NmpParams& hw);

// T_SW of Eq. 6 by instruction class (NmpParams::control): nmp_conv2d issue and loop
// bookkeeping per instruction of the critical TLT, a sync per DMA completion its busiest TLT
// waits for, a DMA issue per transfer of the critical TLE's controller (ring sends included).
// With the default control costs (0) it is sw_instr x sw_cycles_per_instr, as before.
double sw_time_s(const CostCounts& k, const NmpParams& hw);

// The fabric from each TLE's DMA engine to its TLTs (NmpParams::fabric; an extension of Eq. 6,
// the paper has no figures for it), given the DRAM time T_DRAM the model computed:
//   T_DMA+fabric = max(T_DRAM, P_load / w) + P_store / w + n_port x L      (cycles, x cycle)
// P_load = IN multicast + W bytes through the busiest TLT port (a multicast holds every port,
// so IN tiles and W tiles serialize on it), P_store its OUT bytes, w = bytes_per_cycle, L =
// latency_cycles, n_port = its transfers (tlt_syncs). Loads stream through the port while the
// DRAM serves them (their port time hides behind the DRAM time unless the port is slower);
// stores drain MB2 into the DMA engine before the DRAM write. Returns the part added to
// T_DRAM (0 when the fabric is off). Monotone in every count.
double fabric_extra_s(const CostCounts& k, const NmpParams& hw, double t_dram_s);

// The registry: names in registration order, and a model by name (vp::InputError naming
// `what` and the known names when unknown).
std::vector<std::string> time_model_names();
std::shared_ptr<const TimeModel> make_time_model(const std::string& name, const TsoCoefficients& coef,
                                                 const std::string& what = "tso.dram_model");

}  // namespace vp::mapper::tso
