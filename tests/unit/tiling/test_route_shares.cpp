// Route shares of the DRAM interface and the weighted processor-sharing factor of the phased
// model (route_shares.h). Independent checks:
//   * sharing_by_share against a brute-force discrete-time simulation of generalised processor
//     sharing with a common start (written here, step by step, no closed form);
//   * with equal weights it is sharing_by_work (the egalitarian k_ps,i);
//   * the route shares by hand on a small mesh, and on AlexNet conv2's 16 cores of mesh-8x8
//     the extremes bench/mesh/diagnose.py computes from a simulation's folder (1/4 and 1/72).
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "mapper/waving/mesh_time_model.h"
#include "mapper/waving/route_shares.h"

using namespace vp::mapper::waving;

namespace {

// A unit-rate server shared by weights among the jobs that still have work, advanced in steps of
// dt; returns each job's completion time (the step in which its work runs out, interpolated).
std::vector<double> gps_by_steps(std::vector<double> work, const std::vector<double>& phi, double dt) {
    std::vector<double> done(work.size(), -1.0);
    double t = 0;
    for (;;) {
        double sum = 0;
        for (std::size_t i = 0; i < work.size(); ++i)
            if (done[i] < 0) sum += phi[i];
        if (sum <= 0) break;
        for (std::size_t i = 0; i < work.size(); ++i) {
            if (done[i] >= 0) continue;
            const double rate = phi[i] / sum;
            if (work[i] <= rate * dt) {
                done[i] = t + work[i] / rate;
                work[i] = 0;
            } else {
                work[i] -= rate * dt;
            }
        }
        t += dt;
    }
    return done;
}

}  // namespace

TEST_CASE("mesh route shares: weighted processor sharing against a step-by-step simulation", "[waving][mesh_model]") {
    // By hand: works 1, 1 with weights 3/4, 1/4. Job 0 is served at 3/4 until 4/3, when job 1
    // has 1/3 done; job 1 then runs alone and is done at 4/3 + 2/3 = 2 (the sum of the work).
    const std::vector<double> f = sharing_by_share({1.0, 1.0}, {0.75, 0.25});
    CHECK(f[0] == Approx(4.0 / 3.0));
    CHECK(f[1] == Approx(2.0));
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(0.2, 5.0), p(0.01, 1.0);
    for (int trial = 0; trial < 40; ++trial) {
        std::vector<double> w(std::size_t(1 + trial % 8)), phi(w.size());
        for (double& x : w) x = u(rng);
        for (double& x : phi) x = p(rng);
        const double total = std::accumulate(w.begin(), w.end(), 0.0);
        const std::vector<double> done = gps_by_steps(w, phi, 1e-4);
        const std::vector<double> k = sharing_by_share(w, phi);
        for (std::size_t i = 0; i < w.size(); ++i) CHECK(k[i] * w[i] == Approx(done[i]).margin(2e-3 * total));
        // Work-conserving: the last job is done when all the work is.
        CHECK(*std::max_element(done.begin(), done.end()) == Approx(total).margin(1e-3 * total));
    }
    CHECK(sharing_by_share({0.0, 3.0}, {0.5, 0.5})[0] == Approx(1.0));
    CHECK(sharing_by_share({0.0, 3.0}, {0.5, 0.5})[1] == Approx(1.0));
}

TEST_CASE("mesh route shares: equal weights reduce to sharing_by_work (egalitarian k_ps,i)", "[waving][mesh_model]") {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.1, 10.0);
    for (int trial = 0; trial < 30; ++trial) {
        std::vector<double> w(std::size_t(1 + trial % 16));
        for (double& x : w) x = u(rng);
        const std::vector<double> a = sharing_by_work(w);
        const std::vector<double> b = sharing_by_share(w, std::vector<double>(w.size(), 1.0 / double(w.size())));
        for (std::size_t i = 0; i < w.size(); ++i) CHECK(b[i] == Approx(a[i]));
    }
    // AlexNet conv2 on 14 cores (sharing_by_work's own example): 13.6 and 14.
    std::vector<double> w(12, 20.0);
    w.push_back(16.0);
    w.push_back(16.0);
    const std::vector<double> b = sharing_by_share(w, std::vector<double>(14, 2.0));
    CHECK(b[0] == Approx(13.6));
    CHECK(b[13] == Approx(14.0));
}

