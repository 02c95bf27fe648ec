// The TLE fabric (models/nmp/fabric.h) against timings worked out by hand from its definition
// (ports of w bytes per cycle, latency L, FIFO, a multicast holds every target port, a load or
// store its own; cut-through loads): no code is shared with the model's arithmetic. Clock 1 GHz
// (1 cycle = 1000 ps, every figure exact); w = 16 B/cycle, L = 4 cycles, 8 ports.
//  1. Multicast of B = 1000 B to 8 TLTs requested at 0, DRAM data done at 10: holds every port
//     ceil(1000 / 16) = 63 cycles, [0, 63); delivered at 63 + 4 = 67.
//  2. W load of 256 B into TLT 3 requested at 20, while the multicast holds port 3: starts at 63,
//     i.e. delayed by exactly 63 - 20 = 43 cycles (all of it contention: a unicast behind a
//     multicast); holds [63, 79), delivered at 83.
//  3. OUT store of 100 B from TLT 5 requested at 30: waits 33 cycles for the multicast, holds
//     ceil(100 / 16) = 7 cycles [63, 70), in the DMA engine at 74.
//  4. Multicast of 1000 B requested at 65 while port 3 (load, until 79) and port 5 (store, until
//     70) are held: starts at 79, waits 14 cycles, all contention (union of [65, 79) and
//     [65, 70) = 14); holds [79, 142), delivered at 146.
//  5. Two W loads into TLT 1: 160 B at 150 (port free since 142: no wait, [150, 160)), then
//     320 B at 151: waits 9 cycles behind a load (same kind: wait, no contention), [160, 180).
//  6. Cut-through: a multicast of 160 B (10 cycles) requested at 300 whose DRAM data arrives
//     until 360: holds the ports until 360 (the DRAM is slower), delivered at 364.
//  7. A multicast to ports {0, 1} requested at 400 while port 1 is held by a load [400, 420)
//     requested at 400 just before: starts at 420; contention 20 (multicast behind a load).
// Totals: multicast waits 0 + 14 + 0 + 20 = 34, contention 34; load waits 43 + 0 + 9 + 0 = 52,
// contention 43; store wait 33, contention 33. Port 3 bytes: 1000 + 256 + 1000 + 160 = 2416;
// busy 63 + 16 + 63 + 60 = 202; the other ports likewise from the list of transfers through them.
#include <cmath>
#include <cstdio>
#include <string>

#include <systemc>

#include <nlohmann/json.hpp>

#include "models/common/stats.h"
#include "models/nmp/fabric.h"

using namespace sc_core;
using vp::nmp::Fabric;
using vp::nmp::FabricKind;

namespace {

int fails = 0;

void check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
    if (!ok) ++fails;
}

constexpr double kCycle = 1e-9;
sc_time at(double cycles) { return sc_time(cycles * kCycle, SC_SEC); }
double cyc(const sc_time& t) { return t.to_seconds() / kCycle; }

void check_xfer(const Fabric::Xfer& x, double start, double end, double ready, const std::string& what) {
    const bool ok = std::fabs(cyc(x.start) - start) < 1e-6 && std::fabs(cyc(x.end) - end) < 1e-6 &&
                    std::fabs(cyc(x.ready) - ready) < 1e-6;
    std::printf("  %s: start %.1f end %.1f ready %.1f (expected %.1f %.1f %.1f)\n", what.c_str(), cyc(x.start), cyc(x.end),
                cyc(x.ready), start, end, ready);
    check(ok, what);
}

double stat(const nlohmann::json& j, const std::string& path) {
    const nlohmann::json* p = &j;
    std::size_t b = 0;
    while (b <= path.size()) {
        std::size_t e = path.find('.', b);
        if (e == std::string::npos) e = path.size();
        p = &(*p)[path.substr(b, e - b)];
        b = e + 1;
    }
    if (p->is_object() && p->contains("value")) return (*p)["value"].get<double>();
    return p->get<double>();
}

}  // namespace

