#include "mapper/vta/strategy_candidates.h"

#include <algorithm>
#include <string>

#include "mapper/common/errors.h"
#include "mapper/vta/direct_conv.h"

namespace vp::mapper::vta {

bool has_strategy_choice(const Layer& l) { return l.kind == LayerKind::Conv || l.kind == LayerKind::FullyConnected; }

std::vector<CompiledProgram> layer_programs(const Layer& layer, const VtaConfig& cfg, const DriverOptions& opt, int strategy,
                                            DriverOptions::ConvLowering lowering) {
    Network net;
    net.name = "candidate";
    net.precision_bits = 8;
    Layer l = layer;
    l.inputs.clear();
    net.layers.push_back(l);
    DriverOptions o = opt;
    o.strategy = strategy;
    o.layer_strategy.clear();
    o.layer_lowering.clear();
    if (lowering != DriverOptions::ConvLowering::Auto) o.conv_lowering = lowering;
    NetworkDriver d(chain_graph(net, "candidate"), cfg, o);
    std::vector<CompiledProgram> out;
    ProgramJob job;
    while (d.next(job)) {
        d.complete(job, std::vector<std::int8_t>(job.prog.stored_rows.size() * std::size_t(job.prog.out_cols), 0));
        job.prog.image.clear();
        job.prog.image.shrink_to_fit();
        out.push_back(std::move(job.prog));
    }
    return out;
}

std::vector<CompiledProgram> layer_programs(const Layer& layer, const VtaConfig& cfg, const DriverOptions& opt,
                                            const StrategyCandidate& c) {
    using L = DriverOptions::ConvLowering;
    return c.direct ? layer_programs(layer, cfg, opt, 0, L::Direct) : layer_programs(layer, cfg, opt, c.strategy, L::Im2row);
}

std::vector<std::string> candidate_settings(const StrategyCandidate& c) {
    if (c.direct) return {"vta_compiler.conv_lowering=direct"};
    return {"vta_compiler.conv_lowering=im2row", "vta_compiler.strategy=" + std::to_string(c.strategy)};
}

std::string candidate_name(const StrategyCandidate& c) {
    return c.direct ? "direct" : "im2row s" + std::to_string(c.strategy);
}

std::vector<StrategyCandidate> rank_strategies(const Layer& layer, const VtaConfig& cfg, const DriverOptions& opt) {
    using L = DriverOptions::ConvLowering;
    std::vector<StrategyCandidate> out;
    std::vector<std::vector<std::uint64_t>> signatures;  // per kept candidate: what its programs are
    std::string last_error;
    std::vector<StrategyCandidate> tries;
    const bool direct_too = opt.conv_lowering != L::Im2row && layer.kind == LayerKind::Conv && direct_conv_supported(layer);
    if (direct_too) tries.push_back(StrategyCandidate{true, 0});
    for (int s = 1; s <= 4; ++s) tries.push_back(StrategyCandidate{false, s});
    for (StrategyCandidate c : tries) {
        std::vector<std::uint64_t> sig;
        bool direct_programs = false;
        try {
            for (const CompiledProgram& p : layer_programs(layer, cfg, opt, c)) {
                const auto& st = p.stats;
                c.estimated_cycles += estimate_cycles(p, opt.estimate).total;
                ++c.programs;
                c.insns += st.insns;
                c.dram_bytes += st.inp_bytes + st.wgt_bytes + st.acc_bytes + st.uop_bytes + st.out_bytes;
                direct_programs = direct_programs || !p.lowering.empty();
                sig.insert(sig.end(), {std::uint64_t(p.partition.kind), std::uint64_t(!p.lowering.empty()), st.steps,
                                       st.insns, st.uops, c.dram_bytes});
            }
        } catch (const InputError& e) {
            last_error = e.what();
            continue;
        }
        if (c.direct && !direct_programs) continue;  // no direct tiling fits: the im2row candidates cover it
        if (std::find(signatures.begin(), signatures.end(), sig) != signatures.end()) continue;
        signatures.push_back(sig);
        out.push_back(c);
        if (c.direct && opt.conv_lowering == L::Direct) break;  // direct asked for and possible: no im2row
    }
    if (out.empty()) throw InputError("layer " + layer.name + ": no partitioning strategy maps it (" + last_error + ")");
    std::stable_sort(out.begin(), out.end(), [](const StrategyCandidate& a, const StrategyCandidate& b) {
        return a.estimated_cycles < b.estimated_cycles;
    });
    return out;
}

}  // namespace vp::mapper::vta
