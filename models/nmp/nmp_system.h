#pragma once
// The NMP (Tensor Slicing and Optimization for Multicore NPUs): N TLEs, each with its DMA engine and M TLTs, running a TSO mapping
// layer after layer (all TLEs finish a layer before the next starts). Each TLE's DMA
// socket binds to the shared DRAM controller (a multi-target socket).
//
// The TLEs sit on a bidirectional ring (ring.h) that carries the partial sums of layers mapped
// with the IFM-channel slicing.
//
// Invariants checked by finish(): MACs simulated == MACs of the mapped layers (exact),
// no DMA transaction left in flight, no error response, every layer finished; ring bytes
// delivered == sent, no packet in flight, no partial tile left unreduced.
#include <memory>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "mapper/tso/tso.h"
#include "models/common/payload_pool.h"
#include "models/common/sim_control.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/nmp/nmp_model_params.h"
#include "models/nmp/ring.h"
#include "models/nmp/tle.h"

namespace vp::nmp {

class NmpSystem : public sc_core::sc_module {
public:
    // `layers`: the TSO mapping (mapper/tso/tso.h), simulated in order. Validates `p` and
    // checks that the mapping was made for the same TLE/TLT counts (vp::InputError).
    // `tracer` (may be null): nmp.layer (index of the running layer) and the TLE signals.
    NmpSystem(sc_core::sc_module_name name, const NmpModelParams& p, std::vector<mapper::tso::ConvMapping> layers,
              PayloadPool& pool, SimControl& ctrl, stats::Group& parent, trace::Tracer* tracer = nullptr);

    int n_tle() const { return int(m_tles.size()); }
    Ring& ring() { return *m_ring; }
    const Ring& ring() const { return *m_ring; }
    Tle& tle(int i) { return *m_tles[std::size_t(i)]; }
    tlm_utils::simple_initiator_socket<DmaEngine>& socket(int tle) { return m_tles[std::size_t(tle)]->dma().socket; }

    const std::vector<mapper::tso::ConvMapping>& layers() const { return m_layers; }
    const LayerAddresses& addresses(std::size_t layer) const { return m_addr[layer]; }
    // Called by each TLE at the end of a layer; returns when all TLEs are done with it.
    void layer_barrier(std::size_t layer);
    // Called by each TLE when it starts a layer: counts starts before the previous layer ended.
    void layer_begin(std::size_t layer) {
        if (m_layers_done != layer) ++m_order_errors;
    }

    bool done() const { return m_layers_done == m_layers.size(); }
    // Simulated start/end of each layer.
    const std::vector<sc_core::sc_time>& layer_start() const { return m_start; }
    const std::vector<sc_core::sc_time>& layer_end() const { return m_end; }
    std::uint64_t macs() const;
    std::uint64_t expected_macs() const;
    std::uint64_t dram_bytes_requested() const;
    std::uint64_t dma_transactions() const;
    // Closes the statistics and checks the invariants (vp::SimulationError).
    void finish();

private:
    NmpModelParams m_p;
    std::vector<mapper::tso::ConvMapping> m_layers;
    std::vector<LayerAddresses> m_addr;
    SimControl& m_ctrl;
    stats::Group m_stats;
    std::unique_ptr<Ring> m_ring;  // before the TLEs: they send over it
    std::vector<std::unique_ptr<Tle>> m_tles;
    sc_core::sc_event m_layer_done_ev;
    int m_arrived = 0;
    std::size_t m_layers_done = 0;
    std::uint64_t m_order_errors = 0;
    std::vector<sc_core::sc_time> m_start, m_end;
    stats::Counter m_macs_total, m_layers_stat;
    stats::Scalar m_cycles;
    std::vector<std::unique_ptr<stats::Group>> m_layer_groups;
    std::vector<std::unique_ptr<stats::Scalar>> m_layer_stats;
    trace::Signal* m_sig_layer = nullptr;
};

}  // namespace vp::nmp
