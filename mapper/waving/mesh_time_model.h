#pragma once
// Time models of the mesh mapper: a small interface with named implementations, chosen by name
// from YAML (mapper.mesh_model) through one registry.
//   paper       the paper's estimate as published and used so far (dataflow-aware mapping,
//               Eqs. 12-18 per core and Eq. 23 to rank (T, k)): every core moves its DRAM words
//               at the NoC flit rate (Eq. 13), the busiest DRAM interface at one flit per NoC cycle.
//   calibrated  what the mesh simulation does: each core walks its loop nest; a
//               waited-for op costs its DMA descriptors, one round-trip latency and its transfer
//               time; a row costs max(compute, latency + the transfer time of its overlapped ops).
//               A transfer of n packets touching b DRAM bursts with f flits takes
//                 D = max(n (one request per core cycle), n L / O (Little: O = core.dma_max_outstanding),
//                         port_scale f t_flit (one stream through the NoC: a VC's credit loop),
//                         k_eff f t_flit (the DRAM interface's port, shared),
//                         k_eff (b t_burst dram_scale + n conflict (1 - 1/k) (tRP + tRCD)) (the DRAM
//                           data bus, shared; partial bursts counted on the addresses; row conflicts
//                           between the interleaved streams of k cores, none with one stream),
//                         k_eff n slot_scale L_dram / C (the interface's request cap C, Little's
//                           law with the loaded time a request holds a slot))
//               with k_eff = k^contention the active cores that compete for the shared
//               side, L = latency_scale x (NoC round trip over the core's hops + DRAM access) for
//               the ops a row overlaps with its compute, wait_scale x the same for a waited-for op
//               (its latency is exposed in full).
//               The layer ends with its slowest core, but not before the shared side has served
//               every core: shared_scale x sum over cores of max(f t_flit, b t_burst dram_scale,
//               n slot_scale L_dram / C); plus layer_cycles (start / done syncs).
//               Free coefficients (MeshCoefficients) come from a vp-calibrate file.
#include <memory>
#include <string>
#include <vector>

#include "mapper/tiling/asip_params.h"
#include "mapper/waving/mesh_map_params.h"
#include "mapper/waving/mesh_profile.h"

