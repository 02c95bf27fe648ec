#include "platform/refine/vta_calibrate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>

#include "mapper/common/errors.h"
#include "mapper/vta/strategy_candidates.h"
#include "platform/config/vta_calibration.h"
#include "platform/refine/candidate_sim.h"
#include "platform/refine/child_runner.h"
#include "platform/refine/fit_report.h"
#include "platform/refine/least_squares.h"
#include "platform/refine/trust.h"
#include "platform/refine/vta_refine.h"
#include "vp_version.h"

namespace vp::refine {

namespace mv = mapper::vta;
using nlohmann::json;

namespace {

struct VtaSample {
    json layer;
    mv::StrategyCandidate candidate;  // direct, or im2row with a strategy (conv / fc)
    bool choice = false;              // a conv / fc (pooling and adds have one program)
    std::vector<mv::CompiledProgram> programs;  // instruction streams (images dropped)
    double sim = 0;
};

// Synthetic layers spread over the shapes the lowering produces (deterministic for a seed):
// 6 in 10 dense convs, 1 depthwise conv, 1 fc, 1 max pooling, 1 eltwise add.
std::vector<json> design_layers(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::initializer_list<int> v) {
        return *(v.begin() + std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng));
    };
    std::vector<json> out;
    for (int i = 0; i < n; ++i) {
        const std::string name = "cal" + std::to_string(i);
        const int kind = i % 10;
        if (kind <= 5) {
            const int r = pick({1, 1, 3, 3, 3, 5});
            const int hw = pick({4, 6, 8, 12, 14, 16, 28, 32});
            out.push_back({{"name", name}, {"type", "conv"}, {"C", pick({3, 8, 16, 32, 64, 128, 256})},
                           {"K", pick({8, 16, 32, 64, 128, 256})}, {"H", hw}, {"W", hw}, {"R", r}, {"S", r},
                           {"stride", pick({1, 1, 2})}, {"pad", r / 2}, {"relu", kind % 2 == 0}});
        } else if (kind == 6) {
            const int c = pick({16, 32, 64, 96});
            const int hw = pick({7, 14, 28});
            out.push_back({{"name", name}, {"type", "conv"}, {"C", c}, {"K", c}, {"H", hw}, {"W", hw}, {"R", 3}, {"S", 3},
                           {"stride", pick({1, 2})}, {"pad", 1}, {"groups", c}, {"relu", true}});
        } else if (kind == 7) {
            out.push_back({{"name", name}, {"type", "fc"}, {"in", pick({64, 256, 512, 1024, 2048})},
                           {"out", pick({10, 64, 128, 256, 1000})}, {"relu", true}});
        } else if (kind == 8) {
            const int hw = pick({8, 16, 28, 32});
            const bool gather = pick({0, 1}) == 1;  // 3x3 stride 2 pad 1: host-gathered windows
            out.push_back({{"name", name}, {"type", "pool"}, {"op", "max"}, {"C", pick({16, 32, 64})}, {"H", hw},
                           {"W", hw}, {"R", gather ? 3 : 2}, {"S", gather ? 3 : 2}, {"stride", 2},
                           {"pad", gather ? 1 : 0}});
        } else {
            const int hw = pick({8, 14, 16, 28, 32});
            out.push_back({{"name", name}, {"type", "eltwise"}, {"op", "add"}, {"C", pick({16, 32, 64, 128})},
                           {"H", hw}, {"W", hw}, {"relu", true}});
        }
    }
    return out;
}

mv::VtaCoefficients coefficients_of(const std::vector<double>& x) {
    mv::VtaCoefficients c;
    c.latency_scale = x[0];
    c.bus_scale = x[1];
    c.txn_cycles = x[2];
    c.insn_cycles = x[3];
    return c;
}

double estimate(const VtaSample& s, const mv::EstimateParams& base, const mv::VtaCoefficients& c) {
    mv::EstimateParams e = base;
    e.coef = c;
    double t = 0;
    for (const auto& p : s.programs) t += double(mv::estimate_cycles(p, e).total);
    return t;
}

std::vector<double> residuals(const std::vector<VtaSample>& ss, const mv::EstimateParams& base, const mv::VtaCoefficients& c) {
    std::vector<double> r;
    r.reserve(ss.size());
    for (const auto& s : ss) r.push_back(estimate(s, base, c) / s.sim - 1.0);
    return r;
}


}  // namespace

