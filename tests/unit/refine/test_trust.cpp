// Trust figures against hand-computed values (independent of the code: textbook Spearman
// examples and direct arithmetic).
#include <catch2/catch.hpp>

#include <cmath>

#include "platform/refine/trust.h"

using vp::refine::spearman;
using vp::refine::trust_of;

TEST_CASE("Spearman rho: monotone, reversed, textbook example with ties", "[refine][trust]") {
    CHECK(spearman({1, 2, 3, 4}, {10, 20, 30, 1000}) == Approx(1.0));
    CHECK(spearman({1, 2, 3, 4}, {4, 3, 2, 1}) == Approx(-1.0));
    // No ties: rho = 1 - 6 sum d^2 / (n (n^2 - 1)); ranks a = 1..5, b = 2 1 4 3 5 -> sum d^2 = 4.
    CHECK(spearman({1, 2, 3, 4, 5}, {20, 10, 40, 30, 50}) == Approx(1.0 - 6.0 * 4 / (5 * 24)));
    // Ties take average ranks: a = 1 2 2 3 -> ranks 1, 2.5, 2.5, 4; b = 1 2 3 4.
    // Pearson of (1, 2.5, 2.5, 4) and (1, 2, 3, 4): deviations (-1.5, 0, 0, 1.5) and
    // (-1.5, -0.5, 0.5, 1.5): sum of products 4.5, sums of squares 4.5 and 5.
    CHECK(spearman({1, 2, 2, 3}, {1, 2, 3, 4}) == Approx(4.5 / std::sqrt(4.5 * 5.0)));
    CHECK(spearman({1}, {2}) == 0.0);
    CHECK(spearman({1, 1, 1}, {1, 2, 3}) == 0.0);
}

TEST_CASE("median and worst |sim/est - 1| over layers", "[refine][trust]") {
    // Errors: |110/100 - 1| = 0.1, |95/100 - 1| = 0.05, |130/100 - 1| = 0.3, |100/100 - 1| = 0.
    const auto t = trust_of({100, 100, 100, 100}, {110, 95, 130, 100}, {1, 2}, {1, 2});
    CHECK(t.layers == 4);
    CHECK(t.median_abs_err == Approx(0.075));  // mean of the middle two (0.05, 0.1)
    CHECK(t.worst_abs_err == Approx(0.3));
    CHECK(t.candidates == 2);
    CHECK(t.spearman_rho == Approx(1.0));
}

TEST_CASE("Spearman rho undefined: fewer than two candidates or no spread is reported, not 0", "[refine][trust]") {
    using vp::refine::spearman_undefined;
    CHECK(spearman_undefined({}, {}) == "no candidates");
    CHECK(spearman_undefined({5}, {7}) == "one candidate");
    CHECK(spearman_undefined({3, 3, 3}, {1, 2, 3}) == "every estimate equal");
    CHECK(spearman_undefined({1, 2, 3}, {4, 4, 4}) == "every simulation equal");
    CHECK(spearman_undefined({1, 2, 2}, {1, 1, 2}).empty());
    const auto one = trust_of({100}, {104}, {100}, {104});
    CHECK(one.rho_text() == "undefined (one candidate)");
    const auto j = one.to_json();
    CHECK(j["spearman_rho"].is_null());
    CHECK(j["spearman_rho_undefined"] == "one candidate");
    const auto two = trust_of({100, 200}, {110, 190}, {100, 200}, {110, 190});
    CHECK(two.rho_text() == "1.000");
    CHECK(two.to_json()["spearman_rho"] == Approx(1.0));
    CHECK(!two.to_json().contains("spearman_rho_undefined"));
}

TEST_CASE("the worst layer is named with the sign of its error", "[refine][trust]") {
    // sim/est - 1: +0.1, -0.3 (c: simulated faster), +0.3 (d: as large, later), 0.
    const auto t = trust_of({100, 100, 100, 100}, {110, 70, 130, 100}, {1, 2}, {1, 2}, {"a", "c", "d", "e"});
    CHECK(t.worst_abs_err == Approx(0.3));
    CHECK(t.worst_layer == "c");  // the first of the largest
    CHECK(t.worst_sim_over_est_minus_1 == Approx(-0.3));
    CHECK(t.worst_text() == "30.0 % (c, simulated faster than estimated)");
    const auto j = t.to_json();
    CHECK(j["worst_layer"] == "c");
    CHECK(j["worst_sim_over_est_minus_1"] == Approx(-0.3));
    const auto slow = trust_of({100, 200}, {150, 210}, {100, 200}, {150, 210}, {"x", "y"});
    CHECK(slow.worst_text() == "50.0 % (x, simulated slower than estimated)");
    // Without names: the figure alone, no worst_layer member.
    const auto anon = trust_of({100, 200}, {150, 210}, {100, 200}, {150, 210});
    CHECK(anon.worst_text() == "50.0 %");
    CHECK(!anon.to_json().contains("worst_layer"));
    CHECK(anon.to_json()["worst_sim_over_est_minus_1"] == Approx(0.5));
    // No layer: neither member.
    CHECK(!trust_of({}, {}, {}, {}).to_json().contains("worst_sim_over_est_minus_1"));
}
