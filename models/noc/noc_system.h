#pragma once
// SystemC wrapper of the cycle-accurate mesh: one SC_METHOD clocked by the NoC clock
// domain calls Network::step() for the NoC cycles. When the network and every queue are
// empty the method sleeps until an interface sends a packet, then resumes on the next
// NoC clock edge (the cycle count follows simulated time: cycle c is at c * period).
//
// Lookahead (default): after stepping the cycle of the current edge, the method goes on
// stepping the following cycles in the same activation while no other process of the kernel
// has anything to do before that cycle's edge (sc_time_to_pending_activity) and the edge lies
// before the horizon (set_horizon: the end of the current sc_start, after which the run loop
// reads statistics). Nothing outside the NoC can act in those cycles, so they would have
// given the same result one activation each. Endpoint calls of a cycle stepped ahead
// (deliver, sent) are held back and made at that cycle's edge (the method is woken there),
// where they would have been made; can_accept only reads endpoint state that no one else can
// change before that edge. set_lookahead(false) (noc.stepping: all) activates the method once
// per cycle, the reference the lookahead is tested against.
//
// Interfaces (NetworkInterface, DramInterface, or any PacketSink) attach to a node and
// create packets through send(); delivered packets are handed to the node's endpoint.
// A watchdog failure is caught here (SystemC would wrap the exception), stops the
// simulation and is rethrown as vp::SimulationError by check().
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/noc/network.h"

namespace vp::noc {

class NocSystem : public sc_core::sc_module, private PacketSink {
public:
    SC_HAS_PROCESS(NocSystem);
    // period: NoC clock period (the `noc` clock domain). p must be validated; its message classes
    // are checked here (request/response traffic): InputError "noc.num_vcs" if they cannot be separated.
    NocSystem(sc_core::sc_module_name name, const NocParams& p, const sc_core::sc_time& period);

    Network& network() { return *m_net; }
    const Network& network() const { return *m_net; }
    const sc_core::sc_time& period() const { return m_period; }

    void attach(unsigned node, PacketSink* endpoint);
    // Creates a packet now (in the NoC cycle of the next clock edge at or after the current time).
    // With a sender token, the source endpoint's sent() is called when the tail has left its NI.
    std::uint32_t send(unsigned src, unsigned dst, PacketType type, std::uint32_t payload_bytes, std::uint32_t txn_id,
                       std::uint64_t addr, void* user, void* sender = nullptr);
    std::size_t queued_packets(unsigned node) const { return m_net->queued_packets(node); }

    // Throws vp::SimulationError if the watchdog (or an endpoint) failed during the run.
    void check() const;
    const std::string& failure() const { return m_failure; }
    // True when no flit, packet or queued request is left in the network.
    bool idle() const { return m_net->idle(); }

    // True when the current time is a NoC clock edge whose work (the step of its cycle, or the
    // endpoint calls of a cycle stepped ahead) the method has yet to do in this time step. A
    // process woken by a timed event that reads the injection queues (a retry) waits a delta
    // cycle then, so that it always sees the queues after the NoC's edge, whatever order the
    // kernel gives processes woken at the same time.
    bool edge_pending() const {
        if (m_sleeping) return false;
        const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_period.value();
        return now % per == 0 && (m_net->cycle() <= now / per || !m_deferred.empty());
    }

    // Lookahead on (default) or one activation per NoC cycle.
    void set_lookahead(bool on) { m_lookahead = on; }
    bool lookahead() const { return m_lookahead; }
    // Cycles whose edge is at or after t are never stepped ahead of kernel time (callers that
    // read NoC state between sc_start calls set it to the end of each sc_start).
    void set_horizon(const sc_core::sc_time& t) { m_horizon = t.value(); }
    // Kernel activations of the method (for the speed figures), cycles stepped ahead of time.
    std::uint64_t activations() const { return m_activations; }
    std::uint64_t cycles_ahead() const { return m_cycles_ahead; }

private:
    void tick();
    void after_step(std::uint64_t now, std::uint64_t per);
    bool step_cycle();  // false on a watchdog failure (the simulation is stopped)
    void dispatch_deferred();
    void sent_now(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c);
    void deliver_now(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c);
    void sync_to_now();
    bool can_accept(unsigned node, const PacketInfo& info) override;
    void deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override;
    void sent(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override;

    std::unique_ptr<Network> m_net;
    sc_core::sc_time m_period;
    std::vector<PacketSink*> m_endpoints;
    sc_core::sc_event m_wakeup;
    bool m_sleeping = true;
    bool m_lookahead = true;
    bool m_ahead = false;  // stepping a cycle ahead of kernel time: endpoint calls are held back
    struct Deferred {
        bool sent = false;  // sent() (else deliver())
        unsigned node = 0;
        std::uint32_t id = 0;
        PacketInfo info;
        std::uint64_t cycle = 0;
    };
    std::vector<Deferred> m_deferred;  // endpoint calls of the cycle stepped ahead, in order
    std::uint64_t m_horizon = ~std::uint64_t(0);  // sc_time value
    std::uint64_t m_activations = 0, m_cycles_ahead = 0;
    std::string m_failure;
};

}  // namespace vp::noc
