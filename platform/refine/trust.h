#pragma once
// How far a cost model can be trusted, from estimate / simulation pairs: the median and the
// worst |simulated / estimated - 1| over layers, and Spearman's rank correlation of estimate
// vs simulation over the simulated candidates.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vp::refine {

// Spearman's rho with average ranks for ties; 0 when fewer than 2 points or no spread.
double spearman(const std::vector<double>& a, const std::vector<double>& b);
// Why rho is undefined for these points ("" when it is defined): fewer than 2 points, or every
// value of a (or of b) equal, so that there are no ranks to compare.
std::string spearman_undefined(const std::vector<double>& a, const std::vector<double>& b);

struct Trust {
    std::size_t layers = 0;
    double median_abs_err = 0, worst_abs_err = 0;  // |sim/est - 1| over layers
    std::string worst_layer;                       // the layer of worst_abs_err ("" when not named)
    double worst_sim_over_est_minus_1 = 0;         // its signed sim/est - 1 (> 0: simulated slower)
    std::size_t candidates = 0;
    double spearman_rho = 0;                       // over the candidates (0 when undefined)
    std::string rho_undefined;                     // spearman_undefined() of the candidates
    // JSON: spearman_rho is null when undefined, with spearman_rho_undefined saying why.
    nlohmann::json to_json() const;
    // For summaries: "0.978", or "undefined (...)".
    std::string rho_text() const;
    // For summaries: "18.1 % (res5a_branch2a, simulated slower than estimated)", or "18.1 %".
    std::string worst_text() const;
};

// "18.1 % (res5a_branch2a, simulated slower than estimated)" for the worst |sim/est - 1| =
// abs_err of the layer `layer` whose sim/est - 1 is `signed_err`; "18.1 %" when `layer` is empty.
std::string worst_layer_text(double abs_err, const std::string& layer, double signed_err);

// layer_est/layer_sim: one pair per layer (layer_names: their names, or empty); cand_est/cand_sim:
// the simulated candidates. The worst layer is the first of the largest |sim/est - 1|.
Trust trust_of(const std::vector<double>& layer_est, const std::vector<double>& layer_sim,
               const std::vector<double>& cand_est, const std::vector<double>& cand_sim,
               const std::vector<std::string>& layer_names = {});

}  // namespace vp::refine
