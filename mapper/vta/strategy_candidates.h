#pragma once
// The partitioning strategies (1-4) that are candidates for one conv / fc layer on the VTA,
// ranked by the compiler's estimate: the layer is lowered and compiled on its own (input,
// weights and bias generated from the seed: the instruction stream depends on the shapes only)
// once per strategy. Strategies that cannot map the layer are left out; strategies that give
// the same programs (every GEMM fits the buffers: nothing to partition) count once, under the
// lowest strategy number. Used by the refinement (--refine K) to choose what to simulate.
#include <cstdint>
#include <vector>

#include "mapper/vta/network_driver.h"

namespace vp::mapper::vta {

struct StrategyCandidate {
    int strategy = 1;
    std::uint64_t estimated_cycles = 0;  // sum over the layer's programs
    std::uint64_t programs = 0, insns = 0, dram_bytes = 0;
};

// True for the layers whose programs depend on the strategy (conv and fc).
bool has_strategy_choice(const Layer& l);

// The compiled programs of `l` run on its own with strategy `strategy` (input, weights and bias
// generated from opt.seed; images dropped: the instruction streams only). Throws
// vp::InputError when the strategy cannot map the layer.
std::vector<CompiledProgram> layer_programs(const Layer& l, const VtaConfig& cfg, const DriverOptions& opt, int strategy);

// Distinct candidates, best estimate first (ties: lower strategy number). `opt` gives the
// estimate and compile options; its strategy fields are ignored. Throws vp::InputError when no
// strategy maps the layer.
std::vector<StrategyCandidate> rank_strategies(const Layer& l, const VtaConfig& cfg, const DriverOptions& opt);

}  // namespace vp::mapper::vta
