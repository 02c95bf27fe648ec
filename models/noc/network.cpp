#include "models/noc/network.h"

#include <algorithm>

#include "mapper/common/errors.h"

namespace vp::noc {

namespace {
constexpr unsigned kLinksPerNode = kNumPorts + 1;  // 5 router outputs + the injection link
unsigned opposite(unsigned p) {
    switch (p) {
    case kEast: return kWest;
    case kWest: return kEast;
    case kNorth: return kSouth;
    case kSouth: return kNorth;
    default: return kLocal;
    }
}
}  // namespace

Network::Network(const NocParams& p) : m_p(p) {
    const unsigned n = m_p.num_nodes();
    const RoutingFn routing = find_routing(m_p.routing);
    if (!routing) throw vp::InputError("noc.routing: unknown routing '" + m_p.routing + "'; known: " + known_routings());
    m_step_all = m_p.stepping == "all";
    m_coords.resize(n);
    for (unsigned i = 0; i < n; ++i) m_coords[i] = (i % m_p.width) | (i / m_p.width) << 16;
    m_routers.reserve(n);
    m_terms.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
        m_routers.emplace_back(m_p, i, routing, m_coords.data());
        m_terms.emplace_back(m_p, i);
    }
    m_term_ctr.resize(n);
    m_trace_last.assign(2 * n, 0);
    m_flit_links.resize(kLinksPerNode * n);
    m_credit_links.resize(kLinksPerNode * n);
    const std::uint32_t hop_delay = (m_p.router_stages >= 2 ? 1 : 0) + m_p.link_latency;
    const std::uint32_t cap_flit = hop_delay + 1, cap_credit = m_p.credit_delay + 1;
    for (unsigned r = 0; r < n; ++r) {
        const unsigned x = r % m_p.width, y = r / m_p.width;
        Router& rt = m_routers[r];
        for (unsigned port = kEast; port < kNumPorts; ++port) {
            int nx = int(x), ny = int(y);
            if (port == kEast) ++nx;
            if (port == kWest) --nx;
            if (port == kNorth) --ny;
            if (port == kSouth) ++ny;
            if (nx < 0 || ny < 0 || nx >= int(m_p.width) || ny >= int(m_p.height)) continue;
            const unsigned nb = unsigned(ny) * m_p.width + unsigned(nx);
            FlitLink& fl = m_flit_links[r * kLinksPerNode + port];
            CreditLink& cl = m_credit_links[r * kLinksPerNode + port];
            fl.init(cap_flit, m_routers[nb].work_counter(), m_routers[nb].arrivals(), m_routers[nb].arrival_slots(),
                    opposite(port));
            cl.init(cap_credit, rt.work_counter(), rt.arrivals(), rt.arrival_slots(), kNumPorts + port);
            rt.connect_output(port, &fl, &cl, m_p.buffer_depth);
            m_routers[nb].connect_input(opposite(port), &fl, &cl);
        }
        // Local port: injection link + its credits, ejection link + its credits.
        FlitLink& inj = m_flit_links[r * kLinksPerNode + kNumPorts];
        CreditLink& inj_cr = m_credit_links[r * kLinksPerNode + kNumPorts];
        FlitLink& ej = m_flit_links[r * kLinksPerNode + kLocal];
        CreditLink& ej_cr = m_credit_links[r * kLinksPerNode + kLocal];
        inj.init(m_p.link_latency + 1, rt.work_counter(), rt.arrivals(), rt.arrival_slots(), kLocal);
        inj_cr.init(cap_credit, m_terms[r].work_counter());
        ej.init(cap_flit, m_terms[r].work_counter());
        ej_cr.init(cap_credit, rt.work_counter(), rt.arrivals(), rt.arrival_slots(), kNumPorts + kLocal);
        rt.connect_input(kLocal, &inj, &inj_cr);
        rt.connect_output(kLocal, &ej, &ej_cr, m_p.eject_depth);
        m_terms[r].connect(&inj, &inj_cr, &ej, &ej_cr);
    }
    if (!m_step_all) {
        // Items become visible at most this many cycles after the cycle that pushes them; a
        // router's own pipeline wake (t_va) at most router_stages cycles ahead.
        const std::uint64_t horizon = std::max<std::uint64_t>({cap_flit, cap_credit, m_p.link_latency + 1, m_p.router_stages + 1});
        m_router_wheel.init(n, horizon);
        m_term_wheel.init(n, horizon);
        for (unsigned r = 0; r < n; ++r) {
            for (unsigned port = kEast; port < kNumPorts; ++port) {
                const unsigned idx = r * kLinksPerNode + port;
                if (!m_flit_links[idx].connected()) continue;
                const unsigned nb = port == kEast ? r + 1 : port == kWest ? r - 1 : port == kNorth ? r - m_p.width : r + m_p.width;
                m_flit_links[idx].set_wake(&m_router_wheel, nb);
                m_credit_links[idx].set_wake(&m_router_wheel, r);
            }
            m_flit_links[r * kLinksPerNode + kNumPorts].set_wake(&m_router_wheel, r);
            m_credit_links[r * kLinksPerNode + kNumPorts].set_wake(&m_term_wheel, r);
            m_flit_links[r * kLinksPerNode + kLocal].set_wake(&m_term_wheel, r);
            m_credit_links[r * kLinksPerNode + kLocal].set_wake(&m_router_wheel, r);
        }
    }
    m_delivery.net = this;
}

