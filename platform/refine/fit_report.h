#pragma once
// What every calibration (vp-calibrate on nmp, mesh and vta) reports of its fit: the median, mean
// and worst |estimate / simulation - 1| before and after fitting, as printed and as stored in the
// calibration file's `fit` section, and the file itself written atomically.
#include <cstdint>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace vp::refine {

struct FitStats {
    double median = 0, worst = 0, mean = 0;
};
// Statistics of |r| over the relative residuals r (all zero when r is empty).
FitStats abs_stats(std::vector<double> r);

// The `fit` section: samples, design size and seed, the residual statistics before (s0) and
// after (s1) fitting and the Spearman rho of estimate vs simulation.
YAML::Node fit_node(std::size_t samples, int shapes, std::uint64_t seed, const FitStats& s0, const FitStats& s1,
                    double rho);

// Writes `text` to `out` through OUT.incomplete and a rename (no half-written calibration file),
// then says where it went and which key includes it.
void write_calibration_file(const std::string& out, const std::string& text, const std::string& include_key);

}  // namespace vp::refine
