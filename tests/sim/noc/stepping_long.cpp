// Long check on larger meshes: for every routing, pattern, VC count and load (below and
// far past saturation), "active" and "all" stepping give byte-identical statistics, and
// after injection stops every packet is delivered exactly once (flits conserved).
// Plain C++ network (no kernel elaborated); sc_main only because sim tests link SystemC.
#include <cstdio>
#include <string>

#include <systemc>

#include "models/common/stats.h"
#include "models/noc/noc_stats.h"
#include "models/noc/synthetic_traffic.h"

using namespace vp::noc;

namespace {
struct Out {
    std::string json;
    bool conserved = false;
};

Out run(NocParams p, const TrafficParams& t, const char* stepping) {
    p.stepping = stepping;
    p.validate("noc");
    Network net(p);
    SyntheticTraffic traffic(net, t);
    traffic.track_deliveries(true);
    const TrafficResult r = traffic.run();
    vp::stats::Registry root;
    vp::stats::Group g(root, "noc");
    NocStats stats(g, net);
    stats.update();
    Out o;
    o.json = root.to_json().dump();
    const NetworkTotals& tot = net.totals();
    bool once = true;
    for (std::size_t i = 0; i < tot.packets_created; ++i) once = once && traffic.deliveries()[i] == 1;
    o.conserved = r.drained && net.idle() && once && tot.term.flits_ejected == tot.flits_created &&
                  tot.term.flits_injected == tot.flits_created && net.packets_alive() == 0;
    return o;
}
}  // namespace

int sc_main(int, char**) {
    int fails = 0, runs = 0;
    for (unsigned k : {8u, 16u}) {
        for (const char* routing : {"xy", "west_first", "odd_even"}) {
            for (const char* pattern : {"uniform", "transpose", "bit_complement", "hotspot"}) {
                for (unsigned vcs : {1u, 4u}) {
                    for (double rate : {0.02, 0.2, 0.5}) {
                        NocParams p;
                        p.width = p.height = k;
                        p.routing = routing;
                        p.num_vcs = vcs;
                        TrafficParams t;
                        t.pattern = pattern;
                        t.rate = rate;
                        t.packet_flits = 6;
                        t.hotspot_node = k * k / 2 + k / 2;
                        t.hotspot_fraction = 0.2;
                        t.warmup_cycles = 500;
                        t.measure_cycles = k == 8 ? 4000 : 1500;
                        t.drain_max_cycles = 500000;
                        t.inject_while_draining = false;
                        t.seed = 1000 + runs;
                        const Out a = run(p, t, "active");
                        const Out b = run(p, t, "all");
                        ++runs;
                        if (a.json != b.json || !a.conserved || !b.conserved) {
                            ++fails;
                            std::fprintf(stderr, "FAILED: %ux%u %s %s vcs=%u rate=%g identical=%d conserved=%d/%d\n", k, k,
                                         routing, pattern, vcs, rate, a.json == b.json, a.conserved, b.conserved);
                        }
                    }
                }
            }
        }
    }
    std::printf("%d configurations, %d failures\n", runs, fails);
    return fails ? 1 : 0;
}
