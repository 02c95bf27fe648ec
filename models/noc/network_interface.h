#pragma once
// Network interface of a node whose local block is a TLM-2.0 AT initiator (a core,
// a DMA engine, the master core). Every packet the node sends enters the NoC here: requests
// arriving on `socket` (4-phase base protocol) become request packets to the node that serves
// their address; the response packet coming back completes the original transaction with
// BEGIN_RESP.
//
// Posted transactions complete when their packet's tail has left the NI (BEGIN_RESP on the
// next core edge), and no response packet comes back:
//   * mailbox writes (AddressMap::mailbox_address(node)): a sync packet to that node carrying
//     the written 32-bit value (the master core's start and the cores' done synchronisation);
//   * writes, when NiParams::posted_writes (mesh.packet.write_ack: false): a posted-write packet
//     with the data; the NI sends a copy of the data (payload from its own pool), so that the
//     initiator may reuse its payload once the write is complete.
//
// Clock crossing: requests enter the NoC at the first NoC edge at or after BEGIN_REQ;
// BEGIN_RESP is sent on the first core-clock edge at or after the response packet was
// drained. Backpressure: END_REQ is delayed while the node's injection queue holds
// inject_depth packets; the ejection of a response waits while resp_depth responses wait
// for their END_RESP. Never two BEGIN_RESP before an END_RESP. Sync packets are always accepted
// (handed to the sync sink at once).
//
// Data: the request packet carries the initiator's payload pointer; the serving node
// (DramInterface) copies write data from it and read data into it, a simulator shortcut
// for the data flits (their number and timing are simulated exactly).
#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/payload_pool.h"
#include "models/noc/freed_slots.h"
#include "models/noc/noc_system.h"

namespace vp::noc {

// Which node serves an address: first matching range, else default_node. The top of the
// address space holds one mailbox word per node (sync packets).
struct AddressMap {
    static constexpr std::uint64_t kMailboxBase = 0xFFFF'FF00'0000'0000ull;  // far above any DRAM
    static constexpr std::uint64_t kMailboxStride = 8;                        // bytes per node
    static std::uint64_t mailbox_address(unsigned node) { return kMailboxBase + kMailboxStride * node; }
    static bool is_mailbox(std::uint64_t addr) { return addr >= kMailboxBase; }
    static unsigned mailbox_node(std::uint64_t addr) { return unsigned((addr - kMailboxBase) / kMailboxStride); }

    struct Range {
        std::uint64_t base = 0, size = 0;
        unsigned node = 0;
    };
    std::vector<Range> ranges;
    unsigned default_node = 0;
    unsigned lookup(std::uint64_t addr) const {
        for (const Range& r : ranges)
            if (addr >= r.base && addr - r.base < r.size) return r.node;
        return default_node;
    }
};

struct NiParams {
    static constexpr unsigned kDefaultRespDepth = 4;  // responses waiting for END_RESP (ASSUMPTION)
    unsigned resp_depth = kDefaultRespDepth;
    bool posted_writes = false;  // writes get no ack packet (complete when their packet has left)
};

class NetworkInterface : public sc_core::sc_module, public PacketSink {
public:
    static constexpr unsigned kDefaultRespDepth = NiParams::kDefaultRespDepth;

    tlm_utils::simple_target_socket<NetworkInterface> socket;

    SC_HAS_PROCESS(NetworkInterface);
    NetworkInterface(sc_core::sc_module_name name, NocSystem& noc, unsigned node, const sc_core::sc_time& core_period,
                     AddressMap map, NiParams p = NiParams{});

    unsigned node() const { return m_node; }
    std::uint64_t requests() const { return m_requests; }    // transactions accepted (syncs included)
    std::uint64_t responses() const { return m_responses; }  // BEGIN_RESP sent
    std::uint64_t syncs_sent() const { return m_syncs_sent; }
    std::uint64_t syncs_received() const { return m_syncs_received; }
    std::size_t in_flight() const { return m_in_flight; }
    // Sync packets go to this sink, e.g. the core behind the NI that is started and synchronised
    // by a master core. Without it they are an error.
    void set_sync_sink(PacketSink* s) { m_sync_sink = s; }

    bool can_accept(unsigned node, const PacketInfo& info) override;
    void deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override;
    void sent(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override;

private:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
    bool try_inject(tlm::tlm_generic_payload& t);
    void retry_blocked();
    void send_response();
    void queue_response(tlm::tlm_generic_payload* t);
    sc_core::sc_time to_core_edge() const;

    NocSystem& m_noc;
    unsigned m_node;
    sc_core::sc_time m_core_period;
    AddressMap m_map;
    NiParams m_params;
    vp::PayloadPool m_copies;  // data of posted writes in flight (released by the receiving node)
    tlm_utils::peq_with_cb_and_phase<NetworkInterface> m_peq;
    tlm::tlm_generic_payload* m_blocked = nullptr;  // BEGIN_REQ waiting for queue space
    std::deque<tlm::tlm_generic_payload*> m_resp_q;
    unsigned m_resp_reserved = 0;  // response packets accepted at the ejection port, tail not yet drained
    FreedSlots m_freed;  // slots freed at this instant count as taken until time moves on
    bool m_resp_busy = false;  // BEGIN_RESP sent, END_RESP pending
    sc_core::sc_event m_retry_ev, m_resp_ev;
    std::uint32_t m_next_txn = 0;
    std::uint64_t m_requests = 0, m_responses = 0, m_syncs_sent = 0, m_syncs_received = 0;
    std::size_t m_in_flight = 0;
    PacketSink* m_sync_sink = nullptr;
};

}  // namespace vp::noc
