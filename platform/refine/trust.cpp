#include "platform/refine/trust.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace vp::refine {

namespace {

std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<std::size_t> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < idx.size();) {
        std::size_t j = i;
        while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
        const double avg = 0.5 * double(i + j) + 1.0;
        for (std::size_t k = i; k <= j; ++k) r[idx[k]] = avg;
        i = j + 1;
    }
    return r;
}

}  // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    const std::size_t n = std::min(a.size(), b.size());
    if (n < 2) return 0;
    const auto ra = ranks(std::vector<double>(a.begin(), a.begin() + std::ptrdiff_t(n)));
    const auto rb = ranks(std::vector<double>(b.begin(), b.begin() + std::ptrdiff_t(n)));
    const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / double(n);
    const double mb = std::accumulate(rb.begin(), rb.end(), 0.0) / double(n);
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sab += (ra[i] - ma) * (rb[i] - mb);
        saa += (ra[i] - ma) * (ra[i] - ma);
        sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

std::string spearman_undefined(const std::vector<double>& a, const std::vector<double>& b) {
    const std::size_t n = std::min(a.size(), b.size());
    if (n < 2) return n == 1 ? "one candidate" : "no candidates";
    const auto same = [n](const std::vector<double>& v) {
        return std::all_of(v.begin(), v.begin() + std::ptrdiff_t(n), [&](double x) { return x == v[0]; });
    };
    if (same(a)) return "every estimate equal";
    if (same(b)) return "every simulation equal";
    return "";
}

Trust trust_of(const std::vector<double>& layer_est, const std::vector<double>& layer_sim,
               const std::vector<double>& cand_est, const std::vector<double>& cand_sim,
               const std::vector<std::string>& layer_names) {
    Trust t;
    std::vector<double> err;
    for (std::size_t i = 0; i < layer_est.size() && i < layer_sim.size(); ++i) {
        if (!(layer_est[i] > 0)) continue;
        const double e = layer_sim[i] / layer_est[i] - 1.0;
        if (err.empty() || std::fabs(e) > std::fabs(t.worst_sim_over_est_minus_1)) {
            t.worst_sim_over_est_minus_1 = e;
            t.worst_layer = i < layer_names.size() ? layer_names[i] : "";
        }
        err.push_back(std::fabs(e));
    }
    t.layers = err.size();
    if (!err.empty()) {
        std::sort(err.begin(), err.end());
        const std::size_t n = err.size();
        t.median_abs_err = n % 2 ? err[n / 2] : 0.5 * (err[n / 2 - 1] + err[n / 2]);
        t.worst_abs_err = err.back();
    }
    t.candidates = std::min(cand_est.size(), cand_sim.size());
    t.spearman_rho = spearman(cand_est, cand_sim);
    t.rho_undefined = spearman_undefined(cand_est, cand_sim);
    return t;
}

nlohmann::json Trust::to_json() const {
    nlohmann::json j = {{"layers", layers},
                        {"median_abs_sim_over_est_minus_1", median_abs_err},
                        {"worst_abs_sim_over_est_minus_1", worst_abs_err},
                        {"simulated_candidates", candidates},
                        {"spearman_rho", rho_undefined.empty() ? nlohmann::json(spearman_rho) : nlohmann::json(nullptr)}};
    if (!rho_undefined.empty()) j["spearman_rho_undefined"] = rho_undefined;
    if (layers > 0) {
        j["worst_sim_over_est_minus_1"] = worst_sim_over_est_minus_1;
        if (!worst_layer.empty()) j["worst_layer"] = worst_layer;
    }
    return j;
}

std::string worst_layer_text(double abs_err, const std::string& layer, double signed_err) {
    std::ostringstream os;
    os.setf(std::ios::fixed);
    os.precision(1);
    os << 100 * abs_err << " %";
    if (!layer.empty() && signed_err != 0)
        os << " (" << layer << ", simulated " << (signed_err > 0 ? "slower" : "faster") << " than estimated)";
    return os.str();
}

std::string Trust::worst_text() const { return worst_layer_text(worst_abs_err, worst_layer, worst_sim_over_est_minus_1); }

std::string Trust::rho_text() const {
    if (!rho_undefined.empty()) return "undefined (" + rho_undefined + ")";
    std::ostringstream os;
    os.setf(std::ios::fixed);
    os.precision(3);
    os << spearman_rho;
    return os.str();
}

}  // namespace vp::refine
