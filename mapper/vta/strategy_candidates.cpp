#include "mapper/vta/strategy_candidates.h"

#include <algorithm>
#include <string>

#include "mapper/common/errors.h"

namespace vp::mapper::vta {

bool has_strategy_choice(const Layer& l) { return l.kind == LayerKind::Conv || l.kind == LayerKind::FullyConnected; }

std::vector<StrategyCandidate> rank_strategies(const Layer& layer, const VtaConfig& cfg, const DriverOptions& opt) {
    Network net;
    net.name = "candidate";
    net.precision_bits = 8;
    Layer l = layer;
    l.inputs.clear();
    net.layers.push_back(l);
    const NetGraph g = chain_graph(net, "candidate");
    std::vector<StrategyCandidate> out;
    std::vector<std::vector<std::uint64_t>> signatures;  // per kept candidate: what its programs are
    std::string last_error;
    for (int s = 1; s <= 4; ++s) {
        DriverOptions o = opt;
        o.strategy = s;
        o.layer_strategy.clear();
        StrategyCandidate c;
        c.strategy = s;
        std::vector<std::uint64_t> sig;
        try {
            NetworkDriver d(g, cfg, o);
            ProgramJob job;
            while (d.next(job)) {
                const CompiledProgram& p = job.prog;
                const auto& st = p.stats;
                c.estimated_cycles += estimate_cycles(p, o.estimate).total;
                ++c.programs;
                c.insns += st.insns;
                c.dram_bytes += st.inp_bytes + st.wgt_bytes + st.acc_bytes + st.uop_bytes + st.out_bytes;
                sig.insert(sig.end(), {std::uint64_t(p.partition.kind), st.steps, st.insns, st.uops,
                                       c.dram_bytes});
                d.complete(job, std::vector<std::int8_t>(p.stored_rows.size() * std::size_t(p.out_cols), 0));
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
