#pragma once
// The master core of Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect's mesh: runs the mapped layers in order. For each layer it sends
// a start sync to every active core, then waits for one done sync from each of them (so a
// layer starts only when the previous one has finished on every core). A sync is a posted
// write of the layer index to the receiving node's mailbox (noc::AddressMap::mailbox_address),
// issued as a TLM-2.0 AT transaction on `socket` into the master node's NetworkInterface, one
// BEGIN_REQ per master clock cycle (END_REQ is the NI's injection backpressure), like every
// other packet of the NoC. Done syncs reach the master through its NI (sync sink).
//
// Per layer it records the start/end time and the platform's probe (NoC counters) at both
// instants, from which the platform derives the flits the layer's traffic created and carried.
// After the last layer it waits until the platform reports quiescence (posted writes still on
// their way to DRAM), then ends the run.
#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/common/payload_pool.h"
#include "models/common/sim_control.h"
#include "models/common/trace.h"
#include "models/noc/terminal.h"

namespace vp::asip {

struct MasterLayer {
    std::vector<unsigned> core_nodes;  // active cores of the layer
};

// NoC figures the platform samples at each layer's start and end.
struct LayerProbe {
    std::uint64_t packets_created = 0;  // packets created so far (all nodes)
    std::uint64_t flits_created = 0;  // flits of the packets created so far
    std::uint64_t flits_ejected = 0;  // flits drained at destination NIs so far
    std::uint64_t link_flits = 0;     // router-to-router link traversals so far
};

struct MasterLayerRecord {
    sc_core::sc_time start, end;
    LayerProbe at_start, at_end;
    std::uint64_t syncs = 0;  // start + done syncs of the layer
    bool finished = false;
};

class MasterCore : public sc_core::sc_module, public noc::PacketSink {
public:
    tlm_utils::simple_initiator_socket<MasterCore> socket;  // bind to the master node's NetworkInterface

    SC_HAS_PROCESS(MasterCore);
    MasterCore(sc_core::sc_module_name name, const sc_core::sc_time& period, std::vector<MasterLayer> layers,
               SimControl& ctrl, PayloadPool& pool, trace::Tracer* tracer);

    void set_probe(std::function<LayerProbe()> f) { m_probe = std::move(f); }
    // Polled every master cycle after the last layer; the run ends when it returns true.
    void set_quiescent(std::function<bool()> f) { m_quiescent = std::move(f); }

    // Done syncs (forwarded by the master node's NI).
    void deliver(unsigned node, std::uint32_t id, const noc::PacketInfo& info, std::uint64_t c) override;

    const std::vector<MasterLayerRecord>& records() const { return m_rec; }
    std::size_t layers_finished() const { return m_finished; }
    std::size_t layers() const { return m_layers.size(); }
    std::size_t syncs_in_flight() const { return m_syncs_in_flight; }  // start syncs not yet completed

private:
    void run();
    void send_sync(unsigned node, std::uint32_t layer);
    void to_next_edge();
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
    void on_response(tlm::tlm_generic_payload& t);

    sc_core::sc_time m_period;
    std::vector<MasterLayer> m_layers;
    std::vector<MasterLayerRecord> m_rec;
    SimControl& m_ctrl;
    PayloadPool& m_pool;
    tlm_utils::peq_with_cb_and_phase<MasterCore> m_peq;
    std::size_t m_finished = 0;
    std::uint32_t m_current = 0;
    std::size_t m_done_count = 0;
    std::size_t m_syncs_in_flight = 0;
    bool m_req_busy = false;  // BEGIN_REQ sent, END_REQ pending
    tlm::tlm_generic_payload* m_req_current = nullptr;
    sc_core::sc_event m_done_ev, m_end_req_ev;
    trace::Signal* m_sig_layer = nullptr;
    std::function<LayerProbe()> m_probe;
    std::function<bool()> m_quiescent;
};

}  // namespace vp::asip
