#pragma once
// The master core of seed 001's mesh: runs the mapped layers in order. For each layer it sends
// a start sync packet to every active core, then waits for one done sync packet from each of
// them (so a layer starts only when the previous one has been written back completely). It
// records per layer the start/end time and the NoC's flit counters at both instants, from
// which the platform derives the flits the layer's DMA traffic carried.
#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

#include "models/common/sim_control.h"
#include "models/common/trace.h"
#include "models/noc/noc_system.h"

namespace vp::asip {

struct MasterLayer {
    std::vector<unsigned> core_nodes;  // active cores of the layer
};

struct MasterLayerRecord {
    sc_core::sc_time start, end;
    std::uint64_t flits_injected_start = 0, flits_injected_end = 0;
    std::uint64_t flits_ejected_start = 0, flits_ejected_end = 0;
    std::uint64_t sync_packets = 0, sync_flits = 0;  // start + done syncs of the layer
    std::uint64_t probe_start = 0, probe_end = 0;     // the platform's probe at both instants
    bool finished = false;
};

class MasterCore : public sc_core::sc_module, public noc::PacketSink {
public:
    SC_HAS_PROCESS(MasterCore);
    MasterCore(sc_core::sc_module_name name, noc::NocSystem& noc, unsigned node, const sc_core::sc_time& period,
               std::vector<MasterLayer> layers, SimControl& ctrl, trace::Tracer* tracer);

    // Sampled at each layer's start and end (e.g. router link flits, for flit-hops per layer).
    void set_probe(std::function<std::uint64_t()> f) { m_probe = std::move(f); }

    void deliver(unsigned node, std::uint32_t id, const noc::PacketInfo& info, std::uint64_t c) override;

    const std::vector<MasterLayerRecord>& records() const { return m_rec; }
    std::size_t layers_finished() const { return m_finished; }
    std::size_t layers() const { return m_layers.size(); }

private:
    void run();

    noc::NocSystem& m_noc;
    unsigned m_node;
    sc_core::sc_time m_period;
    std::vector<MasterLayer> m_layers;
    std::vector<MasterLayerRecord> m_rec;
    SimControl& m_ctrl;
    std::size_t m_finished = 0;
    std::uint32_t m_current = 0;
    std::size_t m_done_count = 0;
    sc_core::sc_event m_done_ev;
    trace::Signal* m_sig_layer = nullptr;
    std::function<std::uint64_t()> m_probe;
};

}  // namespace vp::asip
