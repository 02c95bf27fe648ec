#pragma once
// The DRAM interface block at a mesh node: request packets arriving from the NoC are
// issued as TLM-2.0 AT transactions (4-phase, payloads from vp::PayloadPool) on
// `socket` (bind it to vp::dram::DramController::socket or any AT target); each
// BEGIN_RESP becomes a response packet (read response with data, or write ack) back to
// the requesting node, except for posted writes (PacketType::kPostedWrite), which get no
// answer. One BEGIN_REQ outstanding at a time (the target's END_REQ is its
// backpressure); END_RESP is delayed while the node's injection queue is full; request
// packets wait in their ejection queues while max_outstanding requests are in progress.
#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/common/payload_pool.h"
#include "models/noc/freed_slots.h"
#include "models/noc/noc_system.h"

namespace vp::noc {

class DramInterface : public sc_core::sc_module, public PacketSink {
public:
    static constexpr unsigned kDefaultMaxOutstanding = 16;  // requests accepted from the NoC (ASSUMPTION)

    tlm_utils::simple_initiator_socket<DramInterface> socket;

    SC_HAS_PROCESS(DramInterface);
    DramInterface(sc_core::sc_module_name name, NocSystem& noc, unsigned node,
                  unsigned max_outstanding = kDefaultMaxOutstanding);

    std::uint64_t requests() const { return m_requests; }
    std::uint64_t posted_writes() const { return m_posted; }
    std::uint64_t responses_sent() const { return m_responses; }
    std::uint64_t bytes_read() const { return m_bytes_read; }
    std::uint64_t bytes_written() const { return m_bytes_written; }
    std::size_t outstanding() const { return m_pending.size(); }

    bool can_accept(unsigned node, const PacketInfo& info) override;
    void deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override;

private:
    struct Pending {
        tlm::tlm_generic_payload* mem = nullptr;   // our transaction to the DRAM
        tlm::tlm_generic_payload* core = nullptr;  // the requester's transaction
        unsigned src = 0;
        std::uint32_t txn = 0;
        bool completed = false;  // the target returned TLM_COMPLETED to BEGIN_REQ
        bool posted = false;     // a posted write: no response packet
    };
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
    void issue();
    bool respond(tlm::tlm_generic_payload& t);
    void retry_response();
    Pending* find(tlm::tlm_generic_payload* mem);

    NocSystem& m_noc;
    unsigned m_node, m_max_outstanding;
    vp::PayloadPool m_pool;
    tlm_utils::peq_with_cb_and_phase<DramInterface> m_peq;
    std::vector<Pending> m_pending;                // accepted, not yet answered
    std::deque<tlm::tlm_generic_payload*> m_to_issue;
    bool m_req_busy = false;                        // BEGIN_REQ sent, END_REQ pending
    tlm::tlm_generic_payload* m_req_current = nullptr;
    tlm::tlm_generic_payload* m_resp_blocked = nullptr;
    sc_core::sc_event m_issue_ev, m_retry_ev;
    unsigned m_reserved = 0;  // request packets accepted at the ejection port, tail not yet drained
    FreedSlots m_freed;  // slots freed at this instant count as taken until time moves on
    std::uint64_t m_requests = 0, m_posted = 0, m_responses = 0, m_bytes_read = 0, m_bytes_written = 0;
};

}  // namespace vp::noc