int calibrate_vta(const config::PlatformSpec& spec_in, const std::string& out, int n_shapes, std::uint64_t seed,
                  unsigned jobs) {
    const auto t0 = std::chrono::steady_clock::now();
    config::PlatformSpec spec = spec_in;
    spec.vta_compiler.estimate_model = "calibrated";
    spec.vta_compiler.coefficients = mv::VtaCoefficients{};  // fit from the physical figures
    const mv::DriverOptions opt = vta_driver_options(spec);
    std::vector<VtaSample> ss;
    std::vector<CandidateJob> cj;
    for (const json& lj : design_layers(n_shapes, seed)) {
        const json doc = {{"name", "calibration"}, {"precision", 8}, {"layers", json::array({lj})}};
        const mapper::Layer l = mapper::parse_network(doc, "calibration design").layers.at(0);
        std::vector<mv::StrategyCandidate> cands = {mv::StrategyCandidate{false, 1}};
        if (mv::has_strategy_choice(l)) cands = mv::rank_strategies(l, spec.vta.core, opt);
        for (const auto& c : cands) {
            VtaSample smp;
            smp.layer = lj;
            smp.candidate = c;
            smp.choice = mv::has_strategy_choice(l);
            smp.programs = mv::layer_programs(l, spec.vta.core, opt, c);
            ss.push_back(std::move(smp));
            cj.push_back({doc, mv::candidate_settings(c)});
        }
    }
    std::cout << "vp-calibrate " << VP_VERSION << ": " << ss.size() << " single-layer VTA simulations (" << n_shapes
              << " synthetic layers, every distinct candidate of a conv/fc: direct, im2row strategies 1-4), " << jobs
              << " at a time\n";
    SimSetup setup;
    setup.vp_run = sibling_program("vp-run");
    setup.stat_path = "vta.cycles";
    setup.parallel = jobs;
    setup.tag = "calibrate-vta";
    const auto res = simulate_candidates(spec, setup, cj);
    for (std::size_t i = 0; i < ss.size(); ++i) {
        if (!res[i].ok) throw SimulationError("calibration layer " + ss[i].layer.dump() + ": " + res[i].error);
        ss[i].sim = res[i].value;
    }
    const std::vector<double> x0 = {1, 1, 0, 0};
    LeastSquares ls;
    ls.residuals = [&](const std::vector<double>& x) { return residuals(ss, opt.estimate, coefficients_of(x)); };
    ls.lo = {0, 0.1, -100, -100};
    ls.hi = {20, 10, 100, 100};
    ls.max_iterations = 40;
    const std::vector<double> x1 = fit_least_squares(ls, x0);
    const mv::VtaCoefficients before = coefficients_of(x0), after = coefficients_of(x1);
    const auto r0 = residuals(ss, opt.estimate, before), r1 = residuals(ss, opt.estimate, after);
    std::printf("%-6s %-8s %5s %5s %5s %3s %3s %-9s %12s %9s %9s\n", "layer", "type", "C", "K", "H", "R", "str", "program",
                "sim cycles", "err0 %", "err %");
    std::vector<double> est1, sim;
    for (std::size_t i = 0; i < ss.size(); ++i) {
        const json& l = ss[i].layer;
        const std::string type = l["type"];
        std::printf("%-6s %-8s %5d %5d %5d %3d %3d %-9s %12.0f %9.2f %9.2f\n", l["name"].get<std::string>().c_str(),
                    type.c_str(), l.value("C", l.value("in", 0)), l.value("K", l.value("out", 0)), l.value("H", 1),
                    l.value("R", 1), l.value("stride", 1), ss[i].choice ? mv::candidate_name(ss[i].candidate).c_str() : "-", ss[i].sim,
                    100 * r0[i], 100 * r1[i]);
        est1.push_back(estimate(ss[i], opt.estimate, after));
        sim.push_back(ss[i].sim);
    }
    const FitStats s0 = abs_stats(r0), s1 = abs_stats(r1);
    const double rho = spearman(est1, sim);
    std::printf("fit over %zu samples: |est/sim - 1| median %.2f %% -> %.2f %%, mean %.2f %% -> %.2f %%, worst %.2f %% "
                "-> %.2f %%; Spearman rho %.4f\n",
                ss.size(), 100 * s0.median, 100 * s1.median, 100 * s0.mean, 100 * s1.mean, 100 * s0.worst, 100 * s1.worst,
                rho);
    std::printf("coefficients: latency_scale=%.5g bus_scale=%.5g txn_cycles=%.5g insn_cycles=%.5g\n", after.latency_scale,
                after.bus_scale, after.txn_cycles, after.insn_cycles);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("wall %.1f s\n", wall);
    const YAML::Node f = fit_node(ss.size(), n_shapes, seed, s0, s1, rho);
    write_calibration_file(out, config::vta_calibration_yaml(spec, after, f), "vta_compiler.calibration");
    return 0;
}

}  // namespace vp::refine
