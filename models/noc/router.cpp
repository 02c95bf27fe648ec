#include "models/noc/router.h"

#include <cassert>

namespace vp::noc {

namespace {
// First set bit of mask at index >= start, else the first set bit (mask != 0).
inline unsigned pick_round_robin(std::uint64_t mask, unsigned start) {
    const std::uint64_t hi = start < 64 ? mask & (~std::uint64_t(0) << start) : 0;
    return unsigned(__builtin_ctzll(hi ? hi : mask));
}
}  // namespace

Router::Router(const NocParams& p, unsigned id, RoutingFn routing, const std::uint32_t* coords)
    : m_p(p), m_id(id), m_x(id % p.width), m_y(id / p.width), m_vcs(p.num_vcs), m_routing(routing), m_coords(coords) {
    assert(m_vcs >= 1 && m_vcs <= kMaxVcs && "NocParams::validate limits num_vcs (input VC masks are 64 bits)");
    const unsigned P = p.router_stages;
    m_va_lead = P > 3 ? P - 3 : 0;
    m_sa_lead = P >= 3 ? 1 : 0;
    m_flit_delay = (P >= 2 ? 1 : 0) + p.link_latency;  // ST one cycle after SA, then the link
    m_credit_delay = p.credit_delay;
    // Items arrive at most max(flit delay, credit delay) cycles after the cycle that sends them.
    std::uint32_t slots = 2;
    while (slots <= m_flit_delay || slots <= m_credit_delay) slots <<= 1;
    m_arrivals.assign(slots, 0);
    m_arrival_mask = slots - 1;
    const unsigned n = kNumPorts * m_vcs;
    m_ivc.resize(n);
    while ((1u << m_buf_shift) < p.buffer_depth) ++m_buf_shift;
    m_flits.assign(std::size_t(n) << m_buf_shift, Flit{});
    m_buf_mask = (1u << m_buf_shift) - 1;
    m_va_rr.assign(n, 0);
    m_va_acc_rr.assign(n, 0);
    for (unsigned i = 0; i < n; ++i) m_port_of[i] = static_cast<std::uint8_t>(i / m_vcs);
    for (unsigned m = 0; m <= kPortMaskAll; ++m)
        for (unsigned o = 0; o < kNumPorts; ++o)
            if (m & port_bit(o)) m_port_spread[m] |= std::uint64_t(1) << (o * m_vcs);
    // An output VC carries requests or responses (separate classes), or anything (shared classes,
    // one VC); synthetic packets (kAny) may take every VC.
    const bool separate = p.separate_classes() && m_vcs > 1;
    for (unsigned t = 0; t < kNumPacketTypes; ++t)
        m_type_class[t] = std::uint8_t(separate ? message_class(PacketType(t)) : MessageClass::kAny);
    m_all_vcs = m_vcs >= 32 ? ~std::uint32_t(0) : (std::uint32_t(1) << m_vcs) - 1;
    const std::uint32_t req_vcs = p.class_vc_mask(MessageClass::kRequest);
    m_class_vcs[unsigned(MessageClass::kRequest)] = separate ? req_vcs & m_all_vcs : m_all_vcs;
    m_class_vcs[unsigned(MessageClass::kResponse)] = separate ? ~req_vcs & m_all_vcs : m_all_vcs;
    m_class_vcs[unsigned(MessageClass::kAny)] = m_all_vcs;
}

void Router::connect_input(unsigned port, FlitLink* in, CreditLink* credit_out) {
    m_in[port] = in;
    m_credit_out[port] = credit_out;
}

void Router::connect_output(unsigned port, FlitLink* out, CreditLink* credit_in, std::uint32_t downstream_depth) {
    m_out[port] = out;
    m_credit_in[port] = credit_in;
    for (unsigned v = 0; v < m_vcs; ++v) m_credits[port * m_vcs + v] = static_cast<std::int32_t>(downstream_depth);
}

// Moves flits and credits that are visible in cycle c out of the links, then performs
// route computation for head flits that reached the front of an idle input VC. Part of every
// step, so inlined into it (saves a call frame per router step).
[[gnu::always_inline]] inline void Router::absorb(std::uint64_t c) {
    // The lines that deliver in cycle c, one item each (bit order: flit links of ports 0..4, then
    // credit lines; flits and credits touch disjoint state, so the order cannot change the result).
    std::uint32_t& due = m_arrivals[c & m_arrival_mask];
    for (std::uint32_t m = due; m; m &= m - 1) {
        const unsigned b = unsigned(__builtin_ctz(m));
        if (b < kNumPorts) {
            const unsigned p = b;
            FlitLink* in = m_in[p];
            assert(in->ready(c));
            const Flit& f = in->front(c).flit;
            const unsigned i = p * m_vcs + f.vc;
            InputVc& iv = m_ivc[i];
            assert(iv.count < m_p.buffer_depth && "credit protocol violated");
            m_flits[(i << m_buf_shift) + ((iv.head + iv.count) & m_buf_mask)] = f;
            ++iv.count;
            if (iv.state == VcState::kIdle) m_rc_pending |= std::uint64_t(1) << i;
            else if (iv.state == VcState::kActive) m_sa_cand |= std::uint64_t(1) << i;
            in->pop(c);
            ++m_buffered;
            ++m_ctr.flits_in[p];
        } else {
            const unsigned p = b - kNumPorts;
            CreditLink* ci = m_credit_in[p];
            assert(ci->ready(c));
            ++m_credits[p * m_vcs + ci->front(c).vc];
            ci->pop(c);
        }
    }
    due = 0;
    // RC: an idle VC whose front is a head computes its route in this cycle (the VCs marked in
    // m_rc_pending, in index order).
    for (std::uint64_t m = m_rc_pending; m; m &= m - 1) {
        const unsigned i = unsigned(__builtin_ctzll(m));
        InputVc& iv = m_ivc[i];
        assert(iv.state == VcState::kIdle && iv.count);
        const Flit& f = front(i);
        assert(f.head());
        const std::uint32_t d = m_coords[f.dst], s = m_coords[f.src];
        const RouteQuery q{int(m_x), int(m_y), int(d & 0xffff), int(d >> 16), int(s & 0xffff), int(s >> 16), m_port_of[i]};
        iv.route_mask = m_routing(q);
        // The output VCs VA may give this packet: those of its message class on each admissible port.
        // m_port_spread has bit o * vcs for each admissible port o; class_vcs < 2^vcs, so the
        // product is class_vcs shifted to each of those ports, without carries.
        const std::uint64_t class_vcs = m_class_vcs[m_type_class[unsigned(f.type)]];
        const std::uint64_t req = m_port_spread[iv.route_mask & kPortMaskAll] * class_vcs;
        iv.req_ovcs = req;
        m_va_req |= req;
        iv.state = VcState::kWaitVa;
        iv.t_va = c + m_va_lead;
        ++m_waiting_va;
        m_wait_mask |= std::uint64_t(1) << i;
        if (iv.t_va < m_va_from) m_va_from = iv.t_va;
    }
    m_rc_pending = 0;
}

unsigned Router::step(std::uint64_t c) { return step_here(c); }

unsigned Router::step_due(Router* routers, unsigned base, std::uint64_t due, std::uint64_t c, WakeWheel& wheel,
                          std::uint64_t& steps) {
    unsigned moved = 0;
    for (; due; due &= due - 1) {
        ++steps;
        const unsigned k = base + unsigned(__builtin_ctzll(due));
        Router& r = routers[k];
        moved += r.step_here(c);
        if (r.m_next_wake) wheel.wake(k, r.m_next_wake);
    }
    return moved;
}

// step(), inlined into the loop of step_due (a call frame less per router step).
[[gnu::always_inline]] inline unsigned Router::step_here(std::uint64_t c) {
    settle(c);
    m_idle_from = c + 1;
    absorb(c);
    m_va_won = 0;
    if (m_waiting_va && c >= m_va_from) allocate_vcs(c);
    m_stalled = 0;
    unsigned moved = !m_sa_cand                       ? 0
                     : m_general_alloc                ? kConflict
                     : !(m_sa_cand & (m_sa_cand - 1)) ? switch_one(c)
                                                      : switch_conflict_free(c);
    if (moved == kConflict) moved = m_vcs == 1 ? allocate_switch<true>(c) : allocate_switch<false>(c);
    m_last_out = moved;
    m_last_step = c;
    m_ctr.occupancy_sum += m_buffered;
    if (m_buffered > m_ctr.occupancy_max) m_ctr.occupancy_max = m_buffered;
    m_next_wake = wake_after(c);
    return moved;
}

// After the step of cycle c: would a step in c + 1 with nothing arriving change any state other
// than the per-cycle counters? It would when a head waits for route computation, when an
// active VC with a flit has a credit (every such VC requests the switch in c + 1: its t_sa is at
// most c + 1, as a VC allocated in c has t_sa = c + m_sa_lead), or when VC allocation runs in
// c + 1 and a waiting VC that may request then finds a free output VC of its request. Otherwise
// the state is frozen until a flit or credit arrives (the links wake the router then) or a
// waiting VC's t_va passes: the router sleeps until the earliest t_va after c + 1 (0: none), and
// its credit stalls per sleeping cycle are those a step in c + 1 would count (the outputs of
// the active VCs without credit), which settle() adds.
[[gnu::always_inline]] inline std::uint64_t Router::wake_after(std::uint64_t c) {
    const std::uint64_t n = c + 1;
    if (m_rc_pending) return n;
    std::uint32_t stalled = 0;
    for (std::uint64_t m = m_sa_cand; m; m &= m - 1) {
        const InputVc& iv = m_ivc[unsigned(__builtin_ctzll(m))];
        assert(iv.t_sa <= n);
        if (m_credits[iv.out_ov] > 0) return n;
        stalled |= std::uint32_t(1) << iv.out_port;
    }
    std::uint64_t w = kNever;
    const bool va_runs = n >= m_va_from;
    for (std::uint64_t m = m_wait_mask; m; m &= m - 1) {
        const InputVc& iv = m_ivc[unsigned(__builtin_ctzll(m))];
        if (iv.t_va > n) {
            if (iv.t_va < w) w = iv.t_va;
        } else if (va_runs && (iv.req_ovcs & ~m_ovc_busy)) {
            return n;
        }
    }
    m_stalled = stalled;
    return w == kNever ? 0 : w;
}

// VC allocation: one iteration of iSLIP (as BookSim2's default "islip" allocator).
// Request: a waiting input VC asks for every free output VC of its message class on every
// admissible port. Grant: each free output VC grants one requester, round-robin from its pointer.
// Accept: each input VC accepts one grant: the output VC with the most credits (adaptive
// selection), ties broken round-robin from its own pointer. Pointers move only on accept.
// Requests are the precomputed masks of output VCs (InputVc::req_ovcs) less the busy ones, so
// a cycle in which every requested output VC is held (the common case under load) costs one
// AND per waiting VC.
void Router::allocate_vcs(std::uint64_t c) {
    const unsigned n = kNumPorts * m_vcs;  // <= 64 (NocParams::validate limits num_vcs)
    std::uint64_t wanted = 0;    // free output VCs with at least one requester
    std::uint64_t held_until = kNever;  // earliest t_va of the waiting VCs that may not request yet
    std::uint64_t req_all = 0;  // output VCs requested by any waiting VC
    std::uint64_t requesting = 0;  // waiting VCs that request at least one free output VC
    for (std::uint64_t m = m_wait_mask; m; m &= m - 1) {
        const unsigned i = unsigned(__builtin_ctzll(m));
        const InputVc& iv = m_ivc[i];
        req_all |= iv.req_ovcs;
        if (iv.t_va > c) {
            if (iv.t_va < held_until) held_until = iv.t_va;
            continue;
        }
        if (const std::uint64_t r = iv.req_ovcs & ~m_ovc_busy) {
            wanted |= r;
            requesting |= std::uint64_t(1) << i;
        }
    }
    if (!wanted) {
        // Nothing can be granted before a held-back VC may request, an output VC that a waiting
        // VC requests is freed, or a VC starts waiting (the last two lower m_va_from).
        m_va_from = held_until;
        m_va_req = req_all;
        return;
    }
    std::uint64_t grants[64];  // [input vc] mask of output VCs granting it
    std::uint64_t granted_inputs = 0;
    if (!(requesting & (requesting - 1)) && !m_general_alloc) {
        // One requester (the common case): every output VC it asks for grants it.
        const unsigned i = unsigned(__builtin_ctzll(requesting));
        grants[i] = wanted;
        granted_inputs = requesting;
    } else {
        std::uint64_t requesters[64];  // [output vc] input VCs requesting it (valid for the bits of wanted)
        std::uint64_t asked = 0;
        for (std::uint64_t m = requesting; m; m &= m - 1) {
            const unsigned i = unsigned(__builtin_ctzll(m));
            const std::uint64_t b = std::uint64_t(1) << i;
            for (std::uint64_t r = m_ivc[i].req_ovcs & ~m_ovc_busy; r; r &= r - 1) {
                const unsigned ov = unsigned(__builtin_ctzll(r));
                requesters[ov] = asked & (std::uint64_t(1) << ov) ? requesters[ov] | b : b;
                asked |= std::uint64_t(1) << ov;
            }
        }
        for (std::uint64_t m = wanted; m; m &= m - 1) {
            const unsigned ov = unsigned(__builtin_ctzll(m));
            const unsigned i = pick_round_robin(requesters[ov], m_va_rr[ov]);
            if (!(granted_inputs & (std::uint64_t(1) << i))) grants[i] = 0;
            granted_inputs |= std::uint64_t(1) << i;
            grants[i] |= std::uint64_t(1) << ov;
        }
    }
    while (granted_inputs) {
        const unsigned i = unsigned(__builtin_ctzll(granted_inputs));
        granted_inputs &= granted_inputs - 1;
        // Accept the granting output VC with the most credits, first in round-robin order on ties.
        const std::uint64_t g = grants[i];
        const unsigned start = m_va_acc_rr[i];
        const std::uint64_t hi = start < 64 ? g & (~std::uint64_t(0) << start) : 0;
        int best = -1;
        for (std::uint64_t m : {hi, g & ~hi}) {
            while (m) {
                const unsigned ov = unsigned(__builtin_ctzll(m));
                m &= m - 1;
                if (best < 0 || m_credits[ov] > m_credits[unsigned(best)]) best = int(ov);
            }
        }
        const unsigned w = unsigned(best);
        InputVc& iv = m_ivc[i];
        iv.state = VcState::kActive;
        iv.out_port = m_port_of[w];
        iv.out_vc = static_cast<std::uint8_t>(w - m_port_of[w] * m_vcs);
        iv.out_ov = static_cast<std::uint8_t>(w);
        iv.t_sa = c + m_sa_lead;
        m_ovc_busy |= std::uint64_t(1) << w;
        m_va_rr[w] = static_cast<std::uint16_t>(i + 1 == n ? 0 : i + 1);
        m_va_acc_rr[i] = static_cast<std::uint16_t>(w + 1 == n ? 0 : w + 1);
        --m_waiting_va;
        m_wait_mask &= ~(std::uint64_t(1) << i);
        m_sa_cand |= std::uint64_t(1) << i;  // it holds its head
        ++m_va_won;
        ++m_ctr.packets_routed;
    }
    // The next VC allocation that can grant: in c + 1 if a VC still waiting may request then and
    // finds a free output VC of its request (it lost this iteration); otherwise not before a
    // held-back VC may request, an output VC that a waiting VC requests is freed or a VC starts
    // waiting (as after an allocation without grants).
    std::uint64_t from = kNever, req_left = 0;
    for (std::uint64_t m = m_wait_mask; m; m &= m - 1) {
        const InputVc& iv = m_ivc[unsigned(__builtin_ctzll(m))];
        if (iv.t_va > c + 1) {
            if (iv.t_va < from) from = iv.t_va;
        } else if (iv.req_ovcs & ~m_ovc_busy) {
            from = c + 1;  // m_va_req stays a superset
            break;
        }
        req_left |= iv.req_ovcs;
    }
    m_va_from = from;
    if (from != c + 1) m_va_req = req_left;
}

// Switch allocation: one iteration of iSLIP over input ports x output ports. An input port
// requests every output for which one of its VCs has a switch-ready flit and a credit (the
// VC per output chosen round-robin); each output grants one input port, each input port
// accepts one grant; winners traverse the crossbar.
template <bool kOneVc>
unsigned Router::allocate_switch(std::uint64_t c) {
    // Bit masks over ports (<= 5 bits): the loops visit only the ports that take part, and the
    // round-robin pointers are applied with pick_round_robin (first set bit at or after the pointer,
    // wrapping), which picks what scanning from the pointer would pick. Only the candidate VCs
    // (m_sa_cand: active and holding a flit) are visited.
    std::uint8_t req_vc[kNumPorts][kNumPorts];
    std::uint8_t out_requests[kNumPorts];
    std::uint32_t requested = 0;  // outputs with at least one request
    std::uint32_t stalled = 0;
    // Input VC `v` of port `p` (VC index i) asks for its output, unless it is not switch-ready, its
    // output VC has no credit (a credit stall) or port `p` already asked for that output
    // (port_mask: the outputs port p asked for).
    auto request = [&](unsigned p, unsigned v, unsigned i, std::uint32_t& port_mask) {
        const InputVc& iv = m_ivc[i];
        if (iv.t_sa > c) return;
        const unsigned o = iv.out_port;
        const std::uint32_t obit = std::uint32_t(1) << o;
        if (m_credits[iv.out_ov] <= 0) {
            stalled |= obit;
            return;
        }
        if (port_mask & obit) return;
        port_mask |= obit;
        req_vc[p][o] = static_cast<std::uint8_t>(v);
        const std::uint8_t pbit = static_cast<std::uint8_t>(1u << p);
        out_requests[o] = requested & obit ? std::uint8_t(out_requests[o] | pbit) : pbit;
        requested |= obit;
    };
    if (kOneVc) {
        // One VC per port: the candidate bits are the ports.
        for (std::uint64_t m = m_sa_cand; m; m &= m - 1) {
            const unsigned p = unsigned(__builtin_ctzll(m));
            std::uint32_t port_mask = 0;
            request(p, 0, p, port_mask);
        }
    } else {
        // The ports that hold candidates, in port order: the lowest candidate bit names the next one.
        for (std::uint64_t cand = m_sa_cand; cand;) {
            const unsigned p = m_port_of[__builtin_ctzll(cand)];
            const unsigned base = p * m_vcs;
            const std::uint32_t seg = std::uint32_t(cand >> base) & m_all_vcs;  // candidate VCs of port p
            cand &= ~(std::uint64_t(m_all_vcs) << base);
            std::uint32_t port_mask = 0;
            // The VCs from the port's pointer on, then those before it (round-robin order).
            const std::uint32_t from_rr = seg & (~std::uint32_t(0) << m_sa_in_rr[p]);
            for (std::uint32_t part = from_rr; part; part &= part - 1)
                request(p, unsigned(__builtin_ctz(part)), base + unsigned(__builtin_ctz(part)), port_mask);
            for (std::uint32_t part = seg & ~from_rr; part; part &= part - 1)
                request(p, unsigned(__builtin_ctz(part)), base + unsigned(__builtin_ctz(part)), port_mask);
        }
    }
    for (std::uint32_t s = stalled; s; s &= s - 1) ++m_ctr.credit_stall[__builtin_ctz(s)];
    m_stalled = stalled;
    if (!requested) return 0;

    std::uint8_t grants[kNumPorts];
    std::uint32_t granted = 0;  // inputs with at least one grant
    for (std::uint32_t r = requested; r; r &= r - 1) {
        const unsigned o = unsigned(__builtin_ctz(r));
        const std::uint8_t reqs = out_requests[o];
        if (reqs & (reqs - 1)) ++m_ctr.sa_conflicts;
        const unsigned p = pick_round_robin(reqs, m_sa_out_rr[o]);
        const std::uint8_t obit = static_cast<std::uint8_t>(1u << o);
        grants[p] = granted & (1u << p) ? std::uint8_t(grants[p] | obit) : obit;
        granted |= 1u << p;
    }
    unsigned moved = 0;
    for (; granted; granted &= granted - 1) {
        const unsigned p = unsigned(__builtin_ctz(granted));
        // With one VC an input port requests one output, so it has one grant to accept.
        const unsigned o = kOneVc ? unsigned(__builtin_ctz(grants[p])) : pick_round_robin(grants[p], m_sa_acc_rr[p]);
        const unsigned v = kOneVc ? 0 : req_vc[p][o];
        traverse(c, p, v, o);
        ++moved;
    }
    return moved;
}

// Switch allocation when a single input VC is a candidate (m_sa_cand has one bit), the common
// case in a congestion tree: it requests its output unless it is not switch-ready or has no
// credit (a credit stall), and as the only requester it is granted and accepts. The same state
// changes as allocate_switch (no conflict to count; the pointers move as after its grant and accept).
[[gnu::always_inline]] inline unsigned Router::switch_one(std::uint64_t c) {
    const unsigned i = unsigned(__builtin_ctzll(m_sa_cand));
    const InputVc& iv = m_ivc[i];
    if (iv.t_sa > c) return 0;
    const unsigned o = iv.out_port;
    if (m_credits[iv.out_ov] <= 0) {
        ++m_ctr.credit_stall[o];
        m_stalled = std::uint32_t(1) << o;
        return 0;
    }
    const unsigned p = m_port_of[i];
    traverse(c, p, i - p * m_vcs, o);
    return 1;
}

// Switch allocation of several candidate VCs without conflicts (after switch_one the common case;
// general allocations are rare in the mesh platform's runs): when the switch-ready VCs that have a
// credit come from different input ports and go to different outputs, each is the only requester of
// its output and gets the only grant of its input port, so iSLIP grants every one of them. Then the
// requests, credit stalls, pointer moves and traversals are those of allocate_switch, without its
// request/grant/accept arrays (no conflict to count). Returns kConflict, having changed nothing,
// when two requesters share an input port or an output (allocate_switch decides then).
[[gnu::always_inline]] inline unsigned Router::switch_conflict_free(std::uint64_t c) {
    std::uint32_t ports = 0, outs = 0, stalled = 0;
    unsigned req[kNumPorts];  // requesting input VCs, in index (= port) order
    unsigned n = 0;
    for (std::uint64_t m = m_sa_cand; m; m &= m - 1) {
        const unsigned i = unsigned(__builtin_ctzll(m));
        const InputVc& iv = m_ivc[i];
        if (iv.t_sa > c) continue;
        const std::uint32_t obit = std::uint32_t(1) << iv.out_port;
        if (m_credits[iv.out_ov] <= 0) {
            stalled |= obit;
            continue;
        }
        const std::uint32_t pbit = std::uint32_t(1) << m_port_of[i];
        if ((ports & pbit) | (outs & obit)) return kConflict;
        ports |= pbit;
        outs |= obit;
        req[n++] = i;
    }
    for (std::uint32_t s = stalled; s; s &= s - 1) ++m_ctr.credit_stall[__builtin_ctz(s)];
    m_stalled = stalled;
    for (unsigned k = 0; k < n; ++k) {
        const unsigned i = req[k], p = m_port_of[i];
        traverse(c, p, i - p * m_vcs, m_ivc[i].out_port);
    }
    return n;
}

// The flit at the front of input VC v of port p, granted output o, traverses the crossbar in
// cycle c: it leaves the buffer, goes on the output link with its output VC, and its slot goes
// upstream as a credit; the pointers of the grant and accept move past the winner.
[[gnu::always_inline]] inline void Router::traverse(std::uint64_t c, unsigned p, unsigned v, unsigned o) {
    m_sa_out_rr[o] = static_cast<std::uint16_t>(p + 1 == kNumPorts ? 0 : p + 1);
    m_sa_acc_rr[p] = static_cast<std::uint16_t>(o + 1 == kNumPorts ? 0 : o + 1);
    m_sa_in_rr[p] = static_cast<std::uint16_t>(v + 1 == m_vcs ? 0 : v + 1);
    const unsigned i = p * m_vcs + v;
    InputVc& iv = m_ivc[i];
    Flit f = front(i);
    iv.head = static_cast<std::uint16_t>((iv.head + 1) & m_buf_mask);
    --iv.count;
    --m_buffered;
    const unsigned ov = iv.out_ov;
    --m_credits[ov];
    f.vc = iv.out_vc;
    m_out[o]->push(TimedFlit{f, c + m_flit_delay});
    m_credit_out[p]->push(TimedCredit{static_cast<std::uint8_t>(v), c + m_credit_delay});
    ++m_ctr.flits_out[o];
    if (f.tail() || !iv.count) m_sa_cand &= ~(std::uint64_t(1) << i);
    if (f.tail()) {
        m_ovc_busy &= ~(std::uint64_t(1) << ov);
        if (m_va_req & (std::uint64_t(1) << ov)) m_va_from = 0;
        iv.state = VcState::kIdle;
        if (iv.count) m_rc_pending |= std::uint64_t(1) << i;  // routes in the next cycle
    }
}

std::uint32_t Router::count_buffered() const {
    std::uint32_t n = 0;
    for (const auto& iv : m_ivc) n += iv.count;
    return n;
}

void Router::describe_blocked(std::string& out) const {
    for (unsigned i = 0, n = kNumPorts * m_vcs; i < n; ++i) {
        const InputVc& iv = m_ivc[i];
        if (!iv.count) continue;
        const Flit& f = front(i);
        out += "  router[" + std::to_string(m_x) + "][" + std::to_string(m_y) + "] in=" + port_name(i / m_vcs) +
               " vc=" + std::to_string(i % m_vcs) + " buffered=" + std::to_string(iv.count) +
               " front: packet " + std::to_string(f.packet) + " src=" + std::to_string(f.src) +
               " dst=" + std::to_string(f.dst) + (f.head() ? " (head)" : "");
        if (iv.state == VcState::kActive) {
            out += std::string(" -> out=") + port_name(iv.out_port) + " vc=" + std::to_string(iv.out_vc) +
                   " credits=" + std::to_string(m_credits[iv.out_ov]);
        } else if (iv.state == VcState::kWaitVa) {
            out += " waiting for an output VC of";
            for (unsigned o = 0; o < kNumPorts; ++o)
                if (iv.route_mask & port_bit(o)) out += std::string(" ") + port_name(o);
        }
        out += "\n";
    }
}

}  // namespace vp::noc

