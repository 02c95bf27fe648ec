#pragma once
// Input-buffered wormhole router with virtual channels and credit-based flow control,
// modelled on BookSim2's IQ router (non-speculative): route computation (RC),
// VC allocation (VA), switch allocation (SA), switch traversal (ST).
//
// Pipeline timing (P = router_stages = BookSim2's routing_delay + vc_alloc_delay + sw_alloc_delay +
// st_prepare_delay + st_final_delay; L = link_latency = BookSim2 channel latency + 1, because a
// BookSim2 channel delivers an item sent in cycle x in cycle x + latency + 1).
// A head flit that becomes the front of its input VC in cycle t
//   - does RC in t (and P-4 further stages when P > 4),
//   - may request an output VC from cycle t + max(P-3, 0) on,
//   - after winning VA in cycle v may request the switch from v + (P >= 3 ? 1 : 0) on,
//   - after winning SA in cycle s traverses the crossbar (ST) in x = s + (P >= 2 ? 1 : 0) and
//     is sent on the link in that cycle; a flit sent in cycle x is received (written into
//     the next input buffer, where its first stage runs) in cycle x + L.
// At zero load that is P - 1 + L cycles per hop (4 with P = 4, L = 1; BookSim2's defaults are P = 4,
// L = 2: 5 cycles per hop, verified against BookSim2 for every src/dst pair, docs/noc.md).
// Body and tail flits skip RC and VA (SA in the cycle they are received). The input buffer
// slot is returned upstream as a credit usable credit_delay cycles after the flit won SA
// (BookSim2: credit channel latency 1 + 1 + credit_delay 0 = 2; BookSim2's ejection port has
// vc_buf_size credits, i.e. eject_depth = buffer_depth). VC and switch allocation are one
// iteration of iSLIP (round-robin grant and accept pointers), BookSim2's default allocator.
// With separate message classes (NocParams::message_classes) a packet is only allocated output
// VCs of its class (flit.h), so requests and responses never share a VC buffer.
#include <cstdint>
#include <string>
#include <vector>

#include "models/noc/link.h"
#include "models/noc/noc_params.h"
#include "models/noc/routing.h"
#include "models/noc/wake_wheel.h"

namespace vp::noc {

// Plain counters of one router, updated in the hot path (filled into stats groups at the end).
struct RouterCounters {
    std::uint64_t flits_in[kNumPorts] = {};
    std::uint64_t flits_out[kNumPorts] = {};
    std::uint64_t credit_stall[kNumPorts] = {};  // cycles a switch-ready flit found no credit at this output
    std::uint64_t packets_routed = 0;            // heads that won VC allocation
    std::uint64_t sa_conflicts = 0;              // output-port arbitrations with more than one requester
    std::uint64_t occupancy_sum = 0;             // sum over cycles of buffered flits
    std::uint32_t occupancy_max = 0;
};

class Router {
public:
    // coords[node]: the node's x | y << 16 (the network's table, outliving the router), so that route
    // computation needs no division by the mesh width.
    Router(const NocParams& p, unsigned id, RoutingFn routing, const std::uint32_t* coords);
    Router(const Router&) = delete;
    Router& operator=(const Router&) = delete;
    Router(Router&&) = default;

    unsigned id() const { return m_id; }
    unsigned x() const { return m_x; }
    unsigned y() const { return m_y; }

    // Wiring (done once by the Network). credit_out returns slots of input `port` upstream;
    // credit_in brings back slots of the downstream buffer of output `port`.
    void connect_input(unsigned port, FlitLink* in, CreditLink* credit_out);
    void connect_output(unsigned port, FlitLink* out, CreditLink* credit_in, std::uint32_t downstream_depth);
    std::uint32_t* work_counter() { return &m_incoming; }
    // Arrival calendar (DelayLine::init), arrival_slots() words: bit p (< kNumPorts) of word
    // c & (slots - 1): the flit link into input p delivers a flit in cycle c; bit kNumPorts + p: the
    // credit line of output p delivers a credit.
    std::uint32_t* arrivals() { return m_arrivals.data(); }
    std::uint32_t arrival_slots() const { return std::uint32_t(m_arrivals.size()); }

    bool has_work() const { return m_incoming != 0 || m_buffered != 0; }
    std::uint32_t buffered() const { return m_buffered; }
    // Flits in the input VC buffers, counted buffer by buffer (for the conservation invariants).
    std::uint32_t count_buffered() const;

