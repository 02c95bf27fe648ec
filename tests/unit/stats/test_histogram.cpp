// Histogram percentiles against a brute-force nearest-rank percentile of the sorted samples
// (shares no code with the histogram): exact for integer samples with bucket width 1, in the
// overflow bucket too; else the upper bound of the sample's bucket, clamped to the observed range.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "models/common/stats.h"

using namespace vp::stats;

namespace {

double nearest_rank(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    std::size_t rank = std::size_t(std::ceil(p / 100.0 * double(v.size())));
    if (rank == 0) rank = 1;
    return v[rank - 1];
}

}  // namespace

TEST_CASE("histogram percentiles are exact for integer samples, overflow included", "[stats][histogram]") {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 200; ++trial) {
        Registry reg;
        Group g(reg, "h");
        const std::size_t buckets = 1 + rng() % 64;
        Histogram h(g, "lat", "test", "cycles", 1.0, buckets);
        std::vector<double> ref;
        const int n = 1 + int(rng() % 400);
        const std::uint64_t range = 1 + rng() % (3 * buckets);  // often past the last bucket
        for (int i = 0; i < n; ++i) {
            const double v = double(rng() % range);
            const std::uint64_t times = trial % 2 ? 1 + rng() % 3 : 1;  // the weighted form too
            h.sample(v, times);
            for (std::uint64_t k = 0; k < times; ++k) ref.push_back(v);
        }
        for (double p : {1.0, 25.0, 50.0, 90.0, 99.0, 100.0}) {
            INFO("trial " << trial << " p " << p << " buckets " << buckets);
            CHECK(h.percentile(p) == nearest_rank(ref, p));
        }
        CHECK(h.count() == ref.size());
        CHECK(h.max() == *std::max_element(ref.begin(), ref.end()));
    }
}

TEST_CASE("histogram percentiles with wider buckets are the bucket's upper bound, the overflow's exact",
          "[stats][histogram]") {
    std::mt19937_64 rng(12);
    for (int trial = 0; trial < 200; ++trial) {
        Registry reg;
        Group g(reg, "h");
        const double width = 5.0;
        const std::size_t buckets = 1 + rng() % 20;
        Histogram h(g, "lat", "test", "ns", width, buckets);
        std::vector<double> ref;
        for (int i = 0, n = 1 + int(rng() % 300); i < n; ++i) {
            const double v = double(rng() % 20000) / 100.0;  // 0 .. 199.99 ns: past 5 x buckets often
            h.sample(v);
            ref.push_back(v);
        }
        const double lo = *std::min_element(ref.begin(), ref.end()), hi = *std::max_element(ref.begin(), ref.end());
        for (double p : {10.0, 50.0, 99.0, 100.0}) {
            const double x = nearest_rank(ref, p);
            const std::size_t b = std::size_t(x / width);
            const double expect = b >= buckets ? x : std::min(std::max(double(b + 1) * width, lo), hi);
            INFO("trial " << trial << " p " << p << " sample " << x);
            CHECK(h.percentile(p) == expect);
        }
    }
}
