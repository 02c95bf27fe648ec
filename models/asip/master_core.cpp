#include "models/asip/master_core.h"

#include "models/noc/network_interface.h"

namespace vp::asip {

MasterCore::MasterCore(sc_core::sc_module_name name, const sc_core::sc_time& period, std::vector<MasterLayer> layers,
                       SimControl& ctrl, PayloadPool& pool, trace::Tracer* tracer)
    : sc_core::sc_module(name), socket("socket"), m_period(period), m_layers(std::move(layers)),
      m_rec(m_layers.size()), m_ctrl(ctrl), m_pool(pool), m_peq(this, &MasterCore::peq_cb) {
    socket.register_nb_transport_bw(this, &MasterCore::nb_transport_bw);
    if (tracer) m_sig_layer = tracer->add(std::string(this->name()) + ".layer", 16);
    m_ctrl.begin();
    m_ctrl.add_total(m_layers.size());
    m_ctrl.set_unit("layers");
    SC_THREAD(run);
}

void MasterCore::deliver(unsigned, std::uint32_t, const noc::PacketInfo& info, std::uint64_t) {
    if (info.type != noc::PacketType::kSync || info.txn_id != m_current) {
        SC_REPORT_ERROR("vp/asip/master", "unexpected packet at the master (expected a done sync of the current layer)");
        return;
    }
    ++m_done_count;
    m_done_ev.notify(sc_core::SC_ZERO_TIME);
}

void MasterCore::to_next_edge() {
    const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_period.value();
    if (now % per) wait(sc_core::sc_time::from_value(per - now % per));
}

// One posted mailbox write: BEGIN_REQ on a master clock edge, wait for END_REQ; the
// completion (BEGIN_RESP, once the packet has left the NI) is handled in the background.
void MasterCore::send_sync(unsigned node, std::uint32_t layer) {
    to_next_edge();
    tlm::tlm_generic_payload* p = m_pool.acquire(tlm::TLM_WRITE_COMMAND, noc::AddressMap::mailbox_address(node), 4);
    unsigned char* d = p->get_data_ptr();
    for (unsigned b = 0; b < 4; ++b) d[b] = static_cast<unsigned char>(layer >> (8 * b));
    ++m_syncs_in_flight;
    m_req_busy = true;
    m_req_current = p;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = socket->nb_transport_fw(*p, ph, delay);
    if (r == tlm::TLM_UPDATED) m_peq.notify(*p, ph, delay);
    else if (r == tlm::TLM_COMPLETED) m_peq.notify(*p, tlm::BEGIN_RESP, delay);
    while (m_req_busy) wait(m_end_req_ev);
    wait(m_period);  // one request per master cycle
}

tlm::tlm_sync_enum MasterCore::nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    if (d > sc_core::SC_ZERO_TIME || (ph != tlm::END_REQ && ph != tlm::BEGIN_RESP)) {
        if (ph != tlm::END_REQ && ph != tlm::BEGIN_RESP)
            SC_REPORT_ERROR("vp/asip/master", "unexpected phase on the backward path");
        m_peq.notify(t, ph, d);
        return tlm::TLM_ACCEPTED;
    }
    peq_cb(t, ph);
    if (ph == tlm::BEGIN_RESP) {
        ph = tlm::END_RESP;
        return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
}

void MasterCore::peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph) {
    if (ph == tlm::END_REQ || (ph == tlm::BEGIN_RESP && m_req_busy && m_req_current == &t)) {
        m_req_busy = false;  // BEGIN_RESP implies END_REQ (base protocol)
        m_req_current = nullptr;
        m_end_req_ev.notify(sc_core::SC_ZERO_TIME);
    }
    if (ph == tlm::BEGIN_RESP) on_response(t);
}

void MasterCore::on_response(tlm::tlm_generic_payload& t) {
    if (t.get_response_status() != tlm::TLM_OK_RESPONSE)
        SC_REPORT_ERROR("vp/asip/master", ("sync write failed: " + t.get_response_string()).c_str());
    --m_syncs_in_flight;
    t.release();
}

void MasterCore::run() {
    for (std::size_t l = 0; l < m_layers.size(); ++l) {
        MasterLayerRecord& r = m_rec[l];
        m_current = std::uint32_t(l);
        m_done_count = 0;
        r.start = sc_core::sc_time_stamp();
        if (m_probe) r.at_start = m_probe();
        if (m_sig_layer) m_sig_layer->set(l, r.start.value());
        for (unsigned node : m_layers[l].core_nodes) send_sync(node, std::uint32_t(l));
        while (m_done_count < m_layers[l].core_nodes.size()) wait(m_done_ev);
        r.end = sc_core::sc_time_stamp();
        if (m_probe) r.at_end = m_probe();
        r.syncs = 2 * m_layers[l].core_nodes.size();
        r.finished = true;
        ++m_finished;
        m_ctrl.add_done(1);
        // The next layer starts on the next master clock edge.
        to_next_edge();
    }
    // Posted writes (and the completions of the last syncs) may still be on their way.
    while ((m_quiescent && !m_quiescent()) || m_syncs_in_flight) wait(m_period);
    m_ctrl.end();
}

}  // namespace vp::asip
