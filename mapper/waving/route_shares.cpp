#include "mapper/waving/route_shares.h"

#include <algorithm>
#include <cstddef>

namespace vp::mapper::waving {

namespace {

// Routers from `from` to `to`, X first (both ends included).
std::vector<MeshNode> xy_route(MeshNode from, const MeshNode& to) {
    std::vector<MeshNode> r{from};
    while (from.x != to.x) {
        from.x += to.x > from.x ? 1 : -1;
        r.push_back(from);
    }
    while (from.y != to.y) {
        from.y += to.y > from.y ? 1 : -1;
        r.push_back(from);
    }
    return r;
}

int nearest(const std::vector<MeshNode>& ifs, const MeshNode& n) {
    int best = 0;
    for (int i = 1; i < int(ifs.size()); ++i)
        if (hops(n, ifs[std::size_t(i)]) < hops(n, ifs[std::size_t(best)])) best = i;
    return best;
}

}  // namespace

std::vector<double> route_shares(const std::vector<MeshNode>& active, const std::vector<MeshNode>& dram_ifs) {
    const std::size_t k = active.size();
    std::vector<double> phi(k, 1.0);
    if (dram_ifs.empty() || k == 0) return phi;
    std::vector<int> dest(k);
    std::vector<std::vector<MeshNode>> routes(k);
    for (std::size_t i = 0; i < k; ++i) {
        dest[i] = nearest(dram_ifs, active[i]);
        routes[i] = xy_route(active[i], dram_ifs[std::size_t(dest[i])]);
    }
    // The input by which core c enters the router at step `at` of its route: its own local
    // port at step 0, else the previous router (a node; the local port is coded as the router).
    auto input_of = [&](std::size_t c, std::size_t at) { return at == 0 ? routes[c][0] : routes[c][at - 1]; };
    for (std::size_t i = 0; i < k; ++i)
        for (std::size_t a = 0; a < routes[i].size(); ++a) {
            const MeshNode& r = routes[i][a];
            std::vector<MeshNode> inputs;  // distinct inputs of r with traffic to the same interface
            for (std::size_t c = 0; c < k; ++c) {
                if (dest[c] != dest[i]) continue;
                const auto it = std::find(routes[c].begin(), routes[c].end(), r);
                if (it == routes[c].end()) continue;
                const MeshNode in = input_of(c, std::size_t(it - routes[c].begin()));
                if (std::find(inputs.begin(), inputs.end(), in) == inputs.end()) inputs.push_back(in);
            }
            phi[i] /= double(inputs.size());
        }
    return phi;
}

std::vector<double> sharing_by_share(const std::vector<double>& work, const std::vector<double>& phi) {
    std::vector<double> out(work.size(), 1.0);
    for (std::size_t i = 0; i < work.size(); ++i) {
        if (work[i] <= 0) continue;
        const double v = work[i] / phi[i];  // the virtual time at which core i is done
        double served = 0;
        for (std::size_t j = 0; j < work.size(); ++j) served += std::min(std::max(work[j], 0.0), phi[j] * v);
        out[i] = served / work[i];
    }
    return out;
}

std::vector<double> tail_by_share(const std::vector<double>& work, const std::vector<double>& phi) {
    const std::vector<double> f = sharing_by_share(work, phi);
    std::vector<double> t(work.size(), 0.0), out(work.size(), 0.0);
    double first = 0;
    bool any = false;
    for (std::size_t i = 0; i < work.size(); ++i) {
        if (work[i] <= 0) continue;
        t[i] = f[i] * work[i];
        first = any ? std::min(first, t[i]) : t[i];
        any = true;
    }
    for (std::size_t i = 0; i < work.size(); ++i)
        if (work[i] > 0 && t[i] > 0) out[i] = std::clamp(1.0 - first / t[i], 0.0, 1.0);
    return out;
}

}  // namespace vp::mapper::waving
