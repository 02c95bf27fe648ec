#pragma once
// One TLE processor (Tensor Slicing and Optimization for Multicore NPUs): a controller that replays the TSO tile sequence of its
// slice (mapper/tso/tile_walker.h), one DMA engine serving its TLTs (IN tiles multicast
// to all of them, W/OUT tiles per TLT) and the TLT cores.
#include <map>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "mapper/tso/tso.h"
#include "models/common/payload_pool.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/nmp/dma_engine.h"
#include "models/nmp/fabric.h"
#include "models/nmp/nmp_model_params.h"
#include "models/nmp/tlt.h"

namespace vp::nmp {

class NmpSystem;

using mapper::tso::LayerAddresses;

// Value of the traced signal <tle>.tlt[j].state (VCD, 2 bits).
enum class TltState : std::uint8_t { Idle = 0, Load = 1, Compute = 2, Store = 3 };

class Tle : public sc_core::sc_module {
public:
    // The ring's deliveries to this TLE (Ring::out): a partial OUT tile with its RingMessage tag.
    tlm_utils::simple_target_socket<Tle> ring_in;

    SC_HAS_PROCESS(Tle);
    // `tracer` (may be null): signals <tle>.tlt[j].state (TltState) and <tle>.dma.in_flight.
    Tle(sc_core::sc_module_name name, int id, const NmpModelParams& p, NmpSystem& sys, PayloadPool& pool,
        stats::Group& parent, trace::Tracer* tracer = nullptr);

    DmaEngine& dma() { return *m_dma; }
    Tlt& tlt(int j) { return *m_tlts[std::size_t(j)]; }
    int n_tlt() const { return int(m_tlts.size()); }
    std::uint64_t macs() const;
    void finish(const sc_core::sc_time& span);
    // IFM-channel slicing: the ring delivered a partial OUT tile for the store tagged `tag`.
    void partial_arrived(std::uint64_t tag);
    // Partial tiles delivered but not (yet) added by this TLE (0 at the end of a run).
    std::size_t partials_pending() const { return m_partials.size(); }

private:
    void ring_delivery(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void run();
    void execute(std::size_t layer, const mapper::tso::ConvMapping& m, const LayerAddresses& a);
    void wait_until(const sc_core::sc_time& t);
    void dma_issue();
    // A DMA transfer into/out of TLT j starts (Load/Store) or ends (Idle): its state statistic
    // and, when traced, its state signal.
    void set_dma_state(std::size_t j, TltState s);
    // With the fabric: the delivery of a load's data (DRAM phase [t0, now]) into `ports`;
    // the TLTs' computes wait for it. Returns the fabric's schedule.
    void deliver(FabricKind kind, const std::vector<int>& ports, std::uint64_t bytes, const sc_core::sc_time& t0);
    // With the fabric: an OUT tile of TLT j leaves MB2 through its port into the DMA engine;
    // blocks the controller until it is there.
    void drain(int j, std::uint64_t bytes);
    void set_dma_busy(unsigned s);  // the DMA engine's state: 0 idle, 1 load, 2 store
    void trace_states();  // SC_METHOD, registered only when a state signal is traced

    int m_id;
    NmpModelParams m_p;
    NmpSystem& m_sys;
    stats::Group m_stats;
    std::unique_ptr<DmaEngine> m_dma;
    std::unique_ptr<Fabric> m_fabric;  // null: ideal fabric (nmp.fabric.enabled false)
    std::vector<std::unique_ptr<Tlt>> m_tlts;
    stats::Counter m_layers, m_wait_cycles;
    // Time breakdown of the controller: DMA loads, DMA stores, layer barrier (the rest is
    // waiting for TLT compute, dma_wait_cycles). Exact sums of sc_time, set in finish().
    sc_core::sc_time m_load_t, m_store_t, m_barrier_t, m_ring_t, m_reduce_wait_t;
    stats::Scalar m_load_cycles, m_store_cycles, m_barrier_cycles, m_ring_cycles, m_reduce_wait_cycles;
    stats::Counter m_ring_msgs, m_ring_bytes, m_owned_stores;
    std::map<std::uint64_t, unsigned> m_partials;  // IFM-channel: partial tiles arrived per store tag
    sc_core::sc_event m_partial_ev;
    stats::StateTime m_dma_time;
    bool m_trace = false;
    std::vector<trace::Signal*> m_sig_state;  // per TLT, null when not traced
    std::vector<TltState> m_dma_state;        // per TLT: Load/Store while its DMA transfer runs
    sc_core::sc_event m_trace_ev;
};

}  // namespace vp::nmp
