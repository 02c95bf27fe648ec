#include "models/noc/terminal.h"

namespace vp::noc {

Terminal::Terminal(const NocParams& p, unsigned node) : m_p(p), m_node(node), m_vcs(p.num_vcs) {
    // One ejection queue of eject_depth flits per VC, presented to the router as credits.
    m_eject_cap = 1;
    while (m_eject_cap < p.eject_depth) {
        m_eject_cap <<= 1;
        ++m_eject_shift;
    }
    m_eject.assign(std::size_t(m_eject_cap) * m_vcs, EjectSlot{0, 0});
    for (unsigned v = 0; v < m_vcs; ++v) m_credits[v] = static_cast<std::int32_t>(p.buffer_depth);
    for (unsigned t = 0; t < kNumPacketTypes; ++t) {
        m_type_vcs[t] = p.class_vc_mask(message_class(PacketType(t)));
        m_one_class = m_one_class && m_type_vcs[t] == m_type_vcs[0];
    }
}

void Terminal::connect(FlitLink* inject, CreditLink* inject_credit, FlitLink* eject, CreditLink* eject_credit) {
    m_inject = inject;
    m_inject_credit = inject_credit;
    m_eject_in = eject;
    m_eject_credit = eject_credit;
}

unsigned Terminal::step(std::uint64_t c, PacketTable& table, PacketSink* sink, TerminalCounters& ctr,
                        TerminalCounters& total) {
    unsigned moved = 0;
    // Blocked since the last step, with no sink_ready() since: the sink refuses every head.
    const bool refused = m_eject_blocked;
    m_eject_blocked = false;
    if (m_incoming) {
        // At most one credit and one flit arrive per cycle (DelayLine).
        if (m_inject_credit->ready(c)) {
            ++m_credits[m_inject_credit->front(c).vc];
            m_inject_credit->pop(c);
        }
        if (m_eject_in->ready(c)) {
            const Flit& f = m_eject_in->front(c).flit;
            const unsigned v = f.vc;
            m_eject[(v << m_eject_shift) + ((m_eject_head[v] + m_eject_size[v]) & (m_eject_cap - 1))] =
                EjectSlot{f.packet, f.kind};
            ++m_eject_size[v];
            m_eject_nonempty |= std::uint32_t(1) << v;
            m_eject_in->pop(c);
        }
    }
    // Injection: start the next packet on the next VC of its message class (round-robin) with a
    // free slot.
    if (!m_sending && !m_queue.empty()) {
        const std::uint32_t allowed = m_one_class ? ~std::uint32_t(0) : m_type_vcs[unsigned(table[m_queue.front()].type)];
        for (unsigned k = 0, v = m_vc_rr; k < m_vcs; ++k, v = v + 1 == m_vcs ? 0 : v + 1) {
            if ((allowed >> v & 1) && m_credits[v] > 0) {
                m_cur = m_queue.front();
                m_queue.pop();
                m_sending = true;
                m_next_seq = 0;
                m_cur_vc = v;
                m_vc_rr = v + 1 == m_vcs ? 0 : v + 1;
                break;
            }
        }
    }
    if (m_sending && m_credits[m_cur_vc] > 0) {
        PacketInfo& pk = table[m_cur];
        Flit f;
        f.packet = m_cur;
        f.src = pk.src;
        f.dst = pk.dst;
        f.type = pk.type;
        f.vc = static_cast<std::uint8_t>(m_cur_vc);
        f.kind = static_cast<std::uint8_t>((m_next_seq == 0 ? kHead : 0) | (m_next_seq + 1 == pk.num_flits ? kTail : 0));
        if (m_next_seq == 0) {
            pk.inject_cycle = c;
            ++ctr.packets_injected;
            ++total.packets_injected;
        }
        --m_credits[m_cur_vc];
        m_inject->push(TimedFlit{f, c + m_p.link_latency});
        ++ctr.flits_injected;
        ++total.flits_injected;
        ++moved;
        if (++m_next_seq == pk.num_flits) {
            m_sending = false;
            m_tail_cycle = c;
            if (pk.notify_sent && sink) sink->sent(m_node, m_cur, pk, c);
        }
    }
    // Ejection: drain one flit per cycle (the ejection link bandwidth), round-robin over the VCs
    // whose front flit may go: a body/tail flit, or a head that the sink accepts. A refused head
    // blocks its own VC only.
    if (!m_eject_nonempty) return moved;
    // Candidates in round-robin order: the non-empty VCs from m_eject_rr on, then the others.
    const std::uint32_t from_rr = m_eject_nonempty & (~std::uint32_t(0) << m_eject_rr);
    unsigned v = unsigned(__builtin_ctz(from_rr ? from_rr : m_eject_nonempty));
    EjectSlot e = m_eject[(v << m_eject_shift) + m_eject_head[v]];
    if ((e.kind & kHead) && !(m_eject_open >> v & 1) && sink && (refused || !sink->can_accept(m_node, table[e.packet]))) {
        v = next_acceptable(from_rr, table, refused ? nullptr : sink);  // the first candidate refused its head
        if (v >= m_vcs) {
            m_eject_blocked = m_sink_notifies && m_ready_cycle <= c;
            return moved;
        }
        e = m_eject[(v << m_eject_shift) + m_eject_head[v]];
    }
    const std::uint32_t bit = std::uint32_t(1) << v;
    m_eject_open |= bit;
    m_eject_head[v] = (m_eject_head[v] + 1) & (m_eject_cap - 1);
    if (--m_eject_size[v] == 0) m_eject_nonempty &= ~bit;
    m_eject_rr = v + 1;
    m_eject_credit->push(TimedCredit{static_cast<std::uint8_t>(v), c + m_p.credit_delay});
    ++ctr.flits_ejected;
    ++total.flits_ejected;
    if (e.kind & kTail) {
        m_eject_open &= ~bit;
        ++ctr.packets_ejected;
        ++total.packets_ejected;
        if (sink) sink->deliver(m_node, e.packet, table[e.packet], c);
        table.release(e.packet);
    }
    return moved + 1;
}

// After the first candidate refused its head: the next VC in round-robin order whose front may be
// drained, or num_vcs if none. Without a sink every head is refused (a blocked sink, see step()).
unsigned Terminal::next_acceptable(std::uint32_t from_rr, PacketTable& table, PacketSink* sink) {
    std::uint32_t part = from_rr ? from_rr : m_eject_nonempty;
    bool wrapped = !from_rr;
    for (part &= part - 1;; part &= part - 1) {
        if (!part) {
            if (wrapped) return m_vcs;
            wrapped = true;
            part = m_eject_nonempty & ~from_rr;
            if (!part) return m_vcs;
        }
        const unsigned v = unsigned(__builtin_ctz(part));
        const EjectSlot e = m_eject[(v << m_eject_shift) + m_eject_head[v]];
        if (!(e.kind & kHead) || (m_eject_open >> v & 1) || (sink && sink->can_accept(m_node, table[e.packet]))) return v;
    }
}

std::uint64_t Terminal::flits_at_source(const PacketTable& table) const {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < m_queue.size(); ++i) n += table[m_queue.at(i)].num_flits;
    if (m_sending) n += table[m_cur].num_flits - m_next_seq;
    return n;
}

std::uint64_t Terminal::flits_in_ejection() const {
    std::uint64_t n = 0;
    for (unsigned v = 0; v < m_vcs; ++v) n += m_eject_size[v];
    return n;
}

void Terminal::describe(std::string& out) const {
    if (!has_work()) return;
    out += "  ni[" + std::to_string(m_node) + "] source queue=" + std::to_string(queued_packets()) +
           " packets, ejection queues=";
    for (unsigned v = 0; v < m_vcs; ++v) {
        out += (v ? "/" : "") + std::to_string(m_eject_size[v]);
        if (m_eject_size[v] && (m_eject[(v << m_eject_shift) + m_eject_head[v]].kind & kHead) && !(m_eject_open >> v & 1))
            out += "(head not accepted)";
    }
    out += " flits";
    if (m_sending) out += ", sending packet " + std::to_string(m_cur) + " flit " + std::to_string(m_next_seq);
    out += "\n";
}

}  // namespace vp::noc
