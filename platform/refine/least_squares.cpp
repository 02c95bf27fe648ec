#include "platform/refine/least_squares.h"

#include <algorithm>
#include <cmath>

namespace vp::refine {

namespace {

double sumsq(const std::vector<double>& r) {
    double s = 0;
    for (double v : r) s += v * v;
    return s;
}

// (A + lambda diag A) d = b by Gaussian elimination with partial pivoting (n is small).
std::vector<double> solve_damped(std::vector<std::vector<double>> A, std::vector<double> b, double lambda) {
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
    for (std::size_t i = n; i-- > 0;) {
        double s = b[i];
        for (std::size_t j = i + 1; j < n; ++j) s -= A[i][j] * x[j];
        x[i] = s / A[i][i];
    }
    return x;
}

}  // namespace

std::vector<double> least_squares(const Residuals& res, std::vector<double> x, const std::vector<double>& lo,
                                  const std::vector<double>& hi, int iterations) {
    const std::size_t n = x.size();
    auto clamp = [&](std::vector<double>& v) {
        for (std::size_t k = 0; k < n; ++k) v[k] = std::clamp(v[k], lo[k], hi[k]);
    };
    double lambda = 1e-2;
    std::vector<double> r = res(x);
    double cost = sumsq(r);
    for (int it = 0; it < iterations; ++it) {
        std::vector<std::vector<double>> J(r.size(), std::vector<double>(n));
        for (std::size_t k = 0; k < n; ++k) {
            std::vector<double> d = x;
            const double h = std::max(1e-4, 1e-4 * std::fabs(x[k]));
            d[k] += h;
            const auto rd = res(d);
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
        for (int tries = 0; tries < 8 && !improved; ++tries) {
            const auto step = solve_damped(A, g, lambda);
            std::vector<double> nx = x;
            for (std::size_t k = 0; k < n; ++k) nx[k] += step[k];
            clamp(nx);
            const auto rn = res(nx);
            const double c = sumsq(rn);
            if (c < cost) {
                const double old = cost;
                x = nx;
                r = rn;
                cost = c;
                lambda = std::max(1e-6, lambda / 3);
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
