// Unloaded read latency through the whole TLM path against three peer simulators.
// DDR3-1600 (the DRAMSys / Ramulator 2 DDR3-1600 10-10-10 set-up), one 64-byte read
// every 100 ns, refresh on, latency from the cycle the controller accepts the request
// (that cycle included) to the last data beat: Ramulator 2.1, DRAMSys and DRAMsim3 all
// report 21.06 ns for sequential addresses and 44.4 ns for random ones over 1 GiB.
// The random address streams of the simulators differ, hence the tolerance.
#include <cmath>
#include <cstdio>
#include <memory>

#include <systemc>

#include "models/common/payload_pool.h"
#include "models/common/protocol_checker.h"
#include "models/common/sim_control.h"
#include "models/dram/dram_controller.h"
#include "models/tgen/traffic_generator.h"

using namespace vp;

namespace {
int failures = 0;
void check(bool ok, const char* what, double got, double want) {
    std::printf("%s %s: got %.4f, want %.4f\n", ok ? "ok  " : "FAIL", what, got, want);
    if (!ok) ++failures;
}
}  // namespace

int sc_main(int, char**) {
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    stats::Registry reg;
    PayloadPool pool;
    SimControl ctrl("ctrl");
    dram::DramParams p = dram::DramParams::from_preset("ddr3-1600", "dram.preset");
    p.check_protocol = true;

    tgen::TrafficParams s;
    s.requests = 20000;
    s.bytes = 64;
    s.read_fraction = 1.0;
    s.range = 1ull << 30;
    s.max_outstanding = 4;  // open loop: one read every 100 ns even across a refresh
    s.interval_ns = 100;
    s.seed = 5;
    s.name = "seq";
    s.pattern = tgen::Pattern::Sequential;
    tgen::TrafficParams r = s;
    r.name = "rnd";
    r.pattern = tgen::Pattern::Random;

    auto d1 = std::make_unique<dram::DramController>("dram_seq", p, reg);
    auto g1 = std::make_unique<tgen::TrafficGenerator>("g_seq", s, pool, ctrl, reg);
    tlmcheck::CheckerSet tlm(true);  // TLM-2.0 base-protocol checker on every binding
    tlm.bind(g1->socket, d1->socket, "tlmcheck_seq");
    auto d2 = std::make_unique<dram::DramController>("dram_rnd", p, reg);
    auto g2 = std::make_unique<tgen::TrafficGenerator>("g_rnd", r, pool, ctrl, reg);
    tlm.bind(g2->socket, d2->socket, "tlmcheck_rnd");

    sc_core::sc_start();
    d1->finish(sc_core::sc_time_stamp());
    d2->finish(sc_core::sc_time_stamp());

    auto j = reg.to_json();
    const double seq = j["dram_seq"]["latency"]["mean"].get<double>();
    const double rnd = j["dram_rnd"]["latency"]["mean"].get<double>();
    check(std::fabs(seq - 21.06) <= 0.02, "sequential mean read latency (ns), peers 21.06", seq, 21.06);
    check(std::fabs(rnd - 44.4) <= 0.05, "random mean read latency (ns), peers 44.4", rnd, 44.4);
    check(j["dram_seq"]["refreshes"]["value"].get<double>() > 200, "refreshes crossed", 
          j["dram_seq"]["refreshes"]["value"].get<double>(), 256);
    check(d1->protocol_monitor()->ok() && d2->protocol_monitor()->ok(), "protocol checker: no violation", 1, 1);
    return failures == 0 ? 0 : 1;
}