    // Simulates cycle c; returns the number of flits that left input buffers.
    unsigned step(std::uint64_t c);
    // Steps routers[base + b] for every bit b of `due`, in bit order, in cycle c, and marks each
    // router's next_wake() in `wheel` (Network::step_active); returns the flits moved and counts
    // the steps into `steps`.
    static unsigned step_due(Router* routers, unsigned base, std::uint64_t due, std::uint64_t c, WakeWheel& wheel,
                             std::uint64_t& steps);
    // After step(c): the next cycle in which the router can act without anything arriving
    // (0: none; it sleeps until a flit or credit arrives, which wakes it through its links).
    // c + 1 when a step in c + 1 would change more than the per-cycle counters (route
    // computation due, an active VC with a flit and a credit, a VC allocation that grants);
    // otherwise the earliest t_va after c + 1 (a waiting VC that may request then). A router that
    // returns 0 has every occupied VC waiting for a credit, for an output VC held by a blocked
    // packet, or for body flits (wake_after).
    std::uint64_t next_wake() const { return m_next_wake; }
    // Accounts the cycles [since the last step, now) in which the router was not stepped because
    // it slept (next_wake() was 0 or later): per cycle the same counter updates as a step that
    // finds nothing to do (buffered flits and credit stalls do not change while it sleeps). step()
    // settles before it steps; readers of the counters settle to the network's cycle first
    // (Network::router), so a sleeping router costs nothing per cycle.
    void settle(std::uint64_t now) const {
        if (now <= m_idle_from) return;
        if (m_buffered) {
            const std::uint64_t n = now - m_idle_from;
            m_ctr.occupancy_sum += std::uint64_t(m_buffered) * n;
            for (std::uint32_t s = m_stalled; s; s &= s - 1) m_ctr.credit_stall[__builtin_ctz(s)] += n;
        }
        m_idle_from = now;
    }

    // The counters as of the last settle() (Network::router settles them to its cycle).
    const RouterCounters& counters() const { return m_ctr; }
    // Flits sent in cycle c (0 when the router was not stepped in c).
    std::uint32_t flits_out_in(std::uint64_t c) const { return m_last_step == c ? m_last_out : 0; }
    // Tests: allocate the switch with the general iSLIP allocator also for a single candidate VC
    // or requests without conflicts (the fast paths switch_one and switch_conflict_free), and VCs
    // with the general grant stage also for a single requester; all give the same state.
    void set_general_allocation(bool on) { m_general_alloc = on; }
    // Human-readable description of buffered packets (deadlock report).
    void describe_blocked(std::string& out) const;

private:
    static constexpr std::uint64_t kNever = ~std::uint64_t(0);
    static constexpr unsigned kMaxVcs = 12;  // NocParams::validate; kNumPorts * kMaxVcs <= 64 (VC bit masks)
    enum class VcState : std::uint8_t { kIdle, kWaitVa, kActive };
    // State of one input VC; its flits are in m_flits.
    struct InputVc {
        std::uint16_t head = 0;     // oldest flit: m_flits[(i << m_buf_shift) + head]
        std::uint16_t count = 0;    // flits buffered
        VcState state = VcState::kIdle;
        std::uint8_t route_mask = 0;
        std::uint8_t out_port = 0;
        std::uint8_t out_vc = 0;
        std::uint8_t out_ov = 0;    // out_port * vcs + out_vc (index of m_credits)
        std::uint64_t req_ovcs = 0; // output VCs VA may grant it: its class's VCs on every admissible port (set in RC)
        std::uint64_t t_va = 0;     // first cycle VA may be requested
        std::uint64_t t_sa = 0;     // first cycle SA may be requested (head)
    };

    unsigned step_here(std::uint64_t c);
    void absorb(std::uint64_t c);
    void allocate_vcs(std::uint64_t c);
    std::uint64_t wake_after(std::uint64_t c);
    template <bool kOneVc>
    unsigned allocate_switch(std::uint64_t c);
    static constexpr unsigned kConflict = ~0u;
    unsigned switch_one(std::uint64_t c);
    unsigned switch_conflict_free(std::uint64_t c);
    void traverse(std::uint64_t c, unsigned p, unsigned v, unsigned o);

