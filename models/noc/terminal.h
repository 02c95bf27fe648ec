#pragma once
// The network side of one node's interface: a source queue of packets that are cut
// into flits and injected into the local input port of the node's router (one flit per
// cycle, credit-based), and an ejection queue that receives flits from the router's
// local output port, reassembles packets and hands them to the PacketSink.
// Injection link and ejection link both have link_latency cycles.
#include <cstdint>
#include <string>

#include "models/noc/link.h"
#include "models/noc/noc_params.h"
#include "models/noc/packet_table.h"

namespace vp::noc {

// Receiver of complete packets (the NI models or the synthetic-traffic statistics).
class PacketSink {
public:
    virtual ~PacketSink() = default;
    // May the head flit of a new packet be drained at node? (backpressure of the NI).
    virtual bool can_accept(unsigned /*node*/) { return true; }
    // The tail of packet id was drained at node in cycle c. The table slot is released after the call.
    virtual void deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) = 0;
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
    bool has_work() const { return m_incoming != 0 || m_sending || !m_queue.empty() || !m_eject.empty(); }

    // Simulates cycle c; returns flits moved (injected + drained).
    unsigned step(std::uint64_t c, PacketTable& table, PacketSink* sink, TerminalCounters& ctr);

    void describe(std::string& out) const;

private:
    const NocParams& m_p;
    unsigned m_node, m_vcs;
    FlitLink* m_inject = nullptr;
    CreditLink* m_inject_credit = nullptr;  // credits of the router's local input buffers
    FlitLink* m_eject_in = nullptr;
    CreditLink* m_eject_credit = nullptr;   // slots of this ejection queue back to the router
    GrowingRing<std::uint32_t> m_queue;
    RingBuffer<TimedFlit> m_eject;
    std::int32_t m_credits[16] = {};
    bool m_sending = false;
    std::uint32_t m_cur = 0, m_next_seq = 0, m_cur_vc = 0, m_vc_rr = 0;
    std::uint32_t m_incoming = 0;
};

}  // namespace vp::noc
