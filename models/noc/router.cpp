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

Router::Router(const NocParams& p, unsigned id, RoutingFn routing)
    : m_p(p), m_id(id), m_x(id % p.width), m_y(id / p.width), m_vcs(p.num_vcs), m_routing(routing) {
    const unsigned P = p.router_stages;
    m_va_lead = P > 3 ? P - 3 : 0;
    m_sa_lead = P >= 3 ? 1 : 0;
    m_st_extra = P >= 2 ? 1 : 0;
    const unsigned n = kNumPorts * m_vcs;
    m_ivc.resize(n);
    for (auto& v : m_ivc) v.buf.reset(p.buffer_depth);
    m_credits.assign(n, 0);
    m_ovc_busy.assign(n, 0);
    m_va_rr.assign(n, 0);
    m_va_acc_rr.assign(n, 0);
    m_separate = p.separate_classes() && m_vcs > 1;
    for (unsigned t = 0; t < kNumPacketTypes; ++t)
        m_type_class[t] = std::uint8_t(m_separate ? message_class(PacketType(t)) : MessageClass::kAny);
    const std::uint32_t req_vcs = p.class_vc_mask(MessageClass::kRequest);
    for (unsigned v = 0; v < m_vcs; ++v)
        m_vc_class[v] = std::uint8_t((req_vcs >> v) & 1 ? MessageClass::kRequest : MessageClass::kResponse);
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

unsigned Router::step(std::uint64_t c) {
    settle(c);
    m_idle_from = c + 1;
    absorb(c);
    m_va_won = 0;
    if (m_waiting_va) allocate_vcs(c);
    m_stalled = 0;
    const unsigned moved = m_buffered ? allocate_switch(c) : 0;
    m_last_out = moved;
    m_last_step = c;
    m_ctr.occupancy_sum += m_buffered;
    if (m_buffered > m_ctr.occupancy_max) m_ctr.occupancy_max = m_buffered;
    m_next_wake = moved || m_va_won || m_rc_pending ? c + 1 : pipeline_wake(c);
    return moved;
}

// Nothing moved and no output VC was allocated in cycle c, so the allocation state is frozen
// until a flit or credit arrives (the links wake the router then): a waiting VC found every
// admissible output VC held, an active VC found no credit or no flit. Only pipeline delays
// still running can make a VC eligible later: the earliest t_va / t_sa after c, or 0.
std::uint64_t Router::pipeline_wake(std::uint64_t c) const {
    std::uint64_t w = ~std::uint64_t(0);
    for (std::uint64_t m = m_wait_mask; m; m &= m - 1) {
        const InputVc& iv = m_ivc[unsigned(__builtin_ctzll(m))];
        if (iv.t_va > c && iv.t_va < w) w = iv.t_va;
    }
    for (unsigned p = 0; p < kNumPorts; ++p) {
        if (!m_port_buffered[p]) continue;
        for (unsigned v = 0; v < m_vcs; ++v) {
            const InputVc& iv = m_ivc[p * m_vcs + v];
            if (iv.state == VcState::kActive && !iv.buf.empty() && iv.t_sa > c && iv.t_sa < w) w = iv.t_sa;
        }
    }
    return w == ~std::uint64_t(0) ? 0 : w;
}

// Moves flits and credits that are visible in cycle c out of the links, then performs
// route computation for head flits that reached the front of an idle input VC.
void Router::absorb(std::uint64_t c) {
    // Only the non-empty incoming lines (bit order: flit links of ports 0..4, then credit lines;
    // flits and credits touch disjoint state, so the order cannot change the result).
    for (std::uint32_t m = m_link_mask; m; m &= m - 1) {
        const unsigned b = unsigned(__builtin_ctz(m));
        if (b < kNumPorts) {
            const unsigned p = b;
            FlitLink* in = m_in[p];
            while (in->ready(c)) {
                const TimedFlit& tf = in->front();
                const unsigned i = p * m_vcs + tf.flit.vc;
                InputVc& iv = m_ivc[i];
                assert(!iv.buf.full() && "credit protocol violated");
                iv.buf.push(TimedFlit{tf.flit, c});
                if (iv.state == VcState::kIdle) m_rc_pending |= std::uint64_t(1) << i;
                in->pop();
                ++m_buffered;
                ++m_port_buffered[p];
                ++m_ctr.flits_in[p];
            }
        } else {
            const unsigned p = b - kNumPorts;
            CreditLink* ci = m_credit_in[p];
            while (ci->ready(c)) {
                ++m_credits[p * m_vcs + ci->front().vc];
                ci->pop();
            }
        }
    }
    // RC: an idle VC whose front is a head computes its route in this cycle (the VCs marked in
    // m_rc_pending, in index order).
    for (std::uint64_t m = m_rc_pending; m; m &= m - 1) {
        const unsigned i = unsigned(__builtin_ctzll(m));
        InputVc& iv = m_ivc[i];
        assert(iv.state == VcState::kIdle && !iv.buf.empty());
        const Flit& f = iv.buf.front().flit;
        assert(f.head());
        const RouteQuery q{int(m_x), int(m_y), int(f.dst % m_p.width), int(f.dst / m_p.width),
                           int(f.src % m_p.width), int(f.src / m_p.width), i / m_vcs};
        iv.route_mask = m_routing(q);
        iv.cls = m_type_class[unsigned(f.type)];
        iv.state = VcState::kWaitVa;
        iv.t_va = c + m_va_lead;
        ++m_waiting_va;
        m_wait_mask |= std::uint64_t(1) << i;
    }
    m_rc_pending = 0;
}

// VC allocation: one iteration of iSLIP (as BookSim2's default "islip" allocator).
// Request: a waiting input VC asks for every free output VC of its message class on every
// admissible port. Grant: each free output VC grants one requester, round-robin from its pointer.
// Accept: each input VC accepts one grant: the output VC with the most credits (adaptive
// selection), ties broken round-robin from its own pointer. Pointers move only on accept.
void Router::allocate_vcs(std::uint64_t c) {
    if (m_separate) allocate_vcs_impl<true>(c);
    else allocate_vcs_impl<false>(c);
}

template <bool kSeparate>
void Router::allocate_vcs_impl(std::uint64_t c) {
    const unsigned n = kNumPorts * m_vcs;  // <= 64 (NocParams::validate limits num_vcs)
    // Requesters per output port (bit i = input VC i asks for any free VC of that port) and, with
    // separate classes, per message class.
    std::uint64_t eligible = 0, by_port[kNumPorts] = {}, by_class[3] = {};
    for (std::uint64_t m = m_wait_mask; m; m &= m - 1) {
        const unsigned i = unsigned(__builtin_ctzll(m));
        const InputVc& iv = m_ivc[i];
        if (iv.t_va > c) continue;
        const std::uint64_t b = std::uint64_t(1) << i;
        eligible |= b;
        if (kSeparate) by_class[iv.cls] |= b;
        for (unsigned o = 0; o < kNumPorts; ++o)
            if (iv.route_mask & port_bit(o)) by_port[o] |= b;
    }
    if (!eligible) return;
    // Output VC v grants requesters of its class or of class kAny (synthetic packets).
    std::uint64_t vc_ok[16];
    if (kSeparate)
        for (unsigned v = 0; v < m_vcs; ++v)
            vc_ok[v] = by_class[m_vc_class[v]] | by_class[unsigned(MessageClass::kAny)];
    std::uint64_t grants[64];  // [input vc] mask of output VCs granting it
    std::uint64_t granted_inputs = 0;
    for (unsigned o = 0; o < kNumPorts; ++o) {
        const std::uint64_t bp = by_port[o];
        if (!bp) continue;
        for (unsigned v = 0, ov = o * m_vcs; v < m_vcs; ++v, ++ov) {
            if (m_ovc_busy[ov]) continue;
            const std::uint64_t req = kSeparate ? bp & vc_ok[v] : bp;
            if (!req) continue;
            const unsigned i = pick_round_robin(req, m_va_rr[ov]);
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
        iv.out_port = static_cast<std::uint8_t>(w / m_vcs);
        iv.out_vc = static_cast<std::uint8_t>(w % m_vcs);
        iv.t_sa = c + m_sa_lead;
        m_ovc_busy[w] = 1;
        m_va_rr[w] = static_cast<std::uint16_t>(i + 1 == n ? 0 : i + 1);
        m_va_acc_rr[i] = static_cast<std::uint16_t>(w + 1 == n ? 0 : w + 1);
        --m_waiting_va;
        m_wait_mask &= ~(std::uint64_t(1) << i);
        ++m_va_won;
        ++m_ctr.packets_routed;
    }
}

// Switch allocation: one iteration of iSLIP over input ports x output ports. An input port
// requests every output for which one of its VCs has a switch-ready flit and a credit (the
// VC per output chosen round-robin); each output grants one input port, each input port
// accepts one grant; winners traverse the crossbar.
unsigned Router::allocate_switch(std::uint64_t c) {
    // Bit masks over ports (<= 5 bits): the loops visit only the ports that take part, and the
    // round-robin pointers are applied with pick_round_robin (first set bit at or after the pointer,
    // wrapping), which picks what scanning from the pointer would pick.
    std::uint8_t req_vc[kNumPorts][kNumPorts];
    std::uint8_t out_requests[kNumPorts];
    std::uint32_t requested = 0;  // outputs with at least one request
    std::uint32_t stalled = 0;
    for (unsigned p = 0; p < kNumPorts; ++p) {
        if (!m_port_buffered[p]) continue;
        std::uint32_t mask = 0;
        const unsigned base = p * m_vcs;
        unsigned v = m_sa_in_rr[p];
        for (unsigned k = 0; k < m_vcs; ++k, v = v + 1 == m_vcs ? 0 : v + 1) {
            const InputVc& iv = m_ivc[base + v];
            if (iv.state != VcState::kActive || iv.buf.empty() || iv.t_sa > c) continue;
            const unsigned o = iv.out_port;
            const std::uint32_t obit = std::uint32_t(1) << o;
            if (m_credits[o * m_vcs + iv.out_vc] <= 0) {
                stalled |= obit;
                continue;
            }
            if (mask & obit) continue;
            mask |= obit;
            req_vc[p][o] = static_cast<std::uint8_t>(v);
            const std::uint8_t pbit = static_cast<std::uint8_t>(1u << p);
            out_requests[o] = requested & obit ? std::uint8_t(out_requests[o] | pbit) : pbit;
            requested |= obit;
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
        const unsigned o = pick_round_robin(grants[p], m_sa_acc_rr[p]);
        m_sa_out_rr[o] = static_cast<std::uint16_t>(p + 1 == kNumPorts ? 0 : p + 1);
        m_sa_acc_rr[p] = static_cast<std::uint16_t>(o + 1 == kNumPorts ? 0 : o + 1);
        const unsigned v = req_vc[p][o];
        m_sa_in_rr[p] = static_cast<std::uint16_t>(v + 1 == m_vcs ? 0 : v + 1);
        InputVc& iv = m_ivc[p * m_vcs + v];
        Flit f = iv.buf.front().flit;
        iv.buf.pop();
        --m_buffered;
        --m_port_buffered[p];
        const unsigned ov = o * m_vcs + iv.out_vc;
        --m_credits[ov];
        f.vc = iv.out_vc;
        m_out[o]->push(TimedFlit{f, c + m_st_extra + m_p.link_latency});
        m_credit_out[p]->push(TimedCredit{static_cast<std::uint8_t>(v), c + m_p.credit_delay});
        ++m_ctr.flits_out[o];
        ++moved;
        if (f.tail()) {
            m_ovc_busy[ov] = 0;
            iv.state = VcState::kIdle;
            if (!iv.buf.empty()) m_rc_pending |= std::uint64_t(1) << (p * m_vcs + v);  // routes in the next cycle
        }
    }
    return moved;
}

std::uint32_t Router::count_buffered() const {
    std::uint32_t n = 0;
    for (const auto& iv : m_ivc) n += iv.buf.size();
    return n;
}

void Router::describe_blocked(std::string& out) const {
    for (unsigned i = 0, n = kNumPorts * m_vcs; i < n; ++i) {
        const InputVc& iv = m_ivc[i];
        if (iv.buf.empty()) continue;
        const Flit& f = iv.buf.front().flit;
        out += "  router[" + std::to_string(m_x) + "][" + std::to_string(m_y) + "] in=" + port_name(i / m_vcs) +
               " vc=" + std::to_string(i % m_vcs) + " buffered=" + std::to_string(iv.buf.size()) +
               " front: packet " + std::to_string(f.packet) + " src=" + std::to_string(f.src) +
               " dst=" + std::to_string(f.dst) + (f.head() ? " (head)" : "");
        if (iv.state == VcState::kActive) {
            const unsigned ov = iv.out_port * m_vcs + iv.out_vc;
            out += std::string(" -> out=") + port_name(iv.out_port) + " vc=" + std::to_string(iv.out_vc) +
                   " credits=" + std::to_string(m_credits[ov]);
        } else if (iv.state == VcState::kWaitVa) {
            out += " waiting for an output VC of";
            for (unsigned o = 0; o < kNumPorts; ++o)
                if (iv.route_mask & port_bit(o)) out += std::string(" ") + port_name(o);
        }
        out += "\n";
    }
}

}  // namespace vp::noc

