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

// While sleeping the network's cycle counter is behind simulated time; catch it up so
// that a packet created now carries the cycle of the next edge.
void NocSystem::sync_to_now() {
    if (!m_sleeping) return;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const std::uint64_t edge = static_cast<std::uint64_t>((now.value() + m_period.value() - 1) / m_period.value());
    if (edge > m_net->cycle()) m_net->skip_idle(edge - m_net->cycle());
}

std::uint32_t NocSystem::send(unsigned src, unsigned dst, PacketType type, std::uint32_t payload_bytes,
                              std::uint32_t txn_id, std::uint64_t addr, void* user, void* sender) {
    sync_to_now();
    const std::uint32_t id = m_net->send(src, dst, type, payload_bytes, txn_id, addr, user, 0, sender);
    if (m_sleeping) m_wakeup.notify(sc_core::SC_ZERO_TIME);
    return id;
}

void NocSystem::tick() {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    const std::uint64_t per = m_period.value();
    if (now % per != 0) {  // woken between edges: wait for the next edge
        next_trigger(sc_core::sc_time::from_value(per - now % per));
        return;
    }
    if (m_sleeping) {
        sync_to_now();
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