std::uint32_t Network::send(unsigned src, unsigned dst, PacketType type, std::uint32_t payload_bytes,
                            std::uint32_t txn_id, std::uint64_t addr, void* user, std::uint32_t num_flits,
                            void* sender) {
    const unsigned n = num_nodes();
    if (src >= n || dst >= n)
        throw vp::SimulationError("noc: packet from node " + std::to_string(src) + " to node " + std::to_string(dst) +
                                  " outside the " + std::to_string(n) + "-node mesh");
    if (num_flits == 0) num_flits = packet_flits(carries_data(type) ? payload_bytes : 0, m_p.flit_width_bits, m_p.header_flits);
    if (num_flits > 65535) throw vp::SimulationError("noc: packet of " + std::to_string(num_flits) + " flits exceeds 65535");
    m_saw_response |= message_class(type) == MessageClass::kResponse;
    const std::uint32_t id = m_packets.alloc();
    PacketInfo& pk = m_packets[id];
    pk.serial = m_serial++;
    pk.create_cycle = m_cycle;
    pk.inject_cycle = 0;
    pk.addr = addr;
    pk.user = user;
    pk.sender = sender;
    pk.notify_sent = sender != nullptr;
    pk.txn_id = txn_id;
    pk.payload_bytes = payload_bytes;
    pk.num_flits = num_flits;
    pk.src = static_cast<std::uint16_t>(src);
    pk.dst = static_cast<std::uint16_t>(dst);
    pk.type = type;
    pk.measured = m_measuring;
    ++m_tot.packets_created;
    m_tot.flits_created += num_flits;
    ++m_tot.packets_by_type[unsigned(type)];
    m_tot.flits_by_type[unsigned(type)] += num_flits;
    if (m_measuring) {
        ++m_tot.measured_created;
        m_tot.measured_flits_created += num_flits;
    }
    m_terms[src].enqueue(id);
    // A terminal already stepped in the current cycle (or being stepped) sees the packet in the next.
    if (!m_step_all) m_term_wheel.wake(src, m_term_cursor && src < m_term_cursor ? m_cycle + 1 : m_cycle);
    return id;
}

void Network::Delivery::deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) {
    if (info.measured) {
        net->m_packet_lat.sample(c - info.create_cycle);
        net->m_network_lat.sample(c - info.inject_cycle);
        ++net->m_tot.measured_delivered;
    }
    if (net->m_sink) net->m_sink->deliver(node, id, info, c);
}

void Network::step_terminal(unsigned i, std::uint64_t c, unsigned& moved) {
    moved += m_terms[i].step(c, m_packets, &m_delivery, m_term_ctr[i], m_tot.term);
}

unsigned Network::step_all_routers(std::uint64_t c) {
    unsigned moved = 0;
    const unsigned n = num_nodes();
    for (unsigned i = 0; i < n; ++i) step_terminal(i, c, moved);
    for (unsigned i = 0; i < n; ++i) moved += m_routers[i].step(c);
    m_router_steps += n;
    return moved;
}

