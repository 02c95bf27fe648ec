#include "models/asip/master_core.h"

namespace vp::asip {

MasterCore::MasterCore(sc_core::sc_module_name name, noc::NocSystem& noc, unsigned node, const sc_core::sc_time& period,
                       std::vector<MasterLayer> layers, SimControl& ctrl, trace::Tracer* tracer)
    : sc_core::sc_module(name), m_noc(noc), m_node(node), m_period(period), m_layers(std::move(layers)),
      m_rec(m_layers.size()), m_ctrl(ctrl) {
    noc.attach(node, this);
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

void MasterCore::run() {
    const auto& tot = m_noc.network().totals();
    const std::uint32_t sync_flits =
        noc::packet_flits(0, m_noc.network().params().flit_width_bits, m_noc.network().params().header_flits);
    for (std::size_t l = 0; l < m_layers.size(); ++l) {
        MasterLayerRecord& r = m_rec[l];
        m_current = std::uint32_t(l);
        m_done_count = 0;
        r.start = sc_core::sc_time_stamp();
        r.flits_injected_start = tot.term.flits_injected;
        r.flits_ejected_start = tot.term.flits_ejected;
        if (m_probe) r.probe_start = m_probe();
        if (m_sig_layer) m_sig_layer->set(l, r.start.value());
        for (unsigned node : m_layers[l].core_nodes)
            m_noc.send(m_node, node, noc::PacketType::kSync, 0, std::uint32_t(l), 0, nullptr);
        while (m_done_count < m_layers[l].core_nodes.size()) wait(m_done_ev);
        r.end = sc_core::sc_time_stamp();
        r.flits_injected_end = tot.term.flits_injected;
        r.flits_ejected_end = tot.term.flits_ejected;
        if (m_probe) r.probe_end = m_probe();
        r.sync_packets = 2 * m_layers[l].core_nodes.size();
        r.sync_flits = r.sync_packets * sync_flits;
        r.finished = true;
        ++m_finished;
        m_ctrl.add_done(1);
        // The next layer starts on the next master clock edge.
        const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_period.value();
        if (now % per) wait(sc_core::sc_time::from_value(per - now % per));
    }
    m_ctrl.end();
}

}  // namespace vp::asip