int sc_main(int, char**) {
    vp::stats::Registry root;
    vp::mapper::tso::FabricParams fp;
    fp.enabled = true;
    fp.bytes_per_cycle = 16;
    fp.latency_cycles = 4;
    Fabric f(root, 8, fp, kCycle);
    const std::vector<int> all{0, 1, 2, 3, 4, 5, 6, 7};

    check_xfer(f.transfer(FabricKind::Multicast, all, 1000, at(0), at(10)), 0, 63, 67, "1. multicast 1000 B to 8 TLTs");
    check_xfer(f.transfer(FabricKind::Load, {3}, 256, at(20), at(20)), 63, 79, 83,
               "2. W load issued during the multicast: delayed by 43 cycles");
    check_xfer(f.transfer(FabricKind::Store, {5}, 100, at(30)), 63, 70, 74, "3. store behind the multicast");
    check_xfer(f.transfer(FabricKind::Multicast, all, 1000, at(65), at(66)), 79, 142, 146,
               "4. multicast behind a load and a store");
    check_xfer(f.transfer(FabricKind::Load, {1}, 160, at(150), at(150)), 150, 160, 164, "5a. load, port free");
    check_xfer(f.transfer(FabricKind::Load, {1}, 320, at(151), at(151)), 160, 180, 184, "5b. load behind a load");
    check_xfer(f.transfer(FabricKind::Multicast, all, 160, at(300), at(360)), 300, 360, 364,
               "6. cut-through: ports held until the last DRAM data");
    check_xfer(f.transfer(FabricKind::Load, {1}, 320, at(400), at(400)), 400, 420, 424, "7a. load into TLT 1");
    check_xfer(f.transfer(FabricKind::Multicast, {0, 1}, 32, at(400), at(400)), 420, 422, 426,
               "7b. multicast to TLTs 0, 1 behind that load");
    f.finish();

    const nlohmann::json j = root.to_json();
    const std::string g = "fabric.";
    auto expect = [&](const std::string& k, double v) {
        const double got = stat(j, g + k);
        std::printf("  %s = %.3f (expected %.3f)\n", k.c_str(), got, v);
        check(std::fabs(got - v) < 1e-6, k);
    };
    expect("multicast_transfers", 4);
    expect("multicast_bytes", 1000 + 1000 + 160 + 32);
    expect("multicast_wait_cycles", 14 + 20);
    expect("multicast_contention_cycles", 14 + 20);
    expect("load_transfers", 4);
    expect("load_wait_cycles", 43 + 9);
    expect("load_contention_cycles", 43);
    expect("store_wait_cycles", 33);
    expect("store_contention_cycles", 33);
    // Per port: the transfers through it, listed by hand.
    expect("port[3].bytes", 1000 + 256 + 1000 + 160);
    expect("port[3].busy_cycles", 63 + 16 + 63 + 60);
    expect("port[3].contention_cycles", 43 + 14);  // the load behind the multicast; multicast 4 behind the load
    expect("port[5].contention_cycles", 33 + 5);   // the store behind the multicast; multicast 4 behind the store
    expect("port[1].bytes", 1000 + 1000 + 160 + 320 + 160 + 320 + 32);
    expect("port[1].busy_cycles", 63 + 63 + 10 + 20 + 60 + 20 + 2);
    expect("port[1].contention_cycles", 20);  // multicast 7b behind load 7a
    expect("port[7].busy_cycles", 63 + 63 + 60);
    expect("port_bytes", 8 * (1000 + 1000 + 160) + 256 + 100 + 160 + 320 + 320 + 2 * 32);
    check(std::fabs(cyc(f.idle_at()) - 422) < 1e-6, "every port free at 422");

    std::printf("%s\n", fails ? "FAILED" : "all passed");
    return fails ? 1 : 0;
}
