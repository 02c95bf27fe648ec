#pragma once
// The ring between the TLEs (Tensor Slicing and Optimization for Multicore NPUs: "ring-network
// messages between the TLEs"), a packet-level cycle model with per-link occupancy:
//
//  * n nodes, two directed links per node (clockwise i -> i + 1, counter-clockwise i -> i - 1),
//    each `width_bytes` per cycle. A message of B bytes is cut into packets of at most
//    packet_flits flits of width_bytes; a packet holds its link for its flit count in cycles
//    (one flit per cycle), then reaches the next node hop_cycles later (router + wire).
//  * Routing: ring_route() (mapper/tso/nmp_params.h), the shorter direction, ties split by
//    the source's parity. A message never changes direction.
//  * Credit-based flow control: each node has an input buffer of buffer_flits per direction;
//    a link sends a packet only when the downstream buffer has room for all its flits (the
//    credits are taken when the packet starts and returned when it has left that buffer on
//    the next link); a packet entering the ring from its source needs room for one more
//    packet besides its own (bubble flow control, deadlock-free on a ring whatever the hop
//    count). Packets for the next node itself are ejected on arrival (the reduction
//    adder takes them as they come: ASSUMPTION), so ejection never stalls the ring.
//  * Arbitration: at each node and direction, round robin between the packets passing through
//    (from the input buffer) and the node's own injection queue, one packet at a time.
//
// Without contention a message of P full packets of p flits over h hops is delivered
// (P - 1) p + h (p + L) cycles after it starts (L = hop_cycles), provided the buffer covers
// the credit loop (buffer_flits >= p (3 + ceil(L / p)) is enough); two flows sharing a link
// get half of it each (tests/sim/nmp/nmp_ring.cpp).
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "mapper/tso/nmp_params.h"
#include "models/common/stats.h"
#include "models/common/trace.h"

namespace vp::nmp {

// The tag of a ring message (which OUT tile a partial sum belongs to), carried on the
// transactions of both ring ports.
struct RingMessage : tlm::tlm_extension<RingMessage> {
    std::uint64_t tag = 0;
    tlm::tlm_extension_base* clone() const override { return new RingMessage(*this); }
    void copy_from(const tlm::tlm_extension_base& e) override { tag = static_cast<const RingMessage&>(e).tag; }
};

class Ring : public sc_core::sc_module {
public:
    // Called when the last packet of a message arrives at dst (nodes whose `out` socket is
    // not bound).
    using Deliver = std::function<void(int dst, std::uint64_t tag, std::uint64_t bytes)>;

    // TLM-2.0 ports of node i (both optional to bind):
    //  * in[i]: a message enters the ring. Blocking WRITE of the message's bytes at address =
    //    the destination node, with RingMessage; returns when its last packet has left node i
    //    (send() below). A read, another address, a missing tag or an empty message is an
    //    error response.
    //  * out[i]: the last packet of a message for node i arrived: a WRITE of the message's
    //    bytes at address i with RingMessage, no delay, from the arrival's SC_METHOD (the
    //    target must not wait). Unbound: the Deliver callback.
    std::vector<std::unique_ptr<tlm_utils::simple_target_socket_tagged_optional<Ring>>> in;
    std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket_optional<Ring>>> out;

    // `tracer` (may be null): one 1-bit signal <ring>.link[i_cw|i_ccw].busy per directed link.
    Ring(sc_core::sc_module_name name, int n_nodes, const mapper::tso::RingParams& p, double cycle_s,
         stats::Group& parent, trace::Tracer* tracer = nullptr);

    void set_deliver(Deliver d) { m_deliver = std::move(d); }
    // Sends `bytes` from src to dst (src != dst, bytes > 0). Blocking (call from an SC_THREAD;
    // one message per source at a time): returns when its last packet has left src.
    void send(int src, int dst, std::uint64_t bytes, std::uint64_t tag);

    int nodes() const { return m_n; }
    std::uint64_t messages() const { return m_msgs.value(); }
    std::uint64_t bytes_sent() const { return m_bytes_sent.value(); }
    std::uint64_t bytes_delivered() const { return m_bytes_delivered.value(); }
    std::uint64_t packets_in_flight() const { return m_pkts_sent.value() - m_pkts_delivered.value(); }
    // Per directed link (index 2 i for i -> i + 1, 2 i + 1 for i -> i - 1).
    std::uint64_t link_bytes(int l) const { return m_links[std::size_t(l)]->bytes.value(); }
    std::uint64_t link_flits(int l) const { return m_links[std::size_t(l)]->flits.value(); }
    std::uint64_t link_busy_cycles(int l) const { return m_links[std::size_t(l)]->busy.value(); }
    int n_links() const { return int(m_links.size()); }
    // Sets the utilisation and credit-wait statistics over `span`.
    void finish(const sc_core::sc_time& span);

private:
    struct Packet {
        int dst = 0;
        std::uint32_t flits = 0;
        std::uint64_t bytes = 0, tag = 0, msg_bytes = 0;
        bool last = false;
    };
    struct Link {
        Link(stats::Group& parent, const std::string& name);
        int from = 0, to = 0;
        bool cw = true;
        std::deque<Packet> inj;      // the source node's own packets for this direction
        std::deque<Packet> through;  // input buffer of `from` (arrived over the previous link) that continue here
        unsigned used = 0;           // flits reserved in that input buffer (credits taken by the upstream link)
        std::deque<Packet> wire;     // packets on the way to `to`, in order
        sc_core::sc_event work_ev, credit_ev;
        std::unique_ptr<sc_core::sc_event_queue> arrive_ev;
        sc_core::sc_time credit_wait;
        stats::Group g;
        stats::Counter bytes, flits, packets, busy;
        stats::Scalar utilisation, credit_wait_cycles;
        trace::Signal* sig = nullptr;
    };
    Link& link(int node, bool cw) { return *m_links[2 * std::size_t(node) + (cw ? 0 : 1)]; }
    void b_transport_in(int src, tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void end_of_elaboration() override;
    void link_thread(int l);
    void arrive(int l);

    int m_n;
    mapper::tso::RingParams m_p;
    sc_core::sc_time m_cycle;
    double m_cycle_s;
    Deliver m_deliver;
    stats::Group m_stats;
    stats::Counter m_msgs, m_bytes_sent, m_bytes_delivered, m_pkts_sent, m_pkts_delivered, m_hop_bytes;
    std::vector<std::unique_ptr<Link>> m_links;
    std::vector<unsigned> m_inj_pending;  // per node: packets of the current message not yet sent
    std::vector<std::unique_ptr<sc_core::sc_event>> m_injected_ev;
    std::vector<bool> m_out_bound;           // per node: deliveries go through out[i]
    RingMessage m_out_msg;                   // on m_out_txn while it is transported, cleared after
    tlm::tlm_generic_payload m_out_txn;      // the delivery transaction (one at a time)
    std::vector<unsigned char> m_out_data;   // its data array (the model carries no values)
};

}  // namespace vp::nmp
