#pragma once
// The ASIP processing core of Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect as a dataflow imitator ("an inner process ... traversing
// the loop structure ... without actually performing any computations; the formation of
// data-packets is carried out accurately"). Per layer it is started by the master core with a
// sync packet, replays its slice runs with the mapper's loop nest (tiling::LoopNest) on the core
// clock and answers with a sync packet when its last write-back is complete (acknowledged, or
// sent when writes are posted). Every packet leaves through the node's NetworkInterface: DMA
// transfers and the done sync (a posted write of the layer index to the master's mailbox,
// noc::AddressMap::mailbox_address) are TLM-2.0 AT transactions on `socket`.
//
// Timing (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Eqs. 9-18):
//   * Compute op: the vALU is busy comp_cycles + pfetch_cycles core cycles (Eq. 9 + Eq. 11);
//     MACs counted per op (P_ox x P_of lanes, under-used when the tile is narrower);
//   * every DMA op costs dma_setup_cycles core cycles to program (ASSUMPTION) and is then
//     moved by the DMA engine as TLM-2.0 AT transactions of at most max_payload_bytes through
//     the node's NetworkInterface, one BEGIN_REQ per core cycle, at most dma_max_outstanding
//     in flight;
//   * waited-for ops (N_dram_init) stall the core until done; the others (N_dram_par) overlap
//     compute: a row's prefetch must have arrived before that row is computed, so the inner
//     loop takes max(C_comp, C_dram_par) (Eqs. 16/17) when the NoC and DRAM keep up.
// Stall cycles are the core cycles spent waiting for the DMA; idle cycles are those outside layers.
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "mapper/tiling/asip_params.h"
#include "mapper/waving/mesh_map_params.h"
#include "models/asip/core_work.h"
#include "models/asip/dma_queue.h"
#include "models/common/payload_pool.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/noc/terminal.h"

namespace vp::asip {

enum class CoreState : std::uint8_t { Idle = 0, Compute = 1, Stall = 2 };

class AsipCore : public sc_core::sc_module, public noc::PacketSink {
public:
    static constexpr unsigned kDmaQueueOps = 32;  // DMA descriptors the core can post (ASSUMPTION)

    tlm_utils::simple_initiator_socket<AsipCore> socket;  // bind to the node's NetworkInterface

    SC_HAS_PROCESS(AsipCore);
    // master_node: where the done sync goes. `work` lists the layers this core is active in, in
    // layer order.
    AsipCore(sc_core::sc_module_name name, const mapper::tiling::AsipParams& p,
             const mapper::waving::PacketFormat& fmt, unsigned master_node, std::vector<CoreLayerWork> work,
             unsigned n_layers, PayloadPool& pool, stats::Group& parent, const std::string& stats_name,
             trace::Tracer* tracer);

    // Sync packets from the master (forwarded by the NI): start layer info.txn_id.
    void deliver(unsigned node, std::uint32_t id, const noc::PacketInfo& info, std::uint64_t c) override;

    // Closes the idle-cycle figure at `end`.
    void finish(const sc_core::sc_time& end);
    const std::vector<CoreLayerCounts>& layer_counts() const { return m_layer; }  // indexed by layer
    std::size_t layers_done() const { return m_next; }
    std::size_t layers_assigned() const { return m_work.size(); }
    std::size_t dma_in_flight() const { return m_in_flight_n; }
    std::size_t syncs_in_flight() const { return m_sync_tx ? 1 : 0; }
    std::uint64_t macs() const { return m_macs.value(); }

private:
    struct InFlight {
        tlm::tlm_generic_payload* t = nullptr;
        unsigned slot = 0;
    };

    void run();
    void replay(const CoreLayerWork& w, CoreLayerCounts& lc);
    void post_dma(const mapper::tiling::Op& op, CoreLayerCounts& lc);
    void post_sync(std::uint32_t layer);
    void stall_until_loads(std::uint64_t seq, CoreLayerCounts& lc);
    void stall_until_waited(std::uint64_t seq, CoreLayerCounts& lc);
    void dma_issue();
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
    void on_end_req();
    void on_response(tlm::tlm_generic_payload& t);
    void set_state(CoreState s);
    sc_core::sc_time to_next_edge() const;

    mapper::tiling::AsipParams m_p;
    mapper::waving::PacketFormat m_fmt;
    unsigned m_master;
    std::vector<CoreLayerWork> m_work;
    PayloadPool& m_pool;
    sc_core::sc_time m_period;

    // Layer sequencing.
    std::size_t m_next = 0;            // next entry of m_work to run
    std::vector<bool> m_started;       // start sync received, per layer index
    sc_core::sc_event m_start_ev;

    // DMA engine.
    DmaQueue m_dma;
    std::vector<InFlight> m_in_flight;  // dma_max_outstanding entries
    std::size_t m_in_flight_n = 0;
    bool m_req_busy = false;            // BEGIN_REQ sent, END_REQ pending
    tlm::tlm_generic_payload* m_req_current = nullptr;
    std::uint64_t m_last_issue_ps = ~std::uint64_t(0);
    tlm::tlm_generic_payload* m_sync_tx = nullptr;  // done sync posted, not yet complete
    bool m_sync_pending = false;                    // m_sync_tx waits for the request channel
    sc_core::sc_event m_issue_ev, m_op_done_ev, m_sync_done_ev;
    tlm_utils::peq_with_cb_and_phase<AsipCore> m_peq;
    std::uint64_t m_loads_before_prev_compute = 0;
    std::uint64_t m_last_load_seq = 0;  // seq of the last load posted before the previous Compute

    // Statistics.
    std::vector<CoreLayerCounts> m_layer;
    stats::Group m_stats;
    stats::Counter m_macs, m_lane_cycles, m_comp_cycles, m_pfetch_cycles, m_setup_cycles, m_stall_cycles,
        m_sram_reads, m_sram_writes, m_dram_read_bytes, m_dram_write_bytes, m_transfers, m_layers;
    stats::Scalar m_idle_cycles, m_total_cycles;
    stats::Formula m_mac_util, m_busy_frac;
    stats::StateTime m_state_time;  // <core>.state: time idle / compute / stall (same name as the VCD signal)
    trace::Signal* m_sig_state = nullptr;
    CoreState m_state = CoreState::Idle;
};

}  // namespace vp::asip
