#pragma once
// The programs that are candidates for one conv / fc layer on the VTA, ranked by the compiler's
// estimate: the direct lowering of a convolution (direct_conv.h; when vta_compiler.conv_lowering
// is direct or auto and the layer can be lowered so) and the im2row lowering with each
// partitioning strategy (1-4; not when conv_lowering is direct and the direct lowering maps the
// layer). The layer is lowered and compiled on its own (input, weights and bias generated from
// the seed: the instruction stream depends on the shapes only) once per candidate. Candidates that
// cannot map the layer are left out; candidates that give the same programs (every GEMM fits the
// buffers: nothing to partition) count once, the direct one first, then the lowest strategy
// number. Used by the refinement (--refine K) and the calibration to choose what to simulate.
#include <cstdint>
#include <string>
#include <vector>

#include "mapper/vta/network_driver.h"

namespace vp::mapper::vta {

struct StrategyCandidate {
    bool direct = false;  // the direct lowering (strategy 0); else im2row with `strategy`
    int strategy = 1;
    std::uint64_t estimated_cycles = 0;  // sum over the layer's programs
    std::uint64_t programs = 0, insns = 0, dram_bytes = 0;
};

// True for the layers whose programs depend on the strategy (conv and fc).
bool has_strategy_choice(const Layer& l);

// The compiled programs of `l` run on its own with strategy `strategy` (input, weights and bias
// generated from opt.seed; images dropped: the instruction streams only) and the lowering
// `lowering` (Auto: opt.conv_lowering). Throws vp::InputError when the strategy cannot map the layer.
std::vector<CompiledProgram> layer_programs(const Layer& l, const VtaConfig& cfg, const DriverOptions& opt, int strategy,
                                            DriverOptions::ConvLowering lowering = DriverOptions::ConvLowering::Auto);
std::vector<CompiledProgram> layer_programs(const Layer& l, const VtaConfig& cfg, const DriverOptions& opt,
                                            const StrategyCandidate& c);

// The vp-run settings (`key=value`, for --set) that make a single-layer run use candidate `c`.
std::vector<std::string> candidate_settings(const StrategyCandidate& c);
// "direct" or "im2row sS" (mapping.json, calibration printout).
std::string candidate_name(const StrategyCandidate& c);

// Distinct candidates, best estimate first (ties: lower strategy number). `opt` gives the
// estimate and compile options; its strategy fields are ignored. Throws vp::InputError when no
// strategy maps the layer.
std::vector<StrategyCandidate> rank_strategies(const Layer& l, const VtaConfig& cfg, const DriverOptions& opt);

}  // namespace vp::mapper::vta