namespace vp::mapper::waving {

// Free coefficients of the calibrated model. Defaults: the physical figures uncorrected.
struct MeshCoefficients {
    double latency_scale = 1.0;  // x unloaded round-trip latency of a transfer (queueing under load)
    double dram_scale = 1.0;     // x DRAM data-bus time per burst (1 / achieved fraction of peak)
    double conflict = 0.0;       // row conflicts (tRP + tRCD each) per request among many interleaved streams
                                 // (x (1 - 1/k) with k active cores)
    double contention = 1.0;     // exponent: k^contention of the k active cores compete on the shared side
    double shared_scale = 1.0;   // x the summed demand of all cores on the shared side (layer bound)
    double port_scale = 1.0;     // x flit time of one core's stream (credit loop of the routers' VC buffers)
    double layer_cycles = 0.0;   // fixed core cycles per layer (start and done syncs, drain)
    double wait_scale = 1.0;     // x unloaded round-trip latency of a waited-for op (exposed, not overlapped)
    double slot_scale = 1.0;     // x unloaded DRAM access: how long a request holds a slot of the
                                 // DRAM interface's cap under load (Little's law with the loaded latency)
    // The queueing model's coefficients (the other fields belong to `calibrated`).
    double mva_row_miss = 1.0;     // share of the bank collisions between the k interleaved streams
                                   // that cost a precharge + activate (1: none hidden by the scheduler)
    double mva_bus_scale = 1.0;    // x DRAM data-bus time per burst (turnarounds, refresh)
    double mva_stream_scale = 1.0; // x flit time of one core's stream (credit loop of the VC buffers)
    double mva_port_scale = 1.0;   // x flit time at the DRAM interface's ports (all streams merged)
    double mva_layer_cycles = 0.0; // fixed core cycles per layer (start and done syncs, drain)
    // The phased model's coefficients.
    double ph_turn = 1.0;          // share of the read/write switches of a random interleaving that cost
                                   // a bus turnaround (0: the scheduler groups all reads and writes)
    double ph_conflict = 0.0;      // share of the bank collisions of k interleaved streams that cost
                                   // a precharge + activate on the data bus (FR-FCFS hides the rest)
    double ph_port = 1.0;          // x flit time at the DRAM interface's port (per direction)
    double ph_stream = 1.0;        // x flit time of one core's stream (credit loop of the VC buffers)
    double ph_wait = 1.0;          // x unloaded round trip of a waited-for op
    double ph_sync = 1.0;          // share of the other cores whose demand a core's entry waits behind
                                   // (1: processor sharing of the shared side among cores started together)
    double ph_layer_cycles = 0.0;  // fixed core cycles per layer (start and done syncs, drain)
    double ph_bus = 1.0;           // x DRAM data-bus time per burst (refresh, tCCD gaps)
    double ph_tail = 0.0;          // share of the other cores' row traffic that a core's waited-for loads
                                   // wait behind (0: lockstep, the others' rows come after every core's
                                   // waited-for load; 1: the core is served last, after all of it)
    // The `phased-pages` model's coefficients: the phased model's (same meaning; the page term
    // replaces ph_conflict's collisions) fitted again with the page term, plus its two own.
    double pg_turn = 1.0, pg_port = 1.0, pg_stream = 1.0, pg_wait = 1.0, pg_sync = 1.0, pg_layer_cycles = 0.0,
           pg_bus = 1.0, pg_tail = 0.0;
    double pg_collide = 0.0;       // share of the bank collisions of k interleaved streams that cost an
                                   // activation (priced like the own ones)
    double pg_own = 1.0;           // share of a core's own row activations that cost one when k > 1
                                   // (1: all; rows the other cores' accesses opened are found open)
    double pg_tail_from = 1.0;     // cores from which the last core's tail grows: the tail counts
                                   // clamp((k - pg_tail_from) / (k - 1), 0, 1) of the other cores'
                                   // hidden traffic (1: all of it at every k, the form before this
                                   // coefficient; a calibration file without it means 1)
    double pg_tail_full = 0.0;     // cores from which the tail counts in full: with it (> pg_tail_from)
                                   // the share is clamp((k - pg_tail_from) / (pg_tail_full -
                                   // pg_tail_from), 0, 1), a ramp; 0 (a file without it): the form above
    double pg_queue = 0.0;         // x one other core's shared-side time of a row that its latency path
                                   // waits behind: a row bound by its round trip takes
                                   // max(L0 + own + pg_queue min(k - 1, 1) s, sync s) (0: a file without it)
    double pg_port_packet = -1.0;  // x the packet gap g (MeshHwFigures::packet_gap) per request packet
                                   // the DRAM interface takes: its port's time is
                                   // max(pg_port f_in, f_out + pg_port_packet g n) NoC cycles;
                                   // -1 (a file without it): pg_port max(f_in, f_out)

