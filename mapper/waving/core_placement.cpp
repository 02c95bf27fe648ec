#include "mapper/waving/core_placement.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <numeric>

namespace vp::mapper::waving {

namespace {

// The next router from `r` towards `to` under XY routing (X first).
MeshNode next_hop(MeshNode r, const MeshNode& to) {
    if (r.x != to.x) r.x += to.x > r.x ? 1 : -1;
    else if (r.y != to.y) r.y += to.y > r.y ? 1 : -1;
    return r;
}

// Routers of the routes' tree towards one interface: from any router the rest of an XY route is
// fixed (a packet in its Y leg is already in the interface's column), so the routes form a tree
// rooted at the interface's router.
struct Tree {
    std::vector<MeshNode> nodes;       // routers on some route
    std::vector<int> parent;           // index of the next router; -1 at the root
    std::vector<std::vector<int>> children;
    std::vector<int> core_at;          // per router: the active core whose local port it is, -1 none
    int root = -1;
};

int find(const Tree& t, const MeshNode& n) {
    for (std::size_t i = 0; i < t.nodes.size(); ++i)
        if (t.nodes[i] == n) return int(i);
    return -1;
}

int find_or_add(Tree& t, const MeshNode& n) {
    const int i = find(t, n);
    if (i >= 0) return i;
    t.nodes.push_back(n);
    t.parent.push_back(-1);
    t.children.emplace_back();
    t.core_at.push_back(-1);
    return int(t.nodes.size()) - 1;
}

Tree build_tree(const std::vector<MeshNode>& cores, const MeshNode& to) {
    Tree t;
    t.root = find_or_add(t, to);
    for (std::size_t c = 0; c < cores.size(); ++c) {
        int cur = find_or_add(t, cores[c]);
        t.core_at[std::size_t(cur)] = int(c);
        // Up the route until a router already linked: the rest of its route is in the tree.
        for (MeshNode r = cores[c]; !(r == to) && t.parent[std::size_t(cur)] < 0;) {
            r = next_hop(r, to);
            const int up = find_or_add(t, r);
            t.parent[std::size_t(cur)] = up;
            t.children[std::size_t(up)].push_back(cur);
            cur = up;
        }
    }
    return t;
}

// Max-min fair split of `cap` among demands d: each gets min(d, level), the level chosen so the
// split uses cap (or every demand is met).
std::vector<double> water_fill(const std::vector<double>& d, double cap) {
    std::vector<double> out(d.size(), 0.0);
    std::vector<std::size_t> idx(d.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return d[a] < d[b]; });
    double left = cap;
    std::size_t n = idx.size();
    for (std::size_t i = 0; i < idx.size(); ++i, --n) {
        const double fair = left / double(n);
        const double give = std::min(d[idx[i]], fair);
        out[idx[i]] = give;
        left -= give;
    }
    return out;
}

}  // namespace

std::vector<double> route_shares(const std::vector<MeshNode>& active, const std::vector<MeshNode>& dram_ifs) {
    std::vector<double> phi(active.size(), 1.0);
    if (dram_ifs.empty()) return phi;
    for (std::size_t f = 0; f < dram_ifs.size(); ++f) {
        std::vector<MeshNode> mine;
        std::vector<std::size_t> which;
        for (std::size_t i = 0; i < active.size(); ++i)
            if (nearest_of(dram_ifs, active[i]) == int(f)) {
                mine.push_back(active[i]);
                which.push_back(i);
            }
        if (mine.empty()) continue;
        const Tree t = build_tree(mine, dram_ifs[f]);
        // Inputs with traffic per router: its local core, and each child subtree (every router
        // of the tree is on some core's route, so every child carries traffic).
        auto inputs = [&](int r) {
            return double(t.children[std::size_t(r)].size()) + (t.core_at[std::size_t(r)] >= 0 ? 1.0 : 0.0);
        };
        for (std::size_t c = 0; c < mine.size(); ++c) {
            int r = find(t, mine[c]);
            double s = 1.0;
            while (r >= 0) {
                s /= inputs(r);
                r = t.parent[std::size_t(r)];
            }
            phi[which[c]] = s;
        }
    }
    return phi;
}

