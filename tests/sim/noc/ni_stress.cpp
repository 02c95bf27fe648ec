// Several cores write and read back their own regions through a 4x4 NoC to one memory
// node, with tiny queues so that every backpressure path (delayed END_REQ, refused
// ejection, delayed END_RESP) is exercised. Every read must return what was written,
// every transaction must complete, and the network must end empty.
#include <cstdio>
#include <memory>
#include <random>

#include "at_helpers.h"
#include "models/common/protocol_checker.h"
#include "models/noc/dram_interface.h"
#include "models/noc/network_interface.h"

using namespace vp::noc;
using namespace sc_core;

int sc_main(int, char**) {
    NocParams p;
    p.width = p.height = 4;
    p.num_vcs = 2;
    p.routing = "west_first";
    p.buffer_depth = 2;
    p.inject_depth = 1;
    p.eject_depth = 2;
    p.flit_width_bits = 32;
    p.validate("noc");
    const sc_time tn(1, SC_NS), tc(3, SC_NS);
    NocSystem noc("noc", p, tn);
    const unsigned mem_node = 5;
    AddressMap map;
    map.default_node = mem_node;
    DramInterface di("dram_if", noc, mem_node, 2);
    noc_test::MemStub mem("mem", sc_time(7, SC_NS), 1 << 16);
    vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on every binding
    tlm.bind(di.socket, mem.socket, "tlmcheck_dram_if");
    const unsigned core_nodes[] = {0, 3, 6, 9, 12, 15};
    std::vector<std::unique_ptr<NetworkInterface>> nis;
    std::vector<std::unique_ptr<noc_test::Core>> cores;
    std::mt19937_64 rng(7);
    unsigned total_ops = 0;
    for (unsigned k = 0; k < 6; ++k) {
        const std::string nm = "ni" + std::to_string(k);
        nis.push_back(std::make_unique<NetworkInterface>(nm.c_str(), noc, core_nodes[k], tc, map, NiParams{1, false}));
        const std::string cn = "core" + std::to_string(k);
        cores.push_back(std::make_unique<noc_test::Core>(cn.c_str(), tc));
        tlm.bind(cores.back()->socket, nis.back()->socket, "tlmcheck_core" + std::to_string(k));
        for (unsigned i = 0; i < 40; ++i) {
            const std::uint64_t addr = 0x1000 * (k + 1) + 64 * (rng() % 16);
            std::vector<unsigned char> d(4 + rng() % 60);
            for (auto& b : d) b = static_cast<unsigned char>(rng());
            cores.back()->ops.push_back({true, addr, d});
            cores.back()->ops.push_back({false, addr, d});
            total_ops += 2;
        }
    }
    sc_start(1, SC_MS);
    noc.check();
    int fails = 0;
    unsigned done = 0, errors = 0;
    for (auto& c : cores) {
        done += c->done;
        errors += c->errors;
    }
    std::printf("ops %u/%u, errors %u, memory served %u, NoC cycles %llu\n", done, total_ops, errors, mem.served,
                (unsigned long long)noc.network().cycle());
    fails += noc_test::check(done == total_ops, "all transactions complete");
    fails += noc_test::check(errors == 0, "reads return the written data");
    fails += noc_test::check(mem.served == total_ops, "memory served every request once");
    fails += noc_test::check(di.outstanding() == 0, "no request left at the DRAM interface");
    for (auto& n : nis) fails += noc_test::check(n->in_flight() == 0 && n->requests() == n->responses(), "NI empty");
    const auto& tot = noc.network().totals();
    fails += noc_test::check(noc.idle() && tot.term.flits_ejected == tot.flits_created, "network drained");
    fails += noc_test::check(tot.packets_created == 2 * total_ops, "one request and one response packet per op");
    return fails ? 1 : 0;
}
