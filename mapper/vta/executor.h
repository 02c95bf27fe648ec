#pragma once
// Untimed execution of a compiled VTA program, following the dataflow rules of the
// hardware (vta_isa.md §4): fetch routes instructions to the load / compute / store queues,
// each module runs in order and an instruction starts only when every token queue it pops
// is non-empty (fsim TlppVerify, without time). A state where no module can progress
// before FINISH is a deadlock: vp::SimulationError naming the stuck instructions.
#include <cstdint>
#include <string>
#include <vector>

#include "mapper/vta/compiled_program.h"
#include "mapper/vta/functional_core.h"

namespace vp::mapper::vta {

// Which module executes an instruction (fetch routing, HLS fetch()).
enum class Module : std::uint8_t { Load = 0, Compute = 1, Store = 2 };
Module route(const Insn& in);
const char* to_string(Module m);

// Token queues between the modules (HLS names l2g/g2l/g2s/s2g).
enum class TokenQueue : std::uint8_t { L2C = 0, C2L = 1, C2S = 2, S2C = 3 };
const char* to_string(TokenQueue q);
// Queue an instruction pops for its pop_prev / pop_next flag (-1 when unused by its module).
int pop_queue(Module m, bool prev);
int push_queue(Module m, bool prev);

struct ExecOptions {
    // Order in which modules are tried each round: fixed (load, compute, store) or a seeded
    // random rotation, like fsim's random start core. Results must not depend on it.
    bool random_order = false;
    std::uint64_t seed = 1;
};

struct ExecResult {
    CoreCounters counters;
    std::uint64_t insns[3] = {0, 0, 0};  // executed per module
    std::uint64_t tokens_left[4] = {0, 0, 0, 0};
};

// Runs the program on `dram` (bytes at p.dram_base; STORE writes into it).
ExecResult execute(const CompiledProgram& p, std::vector<std::uint8_t>& dram, const ExecOptions& opt = {});

// Convenience: copies the program image, runs, returns the stored output rows.
std::vector<std::int8_t> run_functional(const CompiledProgram& p, const ExecOptions& opt = {}, ExecResult* res = nullptr);

}  // namespace vp::mapper::vta