double fluid_makespan(const std::vector<MeshNode>& nodes, const MeshNode& dram_if, const std::vector<double>& compute,
                      const std::vector<double>& shared) {
    const std::size_t k = nodes.size();
    const Tree t = build_tree(nodes, dram_if);
    std::vector<double> left(k, 1.0);  // the share of each core's job still to do
    std::vector<char> done(k, 0);
    for (std::size_t i = 0; i < k; ++i)
        if (compute[i] <= 0 && shared[i] <= 0) done[i] = 1;
    // A core's demand while it has work (capacity per cycle, at most all of it): shared / compute,
    // what its compute lets it use.
    auto demand = [&](int c) {
        if (c < 0 || done[std::size_t(c)]) return 0.0;
        const std::size_t i = std::size_t(c);
        return compute[i] > 0 ? std::min(shared[i] / compute[i], 1.0) : 1.0;
    };
    const std::size_t nr = t.nodes.size();
    std::vector<double> sub(nr), alloc(k);
    std::vector<int> order;  // routers children first
    {
        std::vector<int> st{t.root};
        while (!st.empty()) {
            const int r = st.back();
            st.pop_back();
            order.push_back(r);
            for (int c : t.children[std::size_t(r)]) st.push_back(c);
        }
        std::reverse(order.begin(), order.end());
    }
    double now = 0;
    for (;;) {
        // Subtree demands, leaves up.
        for (int r : order) {
            double d = demand(t.core_at[std::size_t(r)]);
            for (int ch : t.children[std::size_t(r)]) d += sub[std::size_t(ch)];
            sub[std::size_t(r)] = d;
        }
        // Allocation, root down.
        std::vector<double> cap(nr, 0.0);
        cap[std::size_t(t.root)] = 1.0;
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const int r = *it;
            std::vector<double> d;
            const int c = t.core_at[std::size_t(r)];
            const bool local = c >= 0 && !done[std::size_t(c)];
            if (local) d.push_back(demand(c));
            for (int ch : t.children[std::size_t(r)]) d.push_back(sub[std::size_t(ch)]);
            const std::vector<double> g = water_fill(d, cap[std::size_t(r)]);
            std::size_t j = 0;
            if (local) alloc[std::size_t(c)] = g[j++];
            for (int ch : t.children[std::size_t(r)]) cap[std::size_t(ch)] = g[j++];
        }
        double dt = std::numeric_limits<double>::infinity();
        std::vector<double> speed(k, 0.0);
        for (std::size_t i = 0; i < k; ++i) {
            if (done[i]) continue;
            const double by_compute = compute[i] > 0 ? 1.0 / compute[i] : std::numeric_limits<double>::infinity();
            const double by_shared = shared[i] > 0 ? alloc[i] / shared[i] : std::numeric_limits<double>::infinity();
            speed[i] = std::min(by_compute, by_shared);
            if (speed[i] > 0) dt = std::min(dt, left[i] / speed[i]);
        }
        if (!(dt < std::numeric_limits<double>::infinity())) break;
        now += dt;
        bool any = false;
        for (std::size_t i = 0; i < k; ++i) {
            if (done[i]) continue;
            left[i] -= speed[i] * dt;
            if (left[i] <= 1e-9) done[i] = 1;
            else any = true;
        }
        if (!any) break;
    }
    return now;
}

std::vector<int> place_blocks(const std::vector<MeshNode>& nodes, const std::vector<MeshNode>& dram_ifs,
                              const std::vector<double>& compute, const std::vector<double>& shared) {
    const std::size_t k = nodes.size();
    std::vector<int> ident(k);
    std::iota(ident.begin(), ident.end(), 0);
    if (k < 2 || dram_ifs.size() != 1 || compute.size() != k || shared.size() != k) return ident;
    if (std::all_of(compute.begin(), compute.end(), [&](double c) { return c == compute[0]; })) return ident;
    const std::vector<double> phi = route_shares(nodes, dram_ifs);
    std::vector<int> blocks(k), ranks(k), place(k);
    std::iota(blocks.begin(), blocks.end(), 0);
    std::iota(ranks.begin(), ranks.end(), 0);
    std::stable_sort(blocks.begin(), blocks.end(),
                     [&](int a, int b) { return compute[std::size_t(a)] > compute[std::size_t(b)]; });
    std::stable_sort(ranks.begin(), ranks.end(),
                     [&](int a, int b) { return phi[std::size_t(a)] > phi[std::size_t(b)]; });
    for (std::size_t i = 0; i < k;) {
        std::size_t j = i;
        while (j < k && compute[std::size_t(blocks[j])] == compute[std::size_t(blocks[i])]) ++j;
        std::vector<int> grp(blocks.begin() + std::ptrdiff_t(i), blocks.begin() + std::ptrdiff_t(j));
        std::vector<int> rk(ranks.begin() + std::ptrdiff_t(i), ranks.begin() + std::ptrdiff_t(j));
        std::sort(grp.begin(), grp.end());
        std::sort(rk.begin(), rk.end());
        for (std::size_t q = 0; q < grp.size(); ++q) place[std::size_t(grp[q])] = rk[q];
        i = j;
    }
    if (place == ident) return ident;
    auto makespan = [&](const std::vector<int>& p) {
        std::vector<MeshNode> at(k);
        for (std::size_t b = 0; b < k; ++b) at[b] = nodes[std::size_t(p[b])];
        return fluid_makespan(at, dram_ifs[0], compute, shared);
    };
    return makespan(place) < 0.99 * makespan(ident) ? place : ident;
}

}  // namespace vp::mapper::waving
