#include "models/nmp/ring.h"

#include <algorithm>
#include <string>

#include "mapper/common/errors.h"
#include "models/common/blocking_transport.h"

namespace vp::nmp {

using namespace sc_core;

Ring::Link::Link(stats::Group& parent, const std::string& name)
    : g(parent, name),
      bytes(g, "bytes", "payload bytes sent over the link", "B"),
      flits(g, "flits", "flits sent over the link", "count"),
      packets(g, "packets", "packets sent over the link", "count"),
      busy(g, "busy_cycles", "cycles the link carries a flit", "cycles"),
      utilisation(g, "utilisation", "busy_cycles / cycles of the run", "ratio"),
      credit_wait_cycles(g, "credit_wait_cycles",
                         "cycles a packet waited for room in the next node's input buffer (credit stall)", "cycles") {}

Ring::Ring(sc_module_name name, int n_nodes, const mapper::tso::RingParams& p, double cycle_s, stats::Group& parent,
           trace::Tracer* tracer)
    : sc_module(name),
      m_n(n_nodes),
      m_p(p),
      m_cycle(cycle_s, SC_SEC),
      m_cycle_s(cycle_s),
      m_stats(parent, basename()),
      m_msgs(m_stats, "messages", "messages sent (IFM-channel partial OUT tiles)", "count"),
      m_bytes_sent(m_stats, "bytes_sent", "payload bytes of the messages sent", "B"),
      m_bytes_delivered(m_stats, "bytes_delivered", "payload bytes delivered at the destinations", "B"),
      m_pkts_sent(m_stats, "packets_sent", "packets injected", "count"),
      m_pkts_delivered(m_stats, "packets_delivered", "packets ejected at their destination", "count"),
      m_hop_bytes(m_stats, "hop_bytes", "payload bytes x hops (sum of the links' bytes)", "B") {
    p.validate(std::string(basename()));
    if (n_nodes < 1) throw InputError(std::string(basename()) + ": a ring needs at least one node");
    for (int i = 0; i < n_nodes; ++i)
        for (int d = 0; d < 2; ++d) {
            const bool cw = d == 0;
            auto L = std::make_unique<Link>(m_stats, "link[" + std::to_string(i) + (cw ? "_cw" : "_ccw") + "]");
            L->from = i;
            L->to = cw ? (i + 1) % n_nodes : (i + n_nodes - 1) % n_nodes;
            L->cw = cw;
            L->arrive_ev = std::make_unique<sc_event_queue>(sc_gen_unique_name("arrive"));
            if (tracer) L->sig = tracer->add(L->g.path() + ".busy", 1);
            m_links.push_back(std::move(L));
        }
    for (int i = 0; i < n_nodes; ++i) {
        in.push_back(std::make_unique<tlm_utils::simple_target_socket_tagged_optional<Ring>>(
            ("in_" + std::to_string(i)).c_str()));
        in.back()->register_b_transport(this, &Ring::b_transport_in, i);
        out.push_back(std::make_unique<tlm_utils::simple_initiator_socket_optional<Ring>>(("out_" + std::to_string(i)).c_str()));
    }
    m_out_bound.assign(std::size_t(n_nodes), false);
    m_inj_pending.assign(std::size_t(n_nodes), 0);
    for (int i = 0; i < n_nodes; ++i) m_injected_ev.push_back(std::make_unique<sc_event>());
    for (int l = 0; l < int(m_links.size()); ++l) {
        sc_spawn_options t;
        sc_spawn([this, l] { link_thread(l); }, sc_gen_unique_name("link"), &t);
        sc_spawn_options m;
        m.spawn_method();
        m.dont_initialize();
        m.set_sensitivity(&m_links[std::size_t(l)]->arrive_ev->default_event());
        sc_spawn([this, l] { arrive(l); }, sc_gen_unique_name("arrive_m"), &m);
    }
}

void Ring::send(int src, int dst, std::uint64_t bytes, std::uint64_t tag) {
    if (src < 0 || src >= m_n || dst < 0 || dst >= m_n || src == dst || bytes == 0)
        throw SimulationError(std::string(basename()) + ": bad message " + std::to_string(src) + " -> " +
                              std::to_string(dst) + " of " + std::to_string(bytes) + " B");
    bool cw = true;
    mapper::tso::ring_route(src, dst, m_n, &cw);
    Link& L = link(src, cw);
    const std::uint64_t pkt_bytes = std::uint64_t(m_p.packet_flits) * std::uint64_t(m_p.width_bytes);
    ++m_msgs;
    m_bytes_sent += bytes;
    for (std::uint64_t off = 0; off < bytes; off += pkt_bytes) {
        Packet p;
        p.dst = dst;
        p.bytes = std::min(pkt_bytes, bytes - off);
        p.flits = std::uint32_t(m_p.flits(p.bytes));
        p.tag = tag;
        p.msg_bytes = bytes;
        p.last = off + pkt_bytes >= bytes;
        L.inj.push_back(p);
        ++m_inj_pending[std::size_t(src)];
        ++m_pkts_sent;
    }
    L.work_ev.notify(SC_ZERO_TIME);
    while (m_inj_pending[std::size_t(src)] > 0) wait(*m_injected_ev[std::size_t(src)]);
}

void Ring::link_thread(int l) {
    Link& L = *m_links[std::size_t(l)];
    Link& next = link(L.to, L.cw);  // its input buffer is the one this link fills
    const unsigned cap = unsigned(m_p.buffer_flits);
    bool prefer_inj = false;
    const std::uint64_t ps = sc_time(1, SC_PS).value();
    for (;;) {
        while (L.inj.empty() && L.through.empty()) wait(L.work_ev);
        const bool from_inj = L.through.empty() || (!L.inj.empty() && prefer_inj);
        prefer_inj = !from_inj;  // round robin between passing and own traffic
        const Packet p = from_inj ? L.inj.front() : L.through.front();
        if (p.dst != L.to) {  // credits of the next node's input buffer
            // Bubble flow control: a packet entering the ring needs room for one more packet
            // besides itself, so the ring can never fill up with packets waiting for each other.
            const unsigned need = p.flits + (from_inj ? unsigned(m_p.packet_flits) : 0u);
            const sc_time t0 = sc_time_stamp();
            while (cap - next.used < need) wait(next.credit_ev);
            L.credit_wait += sc_time_stamp() - t0;
            next.used += p.flits;
        }
        if (from_inj) L.inj.pop_front();
        else L.through.pop_front();
        if (L.sig) L.sig->set(1, sc_time_stamp().value() / ps);
        wait(m_cycle * double(p.flits));
        if (L.sig) L.sig->set(0, sc_time_stamp().value() / ps);
        L.bytes += p.bytes;
        L.flits += p.flits;
        ++L.packets;
        L.busy += p.flits;
        m_hop_bytes += p.bytes;
        if (from_inj) {
            if (--m_inj_pending[std::size_t(L.from)] == 0) m_injected_ev[std::size_t(L.from)]->notify(SC_ZERO_TIME);
        } else {  // the packet left this node's input buffer: credits back to the upstream link
            L.used -= p.flits;
            L.credit_ev.notify(SC_ZERO_TIME);
        }
        L.wire.push_back(p);
        L.arrive_ev->notify(m_cycle * double(m_p.hop_cycles));
    }
}

void Ring::arrive(int l) {
    Link& L = *m_links[std::size_t(l)];
    const Packet p = L.wire.front();
    L.wire.pop_front();
    if (p.dst == L.to) {
        ++m_pkts_delivered;
        m_bytes_delivered += p.bytes;
        if (!p.last) return;
        if (m_out_bound[std::size_t(p.dst)]) {
            m_out_msg.tag = p.tag;
            if (blocking_transport(*out[std::size_t(p.dst)], m_out_txn, tlm::TLM_WRITE_COMMAND, std::uint64_t(p.dst),
                                   p.msg_bytes, m_out_data, &m_out_msg) != tlm::TLM_OK_RESPONSE)
                throw SimulationError(m_stats.path() + ": node " + std::to_string(p.dst) +
                                      " refused a delivered message: " + m_out_txn.get_response_string());
        } else if (m_deliver) {
            m_deliver(p.dst, p.tag, p.msg_bytes);
        }
        return;
    }
    Link& next = link(L.to, L.cw);
    next.through.push_back(p);
    next.work_ev.notify(SC_ZERO_TIME);
}

void Ring::finish(const sc_time& span) {
    const double cycles = span.to_seconds() / m_cycle_s;
    for (auto& L : m_links) {
        L->utilisation.set(cycles > 0 ? double(L->busy.value()) / cycles : 0.0);
        L->credit_wait_cycles.set(L->credit_wait.to_seconds() / m_cycle_s);
    }
}

void Ring::end_of_elaboration() {
    for (std::size_t i = 0; i < out.size(); ++i) m_out_bound[i] = out[i]->size() > 0;
}

void Ring::b_transport_in(int src, tlm::tlm_generic_payload& t, sc_time& delay) {
    const RingMessage* m = t.get_extension<RingMessage>();
    const std::uint64_t dst = t.get_address();
    if (!t.is_write() || !m || dst >= std::uint64_t(m_n) || int(dst) == src || t.get_data_length() == 0) {
        t.set_response_status(!t.is_write() ? tlm::TLM_COMMAND_ERROR_RESPONSE
                              : dst >= std::uint64_t(m_n) || int(dst) == src ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                                                            : tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    if (delay > SC_ZERO_TIME) {
        wait(delay);
        delay = SC_ZERO_TIME;
    }
    send(src, int(dst), t.get_data_length(), m->tag);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace vp::nmp
