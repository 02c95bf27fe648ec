#include "mapper/waving/mva.h"

#include <algorithm>
#include <cmath>

namespace vp::mapper::waving {

std::vector<MvaPoint> mva_exact(const std::vector<MvaStation>& st, int n_max) {
    std::vector<MvaPoint> out;
    if (st.empty() || n_max < 1) return out;
    out.reserve(std::size_t(n_max));
    std::vector<double> q(st.size(), 0.0);  // mean queue length at population n - 1
    std::vector<double> r(st.size(), 0.0);
    for (int n = 1; n <= n_max; ++n) {
        double rt = 0;
        for (std::size_t i = 0; i < st.size(); ++i) {
            r[i] = st[i].delay ? st[i].demand : st[i].demand * (1.0 + q[i]);  // arrival theorem
            rt += r[i];
        }
        const double x = rt > 0 ? double(n) / rt : 0.0;
        for (std::size_t i = 0; i < st.size(); ++i) q[i] = x * r[i];      // Little per station
        out.push_back(MvaPoint{x, rt});
    }
    return out;
}

ClosedPoint closed_delay_station(double z, const std::vector<double>& rates, int n) {
    ClosedPoint p;
    if (n < 1 || rates.empty() || !(z > 0)) return p;
    auto mu = [&](int j) { return rates[std::size_t(std::min<int>(j, int(rates.size())) - 1)]; };
    // Birth-death chain on j customers at the station: p(j) / p(j - 1) = ((N - j + 1) / Z) / mu(j).
    // Unnormalised weights with a running rescale (no overflow for large N).
    std::vector<double> w(std::size_t(n) + 1, 0.0);
    w[0] = 1.0;
    for (int j = 1; j <= n; ++j) {
        w[std::size_t(j)] = w[std::size_t(j) - 1] * (double(n - j + 1) / z) / mu(j);
        if (w[std::size_t(j)] > 1e200)
            for (int i = 0; i <= j; ++i) w[std::size_t(i)] *= 1e-200;
    }
    double sum = 0, x = 0, q = 0;
    for (int j = 0; j <= n; ++j) sum += w[std::size_t(j)];
    for (int j = 1; j <= n; ++j) {
        const double pj = w[std::size_t(j)] / sum;
        x += pj * mu(j);
        q += pj * double(j);
    }
    p.throughput = x;
    p.mean_queue = q;
    p.response = x > 0 ? q / x : 0.0;  // Little at the station (= N / X - Z)
    return p;
}

}  // namespace vp::mapper::waving
