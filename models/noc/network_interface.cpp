#include "models/noc/network_interface.h"

#include <cstdio>
#include <cstring>

#include "mapper/common/errors.h"

namespace vp::noc {

NetworkInterface::NetworkInterface(sc_core::sc_module_name name, NocSystem& noc, unsigned node,
                                   const sc_core::sc_time& core_period, AddressMap map, NiParams p)
    : sc_core::sc_module(name), socket("socket"), m_noc(noc), m_node(node), m_core_period(core_period),
      m_map(std::move(map)), m_params(p), m_peq(this, &NetworkInterface::peq_cb) {
    if (core_period <= sc_core::SC_ZERO_TIME) throw vp::InputError("noc.ni: core clock period must be positive");
    if (p.resp_depth < 1) throw vp::InputError("noc.ni: response queue depth must be at least 1");
    socket.register_nb_transport_fw(this, &NetworkInterface::nb_transport_fw);
    noc.attach(node, this);
    SC_METHOD(retry_blocked);
    sensitive << m_retry_ev;
    dont_initialize();
    SC_METHOD(send_response);
    sensitive << m_resp_ev;
    dont_initialize();
}

sc_core::sc_time NetworkInterface::to_core_edge() const {
    const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_core_period.value();
    return sc_core::sc_time::from_value(now % per ? per - now % per : 0);
}

tlm::tlm_sync_enum NetworkInterface::nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                                     sc_core::sc_time& d) {
    if (ph == tlm::BEGIN_REQ || ph == tlm::END_RESP) {
        m_peq.notify(t, ph, d);
        return ph == tlm::END_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
    }
    SC_REPORT_ERROR("vp/noc/ni", "unexpected phase on the forward path");
    return tlm::TLM_COMPLETED;
}

bool NetworkInterface::try_inject(tlm::tlm_generic_payload& t) {
    if (m_noc.queued_packets(m_node) >= m_noc.network().params().inject_depth) return false;
    const bool write = t.get_command() == tlm::TLM_WRITE_COMMAND;
    const std::uint64_t addr = t.get_address();
    const unsigned len = t.get_data_length();
    if (AddressMap::is_mailbox(addr)) {
        // Sync: a posted write of a 32-bit value (little-endian) to another node's mailbox.
        const unsigned dst = AddressMap::mailbox_node(addr);
        if (!write || len < 1 || len > 4 || !t.get_data_ptr() || dst >= m_noc.network().num_nodes()) {
            char msg[128];
            std::snprintf(msg, sizeof msg, "mailbox access at 0x%llx must be a write of 1 to 4 bytes to a mesh node",
                          static_cast<unsigned long long>(addr));
            SC_REPORT_ERROR("vp/noc/ni", msg);
            return true;
        }
        std::uint8_t b[4] = {};
        std::memcpy(b, t.get_data_ptr(), len);
        const std::uint32_t value = std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 |
                                    std::uint32_t(b[3]) << 24;
        m_noc.send(m_node, dst, PacketType::kSync, 0, value, addr, nullptr, &t);
        ++m_syncs_sent;
    } else if (write && m_params.posted_writes) {
        tlm::tlm_generic_payload* copy = m_copies.acquire(tlm::TLM_WRITE_COMMAND, addr, len);
        if (t.get_data_ptr()) std::memcpy(copy->get_data_ptr(), t.get_data_ptr(), len);
        m_noc.send(m_node, m_map.lookup(addr), PacketType::kPostedWrite, len, m_next_txn++, addr, copy, &t);
    } else {
        m_noc.send(m_node, m_map.lookup(addr), write ? PacketType::kWriteRequest : PacketType::kReadRequest, len,
                   m_next_txn++, addr, &t);
    }
    ++m_requests;
    ++m_in_flight;
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(t, ph, d);  // the initiator answers END_REQ with TLM_ACCEPTED
    return true;
}

void NetworkInterface::peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph) {
    if (ph == tlm::BEGIN_REQ) {
        if (m_blocked) SC_REPORT_ERROR("vp/noc/ni", "BEGIN_REQ before END_REQ of the previous request");
        if (!try_inject(t)) {
            m_blocked = &t;
            m_retry_ev.notify(m_core_period);
        }
    } else if (ph == tlm::END_RESP) {
        m_resp_busy = false;
        if (!m_resp_q.empty()) m_resp_ev.notify(to_core_edge());
    }
}

// Polls on core-clock edges while a request waits for injection-queue space.
void NetworkInterface::retry_blocked() {
    if (!m_blocked) return;
    if (try_inject(*m_blocked)) m_blocked = nullptr;
    else next_trigger(m_core_period);
}

// Syncs are handed to the sync sink at once; a response needs room in the BEGIN_RESP queue,
// reserved here until its tail is drained.
bool NetworkInterface::can_accept(unsigned, const PacketInfo& info) {
    if (info.type == PacketType::kSync) return true;
    const unsigned freed_now = m_freed.at(sc_core::sc_time_stamp().value());
    if (m_resp_q.size() + m_resp_reserved + freed_now >= m_params.resp_depth) return false;
    ++m_resp_reserved;
    return true;
}

void NetworkInterface::queue_response(tlm::tlm_generic_payload* t) {
    m_resp_q.push_back(t);
    if (!m_resp_busy) m_resp_ev.notify(to_core_edge());
}

void NetworkInterface::deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) {
    if (info.type == PacketType::kSync) {
        ++m_syncs_received;
        if (m_sync_sink) m_sync_sink->deliver(node, id, info, c);
        else SC_REPORT_ERROR("vp/noc/ni", "a sync packet reached an NI without a sync sink");
        return;
    }
    if (m_resp_reserved) --m_resp_reserved;
    if (info.type != PacketType::kReadResponse && info.type != PacketType::kWriteAck) {
        SC_REPORT_ERROR("vp/noc/ni", "a core NI received a packet that is not a response");
        return;
    }
    queue_response(static_cast<tlm::tlm_generic_payload*>(info.user));
}

// A posted packet (sync, posted write) has left the NI: its transaction is complete.
void NetworkInterface::sent(unsigned, std::uint32_t, const PacketInfo& info, std::uint64_t) {
    auto* t = static_cast<tlm::tlm_generic_payload*>(info.sender);
    t->set_response_status(tlm::TLM_OK_RESPONSE);
    queue_response(t);
}

void NetworkInterface::send_response() {
    while (!m_resp_busy && !m_resp_q.empty()) {
        tlm::tlm_generic_payload* t = m_resp_q.front();
        m_resp_q.pop_front();
        m_freed.add(sc_core::sc_time_stamp().value());
        m_resp_busy = true;
        ++m_responses;
        --m_in_flight;
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        const tlm::tlm_sync_enum r = socket->nb_transport_bw(*t, ph, d);
        if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::END_RESP)) {
            m_resp_busy = false;
            if (!m_resp_q.empty()) {  // next response on the next core edge
                m_resp_ev.notify(m_core_period);
                return;
            }
        }
    }
}

}  // namespace vp::noc
