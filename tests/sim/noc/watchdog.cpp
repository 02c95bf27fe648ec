// Inside SystemC, a deadlocked NoC stops the simulation and NocSystem::check() throws
// vp::SimulationError with the blocked-router report (instead of hanging).
#include <cstdio>
#include <string>

#include "at_helpers.h"
#include "mapper/common/errors.h"
#include "models/noc/noc_system.h"

using namespace vp::noc;
using namespace sc_core;

namespace {
// Clockwise around the 2x2 ring 0 -> 1 -> 3 -> 2 -> 0: cyclic channel dependencies.
std::uint8_t route_clockwise(const RouteQuery& q) {
    if (q.cx == q.dx && q.cy == q.dy) return port_bit(kLocal);
    if (q.cy == 0) return q.cx == 0 ? port_bit(kEast) : port_bit(kSouth);
    return q.cx == 1 ? port_bit(kWest) : port_bit(kNorth);
}
struct NullSink : PacketSink {
    void deliver(unsigned, std::uint32_t, const PacketInfo&, std::uint64_t) override {}
};
struct Source : sc_module {
    NocSystem& noc;
    SC_HAS_PROCESS(Source);
    Source(sc_module_name n, NocSystem& s) : sc_module(n), noc(s) { SC_THREAD(run); }
    void run() {
        wait(3, SC_NS);
        const unsigned diag[4] = {3, 2, 1, 0};
        for (int k = 0; k < 4; ++k)
            for (unsigned s = 0; s < 4; ++s) noc.send(s, diag[s], PacketType::kWriteRequest, 64, 0, 0, nullptr);
    }
};
}  // namespace

int sc_main(int, char**) {
    register_routing("test_clockwise", &route_clockwise);
    NocParams p;
    p.width = p.height = 2;
    p.buffer_depth = 2;
    p.flit_width_bits = 32;  // 64-byte writes: 17 flits
    p.routing = "test_clockwise";
    p.watchdog_cycles = 500;
    p.validate("noc");
    NocSystem noc("noc", p, sc_time(1, SC_NS));
    NullSink sinks[4];
    for (unsigned i = 0; i < 4; ++i) noc.attach(i, &sinks[i]);
    Source src("src", noc);
    sc_start(1, SC_MS);
    bool thrown = false;
    std::string what;
    try {
        noc.check();
    } catch (const vp::SimulationError& e) {
        thrown = true;
        what = e.what();
    }
    std::printf("stopped at %llu ps\n%s", (unsigned long long)sc_time_stamp().value(), what.c_str());
    int fails = 0;
    fails += noc_test::check(thrown, "watchdog raised SimulationError");
    fails += noc_test::check(sc_time_stamp() < sc_time(1, SC_MS), "simulation stopped early");
    fails += noc_test::check(what.find("router[") != std::string::npos, "report names blocked routers");
    return fails ? 1 : 0;
}
