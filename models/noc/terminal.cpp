#include "models/noc/terminal.h"

namespace vp::noc {

Terminal::Terminal(const NocParams& p, unsigned node) : m_p(p), m_node(node), m_vcs(p.num_vcs) {
    // One ejection queue of eject_depth flits per VC, presented to the router as credits.
    m_eject.resize(m_vcs);
    for (auto& q : m_eject) q.reset(p.eject_depth);
    for (unsigned v = 0; v < m_vcs; ++v) m_credits[v] = static_cast<std::int32_t>(p.buffer_depth);
    for (unsigned t = 0; t < kNumPacketTypes; ++t) m_type_vcs[t] = p.class_vc_mask(message_class(PacketType(t)));
}

void Terminal::connect(FlitLink* inject, CreditLink* inject_credit, FlitLink* eject, CreditLink* eject_credit) {
    m_inject = inject;
    m_inject_credit = inject_credit;
    m_eject_in = eject;
    m_eject_credit = eject_credit;
}

unsigned Terminal::step(std::uint64_t c, PacketTable& table, PacketSink* sink, TerminalCounters& ctr) {
    unsigned moved = 0;
    if (m_incoming) {
        while (m_inject_credit->ready(c)) {
            ++m_credits[m_inject_credit->front().vc];
            m_inject_credit->pop();
        }
        while (m_eject_in->ready(c)) {
            const Flit& f = m_eject_in->front().flit;
            m_eject[f.vc].push(TimedFlit{f, c});
            m_eject_nonempty |= std::uint32_t(1) << f.vc;
            m_eject_in->pop();
        }
    }
    // Injection: start the next packet on the next VC of its message class (round-robin) with a
    // free slot.
    if (!m_sending && !m_queue.empty()) {
        const std::uint32_t allowed = m_type_vcs[unsigned(table[m_queue.front()].type)];
        for (unsigned k = 0; k < m_vcs; ++k) {
            const unsigned v = (m_vc_rr + k) % m_vcs;
            if ((allowed >> v & 1) && m_credits[v] > 0) {
                m_cur = m_queue.front();
                m_queue.pop();
                m_sending = true;
                m_next_seq = 0;
                m_cur_vc = v;
                m_vc_rr = (v + 1) % m_vcs;
                break;
            }
        }
    }
    if (m_sending && m_credits[m_cur_vc] > 0) {
        PacketInfo& pk = table[m_cur];
        Flit f;
        f.packet = m_cur;
        f.txn_id = pk.txn_id;
        f.payload_bytes = pk.payload_bytes;
        f.src = pk.src;
        f.dst = pk.dst;
        f.type = pk.type;
        f.seq = static_cast<std::uint16_t>(m_next_seq);
        f.vc = static_cast<std::uint8_t>(m_cur_vc);
        f.kind = static_cast<std::uint8_t>((m_next_seq == 0 ? kHead : 0) | (m_next_seq + 1 == pk.num_flits ? kTail : 0));
        if (m_next_seq == 0) {
            pk.inject_cycle = c;
            ++ctr.packets_injected;
        }
        --m_credits[m_cur_vc];
        m_inject->push(TimedFlit{f, c + m_p.link_latency});
        ++ctr.flits_injected;
        ++moved;
        if (++m_next_seq == pk.num_flits) {
            m_sending = false;
            if (pk.notify_sent && sink) sink->sent(m_node, m_cur, pk, c);
        }
    }
    // Ejection: drain one flit per cycle (the ejection link bandwidth), round-robin over the VCs
    // whose front flit may go: a body/tail flit, or a head that the sink accepts. A refused head
    // blocks its own VC only.
    if (m_eject_nonempty) {
        for (unsigned k = 0; k < m_vcs; ++k) {
            const unsigned v = (m_eject_rr + k) % m_vcs;
            const std::uint32_t bit = std::uint32_t(1) << v;
            if (!(m_eject_nonempty & bit)) continue;
            RingBuffer<TimedFlit>& q = m_eject[v];
            const Flit f = q.front().flit;
            if (f.head() && !(m_eject_open & bit)) {
                if (sink && !sink->can_accept(m_node, table[f.packet])) continue;
                m_eject_open |= bit;
            }
            q.pop();
            if (q.empty()) m_eject_nonempty &= ~bit;
            m_eject_rr = (v + 1) % m_vcs;
            m_eject_credit->push(TimedCredit{f.vc, c + m_p.credit_delay});
            ++ctr.flits_ejected;
            ++moved;
            if (f.tail()) {
                m_eject_open &= ~bit;
                ++ctr.packets_ejected;
                if (sink) sink->deliver(m_node, f.packet, table[f.packet], c);
                table.release(f.packet);
            }
            break;
        }
    }
    return moved;
}

std::uint64_t Terminal::flits_at_source(const PacketTable& table) const {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < m_queue.size(); ++i) n += table[m_queue.at(i)].num_flits;
    if (m_sending) n += table[m_cur].num_flits - m_next_seq;
    return n;
}

std::uint64_t Terminal::flits_in_ejection() const {
    std::uint64_t n = 0;
    for (const auto& q : m_eject) n += q.size();
    return n;
}

void Terminal::describe(std::string& out) const {
    if (!has_work()) return;
    out += "  ni[" + std::to_string(m_node) + "] source queue=" + std::to_string(queued_packets()) +
           " packets, ejection queues=";
    for (unsigned v = 0; v < m_vcs; ++v) {
        out += (v ? "/" : "") + std::to_string(m_eject[v].size());
        if (m_eject[v].size() && m_eject[v].front().flit.head() && !(m_eject_open >> v & 1)) out += "(head not accepted)";
    }
    out += " flits";
    if (m_sending) out += ", sending packet " + std::to_string(m_cur) + " flit " + std::to_string(m_next_seq);
    out += "\n";
}

}  // namespace vp::noc
