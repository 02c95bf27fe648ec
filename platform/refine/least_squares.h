#pragma once
// Levenberg-Marquardt least squares for small coefficient fits (vp-calibrate): minimises the
// sum of squared residuals r(x) over a few coefficients, forward-difference Jacobian,
// coefficients clamped to [lo, hi] after every step.
#include <functional>
#include <vector>

namespace vp::refine {

using Residuals = std::function<std::vector<double>(const std::vector<double>&)>;

std::vector<double> least_squares(const Residuals& r, std::vector<double> x, const std::vector<double>& lo,
                                  const std::vector<double>& hi, int iterations = 40);

}  // namespace vp::refine
