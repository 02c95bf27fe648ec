#include "mapper/vta/strategy_candidates.h"

#include <algorithm>
#include <string>

#include "mapper/common/errors.h"

namespace vp::mapper::vta {

bool has_strategy_choice(const Layer& l) { return l.kind == LayerKind::Conv || l.kind == LayerKind::FullyConnected; }

std::vector<CompiledProgram> layer_programs(const Layer& layer, const VtaConfig& cfg, const DriverOptions& opt, int strategy) {
    Network net;
    net.name = "candidate";
    net.precision_bits = 8;
    Layer l = layer;
    l.inputs.clear();
    net.layers.push_back(l);
    DriverOptions o = opt;
    o.strategy = strategy;
    o.layer_strategy.clear();
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

std::vector<StrategyCandidate> rank_strategies(const Layer& layer, const VtaConfig& cfg, const DriverOptions& opt) {
    std::vector<StrategyCandidate> out;
    std::vector<std::vector<std::uint64_t>> signatures;  // per kept candidate: what its programs are
    std::string last_error;
    for (int s = 1; s <= 4; ++s) {
        StrategyCandidate c;
        c.strategy = s;
        std::vector<std::uint64_t> sig;
        try {
            for (const CompiledProgram& p : layer_programs(layer, cfg, opt, s)) {
                const auto& st = p.stats;
                c.estimated_cycles += estimate_cycles(p, opt.estimate).total;
                ++c.programs;
                c.insns += st.insns;
                c.dram_bytes += st.inp_bytes + st.wgt_bytes + st.acc_bytes + st.uop_bytes + st.out_bytes;
                sig.insert(sig.end(), {std::uint64_t(p.partition.kind), st.steps, st.insns, st.uops, c.dram_bytes});
            }
        } catch (const InputError& e) {
            last_error = e.what();
            continue;
        }
        if (std::find(signatures.begin(), signatures.end(), sig) != signatures.end()) continue;
        signatures.push_back(sig);
        out.push_back(c);
    }
    if (out.empty()) throw InputError("layer " + layer.name + ": no partitioning strategy maps it (" + last_error + ")");
    std::stable_sort(out.begin(), out.end(), [](const StrategyCandidate& a, const StrategyCandidate& b) {
        return a.estimated_cycles < b.estimated_cycles;
    });
    return out;
}

}  // namespace vp::mapper::vta
