#pragma once
// The cycle-accurate mesh: width x height routers, one terminal (NI network side) per
// router, links and credit lines between them. Plain C++, no SystemC: the SystemC
// wrapper (noc_system.h) calls step() once per NoC clock cycle.
//
// Latency convention (every test and statistic uses it): a packet of F flits created in
// cycle c0 at an idle source whose destination is H hops away has its tail drained at
// the destination NI in cycle
//     c0 + T0,   T0 = L + (H + 1) * (P - 1 + L) + (F - 1)
// with P = router_stages and L = link_latency: the head is sent by the source NI in c0 and
// received by the first router in c0 + L (injection link), spends P - 1 cycles in each of the
// H + 1 routers before it is sent on and L cycles on each following link (the last one is the
// ejection link), and the tail follows F - 1 cycles behind. Packet latency = tail drain cycle
// - creation cycle (includes source queueing, like BookSim2's include_queuing = 1); network
// latency = tail drain cycle - cycle the head left the source NI.
//
// Step order (compute/commit): every router and terminal reads only items visible in
// the current cycle and writes items visible in a later cycle (link, credit delays >= 1),
// so the order of stepping cannot change the result. In "active" stepping a router or terminal
// is stepped only in the cycles in which it can act: a wake wheel (wake_wheel.h) holds, per
// cycle, the routers and terminals to step; an item pushed on a link marks its receiver for the
// cycle it becomes visible, a step marks its own next cycle (Router::next_wake,
// Terminal::wants_step) and send() marks the source terminal. A router whose every occupied VC
// waits for a credit, an output VC or a flit sleeps; its per-cycle counters (occupancy, credit
// stalls) are accounted in one go when it is stepped again or its counters are read
// (Router::settle). "all" steps every router and
// terminal every cycle; both give byte-identical statistics (tested).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/noc/latency_stats.h"
#include "models/noc/link.h"
#include "models/noc/noc_params.h"
#include "models/noc/packet_table.h"
#include "models/noc/router.h"
#include "models/noc/terminal.h"
#include "models/noc/wake_wheel.h"

namespace vp::noc {

// Optional tracing hook (null when tracing is off): called after each cycle for every
// router whose buffered-flit count or flits-sent-this-cycle changed.
class TraceHook {
public:
    virtual ~TraceHook() = default;
    virtual void router_changed(unsigned router, std::uint64_t cycle, std::uint32_t occupancy,
                                std::uint32_t flits_out) = 0;
};

struct NetworkTotals {
    std::uint64_t packets_created = 0, flits_created = 0;
    std::uint64_t packets_by_type[kNumPacketTypes] = {}, flits_by_type[kNumPacketTypes] = {};  // created
    TerminalCounters term;  // injected / ejected, summed over terminals
    std::uint64_t measured_created = 0, measured_flits_created = 0, measured_delivered = 0;
};

class Network {
public:
    explicit Network(const NocParams& p);  // p must be validated
    Network(const Network&) = delete;
    Network& operator=(const Network&) = delete;

    const NocParams& params() const { return m_p; }
    unsigned num_nodes() const { return m_p.num_nodes(); }
    std::uint64_t cycle() const { return m_cycle; }

    // Creates a packet at node src in the current cycle and queues it at the source NI.
    // num_flits == 0 means F(p) from payload_bytes (flit.h); returns the packet id. With a sender
    // token the sink's sent() is called when the tail has left the source NI.
    std::uint32_t send(unsigned src, unsigned dst, PacketType type, std::uint32_t payload_bytes,
                       std::uint32_t txn_id = 0, std::uint64_t addr = 0, void* user = nullptr,
                       std::uint32_t num_flits = 0, void* sender = nullptr);
    std::size_t queued_packets(unsigned node) const { return m_terms[node].queued_packets(); }
    std::size_t queued_packets_before(unsigned node, std::uint64_t c) const {
        return m_terms[node].queued_packets_before(c);
    }

