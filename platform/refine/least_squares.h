#pragma once
// Bounded nonlinear least squares for calibration fits: Gauss-Newton with Levenberg-Marquardt
// damping on a residual vector, forward-difference Jacobian, every parameter clamped to its
// box after each step. A handful of parameters and a few hundred residuals.
#include <functional>
#include <vector>

namespace vp::refine {

struct LeastSquares {
    std::function<std::vector<double>(const std::vector<double>&)> residuals;
    std::vector<double> lo, hi;  // box of each parameter
    int max_iterations = 60;
};

double sum_of_squares(const std::vector<double>& r);
// Returns the parameters that minimise the sum of squared residuals, starting at x0.
std::vector<double> fit_least_squares(const LeastSquares& p, std::vector<double> x0);

}  // namespace vp::refine