    const NocParams& m_p;
    unsigned m_id, m_x, m_y, m_vcs;
    RoutingFn m_routing;
    const std::uint32_t* m_coords;
    std::uint32_t m_va_lead, m_sa_lead;              // pipeline offsets derived from router_stages
    std::uint32_t m_flit_delay, m_credit_delay;      // SA grant -> flit visible downstream / credit visible upstream
    std::uint8_t m_type_class[kNumPacketTypes] = {};  // PacketType -> MessageClass (kAny when shared)
    std::uint32_t m_class_vcs[3] = {};               // MessageClass -> output VCs (bit v) it may be allocated
    std::uint32_t m_all_vcs = 0;                     // bits 0..vcs-1

    FlitLink* m_in[kNumPorts] = {};
    CreditLink* m_credit_out[kNumPorts] = {};
    FlitLink* m_out[kNumPorts] = {};
    CreditLink* m_credit_in[kNumPorts] = {};

    std::vector<InputVc> m_ivc;              // [port * vcs + vc]
    // Input VC buffers in one array, a ring of 2^m_buf_shift (>= buffer_depth) slots per VC.
    std::vector<Flit> m_flits;
    std::uint32_t m_buf_shift = 0, m_buf_mask = 0;
    const Flit& front(unsigned i) const { return m_flits[(i << m_buf_shift) + m_ivc[i].head]; }
    std::int32_t m_credits[kNumPorts * kMaxVcs] = {};  // [port * vcs + vc] free slots downstream
    std::uint8_t m_port_of[kNumPorts * kMaxVcs] = {};  // [port * vcs + vc] port
    static constexpr unsigned kPortMaskAll = (1u << kNumPorts) - 1;
    std::uint64_t m_port_spread[kPortMaskAll + 1] = {};  // [port mask] bit port * vcs for each port in the mask
    std::uint64_t m_ovc_busy = 0;            // bit port * vcs + vc: output VC allocated to a packet
    std::vector<std::uint16_t> m_va_rr;      // [output vc] grant pointer over input VCs
    std::vector<std::uint16_t> m_va_acc_rr;  // [input vc] accept pointer over output VCs
    std::uint16_t m_sa_in_rr[kNumPorts] = {};   // per input port: VC pointer
    std::uint16_t m_sa_out_rr[kNumPorts] = {};  // per output port: grant pointer over input ports
    std::uint16_t m_sa_acc_rr[kNumPorts] = {};  // per input port: accept pointer over output ports
    std::uint32_t m_waiting_va = 0;          // input VCs in kWaitVa
    std::uint64_t m_wait_mask = 0;           // bit i: input VC i is in kWaitVa
    std::uint32_t m_va_won = 0;              // output VCs allocated in the current step
    // VA cannot grant anything before this cycle: a VA that granted nothing (and so changed no
    // state) would grant nothing again until a held-back VC reaches its t_va, an output VC that a
    // waiting VC requests is freed (-> 0) or a VC starts waiting (-> its t_va at the latest). After
    // a VA with grants: the next cycle if a VC that lost may still be granted, else as after none.
    std::uint64_t m_va_from = 0;
    // Output VCs that a waiting VC may request (a superset: set by route computation, recomputed by
    // VC allocation): freeing one of them lets VC allocation run again.
    std::uint64_t m_va_req = 0;
    // Bit o: a switch-ready flit found no credit at output o in the last step; while the router
    // sleeps, the outputs stalled in every slept cycle (wake_after).
    std::uint32_t m_stalled = 0;
    std::uint64_t m_next_wake = 0;           // next_wake()
    std::uint32_t m_incoming = 0;            // items in links/credit lines towards this router
    std::vector<std::uint32_t> m_arrivals;   // arrivals(): [cycle & (slots - 1)] lines delivering in that cycle
    std::uint32_t m_arrival_mask = 0;        // slots - 1
    std::uint32_t m_buffered = 0;
    // Bit i: input VC i is kActive and holds a flit, i.e. takes part in switch allocation (kept up
    // to date where flits arrive and leave and VCs change state, so that SA visits only these).
    std::uint64_t m_sa_cand = 0;
    std::uint64_t m_rc_pending = 0;  // bit i: idle input VC i holds a head flit that needs route computation
    std::uint32_t m_last_out = 0;
    bool m_general_alloc = false;  // set_general_allocation
    std::uint64_t m_last_step = ~std::uint64_t(0);
    mutable std::uint64_t m_idle_from = 0;  // first cycle not accounted in m_ctr (settle())
    mutable RouterCounters m_ctr;
};

}  // namespace vp::noc
