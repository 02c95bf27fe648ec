#include "models/noc/dram_interface.h"

#include <cstring>

#include "mapper/common/errors.h"

namespace vp::noc {

DramInterface::DramInterface(sc_core::sc_module_name name, NocSystem& noc, unsigned node, unsigned max_outstanding)
    : sc_core::sc_module(name), socket("socket"), m_noc(noc), m_node(node), m_max_outstanding(max_outstanding),
      m_peq(this, &DramInterface::peq_cb) {
    if (max_outstanding < 1) throw vp::InputError("noc.dram_interface: max_outstanding must be at least 1");
    socket.register_nb_transport_bw(this, &DramInterface::nb_transport_bw);
    m_pending.reserve(max_outstanding);
    noc.attach(node, this);
    noc.set_sink_notifies(node);
    SC_METHOD(issue);
    sensitive << m_issue_ev;
    dont_initialize();
    SC_METHOD(retry_response);
    sensitive << m_retry_ev;
    dont_initialize();
}

// A request head is accepted while fewer than max_outstanding requests are in progress or
// reserved (the reservation holds until its tail is drained: requests on other VCs may
// arrive meanwhile).
bool DramInterface::can_accept(unsigned, const PacketInfo&) {
    const unsigned freed_now = m_freed.at(sc_core::sc_time_stamp().value());
    if (m_pending.size() + m_reserved + freed_now >= m_max_outstanding) return false;
    ++m_reserved;
    return true;
}

void DramInterface::deliver(unsigned, std::uint32_t, const PacketInfo& info, std::uint64_t) {
    if (m_reserved) --m_reserved;
    const bool posted = info.type == PacketType::kPostedWrite;
    if (info.type != PacketType::kReadRequest && info.type != PacketType::kWriteRequest && !posted) {
        SC_REPORT_ERROR("vp/noc/dram_interface", "the DRAM interface received a packet that is not a request");
        return;
    }
    auto* core = static_cast<tlm::tlm_generic_payload*>(info.user);
    const bool write = info.type == PacketType::kWriteRequest || posted;
    tlm::tlm_generic_payload* mem =
        m_pool.acquire(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, info.addr, info.payload_bytes);
    if (write && core && core->get_data_ptr()) std::memcpy(mem->get_data_ptr(), core->get_data_ptr(), info.payload_bytes);
    if (posted) {  // the sending NI's copy of the data: ours now
        if (core) core->release();
        core = nullptr;
        ++m_posted;
    }
    m_pending.push_back(Pending{mem, core, info.src, info.txn_id, false, posted});
    m_to_issue.push_back(mem);
    ++m_requests;
    if (!m_req_busy) m_issue_ev.notify(sc_core::SC_ZERO_TIME);
}

void DramInterface::issue() {
    while (!m_req_busy && !m_to_issue.empty()) {
        tlm::tlm_generic_payload* t = m_to_issue.front();
        m_to_issue.pop_front();
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        m_req_busy = true;
        m_req_current = t;
        const tlm::tlm_sync_enum r = socket->nb_transport_fw(*t, ph, d);
        if (r == tlm::TLM_UPDATED) {
            m_peq.notify(*t, ph, d);  // END_REQ or BEGIN_RESP given on the return path
            return;
        }
        if (r == tlm::TLM_COMPLETED) {
            m_req_busy = false;
            if (Pending* p = find(t)) p->completed = true;
            m_peq.notify(*t, tlm::BEGIN_RESP, d);
        }
    }
}

tlm::tlm_sync_enum DramInterface::nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                                  sc_core::sc_time& d) {
    m_peq.notify(t, ph, d);
    return tlm::TLM_ACCEPTED;
}

DramInterface::Pending* DramInterface::find(tlm::tlm_generic_payload* mem) {
    for (auto& p : m_pending)
        if (p.mem == mem) return &p;
    return nullptr;
}

void DramInterface::peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph) {
    if (ph == tlm::END_REQ) {
        m_req_busy = false;
        m_issue_ev.notify(sc_core::SC_ZERO_TIME);
        return;
    }
    if (ph != tlm::BEGIN_RESP) {
        SC_REPORT_ERROR("vp/noc/dram_interface", "unexpected phase on the backward path");
        return;
    }
    if (m_req_busy && m_req_current == &t) {  // BEGIN_RESP implies END_REQ (base protocol)
        m_req_busy = false;
        m_issue_ev.notify(sc_core::SC_ZERO_TIME);
    }
    // The target sends no second BEGIN_RESP before our END_RESP, so at most one waits.
    if (!respond(t)) {
        m_resp_blocked = &t;
        m_retry_ev.notify(m_noc.period());
    }
}

// Sends the response packet (none for a posted write) and END_RESP; false while the injection
// queue is full.
bool DramInterface::respond(tlm::tlm_generic_payload& t) {
    Pending* p = find(&t);
    if (!p) {
        SC_REPORT_ERROR("vp/noc/dram_interface", "BEGIN_RESP for a transaction that is not outstanding");
        return true;
    }
    if (!p->posted && m_noc.queued_packets(m_node) >= m_noc.network().params().inject_depth) return false;
    const bool read = t.is_read();
    const unsigned len = t.get_data_length();
    if (p->core) {
        if (read && p->core->get_data_ptr()) std::memcpy(p->core->get_data_ptr(), t.get_data_ptr(), len);
        p->core->set_response_status(t.get_response_status());
    }
    if (p->posted && !t.is_response_ok())
        SC_REPORT_ERROR("vp/noc/dram_interface", ("posted write failed: " + t.get_response_string()).c_str());
    (read ? m_bytes_read : m_bytes_written) += len;
    const bool completed = p->completed;
    if (!p->posted) {
        m_noc.send(m_node, p->src, read ? PacketType::kReadResponse : PacketType::kWriteAck, len, p->txn,
                   t.get_address(), p->core);
        ++m_responses;
    }
    *p = m_pending.back();
    m_pending.pop_back();
    m_freed.add(sc_core::sc_time_stamp().value());
    m_noc.sink_ready(m_node);
    if (!completed) {  // a transaction completed on the forward path gets no END_RESP
        tlm::tlm_phase ph = tlm::END_RESP;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        socket->nb_transport_fw(t, ph, d);
    }
    t.release();
    return true;
}

// Polls every NoC cycle while a response waits for injection-queue space (only responses that
// send a packet wait: the queue is checked before the outstanding-request lookup).
void DramInterface::retry_response() {
    if (!m_resp_blocked) return;
    if (m_noc.queued_packets(m_node) < m_noc.network().params().inject_depth && respond(*m_resp_blocked))
        m_resp_blocked = nullptr;
    else next_trigger(m_noc.period());
}

}  // namespace vp::noc
