#pragma once
// The "calibrated" cycle estimate of a compiled VTA program: a replay of its instruction stream
// through what the simulated core does (models/vta/vta_core.h), without SystemC:
//  * fetch reads the instructions in DMA chunks (one transaction of up to dma_burst_bytes),
//    decodes one per cycle and stalls while the target module's command queue
//    (cmd_queue_depth) is full;
//  * load, compute and store each run their queue in order; an instruction starts when the
//    module is free and every token it pops was pushed (the k-th pop of a queue takes the
//    k-th push), and pushes when it ends: the overlap of load/compute/store through the
//    dependency queues is the program's own, not an assumption;
//  * a LOAD/STORE is cut into transactions as the DMA port cuts it (dma_chunk_bytes per row);
//    at most dma_outstanding are in flight; each is served after the DRAM latency (frontend,
//    CL or CWL, its bursts, the expected refresh wait tRFC^2 / (2 tREFI): the DRAM preset of
//    the simulation) no earlier than the DRAM data bus
//    frees, and its data then occupies the port's bus for ceil(bytes / bus bytes) core cycles,
//    one response after the other (the port's response channel);
//  * GEMM/ALU: overhead + micro-ops x cycles per micro-op + pipeline latency, as the model.
// Free coefficients (vp-calibrate): latency_scale (DRAM latency: row misses, refresh, the other
// ports), bus_scale (port bus time), txn_cycles (per transaction), insn_cycles (per
// instruction). Defaults 1, 1, 0, 0: the physical figures.
#include <cstdint>
#include <string>

#include "mapper/common/dram_figures.h"
#include "mapper/vta/compiled_program.h"
#include "mapper/vta/vta_timing.h"

namespace vp::mapper::vta {

// Hardware figures the estimate needs, filled by platform/ from the parameters the simulated
// core and DRAM use.
struct VtaFigures {
    DramFigures dram;
    VtaTiming vta;
    bool valid() const { return dram.valid() && vta.clock_mhz > 0; }
};

struct VtaCoefficients {
    double latency_scale = 1.0;  // x unloaded DRAM latency of a transaction
    double bus_scale = 1.0;      // x port bus cycles of a transaction
    double txn_cycles = 0.0;     // core cycles added per DMA transaction
    double insn_cycles = 0.0;    // core cycles added per instruction (every module)
    // Throws vp::InputError("<prefix>.<name>: ...") outside the ranges a fit may reach.
    void validate(const std::string& prefix) const;
};

// Busy cycles per module and the program's makespan (launch to FINISH) in core cycles.
struct PipelineTimes {
    double load = 0, compute = 0, store = 0, fetch = 0, total = 0;
    std::uint64_t transactions = 0;
};

PipelineTimes pipelined_estimate(const CompiledProgram& p, const VtaFigures& hw, const VtaCoefficients& c);

}  // namespace vp::mapper::vta