TEST_CASE("mesh route shares: round robin per router input along XY routes", "[waving][mesh_model]") {
    const std::vector<MeshNode> ifs{MeshNode{0, 0}};
    // (2, 0) enters (0, 0) from the east alone; (0, 1) and (1, 1) share the south input, and
    // split (0, 1)'s router between its local port and the east one.
    const std::vector<double> s = route_shares({MeshNode{2, 0}, MeshNode{0, 1}, MeshNode{1, 1}}, ifs);
    CHECK(s[0] == Approx(0.5));
    CHECK(s[1] == Approx(0.25));
    CHECK(s[2] == Approx(0.25));
    CHECK(route_shares({MeshNode{3, 3}}, ifs)[0] == Approx(1.0));
    // mesh-8x8, AlexNet conv2's 16 cores (the waving order: master at (1, 0)):
    // bench/mesh/diagnose.py gives 1/4 for (2, 0) and 1/72 for (2, 2) and (3, 2).
    const std::vector<MeshNode> conv2{{0, 1}, {2, 0}, {1, 1}, {0, 2}, {3, 0}, {2, 1}, {1, 2}, {0, 3},
                                      {4, 0}, {3, 1}, {2, 2}, {1, 3}, {0, 4}, {5, 0}, {4, 1}, {3, 2}};
    const std::vector<double> c = route_shares(conv2, ifs);
    CHECK(std::accumulate(c.begin(), c.end(), 0.0) == Approx(1.0));
    CHECK(c[1] == Approx(1.0 / 4));
    CHECK(c[10] == Approx(1.0 / 72));
    CHECK(c[15] == Approx(1.0 / 72));
    CHECK(*std::max_element(c.begin(), c.end()) == Approx(1.0 / 4));
    CHECK(*std::min_element(c.begin(), c.end()) == Approx(1.0 / 72));
    // Two interfaces: each core's shares are of its own (nearest) interface.
    const std::vector<double> two = route_shares({MeshNode{1, 0}, MeshNode{6, 0}}, {MeshNode{0, 0}, MeshNode{7, 0}});
    CHECK(two[0] == Approx(1.0));
    CHECK(two[1] == Approx(1.0));
}

TEST_CASE("mesh route shares: the share of a core's tail (tail_by_share) by hand", "[waving][mesh_model]") {
    // Two cores always split the interface 1/2 : 1/2 (they meet at one router on two inputs):
    // with equal work both are done at 2w, no core runs rows while the other waits.
    const std::vector<double> two = tail_by_share({5.0, 5.0}, {0.5, 0.5});
    CHECK(two[0] == Approx(0.0));
    CHECK(two[1] == Approx(0.0));
    // Shares 1/2, 1/4, 1/4 and equal work w: core 0 is done at 2w (it has w, the others w/2 each),
    // cores 1 and 2 at 3w: their tail share is 1 - 2/3.
    const std::vector<double> three = tail_by_share({1.0, 1.0, 1.0}, {0.5, 0.25, 0.25});
    CHECK(three[0] == Approx(0.0));
    CHECK(three[1] == Approx(1.0 / 3.0));
    CHECK(three[2] == Approx(1.0 / 3.0));
    // Equal shares, unequal work: the core with less work is done first (at 2 x 1), the other at 1 + 3.
    const std::vector<double> uneq = tail_by_share({1.0, 3.0}, {0.5, 0.5});
    CHECK(uneq[0] == Approx(0.0));
    CHECK(uneq[1] == Approx(0.5));
    CHECK(tail_by_share({0.0, 2.0}, {0.5, 0.5})[0] == Approx(0.0));
}
