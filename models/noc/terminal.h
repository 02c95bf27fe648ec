#pragma once
// The network side of one node's interface: a source queue of packets that are cut
// into flits and injected into the local input port of the node's router (one flit per
// cycle, credit-based, on a VC of the packet's message class), and one ejection queue per
// VC that receives flits from the router's local output port, reassembles packets and hands
// them to the PacketSink. Ejection is per VC (as BookSim2's and Garnet's NIs keep one
// reassembly buffer per VC): a head refused by the sink blocks its own VC only, and flits of
// other VCs (other packets, other message classes) are drained past it.
// Injection link and ejection link both have link_latency cycles.
#include <cstdint>
#include <string>
#include <vector>

#include "models/noc/link.h"
#include "models/noc/noc_params.h"
#include "models/noc/packet_table.h"
#include "models/noc/ring_buffer.h"

namespace vp::noc {

// Receiver of complete packets (the NI models or the synthetic-traffic statistics).
class PacketSink {
public:
    virtual ~PacketSink() = default;
    // May the head flit of this packet be drained at node? (backpressure of the NI). Returning
    // true commits the sink to take the whole packet (reserve room for it): deliver() follows
    // when its tail has been drained.
    virtual bool can_accept(unsigned /*node*/, const PacketInfo& /*info*/) { return true; }
    // The tail of packet id was drained at node in cycle c. The table slot is released after the call.
    virtual void deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) = 0;
    // The tail of packet id left the source NI at node in cycle c (only for packets created with
    // PacketInfo::notify_sent; a posted write or sync is complete for its sender then).
    virtual void sent(unsigned /*node*/, std::uint32_t /*id*/, const PacketInfo& /*info*/, std::uint64_t /*c*/) {}
};

struct TerminalCounters {
    std::uint64_t packets_injected = 0, flits_injected = 0;  // left the source NI
    std::uint64_t packets_ejected = 0, flits_ejected = 0;    // drained at the destination NI
};

class Terminal {
public:
    Terminal(const NocParams& p, unsigned node);
    Terminal(const Terminal&) = delete;
    Terminal& operator=(const Terminal&) = delete;
    Terminal(Terminal&&) = default;

    void connect(FlitLink* inject, CreditLink* inject_credit, FlitLink* eject, CreditLink* eject_credit);
    std::uint32_t* work_counter() { return &m_incoming; }

    void enqueue(std::uint32_t packet_id) { m_queue.push(packet_id); }
    std::size_t queued_packets() const { return m_queue.size() + (m_sending ? 1 : 0); }
    // The same before the step of cycle c (a packet whose tail left in cycle c still counts).
    std::size_t queued_packets_before(std::uint64_t c) const { return queued_packets() + (m_tail_cycle == c ? 1 : 0); }
    bool has_work() const { return m_incoming != 0 || m_sending || !m_queue.empty() || m_eject_nonempty != 0; }

    // Simulates cycle c; returns flits moved (injected + drained). Counts into ctr (this terminal's)
    // and total (the network's sum).
    unsigned step(std::uint64_t c, PacketTable& table, PacketSink* sink, TerminalCounters& ctr,
                  TerminalCounters& total);
    // After a step: can the next cycle do anything without a credit or flit arriving? True
    // while the ejection queues hold flits (the sink may accept a refused head at any time) or
    // a flit is ready to inject with a credit for it; false while injection waits for credits.
    // A terminal whose sink reports when it frees room (set_sink_notifies) sleeps while every
    // ejection queue's front is a head the sink refused: Network::sink_ready wakes it.
    bool wants_step(const PacketTable& table) const {
        if (m_eject_nonempty && !m_eject_blocked) return true;
        if (m_sending) return m_credits[m_cur_vc] > 0;
        if (m_queue.empty()) return false;
        const std::uint32_t allowed = m_one_class ? ~std::uint32_t(0) : m_type_vcs[unsigned(table[m_queue.front()].type)];
        for (unsigned v = 0; v < m_vcs; ++v)
            if ((allowed >> v & 1) && m_credits[v] > 0) return true;
        return false;
    }

    // The sink keeps refusing every head from the moment it refused one until it calls
    // Network::sink_ready (then from the next cycle on it may accept); only such a sink may be set.
    void set_sink_notifies(bool on) { m_sink_notifies = on; }
    // The sink freed room that it shows from cycle c on; true if that unblocked the terminal.
    // Room freed at the instant of a step's cycle, before the step, keeps the step from blocking.
    bool sink_ready(std::uint64_t c) {
        m_ready_cycle = c;
        const bool was = m_eject_blocked;
        m_eject_blocked = false;
        return was;
    }

    // Census for the conservation invariants: flits not yet injected (queued packets and the rest
    // of the packet being sent) and flits waiting in the ejection queues.
    std::uint64_t flits_at_source(const PacketTable& table) const;
    std::uint64_t flits_in_ejection() const;

    void describe(std::string& out) const;

private:
    unsigned next_acceptable(std::uint32_t from_rr, PacketTable& table, PacketSink* sink);

    // One ejection slot: what the drain needs of a flit.
    struct EjectSlot {
        std::uint32_t packet;
        std::uint8_t kind;
    };
    // Hot state first: has_work() and a step with nothing to drain touch the first cache line.
    std::uint32_t m_incoming = 0;
    std::uint32_t m_eject_nonempty = 0;          // bit v: ejection queue v holds flits
    bool m_sending = false;
    bool m_one_class = true;                     // every packet type may use every VC
    // The last step drained nothing because the sink refused every candidate head; cleared by
    // the next step or by sink_ready(). While it is set the next step treats every head as
    // refused without asking the sink (only flits of accepted packets drain).
    bool m_eject_blocked = false;
    bool m_sink_notifies = false;                // see set_sink_notifies()
    GrowingRing<std::uint32_t> m_queue;
    FlitLink* m_inject = nullptr;
    CreditLink* m_inject_credit = nullptr;  // credits of the router's local input buffers
    FlitLink* m_eject_in = nullptr;
    CreditLink* m_eject_credit = nullptr;   // slots of the ejection queues back to the router
    const NocParams& m_p;
    unsigned m_node, m_vcs;
    std::uint32_t m_cur = 0, m_next_seq = 0, m_cur_vc = 0, m_vc_rr = 0;
    std::uint32_t m_eject_open = 0;              // bit v: the sink accepted the head on VC v, tail pending
    std::uint32_t m_eject_rr = 0;                // round-robin pointer of the drain over VCs (<= num_vcs)
    // Ejection queues, one ring of m_eject_cap (power of 2 >= eject_depth) slots per VC in one array.
    std::vector<EjectSlot> m_eject;
    std::uint32_t m_eject_cap = 0, m_eject_shift = 0;
    std::uint64_t m_tail_cycle = ~std::uint64_t(0);  // cycle in which the last packet's tail left
    std::uint64_t m_ready_cycle = 0;                 // see sink_ready()
    std::int32_t m_credits[16] = {};
    std::uint32_t m_eject_head[16] = {}, m_eject_size[16] = {};
    std::uint32_t m_type_vcs[kNumPacketTypes] = {};  // injection VCs of each packet type (message class)
};

}  // namespace vp::noc
