// The watchdog turns a deadlocked network into vp::SimulationError with a report.
#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "models/noc/network.h"

using namespace vp::noc;

namespace {
// Test-only routing around the ring 0 -> 1 -> 3 -> 2 -> 0 of a 2x2 mesh (clockwise):
// its channel dependencies form a cycle, so wormhole packets can deadlock.
std::uint8_t route_clockwise(const RouteQuery& q) {
    if (q.cx == q.dx && q.cy == q.dy) return port_bit(kLocal);
    if (q.cy == 0) return q.cx == 0 ? port_bit(kEast) : port_bit(kSouth);
    return q.cx == 1 ? port_bit(kWest) : port_bit(kNorth);
}

// Every node sends long packets to the diagonally opposite node.
void load(Network& net) {
    const unsigned diag[4] = {3, 2, 1, 0};
    for (unsigned s = 0; s < 4; ++s)
        for (int k = 0; k < 4; ++k) net.send(s, diag[s], PacketType::kSynthetic, 0, 0, 0, nullptr, 12);
}
}  // namespace

TEST_CASE("a cyclic routing deadlocks and the watchdog reports it", "[noc][deadlock]") {
    register_routing("test_clockwise", &route_clockwise);
    NocParams p;
    p.width = p.height = 2;
    p.num_vcs = 1;
    p.buffer_depth = 2;
    p.routing = "test_clockwise";
    p.watchdog_cycles = 200;
    p.message_classes = "shared";  // synthetic packets have no class: no protocol-deadlock hint below
    p.validate("noc");
    Network net(p);
    load(net);
    bool thrown = false;
    std::string what;
    try {
        for (int i = 0; i < 100000; ++i) net.step();
    } catch (const vp::SimulationError& e) {
        thrown = true;
        what = e.what();
    }
    REQUIRE(thrown);
    REQUIRE(net.flits_in_network() > 0);
    REQUIRE(what.find("deadlock") != std::string::npos);
    REQUIRE(what.find("router[") != std::string::npos);
    REQUIRE(what.find("credits=0") != std::string::npos);
    REQUIRE(what.find("message_classes") == std::string::npos);
    // The report names the stuck cycle after at least the watchdog interval.
    REQUIRE(net.cycle() >= 200);
}

TEST_CASE("the same load with xy routing drains without a watchdog error", "[noc][deadlock]") {
    NocParams p;
    p.width = p.height = 2;
    p.num_vcs = 1;
    p.buffer_depth = 2;
    p.watchdog_cycles = 200;
    Network net(p);
    load(net);
    for (int i = 0; i < 5000 && !net.idle(); ++i) net.step();
    REQUIRE(net.idle());
    REQUIRE(net.totals().term.flits_ejected == 4 * 4 * 12);
}