    // Throws vp::InputError("<prefix>.<field>: ...").
    void validate(const std::string& prefix) const;
};

// Where a core sits and how many cores share the DRAM side.
struct CoreContext {
    int hops = 0;   // XY hops to its DRAM interface
    int active = 1; // active cores of the layer (k)
    // Cores that share the DRAM side with this core's work under processor sharing with a
    // common start (each of k cores is served at 1/k of the rate while all have requests; a core
    // with less work drops out): the work the shared side serves until this core is done / its
    // own work (sharing_by_work; with equal slices for the slowest core: slices / ceil(slices / k),
    // sharing_of). 0: take `active`.
    double sharing = 0;
};

// CoreContext::sharing of n slices on k cores (n / ceil(n / k); k when n <= 0): the slowest
// core's factor when every slice puts the same work on the shared side.
double sharing_of(int slices, int k);
// CoreContext::sharing of every core from the cores' work w on the shared side: under egalitarian
// processor sharing with a common start, core i is done when the server has done
// sum_j min(w_j, w_i) (the smaller jobs in full, the larger ones as much as i), so its factor is
// that sum / w_i (1 for a core without work). Equals sharing_of for the slowest core when the
// work is proportional to the slices; with slices of unequal size (a narrower last slice of
// T_of or T_ox) it counts the cores by their work instead of their slices.
std::vector<double> sharing_by_work(const std::vector<double>& work);

class MeshTimeModel {
public:
    virtual ~MeshTimeModel() = default;
    virtual const char* name() const = 0;
    // True: (T, k) candidates are ranked by the cycles of this model; false: by Eq. 23.
    virtual bool ranks_by_cycles() const = 0;
    // Core cycles of a core's work (its profile) in context.
    virtual double core_cycles(const OpProfile& p, const CoreContext& c, const tiling::AsipParams& asip,
                               const MeshMapParams& mesh) const = 0;
    // Cycles a core's work occupies the resources all active cores share (the DRAM interface's
    // port and request slots, the DRAM data bus); the layer takes at least the sum over its cores.
    virtual double shared_cycles(const OpProfile&, const tiling::AsipParams&, const MeshMapParams&, int /*active*/) const {
        return 0.0;
    }
    // Fixed cycles per layer added to the slowest core.
    virtual double layer_overhead() const { return 0.0; }
    // Core cycles the master's start and done syncs add to the core that receives the
    // `position`-th start sync of the layer (0-based), `master_hops` away from the master: the
    // layer lasts max over its cores of (sync_cycles + core_cycles). 0: not modelled.
    virtual double sync_cycles(int /*position*/, int /*master_hops*/, const tiling::AsipParams&,
                               const MeshMapParams&) const {
        return 0.0;
    }
    // True: CoreContext::sharing per core from the cores' shared_cycles (sharing_by_work);
    // false: sharing_of(slices, k) for every core.
    virtual bool shares_by_work() const { return false; }
    // True if core_cycles reads OpProfile::activations (the profile walk then replays the pages).
    virtual bool replays_pages() const { return false; }
};

// The paper model (no profile: the mapper keeps its Eq. 12-18 / Eq. 23 estimate).
class PaperMeshModel final : public MeshTimeModel {
public:
    const char* name() const override { return "paper"; }
    bool ranks_by_cycles() const override { return false; }
    double core_cycles(const OpProfile&, const CoreContext&, const tiling::AsipParams&,
                       const MeshMapParams&) const override {
        return 0.0;
    }
};

class CalibratedMeshModel final : public MeshTimeModel {
public:
    explicit CalibratedMeshModel(const MeshCoefficients& c) : m_c(c) {}
    const char* name() const override { return "calibrated"; }
    bool ranks_by_cycles() const override { return true; }
    double core_cycles(const OpProfile& p, const CoreContext& c, const tiling::AsipParams& asip,
                       const MeshMapParams& mesh) const override;
    double shared_cycles(const OpProfile& p, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                         int active) const override;
    double layer_overhead() const override { return m_c.layer_cycles; }
    const MeshCoefficients& coefficients() const { return m_c; }

private:
    double conflict_cycles(const MeshHwFigures& hw, double tck, int active) const;
    MeshCoefficients m_c;
};

// The queueing model (`queueing`): the latency of a request under load from a closed queueing
// network solved exactly (mva.h), instead of per-term constants. Customers: the requests the k
// active cores keep in flight (k x w, w = min(dma_max_outstanding, the transfers an entry issues
// together)); each cycles through
//   * a delay: the request's and the response's heads over the core's hops (unloaded NoC) plus a
//     think time (the part of the core's time it has no request in flight, solved as a fixed
//     point with the core's time below), and
//   * the DRAM interface with its cap of C = dram_if_outstanding requests: a flow-equivalent
//     server whose rate with j requests is the throughput of the subnetwork behind the cap at
//     min(j, C) (exact MVA): the interface's port in (the request's flits) and out (the
//     response's flits) at one flit per mva_port_scale NoC cycles each, the DRAM data bus (the request's bursts,
//     partial bursts counted on the addresses, x mva_bus_scale), the B banks (a row miss costs
//     tRP + tRCD at one bank; the miss probability is the stream's own row changes, bytes per
//     request / row bytes, plus the collisions of k interleaved streams on B banks,
//     1 - (1 - 1/B)^(k - 1), x mva_row_miss), and a delay of frontend + CL.
// Loaded round trip L = NoC heads + N / X - Z (Little). An entry of n transfers takes
//   D = L + (n - 1) max(1, L / O, mva_stream_scale f t_flit)   (issue rate, the DMA engine's
//   O outstanding requests under the loaded latency, one stream through the routers),
// a waited-for entry D, a row max(compute, D), each + setup x descriptors. The layer takes its
// slowest core, but not less than its requests at the subnetwork's peak throughput X_sub(C),
// plus mva_layer_cycles. All hardware figures from MeshHwFigures (the DRAM preset, the NoC).
class QueueingMeshModel final : public MeshTimeModel {
public:
    explicit QueueingMeshModel(const MeshCoefficients& c) : m_c(c) {}
    const char* name() const override { return "queueing"; }
    bool ranks_by_cycles() const override { return true; }
    double core_cycles(const OpProfile& p, const CoreContext& c, const tiling::AsipParams& asip,
                       const MeshMapParams& mesh) const override;
    double shared_cycles(const OpProfile& p, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                         int active) const override;
    double layer_overhead() const override { return m_c.mva_layer_cycles; }