// Steps the terminals and routers marked for cycle c, in index order (terminals first, as in
// stepping every one). A send() from a delivery marks its source for this cycle when that
// terminal is still ahead in the order, else for the next (the order of stepping every one).
// Sleeping routers that hold flits get their per-cycle counters when next stepped or read
// (Router::settle).
unsigned Network::step_active(std::uint64_t c) {
    unsigned moved = 0;
    const unsigned words = m_router_wheel.words();
    std::uint64_t* ts = m_term_wheel.slot(c);
    for (unsigned w = 0; w < words; ++w) {
        while (ts[w]) {
            const unsigned i = w * 64 + unsigned(__builtin_ctzll(ts[w]));
            ts[w] &= ts[w] - 1;
            m_term_cursor = i + 1;
            step_terminal(i, c, moved);
            if (m_terms[i].wants_step(m_packets)) m_term_wheel.wake(i, c + 1);
        }
    }
    m_term_cursor = 0;
    std::uint64_t* rs = m_router_wheel.slot(c);
    for (unsigned w = 0; w < words; ++w) {
        if (!rs[w]) continue;
        moved += Router::step_due(m_routers.data(), w * 64, rs[w], c, m_router_wheel, m_router_steps);
        rs[w] = 0;
    }
    return moved;
}

void Network::step() {
    const std::uint64_t c = m_cycle;
    const unsigned n = num_nodes();
    const unsigned moved = m_step_all ? step_all_routers(c) : step_active(c);
    if (m_trace) {
        for (unsigned i = 0; i < n; ++i) {
            const Router& r = m_routers[i];
            const std::uint32_t occ = r.buffered();
            const std::uint32_t out = r.flits_out_in(c);
            if (occ != m_trace_last[2 * i] || out != m_trace_last[2 * i + 1]) {
                m_trace_last[2 * i] = occ;
                m_trace_last[2 * i + 1] = out;
                m_trace->router_changed(i, c, occ, out);
            }
        }
    }
    if (moved) {
        m_last_progress = c;
    } else if (m_p.watchdog_cycles && flits_in_network() && c - m_last_progress >= m_p.watchdog_cycles) {
        // Requests and responses on shared VCs can block each other for good: say so.
        const std::string why =
            !m_p.separate_classes() && m_saw_response
                ? "noc.message_classes is shared: requests waiting at a full endpoint can hold the VCs that "
                  "endpoint's responses need (a protocol deadlock; separate classes with noc.num_vcs >= 2 rule it "
                  "out, docs/noc.md \"Message classes\")\n"
                : "";
        throw vp::SimulationError("noc: deadlock: no flit moved for " + std::to_string(c - m_last_progress) +
                                  " cycles (cycle " + std::to_string(c) + ", " + std::to_string(flits_in_network()) +
                                  " flits in the network)\n" + why + blocked_report());
    }
    ++m_cycle;
}

bool Network::idle() const {
    if (m_tot.flits_created != m_tot.term.flits_ejected) return false;
    if (flits_in_network()) return false;
    for (const auto& t : m_terms)
        if (t.has_work()) return false;
    for (const auto& r : m_routers)
        if (r.has_work()) return false;
    return true;
}

void Network::skip_idle(std::uint64_t n) {
    if (!idle()) throw vp::SimulationError("noc: skip_idle called while the network is busy");
    m_cycle += n;
    m_last_progress = m_cycle;
}

Network::Census Network::census() const {
    Census k;
    for (const auto& t : m_terms) {
        k.flits_at_sources += t.flits_at_source(m_packets);
        k.flits_in_ejection += t.flits_in_ejection();
    }
    for (const auto& r : m_routers) k.flits_in_routers += r.count_buffered();
    for (const auto& l : m_flit_links) k.flits_on_links += l.size();
    for (const auto& l : m_credit_links) k.credits_on_links += l.size();
    return k;
}

std::string Network::blocked_report() const {
    std::string s = "blocked routers and packets:\n";
    for (const auto& r : m_routers) r.describe_blocked(s);
    for (const auto& t : m_terms) t.describe(s);
    return s;
}

}  // namespace vp::noc
