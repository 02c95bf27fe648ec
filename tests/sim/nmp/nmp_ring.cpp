// The TLE ring (models/nmp/ring.h) against closed-form pipeline figures worked out by hand
// (independent of the model's code): each scenario runs on a ring of its own, 1 GHz clock
// (1 cycle = 1000 ps, so every figure is exact).
//  1. One message of P full packets of p flits over h hops, no contention, buffer large enough:
//     delivered (P - 1) p + h (p + L) cycles after the send (L = hop_cycles).
//  2. Credit loop: buffer = 2 p (the minimum), 2 hops. Entering the ring needs room for two
//     packets (bubble rule), so the next packet can only start once the previous one has left
//     the intermediate node's buffer: a packet every 2 p + L cycles;
//     delivered (P - 1)(2 p + L) + 2 (p + L).
//  3. Contention: flows 0 -> 2 and 1 -> 2 (both clockwise) share link 1 -> 2; with round-robin
//     arbitration each gets half of it: the link is busy 2 P p cycles without a gap, and the
//     flow injected at node 1 finishes no earlier than 2 (P - 1) p, i.e. at half the rate it
//     has alone.
//  4. Opposite node of a 4-ring: from 0 clockwise, from 1 counter-clockwise (ring_route).
//  5. The TLM-2.0 ports: scenario 1's 2-hop message entered through in[0] by a bare initiator
//     socket and delivered through out[2] to a bare target: the same (P - 1) p + h (p + L)
//     cycles, the tag and the byte count arrive; a read, the source as destination, an address
//     beyond the nodes and a message without tag are error responses that send nothing.
#include <cstdio>
#include <functional>
#include <map>
#include <memory>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/stats.h"
#include "models/nmp/ring.h"

using namespace sc_core;

namespace {

int check(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    return ok ? 0 : 1;
}

struct Driver : sc_module {
    SC_HAS_PROCESS(Driver);
    Driver(sc_module_name n, std::function<void()> f) : sc_module(n), m_f(std::move(f)) { SC_THREAD(run); }
    void run() { m_f(); }
    std::function<void()> m_f;
};

constexpr double kCycle = 1e-9;
double cyc(const sc_time& t) { return t.to_seconds() / kCycle; }

}  // namespace