    // The pieces, for tests. Per-request demands of a profile [core cycles].
    struct Demands {
        double requests = 0;          // transfers of the profile
        double port_in = 0, port_out = 0, bus = 0, bank = 0;  // bank: per bank (miss x (tRP + tRCD) / B)
        double dram_delay = 0;        // frontend + CL
        int banks = 1;
        double miss = 0;              // row-miss probability per request
        double window = 1;            // requests a core keeps in flight (w)
    };
    Demands demands(const OpProfile& p, int active, const tiling::AsipParams& asip, const MeshMapParams& mesh) const;
    // Throughputs of the capped subnetwork for populations 1..C [requests per core cycle].
    std::vector<double> subnetwork_rates(const Demands& d, int cap) const;
    // Loaded round trip of a request [core cycles] with `customers` requests in flight,
    // NoC heads `noc` and think time `think`.
    static double loaded_latency(const std::vector<double>& rates, double noc, double think, int customers);

private:
    double core_time(const OpProfile& p, double lat, const tiling::AsipParams& asip, const MeshMapParams& mesh) const;
    MeshCoefficients m_c;
};

// The phased model (`phased`, the default): every request is served by the shared side (the DRAM interface's
// port and the DRAM behind it) in a time built from the DRAM preset for the request's own access
// pattern, rather than one constant efficiency. For an entry of n transfers (r of them reads),
// b bursts, f_in / f_out flits, with k active cores:
//   DRAM  s_dram = ph_bus b t_burst + n [ ph_turn 2 w (1 - w) (t_WR->RD + t_RD->WR) / 2
//                                          + miss (tRP + tRCD) ]
//         w = (n - r) / n the entry's write share (2 w (1 - w): read/write switches per request of
//         a random interleaving; t_WR->RD = CWL + BL/2 + tWTR, t_RD->WR = CL + BL/2 + 2 - CWL);
//         miss = bytes per request / row bytes (the stream's own row changes)
//                + ph_conflict (1 - (1 - 1/B)^(k - 1)) (collisions of k streams on B banks);
//   port  s_port = ph_port max(f_in, f_out) t_flit;   shared s = max(s_dram, s_port).
// A core's entry: own = max(n (one request per core cycle), n L0 / O (Little, O outstanding),
// ph_stream max(f_in, f_out) t_flit (one stream through the routers)); a waited-for op takes
// ph_wait L0 + own, a row max(compute, L0 + own); either at least (1 + ph_sync (k - 1)) s (the
// entry's requests queue behind those of the cores that load at the same time: ph_sync 1 = all
// k cores in lockstep, as at the start of a wave). L0 = NoC heads over hops + 1 routers each way
// + the unloaded DRAM access. The last core's tail: the arbitration in front of the DRAM
// interface is not fair (round robin per router input: the cores nearer the interface, or on
// its other input, get their waited-for loads first), so some cores start computing early and
// their row traffic, which lockstep hides in the rows' compute, is served while the last core
// still waits: a core's time grows by ph_tail x sum over its rows of
// min((k_ps - 1) s, max(0, compute - s)) (the other cores' traffic of that row that the row's
// compute hides; none when the row is bound by the shared side already); `phased-pages` counts
// that of a row bound by the shared side ((1 + ph_sync (k - 1)) s >= compute) in full and that of
// a row bound by its compute by a share that grows with the cores: clamp((k_ps - pg_tail_from) /
// (pg_tail_full - pg_tail_from), 0, 1), a ramp to all of it at pg_tail_full cores, or without
// pg_tail_full clamp((k_ps - pg_tail_from) / (k_ps - 1), 0, 1) (the tail the calibration samples
// need of compute-bound rows is small with 2-5 cores and grows from 6, see docs/mesh.md). The layer takes its
// slowest core, but not less than the shared side's time for every core's requests (sum of s),
// plus ph_layer_cycles.
// All hardware figures from MeshHwFigures; free coefficients from vp-calibrate.
//
// Processor sharing counts the cores by their work on the shared side (sharing_by_work): a core
// waits behind the others' demand up to its own, so 12 cores with a full slice and 2 with a
// narrow one count as about 13, where counting slices (16 on 14 cores: 8) charged the slowest
// core for half of them. `phased-slices` is the model as it was before (sharing_of for every core,
// serial rows).
//
// Pipelined rows on one core (k = 1): by the replay contract a row's compute waits for the
// prefetch posted before the previous row's compute, so two prefetches are in flight whenever
// the core waits and a latency-bound row costs half its own time + latency on average:
// with B = setups + compute and L = L0 + own (+ t_WR->RD = CWL + BL/2 + tWTR when the entry has
// reads and writes: its reads reach the DRAM behind its store's writes), a row costs
// max(B, (B + L) / 2, setups + s); with reads and writes, the next store's writes, posted from B
// on and streaming for own_w, overtake the read until it can be served at own_w + t_WR->RD
// (the FR-FCFS scheduler serves their row hits while the read waits out the turnaround): a share
// phi = clamp((own_w + t_WR->RD - B) / own_w, 0, 1) of them does, and the row pays that share of
// the full race (the read waits for both stores, then its data streams:
// max(own_w, B) + own_w + own_r - own): max(B, (B + L + phi x full) / 2, setups + s) (race_row;
// continuous in B), own_w / own_r = ph_stream x the flits of the write requests / read responses
// x t_flit.
// With k > 1 rows keep the serial form (the latency under load, which processor sharing stands
// in for, is not the unloaded one the pipelining halves). `phased-serial` is the model without
// the pipelined rows (serial rows on every core).
//
// `phased-engine` (opt-in; docs/mesh.md "The in-order DMA engine of a one-core row"): the phased
// model, the same coefficients, plus the in-order DMA engine's bound on a one-core row with reads
// and writes. A VC's packet of F flits over H hops costs p(F) = F + g + min(H, floor((F - 1) / B))
// x stall NoC cycles (packet_cycles; g, stall and B from MeshHwFigures); the engine issues the
// row's store (W writes of F_w flits) before its prefetch (R reads, F_r flits per response), and
// with R > O = dma_max_outstanding read O + 1 leaves when read 1's response is in:
//   engine = W p(F_w) + (R > O ? L0 + t_WR->RD + p(F_r) + (R - O - 1) p(F_r) : R p(1))
// and the row costs max(race_row(...), engine).
class PhasedMeshModel final : public MeshTimeModel {
public:
    explicit PhasedMeshModel(const MeshCoefficients& c, bool by_work = true, bool pipelined = true,
                             bool engine = false, bool pages = false)
        : m_c(pages ? with_page_coefficients(c) : c), m_by_work(by_work), m_pipelined(pipelined), m_engine(engine),
          m_pages(pages) {}
    const char* name() const override {
        return !m_by_work ? "phased-slices" : !m_pipelined ? "phased-serial" : m_pages ? "phased-pages" : m_engine ? "phased-engine" : "phased";
    }
    bool replays_pages() const override { return m_pages; }
    bool shares_by_work() const override { return m_by_work; }
    bool ranks_by_cycles() const override { return true; }
    double core_cycles(const OpProfile& p, const CoreContext& c, const tiling::AsipParams& asip,
                       const MeshMapParams& mesh) const override;
    double shared_cycles(const OpProfile& p, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                         int active) const override;
    double layer_overhead() const override { return m_c.ph_layer_cycles; }
    // phased-pages: the syncs from the hardware figures (start_sync + done_sync below).
    double sync_cycles(int position, int master_hops, const tiling::AsipParams& asip,
                       const MeshMapParams& mesh) const override;
    // phased-pages: a request's unloaded round trip [core cycles] for an entry's requests (x) `hops`
    // from the DRAM interface: the NoC's 2 (H + 1) hop_cycles, and at the DRAM the front end, a row
    // activation (tRCD) for the replayed share `own_act` of the requests that open a row (every one
    // without a replay, or with a closed page), CL for reads or CWL for writes by the entry's write
    // share, and the burst. The other phased models charge tRCD + CL to every request.
    static double unloaded_latency(const XferFeatures& x, int hops, double own_act, const tiling::AsipParams& asip,
                                   const MeshMapParams& mesh);
    // The master's syncs, from the hardware figures, in core cycles (docs/mesh.md, "The models",
    // `phased-pages`). A sync is a header-only packet (F = header_flits); over H hops at zero load its
    // tail reaches the NI T0(H) = L + (H + 1)(P - 1 + L) + F - 1 NoC cycles after it is created
    // (P router stages, L the link latency), one more before the receiver sees it. The master
    // issues one start sync per core cycle, and its router sends one such packet per p(F) = F + g
    // NoC cycles (packet_cycles), so the `position`-th leaves position x max(1, p(F) t_flit) core
    // cycles after the first; the core starts on its next clock edge. The done sync leaves when
    // the core's work ends and ends the layer when the master sees it.
    static double start_sync(int position, int master_hops, const tiling::AsipParams& asip, const MeshMapParams& mesh);
    static double done_sync(int master_hops, const tiling::AsipParams& asip, const MeshMapParams& mesh);
    // The shared side's time for one entry's requests [core cycles] (for tests).
    double shared_time(const XferFeatures& x, int active, const tiling::AsipParams& asip,
                       const MeshMapParams& mesh, double own_act = -1.0, double bank_factor = 1.0) const;

