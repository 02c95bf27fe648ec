#include "platform/refine/least_squares.h"

#include <algorithm>
#include <cmath>

namespace vp::refine {

double sum_of_squares(const std::vector<double>& r) {
    double s = 0;
    for (double x : r) s += x * x;
    return s;
}

namespace {

// Solves (A + lambda diag A) x = b (small dense system, Gaussian elimination with pivoting).
std::vector<double> solve(std::vector<std::vector<double>> A, std::vector<double> b, double lambda) {
    const std::size_t n = b.size();
    for (std::size_t i = 0; i < n; ++i) A[i][i] = A[i][i] * (1 + lambda) + 1e-12;
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t p = i;
        for (std::size_t k = i + 1; k < n; ++k)
            if (std::fabs(A[k][i]) > std::fabs(A[p][i])) p = k;
        std::swap(A[i], A[p]);
        std::swap(b[i], b[p]);
        for (std::size_t k = i + 1; k < n; ++k) {
            const double f = A[k][i] / A[i][i];
            for (std::size_t j = i; j < n; ++j) A[k][j] -= f * A[i][j];
            b[k] -= f * b[i];
        }
    }
    std::vector<double> x(n, 0);
    for (std::size_t ii = n; ii-- > 0;) {
        double s = b[ii];
        for (std::size_t j = ii + 1; j < n; ++j) s -= A[ii][j] * x[j];
        x[ii] = s / A[ii][ii];
    }
    return x;
}

}  // namespace

std::vector<double> fit_least_squares(const LeastSquares& p, std::vector<double> x) {
    const std::size_t n = x.size();
    auto clamp = [&](std::vector<double>& v) {
        for (std::size_t i = 0; i < n; ++i) v[i] = std::clamp(v[i], p.lo[i], p.hi[i]);
    };
    clamp(x);
    double lambda = 1e-2;
    std::vector<double> r = p.residuals(x);
    double cost = sum_of_squares(r);
    for (int it = 0; it < p.max_iterations; ++it) {
        std::vector<std::vector<double>> J(r.size(), std::vector<double>(n));
        for (std::size_t k = 0; k < n; ++k) {
            std::vector<double> d = x;
            double h = std::max(1e-4, 1e-4 * std::fabs(x[k]));
            if (d[k] + h > p.hi[k]) h = -h;  // stay inside the box
            d[k] += h;
            const auto rd = p.residuals(d);
            for (std::size_t i = 0; i < r.size(); ++i) J[i][k] = (rd[i] - r[i]) / h;
        }
        std::vector<std::vector<double>> A(n, std::vector<double>(n, 0));
        std::vector<double> g(n, 0);
        for (std::size_t i = 0; i < r.size(); ++i)
            for (std::size_t a = 0; a < n; ++a) {
                g[a] -= J[i][a] * r[i];
                for (std::size_t b = 0; b < n; ++b) A[a][b] += J[i][a] * J[i][b];
            }
        bool improved = false;
        for (int tries = 0; tries < 10 && !improved; ++tries) {
            const auto step = solve(A, g, lambda);
            std::vector<double> nx = x;
            for (std::size_t k = 0; k < n; ++k) nx[k] += step[k];
            clamp(nx);
            const auto rn = p.residuals(nx);
            const double nc = sum_of_squares(rn);
            if (nc < cost) {
                const double old = cost;
                x = nx;
                r = rn;
                cost = nc;
                lambda = std::max(1e-7, lambda / 3);
                improved = true;
                if (old - cost < 1e-10 * old) return x;
            } else {
                lambda *= 4;
            }
        }
        if (!improved) break;
    }
    return x;
}

}  // namespace vp::refine
