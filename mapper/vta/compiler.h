#pragma once
// VTA IR -> instructions (Compilation and Execution of an Embeddable YOLO-NAS on the VTA §5-7): partitioning, 16x16 blocking,
// micro-op and instruction generation with dependency tokens, DRAM allocation.
#include <cstdint>

#include "mapper/vta/compiled_program.h"
#include "mapper/vta/cycle_estimate.h"
#include "mapper/vta/ir_program.h"

namespace vp::mapper::vta {

struct CompileOptions {
    static constexpr std::uint64_t kPageBytes = 4096;  // Compilation and Execution of an Embeddable YOLO-NAS on the VTA DRAM allocation
    std::uint64_t dram_base = 0x10000;  // page-aligned byte address of the program's first object
    // Two virtual threads (TVM VTA's double buffering): steps alternate between two halves of
    // INP/WGT so that the loads of step n+1 overlap the GEMM of step n. The partitioner and
    // STRATEGY auto see the halved capacities; a program whose blocks do not fit a half is
    // compiled with one thread (CompiledProgram::virtual_threads says which). Default on.
    bool double_buffer = true;
    // Timing used by STRATEGY "auto" to rank the strategies (set from the core's parameters).
    EstimateParams estimate;
};

// v rounded up to a whole DRAM page (CompileOptions::kPageBytes).
inline std::uint64_t page_up(std::uint64_t v) {
    return (v + CompileOptions::kPageBytes - 1) / CompileOptions::kPageBytes * CompileOptions::kPageBytes;
}

// Throws vp::InputError("<where>vta.log_batch: ...") unless the compiler supports `cfg`'s batch
// (BATCH = 1): compile(), compile_direct_conv() and the network driver's up-front layer checks.
void check_compiler_config(const VtaConfig& cfg, const std::string& where = "");

// Compiles a checked program. STRATEGY "auto" (strategy 0) compiles every strategy and keeps
// the one with the fewest estimated cycles (cycle_estimate.h), ties broken by fewer DMA bytes,
// then by the lower strategy number. Throws vp::InputError when it cannot be mapped (sizes beyond
// the instruction fields, vector-vector ALU after an overflowing GEMM, ALU MUL disabled...).
CompiledProgram compile(const Program& p, const VtaConfig& cfg, const CompileOptions& opt = {});

// `c` if it can reach FINISH with the core's command and token queue depths (opt.estimate's
// figures; queue_check.h), else vp::InputError naming vta.token_queue_depth and
// vta.cmd_queue_depth (the instruction that would free a full token queue waits behind a full
// command queue), or vp::SimulationError for a stall without a full queue (a compiler fault).
// compile() and compile_direct_conv() apply it to what they return, so that STRATEGY auto, the
// direct lowering and double buffering fall back as for a program that does not fit the buffers.
// Nothing is checked when the options carry no timing (unit tests of the code generator).
CompiledProgram checked_queues(CompiledProgram c, const CompileOptions& opt);

// The counters of an instruction stream (instructions per kind, DMA bytes per memory, GEMM/ALU
// micro-op executions, MACs); `steps` and `uops` (micro-op words) are left 0.
CompileStats count_program(const std::vector<Insn>& insns, const VtaConfig& cfg);

// DMA bytes of a partition (A, B, X loads + C stores).
std::uint64_t partition_traffic(const Partition& part, OpCase op, const VtaConfig& cfg);

}  // namespace vp::mapper::vta