    // A row with reads and writes on one active core: B = setups + compute, L = L0 + own
    // (+ t_w2r added here), own_w the write data's stream, s the shared side's time, `full` the
    // extra time of the full race (max(own_w, B) + own_w + own_r - own).
    static double race_row(double b, double setups, double l, double own_w, double t_w2r, double s, double full);
    // NoC cycles of one packet of `flits` (a mean; need not be whole) over `hops` routers on one VC
    // in a stream of such packets: p(F) above.
    static double packet_cycles(const MeshHwFigures& hw, double flits, int hops);
    // `phased-pages`: the DRAM clocks a row activation adds to the data bus's time, for k active
    // cores' requests (n per entry) of which a share w writes: t(b) - BL/2 with
    // t(b) = max(cycle / b, tFAW / 4 / ranks, tRRD / ranks, BL/2), b the banks the requests queued
    // at the DRAM keep busy (docs/mesh.md, "The models", `phased-pages`), times bank_factor
    // (OpProfile::bank_factor: fewer banks when the cores' strides alias; at least one bank).
    static double activation_price(const MeshHwFigures& hw, const tiling::AsipParams& asip, int active, double n, double w,
                                   double bank_factor = 1.0);

private:
    // c with the phased model's coefficients replaced by the pg_* ones (the page term's model).
    static MeshCoefficients with_page_coefficients(MeshCoefficients c);
    // A row entry's cycles on one active core (pipelined rows); `s` the shared side's time.
    double pipelined_row(const ProfileEntry& e, double setups, double l0, double own, double s, int hops,
                         const tiling::AsipParams& asip, const MeshMapParams& mesh) const;
    MeshCoefficients m_c;
    bool m_by_work = true;
    bool m_pipelined = true;
    bool m_engine = false;
    bool m_pages = false;
};

// The registry: names in registration order, and a model by name (vp::InputError naming
// `what` and the known names when unknown).
std::vector<std::string> mesh_model_names();
std::shared_ptr<const MeshTimeModel> make_mesh_model(const std::string& name, const MeshCoefficients& coef,
                                                     const std::string& what = "mapper.mesh_model");

}  // namespace vp::mapper::waving
