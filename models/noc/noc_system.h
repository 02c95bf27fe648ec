#pragma once
// SystemC wrapper of the cycle-accurate mesh: one SC_METHOD clocked by the NoC clock
// domain calls Network::step() once per cycle. When the network and every queue are
// empty the method sleeps until an interface sends a packet, then resumes on the next
// NoC clock edge (the cycle count follows simulated time: cycle c is at c * period).
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
    // The endpoint at node calls sink_ready() whenever it frees room for a packet, and its
    // can_accept refuses every packet from a refusal until the first NoC cycle after such a call
    // (slots freed at an instant counted as taken until time moves on, FreedSlots): the node's
    // terminal then does not poll a refused head every cycle.
    void set_sink_notifies(unsigned node) { m_net->set_sink_notifies(node); }
    // Room freed at the current time: the terminal may eject from the next clock edge after now.
    void sink_ready(unsigned node) {
        m_net->sink_ready(node, sc_core::sc_time_stamp().value() / m_period.value() + 1);
    }
    // Creates a packet for the NoC cycle of the next clock edge after the current time (one sent
    // at an edge enters the network in the cycle after it, whether the NoC stepped that edge
    // already in this time step or not). With a sender token, the source endpoint's sent() is
    // called when the tail has left its NI.
    void send(unsigned src, unsigned dst, PacketType type, std::uint32_t payload_bytes, std::uint32_t txn_id,
              std::uint64_t addr, void* user, void* sender = nullptr);
    // Packets waiting at a node's source queue as at the start of the current instant: a packet
    // whose tail left in the cycle stepped at this instant still counts, so an endpoint sees the
    // same count whether it runs before or after the NoC's step in the same time step.
    std::size_t queued_packets(unsigned node) const;

    // Throws vp::SimulationError if the watchdog (or an endpoint) failed during the run.
    void check() const;
    const std::string& failure() const { return m_failure; }
    // True when no flit, packet or queued request is left in the network.
    bool idle() const { return m_net->idle() && m_deferred.empty(); }

private:
    void tick();
    void sync_to(std::uint64_t edge);
    bool can_accept(unsigned node, const PacketInfo& info) override;
    void deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override;
    void sent(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override;

    std::unique_ptr<Network> m_net;
    sc_core::sc_time m_period;
    std::vector<PacketSink*> m_endpoints;
    sc_core::sc_event m_wakeup;
    // Packets sent at a clock edge before the NoC stepped that edge: created after the step, for
    // the next cycle, as those sent after it are (the order of processes within one time step
    // must not decide in which cycle a packet enters the network).
    struct Deferred {
        unsigned src, dst;
        PacketType type;
        std::uint32_t payload_bytes, txn_id;
        std::uint64_t addr;
        void* user;
        void* sender;
    };
    std::vector<Deferred> m_deferred;
    bool m_sleeping = true;
    std::string m_failure;
};

}  // namespace vp::noc
