#include "models/noc/terminal.h"

namespace vp::noc {

Terminal::Terminal(const NocParams& p, unsigned node) : m_p(p), m_node(node), m_vcs(p.num_vcs) {
    // One ejection queue of eject_depth flits per VC, presented to the router as credits.
    m_eject.reset(p.eject_depth * p.num_vcs);
    for (unsigned v = 0; v < m_vcs; ++v) m_credits[v] = static_cast<std::int32_t>(p.buffer_depth);
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
            m_eject.push(TimedFlit{m_eject_in->front().flit, c});
            m_eject_in->pop();
        }
    }
    // Injection: start the next packet on the next VC (round-robin) with a free slot.
    if (!m_sending && !m_queue.empty()) {
        for (unsigned k = 0; k < m_vcs; ++k) {
            const unsigned v = (m_vc_rr + k) % m_vcs;
            if (m_credits[v] > 0) {
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
        if (++m_next_seq == pk.num_flits) m_sending = false;
    }
    // Ejection: drain one flit per cycle (the ejection link bandwidth) unless the sink
    // refuses the head of a new packet.
    if (!m_eject.empty()) {
        const Flit f = m_eject.front().flit;
        if (!f.head() || !sink || sink->can_accept(m_node)) {
            m_eject.pop();
            m_eject_credit->push(TimedCredit{f.vc, c + m_p.credit_delay});
            ++ctr.flits_ejected;
            ++moved;
            if (f.tail()) {
                ++ctr.packets_ejected;
                if (sink) sink->deliver(m_node, f.packet, table[f.packet], c);
                table.release(f.packet);
            }
        }
    }
    return moved;
}

void Terminal::describe(std::string& out) const {
    if (!has_work()) return;
    out += "  ni[" + std::to_string(m_node) + "] source queue=" + std::to_string(queued_packets()) +
           " packets, ejection queue=" + std::to_string(m_eject.size()) + " flits";
    if (m_sending) out += ", sending packet " + std::to_string(m_cur) + " flit " + std::to_string(m_next_seq);
    out += "\n";
}

}  // namespace vp::noc
