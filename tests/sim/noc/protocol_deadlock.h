#pragma once
// Protocol-deadlock scenario shared by protocol_deadlock_{separate,shared}.cpp: a 5x5 mesh with
// the DRAM interface in the middle (node 12), adaptive routing, 24 cores streaming 256-byte
// writes and reads with several transactions each in flight, a slow memory and a DRAM interface
// that holds few requests. Once the interface is full it refuses request heads; its responses
// must leave through links that requests are queued on. With requests and responses on the same
// VCs the responses wait behind requests that wait for the responses to leave: a protocol
// deadlock (the NoC watchdog fires). With separate message classes the responses have VCs of
// their own and the run completes.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "at_helpers.h"
#include "mapper/common/errors.h"
#include "models/noc/dram_interface.h"
#include "models/noc/network_interface.h"

namespace noc_test {

struct ProtocolRun {
    bool deadlock = false;        // the watchdog fired
    std::string report;           // its message
    unsigned done = 0, total = 0, errors = 0, served = 0;  // transactions (requests and syncs); memory accesses
    unsigned requests = 0, syncs_sent = 0, syncs_received = 0;
    bool drained = false;         // network idle, nothing in flight anywhere
};

struct SyncCounter : vp::noc::PacketSink {
    unsigned count = 0;
    void deliver(unsigned, std::uint32_t, const vp::noc::PacketInfo&, std::uint64_t) override { ++count; }
};

inline ProtocolRun run_protocol_scenario(const char* classes, const char* routing) {
    using namespace vp::noc;
    using namespace sc_core;
    NocParams p;
    p.width = p.height = 5;
    p.num_vcs = 2;
    p.buffer_depth = 2;
    p.eject_depth = 2;
    p.routing = routing;
    p.message_classes = classes;
    p.watchdog_cycles = 2000;
    p.validate("noc");
    NocSystem noc("noc", p, sc_time(1, SC_NS));
    const unsigned mem_node = 12;
    AddressMap map;
    map.default_node = mem_node;
    DramInterface di("dram_if", noc, mem_node, 4);
    MemStub mem("mem", sc_time(20, SC_NS), 1 << 20);
    di.socket.bind(mem.socket);
    const sc_time tc(1, SC_NS);
    std::vector<std::unique_ptr<NetworkInterface>> nis;
    std::vector<std::unique_ptr<StreamCore>> cores;
    SyncCounter syncs;
    ProtocolRun out;
    for (unsigned node = 0; node < 25; ++node) {
        if (node == mem_node) continue;
        nis.push_back(std::make_unique<NetworkInterface>(("ni" + std::to_string(node)).c_str(), noc, node, tc, map));
        cores.push_back(std::make_unique<StreamCore>(("core" + std::to_string(node)).c_str(), tc));
        cores.back()->max_outstanding = 8;
        cores.back()->socket.bind(nis.back()->socket);
        nis.back()->set_sync_sink(&syncs);
        for (unsigned i = 0; i < 60; ++i) {
            if (i % 3 == 2) {  // a sync to another core (posted mailbox write)
                unsigned dst = (node * 7 + i * 3) % 25;
                if (dst == mem_node || dst == node) dst = (dst + 1) % 25 == mem_node ? (dst + 2) % 25 : (dst + 1) % 25;
                cores.back()->ops.push_back({true, AddressMap::mailbox_address(dst), {std::uint8_t(i), 0, 0, 0}});
                ++out.syncs_sent;
            } else {
                const std::uint64_t addr = 0x4000 * node + 256 * (i % 16);
                cores.back()->ops.push_back({i % 3 == 0, addr, std::vector<unsigned char>(256, std::uint8_t(node + i))});
                ++out.requests;
            }
            ++out.total;
        }
    }
    sc_start(5, SC_MS);
    try {
        noc.check();
    } catch (const vp::SimulationError& e) {
        out.deadlock = true;
        out.report = e.what();
    }
    for (auto& c : cores) {
        out.done += c->done;
        out.errors += c->errors;
    }
    out.served = mem.served;
    out.syncs_received = syncs.count;
    bool empty = noc.idle() && di.outstanding() == 0;
    for (auto& n : nis) empty = empty && n->in_flight() == 0;
    out.drained = empty;
    std::printf("%s classes, %s routing: %s, transactions %u/%u, memory served %u/%u, syncs %u/%u, NoC cycle %llu\n",
                classes, routing, out.deadlock ? "DEADLOCK" : "completed", out.done, out.total, out.served,
                out.requests, out.syncs_received, out.syncs_sent, (unsigned long long)noc.network().cycle());
    return out;
}

// sc_main of the tests that expect the scenario to complete (argv may override classes and routing).
inline int expect_completion(int argc, char** argv, const char* routing) {
    const ProtocolRun r = run_protocol_scenario(argc > 1 ? argv[1] : "separate", argc > 2 ? argv[2] : routing);
    int fails = 0;
    fails += check(!r.deadlock, "no deadlock");
    fails += check(r.done == r.total && r.errors == 0, "every transaction answered");
    fails += check(r.served == r.requests && r.syncs_received == r.syncs_sent,
                   "memory served every request once, every sync delivered");
    fails += check(r.drained, "nothing left in flight");
    return fails ? 1 : 0;
}

}  // namespace noc_test
