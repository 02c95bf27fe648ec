#include "models/noc/noc_system.h"

#include "mapper/common/errors.h"

namespace vp::noc {

NocSystem::NocSystem(sc_core::sc_module_name name, const NocParams& p, const sc_core::sc_time& period)
    : sc_core::sc_module(name), m_net(std::make_unique<Network>(p)), m_period(period),
      m_endpoints(p.num_nodes(), nullptr) {
    if (period <= sc_core::SC_ZERO_TIME) throw vp::InputError("noc: clock period must be positive");
    p.validate_message_classes("noc");
    m_net->set_sink(this);
    m_net->set_measuring(true);  // every packet of a platform run enters the latency statistics
    SC_METHOD(tick);
    sensitive << m_wakeup;
    dont_initialize();
}

void NocSystem::attach(unsigned node, PacketSink* endpoint) {
    if (node >= m_endpoints.size())
        throw vp::InputError("noc: endpoint attached to node " + std::to_string(node) + " outside the mesh");
    if (m_endpoints[node])
        throw vp::InputError("noc: node " + std::to_string(node) + " already has an endpoint attached");
    m_endpoints[node] = endpoint;
}

// While sleeping the network's cycle counter is behind simulated time: catch it up to `edge`
// (idle cycles). A packet sent while asleep is created for the first edge after now (an edge at
// now counts as passed: nothing was in flight to step in it).
void NocSystem::sync_to(std::uint64_t edge) {
    if (edge > m_net->cycle()) m_net->skip_idle(edge - m_net->cycle());
}

void NocSystem::send(unsigned src, unsigned dst, PacketType type, std::uint32_t payload_bytes, std::uint32_t txn_id,
                     std::uint64_t addr, void* user, void* sender) {
    const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_period.value();
    if (!m_sleeping && now % per == 0 && m_net->cycle() == now / per) {
        // At an edge the NoC has not stepped yet in this time step: after its step.
        m_deferred.push_back(Deferred{src, dst, type, payload_bytes, txn_id, addr, user, sender});
        return;
    }
    if (m_sleeping) sync_to(now / per + 1);
    m_net->send(src, dst, type, payload_bytes, txn_id, addr, user, 0, sender);
    if (m_sleeping) m_wakeup.notify(sc_core::SC_ZERO_TIME);
}

void NocSystem::tick() {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    const std::uint64_t per = m_period.value();
    if (now % per != 0) {  // woken between edges: wait for the next edge
        next_trigger(sc_core::sc_time::from_value(per - now % per));
        return;
    }
    if (m_sleeping) {
        sync_to(now / per);  // catch up to this edge (a packet sent while asleep may be ahead of it)
        m_sleeping = false;
    }
    if (m_net->cycle() != now / per) {
        // The edge at `now` was already simulated (a packet sent after the tick in the same
        // time step is created for the next cycle): resume at the next edge.
        next_trigger(m_period);
        return;
    }
    try {
        m_net->step();
        for (const Deferred& d : m_deferred)
            m_net->send(d.src, d.dst, d.type, d.payload_bytes, d.txn_id, d.addr, d.user, 0, d.sender);
        m_deferred.clear();
    } catch (const vp::SimulationError& e) {
        m_failure = e.what();
        sc_core::sc_stop();
        return;
    }
    if (m_net->idle()) {
        m_sleeping = true;
        next_trigger(m_wakeup);
    } else {
        next_trigger(m_period);
    }
}

std::size_t NocSystem::queued_packets(unsigned node) const {
    const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_period.value();
    std::size_t n = 0;
    for (const Deferred& d : m_deferred) n += d.src == node;
    if (now % per == 0 && m_net->cycle() == now / per + 1)  // the edge at `now` was stepped already
        return n + m_net->queued_packets_before(node, now / per);
    return n + m_net->queued_packets(node);
}

bool NocSystem::can_accept(unsigned node, const PacketInfo& info) {
    return !m_endpoints[node] || m_endpoints[node]->can_accept(node, info);
}

void NocSystem::sent(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) {
    if (PacketSink* e = m_endpoints[node]) e->sent(node, id, info, c);
}

void NocSystem::deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) {
    PacketSink* e = m_endpoints[node];
    if (!e) {
        if (m_failure.empty())
            m_failure = "noc: packet " + std::to_string(info.serial) + " delivered to node " + std::to_string(node) +
                        " which has no endpoint";
        return;
    }
    e->deliver(node, id, info, c);
}

void NocSystem::check() const {
    if (!m_failure.empty()) throw vp::SimulationError(m_failure);
}

}  // namespace vp::noc
