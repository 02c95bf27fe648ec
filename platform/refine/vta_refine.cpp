#include "platform/refine/vta_refine.h"

#include <map>

#include "mapper/common/errors.h"
#include "mapper/vta/strategy_candidates.h"
#include "platform/config/hw_figures.h"
#include "platform/refine/candidate_sim.h"
#include "platform/refine/child_runner.h"

namespace vp::refine {

using nlohmann::json;
namespace mv = mapper::vta;

namespace {

// What makes two layers the same program up to data: the shape fields the lowering reads.
std::string shape_key(const mapper::Layer& l) {
    mapper::Network n;
    mapper::Layer c = l;
    c.name = "x";
    c.inputs.clear();
    n.layers.push_back(c);
    return mapper::network_to_json(n)["layers"][0].dump();
}

}  // namespace

mv::DriverOptions vta_driver_options(const config::PlatformSpec& spec) {
    mv::DriverOptions o = spec.vta_compiler;
    o.seed = spec.seed;
    mv::EstimateParams& est = o.estimate;
    est.model = mv::parse_estimate_model(o.estimate_model, "vta_compiler.estimate_model");
    est.hw = config::vta_figures(spec.vta, spec.dram);
    est.coef = o.coefficients;
    return o;
}

int vta_max_candidates(const mv::DriverOptions& opt) {
    return opt.conv_lowering == mv::DriverOptions::ConvLowering::Im2row ? 4 : VtaRefinement::kMaxCandidates;
}

void check_vta_refine_k(int k, const mv::DriverOptions& opt) {
    const int kmax = vta_max_candidates(opt);
    if (k < 1 || k > kmax)
        throw InputError("mapper.refine = " + std::to_string(k) + ": the vta platform has at most " + std::to_string(kmax) +
                         " candidates per layer (" +
                         (kmax == 4 ? std::string("partitioning strategies 1-4 with vta_compiler.conv_lowering im2row")
                                    : std::string("the direct lowering and im2row with partitioning strategies 1-4")) +
                         "); expected K in [1, " + std::to_string(kmax) + "]");
}

VtaRefinement refine_vta(const mv::NetGraph& g, const mv::DriverOptions& opt, const config::PlatformSpec& spec,
                         const std::string& vp_run) {
    VtaRefinement r;
    r.k = spec.mapper.refine;
    const int k = r.k;
    check_vta_refine_k(k, opt);
    const std::size_t n = g.net.layers.size();
    r.per_layer.assign(n, json());
    r.strategy.assign(n, 0);
    r.lowering.assign(n, mv::DriverOptions::ConvLowering::Auto);
    std::map<std::string, std::size_t> first;  // shape -> first layer of that shape
    std::vector<std::vector<mv::StrategyCandidate>> ranked(n);
    std::vector<CandidateJob> jobs;
    std::vector<std::pair<std::size_t, std::size_t>> job_of;  // (layer, candidate)
    for (std::size_t i = 0; i < n; ++i) {
        const mapper::Layer& l = g.net.layers[i];
        if (!mv::has_strategy_choice(l)) continue;
        if (!first.emplace(shape_key(l), i).second) continue;
        ranked[i] = mv::rank_strategies(l, spec.vta.core, opt);
        if (ranked[i].size() < 2) continue;  // one program whatever the strategy: nothing to choose
        mapper::Network one;
        one.name = g.net.name + "/" + l.name;
        one.precision_bits = 8;
        mapper::Layer c = l;
        c.inputs.clear();
        one.layers.push_back(c);
        const json doc = json::parse(mapper::network_to_json(one).dump());
        for (std::size_t j = 0; j < ranked[i].size() && j < std::size_t(k); ++j) {
            jobs.push_back({doc, mv::candidate_settings(ranked[i][j])});
            job_of.emplace_back(i, j);
        }
    }
    SimSetup setup;
    setup.vp_run = vp_run;
    setup.stat_path = "vta.cycles";
    setup.parallel = parallel_limit(spec.sim.threads);
    setup.tag = "vta-refine";
    const auto res = simulate_candidates(spec, setup, jobs);
    std::map<std::size_t, std::vector<double>> sim;  // layer -> simulated cycles per candidate
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const auto [i, c] = job_of[j];
        if (!res[j].ok)
            throw SimulationError("refinement of layer \"" + g.net.layers[i].name + "\", " +
                                  mv::candidate_name(ranked[i][c]) + ": " + res[j].error);
        sim[i].push_back(res[j].value);
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (ranked[i].empty()) continue;
        const auto it = sim.find(i);
        std::size_t pick = 0;
        json cands = json::array();
        for (std::size_t j = 0; j < ranked[i].size() && j < std::size_t(k); ++j) {
            const auto& c = ranked[i][j];
            json cj = {{"lowering", c.direct ? "direct" : "im2row"},
                       {"strategy", c.strategy},
                       {"estimated_cycles", c.estimated_cycles},
                       {"simulated_cycles", nullptr}};
            if (it != sim.end()) {
                const double s = it->second[j];
                cj["simulated_cycles"] = s;
                if (s < it->second[pick]) pick = j;  // ties keep the better estimate
                r.cand_est.push_back(double(c.estimated_cycles));
                r.cand_sim.push_back(s);
            }
            cands.push_back(cj);
        }
        const mv::StrategyCandidate& pc = ranked[i][pick];
        r.per_layer[i] = {{"distinct_candidates", ranked[i].size()}, {"candidates", cands}, {"pick", pick},
                          {"lowering", pc.direct ? "direct" : "im2row"}, {"strategy", pc.strategy}};
        r.strategy[i] = pc.strategy;
        r.lowering[i] = pc.direct ? mv::DriverOptions::ConvLowering::Direct : mv::DriverOptions::ConvLowering::Im2row;
    }
    // Every layer of a shape takes its shape's pick.
    for (std::size_t i = 0; i < n; ++i) {
        const mapper::Layer& l = g.net.layers[i];
        if (!mv::has_strategy_choice(l)) continue;
        const std::size_t u = first.at(shape_key(l));
        if (u == i) continue;
        r.per_layer[i] = r.per_layer[u];
        r.per_layer[i]["shared_with"] = g.net.layers[u].name;
        r.strategy[i] = r.strategy[u];
        r.lowering[i] = r.lowering[u];
    }
    return r;
}

}  // namespace vp::refine