int sc_main(int, char**) {
    int fails = 0;
    vp::stats::Registry root;
    vp::mapper::tso::RingParams big;
    big.width_bytes = 16;
    big.hop_cycles = 3;
    big.packet_flits = 4;
    big.buffer_flits = 64;
    const int p = big.packet_flits, L = big.hop_cycles, P = 10;
    const std::uint64_t msg = std::uint64_t(P) * std::uint64_t(p) * std::uint64_t(big.width_bytes);  // 640 B

    // 1. latency/bandwidth, 1 and 2 hops
    vp::nmp::Ring r1("r1", 4, big, kCycle, root);
    std::map<std::uint64_t, sc_time> t1;
    r1.set_deliver([&](int, std::uint64_t tag, std::uint64_t) { t1[tag] = sc_time_stamp(); });
    sc_time sent1_end;
    Driver d1("d1", [&] {
        r1.send(0, 2, msg, 1);  // 2 hops clockwise
        sent1_end = sc_time_stamp();
        wait(1000, SC_NS);
        r1.send(3, 2, msg, 2);  // 1 hop counter-clockwise
    });

    // 2. credit loop with the smallest buffer
    vp::mapper::tso::RingParams small = big;
    small.hop_cycles = 10;
    small.buffer_flits = 2 * small.packet_flits;
    vp::nmp::Ring r2("r2", 4, small, kCycle, root);
    sc_time t2;
    r2.set_deliver([&](int, std::uint64_t, std::uint64_t) { t2 = sc_time_stamp(); });
    Driver d2("d2", [&] { r2.send(0, 2, msg, 1); });

    // 3. two flows into one link
    vp::nmp::Ring r3("r3", 4, big, kCycle, root);
    std::map<std::uint64_t, sc_time> t3;
    r3.set_deliver([&](int, std::uint64_t tag, std::uint64_t) { t3[tag] = sc_time_stamp(); });
    Driver d3a("d3a", [&] { r3.send(0, 2, msg, 1); });
    Driver d3b("d3b", [&] { r3.send(1, 2, msg, 2); });

    // 4. routing of the opposite node
    vp::nmp::Ring r4("r4", 4, big, kCycle, root);
    Driver d4("d4", [&] {
        r4.send(0, 2, 64, 1);
        r4.send(1, 3, 64, 2);
    });

    // 5. the TLM-2.0 ports
    vp::nmp::Ring r5("r5", 4, big, kCycle, root);
    struct Src : sc_module {
        tlm_utils::simple_initiator_socket<Src> socket{"socket"};
        explicit Src(sc_module_name n) : sc_module(n) {}
    } src5("src5");
    struct Dst : sc_module {
        tlm_utils::simple_target_socket<Dst> socket{"socket"};
        sc_time at;
        std::uint64_t tag = 0, bytes = 0, addr = 99;
        explicit Dst(sc_module_name n) : sc_module(n) {
            socket.register_b_transport(this, &Dst::b_transport);
        }
        void b_transport(tlm::tlm_generic_payload& t, sc_time&) {
            at = sc_time_stamp();
            tag = t.get_extension<vp::nmp::RingMessage>()->tag;
            bytes = t.get_data_length();
            addr = t.get_address();
            t.set_response_status(tlm::TLM_OK_RESPONSE);
        }
    } dst5("dst5");
    src5.socket.bind(*r5.in[0]);
    r5.out[2]->bind(dst5.socket);
    std::vector<unsigned char> data5(msg);
    std::vector<tlm::tlm_response_status> bad5;
    sc_time sent5_end;
    Driver d5("d5", [&] {
        auto xfer = [&](tlm::tlm_command cmd, std::uint64_t dst, bool tagged) {
            tlm::tlm_generic_payload t;
            vp::nmp::RingMessage m;
            m.tag = 77;
            t.set_command(cmd);
            t.set_address(dst);
            t.set_data_ptr(data5.data());
            t.set_data_length(unsigned(msg));
            t.set_streaming_width(unsigned(msg));
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            if (tagged) t.set_extension(&m);
            sc_time d = SC_ZERO_TIME;
            src5.socket->b_transport(t, d);
            t.clear_extension(&m);
            return t.get_response_status();
        };
        bad5.push_back(xfer(tlm::TLM_READ_COMMAND, 2, true));
        bad5.push_back(xfer(tlm::TLM_WRITE_COMMAND, 0, true));
        bad5.push_back(xfer(tlm::TLM_WRITE_COMMAND, 4, true));
        bad5.push_back(xfer(tlm::TLM_WRITE_COMMAND, 2, false));
        bad5.push_back(xfer(tlm::TLM_WRITE_COMMAND, 2, true));  // the message
        sent5_end = sc_time_stamp();
    });

    sc_start();

    const double want1 = double((P - 1) * p + 2 * (p + L));
    std::printf("1. 2 hops: delivered after %.0f cycles (formula %.0f)\n", cyc(t1[1]), want1);
    fails += check(cyc(t1[1]) == want1, "2-hop message delivered after (P-1)p + h(p+L) cycles");
    fails += check(cyc(sent1_end) == double(P * p), "send returns when the last packet left the source (P p cycles)");
    const double want1b = double((P - 1) * p + 1 * (p + L));
    std::printf("   1 hop: delivered after %.0f cycles (formula %.0f)\n", cyc(t1[2]) - 1000.0 - cyc(sent1_end), want1b);
    fails += check(cyc(t1[2]) - 1000.0 - cyc(sent1_end) == want1b, "1-hop message delivered after (P-1)p + (p+L) cycles");
    fails += check(r1.bytes_delivered() == 2 * msg && r1.packets_in_flight() == 0, "every byte delivered");
    fails += check(r1.link_bytes(0) == msg && r1.link_bytes(2) == msg && r1.link_bytes(7) == msg &&
                       r1.link_bytes(1) == 0,
                   "link bytes: 0->1 and 1->2 carry the 2-hop message, 3->2 the 1-hop one");
    fails += check(r1.link_busy_cycles(0) == std::uint64_t(P * p), "a link is busy one cycle per flit");

    const double Ls = small.hop_cycles;
    const double want2 = double(P - 1) * (2 * p + Ls) + 2 * (p + Ls);
    std::printf("2. credit-limited: delivered after %.0f cycles (formula %.0f)\n", cyc(t2), want2);
    fails += check(cyc(t2) == want2, "smallest buffer: one packet per 2p + L cycles (credit loop)");

    const double alone = double((P - 1) * p + (p + L));
    std::printf("3. contention: flow 0->2 %.0f, flow 1->2 %.0f cycles (alone: %.0f); link 1->2 busy %llu cycles\n",
                cyc(t3[1]), cyc(t3[2]), alone, (unsigned long long)r3.link_busy_cycles(2));
    fails += check(r3.link_busy_cycles(2) == std::uint64_t(2 * P * p), "shared link carries both flows");
    const double last = std::max(cyc(t3[1]), cyc(t3[2]));
    fails += check(last >= double(2 * P * p) && last <= double(2 * P * p + 2 * (p + L)),
                   "both flows done after 2 P p cycles on the shared link (+ one pipeline fill)");
    fails += check(cyc(t3[2]) >= double(2 * (P - 1) * p), "the flow injected at node 1 gets half the link");

    fails += check(r4.link_bytes(0) == 64 && r4.link_bytes(2) == 64 && r4.link_bytes(3) == 64 &&
                       r4.link_bytes(1) == 64 && r4.link_bytes(4) == 0 && r4.link_bytes(5) == 0,
                   "opposite node: 0->2 clockwise (links 0_cw, 1_cw), 1->3 counter-clockwise (1_ccw, 0_ccw)");
    std::printf("5. TLM ports: delivered after %.0f cycles (formula %.0f), tag %llu, %llu B at address %llu\n",
                cyc(dst5.at), want1, (unsigned long long)dst5.tag, (unsigned long long)dst5.bytes,
                (unsigned long long)dst5.addr);
    fails += check(cyc(dst5.at) == want1 && cyc(sent5_end) == double(P * p),
                   "TLM ports: in[0] -> out[2] takes (P-1)p + h(p+L) cycles, the transport returns after P p");
    fails += check(dst5.tag == 77 && dst5.bytes == msg && dst5.addr == 2, "TLM ports: tag, bytes and node delivered");
    fails += check(bad5.size() == 5 && bad5[0] == tlm::TLM_COMMAND_ERROR_RESPONSE &&
                       bad5[1] == tlm::TLM_ADDRESS_ERROR_RESPONSE && bad5[2] == tlm::TLM_ADDRESS_ERROR_RESPONSE &&
                       bad5[3] == tlm::TLM_GENERIC_ERROR_RESPONSE && bad5[4] == tlm::TLM_OK_RESPONSE,
                   "TLM ports: a read, the source itself, a node beyond the ring, no tag: error responses");
    fails += check(r5.messages() == 1 && r5.bytes_delivered() == msg, "TLM ports: the errors sent nothing");
    std::printf("%s\n", fails ? "FAILED" : "all passed");
    return fails ? 1 : 0;
}