    void set_sink(PacketSink* s) { m_sink = s; }
    // Node's sink notifies when it frees room (Terminal::set_sink_notifies): a terminal whose
    // heads were all refused is not stepped again until sink_ready(node, c), which marks it for
    // cycle c (c >= cycle()).
    void set_sink_notifies(unsigned node) { m_terms[node].set_sink_notifies(true); }
    void sink_ready(unsigned node, std::uint64_t c) {
        if (m_terms[node].sink_ready(c) && !m_step_all) m_term_wheel.wake(node, c);
    }
    void set_trace_hook(TraceHook* h) { m_trace = h; }
    // Packets created while measuring are flagged and enter the latency statistics.
    void set_measuring(bool on) { m_measuring = on; }

    // Simulates one cycle. Throws vp::SimulationError when the watchdog fires.
    void step();
    // Advances the clock by n cycles when nothing is in the network or queues (idle skip).
    void skip_idle(std::uint64_t n);
    bool idle() const;
    std::uint64_t flits_in_network() const { return m_tot.term.flits_injected - m_tot.term.flits_ejected; }
    std::size_t packets_alive() const { return m_packets.alive(); }

    // Statistics.
    // Router i with its counters settled to the current cycle (Router::settle).
    const Router& router(unsigned i) const {
        m_routers[i].settle(m_cycle);
        return m_routers[i];
    }
    const TerminalCounters& terminal_counters(unsigned i) const { return m_term_ctr[i]; }
    const NetworkTotals& totals() const { return m_tot; }
    const LatencyStats& packet_latency() const { return m_packet_lat; }
    const LatencyStats& network_latency() const { return m_network_lat; }
    std::uint64_t router_steps() const { return m_router_steps; }  // routers actually stepped
    // Every flit link (router outputs and injection links), for inspection by tests.
    std::size_t num_flit_links() const { return m_flit_links.size(); }
    const FlitLink& flit_link(std::size_t i) const { return m_flit_links[i]; }

    // Tests: every router uses the general switch and VC allocators (Router::set_general_allocation).
    void set_general_allocation(bool on) {
        for (auto& r : m_routers) r.set_general_allocation(on);
    }
    // Human-readable list of blocked routers and packets (also used by the watchdog).
    std::string blocked_report() const;

    // Where every flit is now, counted from the buffers themselves (not from the totals), for
    // the conservation invariants: flits created = at sources + injected, injected = ejected +
    // in routers + on links + in ejection queues, and per router flits in - flits out = buffered.
    struct Census {
        std::uint64_t flits_at_sources = 0, flits_in_routers = 0, flits_on_links = 0, flits_in_ejection = 0;
        std::uint64_t credits_on_links = 0;
    };
    Census census() const;

private:
    void step_terminal(unsigned i, std::uint64_t c, unsigned& moved);
    unsigned step_all_routers(std::uint64_t c);
    unsigned step_active(std::uint64_t c);

    struct Delivery : PacketSink {
        Network* net = nullptr;
        bool can_accept(unsigned node, const PacketInfo& info) override {
            return !net->m_sink || net->m_sink->can_accept(node, info);
        }
        void deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override;
        void sent(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override {
            if (net->m_sink) net->m_sink->sent(node, id, info, c);
        }
    };

    const NocParams m_p;
    std::vector<std::uint32_t> m_coords;  // [node] x | y << 16 (Router's route computation)
    std::vector<Router> m_routers;
    std::vector<Terminal> m_terms;
    std::vector<TerminalCounters> m_term_ctr;
    std::vector<FlitLink> m_flit_links;
    std::vector<CreditLink> m_credit_links;
    PacketTable m_packets;
    PacketSink* m_sink = nullptr;
    TraceHook* m_trace = nullptr;
    Delivery m_delivery;
    std::vector<std::uint32_t> m_trace_last;  // [router * 2 + {occupancy, flits}]
    WakeWheel m_router_wheel, m_term_wheel;    // active stepping: who is stepped in which cycle
    unsigned m_term_cursor = 0;                // terminal being stepped + 1 (0: not in the terminal phase)
    bool m_step_all = false;
    bool m_measuring = false;
    std::uint64_t m_cycle = 0;
    std::uint64_t m_last_progress = 0;
    bool m_saw_response = false;  // a response packet was sent (request/response traffic, not synthetic)
    std::uint64_t m_router_steps = 0;
    std::uint64_t m_serial = 0;
    NetworkTotals m_tot;
    LatencyStats m_packet_lat, m_network_lat;
};

}  // namespace vp::noc
