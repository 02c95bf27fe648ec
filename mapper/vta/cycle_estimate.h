#pragma once
// Analytic cycle estimate of one compiled VTA program (reported next to the simulated cycles
// so that the user can judge the model). Module busy times from the instruction stream:
//   load   = sum over INP/WGT loads of (overhead + latency + ceil(bytes / bus_bytes))
//   compute= sum over GEMM/ALU of (overhead + uops * cycles_per_uop + pipeline latency)
//            + ACC/UOP loads like the load module
//   store  = sum over stores of (overhead + latency + ceil(bytes / bus_bytes))
// Single buffering serialises load -> compute -> store of each step (the token chain), so the
// estimate is load + compute + store; with double buffering (virtual threads) the modules
// overlap and the estimate is the largest of the three (assumption: perfect overlap).
#include <cstdint>

#include "mapper/vta/compiled_program.h"

namespace vp::mapper::vta {

struct EstimateParams {
    unsigned bus_bytes = 8;             // DMA bytes per core cycle
    unsigned gemm_cycles_per_uop = 1;
    unsigned alu_cycles_per_uop = 2;
    unsigned pipeline_latency = 4;
    unsigned insn_overhead = 1;
    unsigned dma_latency = 10;          // cycles from request to first data (assumption: DDR3 ~60 ns at 100 MHz + bus)
    bool double_buffer = false;
};

struct CycleEstimate {
    std::uint64_t load = 0, compute = 0, store = 0, total = 0;
};

CycleEstimate estimate_cycles(const CompiledProgram& p, const EstimateParams& e);

}  // namespace vp::mapper::vta
