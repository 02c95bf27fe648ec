// Cores on a 4x4 mesh write and read back through the DRAM interface node into the
// shared DRAM controller model (vp::dram::DramController, DDR3-1600): data must round-trip,
// every transaction complete, and bytes requested = bytes served at both ends.
#include <cstdio>
#include <memory>
#include <random>

#include "at_helpers.h"
#include "models/common/protocol_checker.h"
#include "models/common/stats.h"
#include "models/dram/dram_controller.h"
#include "models/noc/dram_interface.h"
#include "models/noc/network_interface.h"
#include "models/noc/noc_stats.h"

using namespace vp::noc;
using namespace sc_core;

int sc_main(int, char**) {
    NocParams p;
    p.width = p.height = 4;
    p.flit_width_bits = 128;
    p.validate("noc");
    vp::dram::DramParams dp = vp::dram::DramParams::from_preset("ddr3-1600", "dram");
    dp.validate("dram");
    vp::stats::Registry root;
    vp::stats::Group noc_group(root, "noc");
    NocSystem noc("noc", p, sc_time(500, SC_PS));  // 2 GHz NoC (ASSUMPTION for the test)
    const unsigned dram_node = 0;
    AddressMap map;
    map.default_node = dram_node;
    DramInterface di("dram_if", noc, dram_node);
    vp::dram::DramController dram("dram", dp, root);
    vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on every binding
    tlm.bind(di.socket, dram.socket, "tlmcheck_dram_if");
    const sc_time tc(1, SC_NS);
    const unsigned core_nodes[] = {5, 10, 15, 3};
    std::vector<std::unique_ptr<NetworkInterface>> nis;
    std::vector<std::unique_ptr<noc_test::Core>> cores;
    std::mt19937_64 rng(3);
    unsigned total = 0;
    std::uint64_t bytes = 0;
    for (unsigned k = 0; k < 4; ++k) {
        nis.push_back(std::make_unique<NetworkInterface>(("ni" + std::to_string(k)).c_str(), noc, core_nodes[k], tc, map));
        cores.push_back(std::make_unique<noc_test::Core>(("core" + std::to_string(k)).c_str(), tc));
        tlm.bind(cores.back()->socket, nis.back()->socket, "tlmcheck_core" + std::to_string(k));
        for (unsigned i = 0; i < 25; ++i) {
            const std::uint64_t addr = (std::uint64_t(k) << 20) + 64 * (rng() % 512);
            std::vector<unsigned char> d(64);
            for (auto& b : d) b = static_cast<unsigned char>(rng());
            cores.back()->ops.push_back({true, addr, d});
            cores.back()->ops.push_back({false, addr, d});
            total += 2;
            bytes += 128;
        }
    }
    NocStats stats(noc_group, noc.network());
    sc_start(2, SC_MS);
    noc.check();
    dram.finish(sc_time_stamp());
    stats.update();
    unsigned done = 0, errors = 0;
    for (auto& c : cores) {
        done += c->done;
        errors += c->errors;
    }
    std::printf("ops %u/%u errors %u, dram bytes requested %llu served %llu, avg packet latency %.1f cycles\n", done,
                total, errors, (unsigned long long)dram.bytes_requested(), (unsigned long long)dram.bytes_served(),
                noc.network().packet_latency().mean());
    int fails = 0;
    fails += noc_test::check(done == total && errors == 0, "all transactions complete with correct data");
    fails += noc_test::check(dram.bytes_requested() == bytes && dram.bytes_served() == bytes, "bytes requested = served");
    fails += noc_test::check(di.bytes_read() + di.bytes_written() == bytes, "DRAM interface byte count");
    fails += noc_test::check(dram.in_flight() == 0 && di.outstanding() == 0 && noc.idle(), "nothing left in flight");
    return fails ? 1 : 0;
}
