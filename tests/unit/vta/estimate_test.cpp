// The calibrated (pipelined) estimate on hand-built instruction streams, against closed forms
// worked out from the model's rules (pipeline_estimate.h): a regression check of the replay's
// arithmetic, not a validation (tests/sim/vta/vta_estimate.cpp compares it with the simulation).
#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "mapper/vta/cycle_estimate.h"

using namespace vp::mapper::vta;

namespace {

VtaFigures ddr3_figures() {
    VtaFigures f;
    f.dram.tck_ns = 1.25;  // DDR3-1600
    f.dram.CL = 10;
    f.dram.CWL = 8;
    f.dram.burst_bytes = 64;
    f.dram.burst_cycles = 4;
    f.dram.frontend_latency_ck = 0;
    f.dram.refresh = false;
    f.dram.peak_bw_bytes_per_s = 12.8e9;
    return f;  // VtaTiming defaults: 100 MHz, 8-B bus, 256-B transactions, 8 in flight
}

Insn load_inp(std::uint32_t elems) {
    Insn in;
    in.opcode = Opcode::Load;
    in.mem_type = MemId::Inp;
    in.y_size = 1;
    in.x_size = elems;
    in.x_stride = elems;
    in.dep.push_next = true;  // l2c
    return in;
}

Insn finish_after_load() {
    Insn f;
    f.opcode = Opcode::Finish;
    f.dep.pop_prev = true;  // waits for the load's token
    return f;
}

}  // namespace

TEST_CASE("Pipelined estimate: one LOAD then FINISH equals fetch + decode + DMA + overheads", "[vta][estimate]") {
    const VtaFigures hw = ddr3_figures();
    CompiledProgram p;
    p.insns = {load_inp(64), finish_after_load()};
    const double ck = 1.25 * 100 / 1000;                  // core cycles per DRAM clock
    const double fetch = (1.5 + 10 + 1 * 4) * ck + 4;     // 32 B of instructions: one burst, 4 beats
    const double dma = (1.5 + 10 + 4 * 4) * ck + 4 * 32;  // 4 transactions of 256 B: latency + 4 x 32 beats
    // LOAD dispatched after one decode cycle, runs overhead + DMA; FINISH waits for its token.
    const double want = fetch + 1 + 1 + dma + 1;
    const PipelineTimes t = pipelined_estimate(p, hw, VtaCoefficients{});
    CHECK(t.total == Approx(want));
    CHECK(t.transactions == 5);
    CHECK(t.load == Approx(1 + dma));
}

TEST_CASE("Pipelined estimate: more transactions in flight than dma_outstanding wait for a slot", "[vta][estimate]") {
    VtaFigures hw = ddr3_figures();
    hw.vta.dma_outstanding = 1;  // one at a time: every transaction pays the latency again
    CompiledProgram p;
    p.insns = {load_inp(64), finish_after_load()};
    const double ck = 1.25 * 100 / 1000;
    const double fetch = (1.5 + 10 + 4) * ck + 4;
    const double dma = 4 * ((1.5 + 10 + 16) * ck + 32);
    CHECK(pipelined_estimate(p, hw, VtaCoefficients{}).total == Approx(fetch + 3 + dma));
}

TEST_CASE("Pipelined estimate: coefficients scale latency, bus and add per transaction / instruction", "[vta][estimate]") {
    const VtaFigures hw = ddr3_figures();
    CompiledProgram p;
    p.insns = {load_inp(64), finish_after_load()};
    VtaCoefficients c;
    c.latency_scale = 2;
    c.bus_scale = 1.5;
    c.txn_cycles = 1;
    c.insn_cycles = 3;
    const double ck = 1.25 * 100 / 1000;
    const double fetch = 2 * (1.5 + 10 + 4) * ck + 1.5 * 4 + 1;
    const double dma = 2 * (1.5 + 10 + 16) * ck + 4 * (1.5 * 32 + 1);
    const double want = fetch + 1 + (1 + 3 + dma) + (1 + 3);
    CHECK(pipelined_estimate(p, hw, c).total == Approx(want));
}

TEST_CASE("Estimate models by name, bad names and coefficients name the key", "[vta][estimate]") {
    CHECK(parse_estimate_model("calibrated", "k") == EstimateModel::Calibrated);
    CHECK(parse_estimate_model("serial", "k") == EstimateModel::Serial);
    CHECK_THROWS_WITH(parse_estimate_model("fast", "vta_compiler.estimate_model"),
                      Catch::Contains("vta_compiler.estimate_model") && Catch::Contains("known: calibrated, serial"));
    VtaCoefficients c;
    c.bus_scale = 0;
    CHECK_THROWS_WITH(c.validate("vta_compiler.coefficients"), Catch::Contains("vta_compiler.coefficients.bus_scale"));
}

TEST_CASE("Serial estimate: the first model's formula (load + compute + store)", "[vta][estimate]") {
    CompiledProgram p;
    p.insns = {load_inp(64), finish_after_load()};
    const EstimateParams e;  // serial by default, 10-cycle DMA latency
    const CycleEstimate c = estimate_cycles(p, e);
    CHECK(c.load == 1 + 10 + 64 * 16 / 8);
    CHECK(c.total == c.load);
}
