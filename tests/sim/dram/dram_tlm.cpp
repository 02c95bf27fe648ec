// The DRAM controller through its TLM-2.0 AT socket: unloaded latencies equal the
// DDR3-1600 formulas (one acceptance cycle + the JEDEC timing sum), every byte written
// reads back, bytes served = bytes requested, nothing is left in flight. Three
// independent subsystems in one elaboration.
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
    p.refresh = false;

    // 1) Isolated sequential reads: the first opens the row (1 + tRCD + CL + BL/2 = 25 tCK =
    //    31.25 ns), the rest hit (1 + CL + BL/2 = 15 tCK = 18.75 ns).
    tgen::TrafficParams hit;
    hit.name = "hit";
    hit.requests = 50;
    hit.max_outstanding = 1;
    hit.interval_ns = 100;
    auto d1 = std::make_unique<dram::DramController>("dram_hit", p, reg);
    auto g1 = std::make_unique<tgen::TrafficGenerator>("g_hit", hit, pool, ctrl, reg);
    vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on every binding
    tlm.bind(g1->socket, d1->socket, "tlmcheck_hit");

    // 2) Isolated reads to other rows of one bank: every access is a row conflict
    //    (1 + tRP + tRCD + CL + BL/2 = 35 tCK = 43.75 ns).
    tgen::TrafficParams conf = hit;
    conf.name = "conflict";
    conf.pattern = tgen::Pattern::Strided;
    conf.stride = p.row_bytes() * p.banks();  // row_bank_col: next row of the same bank
    conf.range = conf.stride * 64;
    auto d2 = std::make_unique<dram::DramController>("dram_conflict", p, reg);
    auto g2 = std::make_unique<tgen::TrafficGenerator>("g_conflict", conf, pool, ctrl, reg);
    tlm.bind(g2->socket, d2->socket, "tlmcheck_conflict");

    // 3) Random reads and writes over a small region with many outstanding requests:
    //    read data must always equal the last write (or zero if never written).
    tgen::TrafficParams mix;
    mix.name = "mix";
    mix.pattern = tgen::Pattern::Random;
    mix.requests = 20000;
    mix.read_fraction = 0.5;
    mix.range = 1 << 16;
    mix.bytes = 128;
    mix.max_outstanding = 24;
    mix.seed = 11;
    dram::DramParams pm = p;
    pm.refresh = true;
    pm.queue_depth = 8;  // force backpressure
    auto d3 = std::make_unique<dram::DramController>("dram_mix", pm, reg);
    auto g3 = std::make_unique<tgen::TrafficGenerator>("g_mix", mix, pool, ctrl, reg);
    tlm.bind(g3->socket, d3->socket, "tlmcheck_mix");

    sc_core::sc_start();

    auto j = reg.to_json();
    double hit_min = j["hit"]["latency"]["min"].get<double>();
    double hit_max = j["hit"]["latency"]["max"].get<double>();
    check(std::fabs(hit_min - 18.75) < 1e-9, "row-hit latency (ns)", hit_min, 18.75);
    check(std::fabs(hit_max - 31.25) < 1e-9, "closed-bank latency (ns)", hit_max, 31.25);
    double c_min = j["conflict"]["latency"]["min"].get<double>();
    double c_max = j["conflict"]["latency"]["max"].get<double>();
    check(std::fabs(c_max - 43.75) < 1e-9, "row-conflict latency (ns)", c_max, 43.75);
    check(std::fabs(c_min - 31.25) < 1e-9, "first access of the conflict stream (ns)", c_min, 31.25);
    check(j["dram_conflict"]["row_conflicts"]["value"].get<double>() == 49, "row conflicts", 
          j["dram_conflict"]["row_conflicts"]["value"].get<double>(), 49);
    check(g3->mismatches() == 0, "read-back mismatches", double(g3->mismatches()), 0);
    check(g3->completed() == mix.requests, "mix transactions completed", double(g3->completed()), double(mix.requests));
    for (auto* d : {d1.get(), d2.get(), d3.get()}) {
        check(d->in_flight() == 0, "transactions left in flight", double(d->in_flight()), 0);
        check(d->bytes_served() == d->bytes_requested(), "bytes served == bytes requested", double(d->bytes_served()),
              double(d->bytes_requested()));
    }
    check(j["dram_mix"]["backpressure_events"]["value"].get<double>() > 0, "backpressure exercised",
          j["dram_mix"]["backpressure_events"]["value"].get<double>(), 1);
    check(pool.in_use() == 0, "payloads returned to the pool", double(pool.in_use()), 0);
    check(tlm.transactions() == hit.requests + conf.requests + mix.requests && tlm.violations() == 0,
          "transactions through the base-protocol checkers", double(tlm.transactions()),
          double(hit.requests + conf.requests + mix.requests));
    return failures == 0 ? 0 : 1;
}
