// Algorithm 13 of Tensor Slicing and Optimization for Multicore NPUs (TLE slicing) and the TLT filter split.
#include <catch2/catch.hpp>

#include "tso_test_util.h"

#include <random>

#include "mapper/tso/tle_slicing.h"

using namespace vp::mapper::tso;

TEST_CASE("split_even gives the remainder to the lowest ids", "[tso][slicing]") {
    auto s = split_even(10, 4);  // 3 3 2 2
    REQUIRE(s.size() == 4);
    CHECK(s[0].begin == 0);
    CHECK(s[0].count == 3);
    CHECK(s[1].begin == 3);
    CHECK(s[1].count == 3);
    CHECK(s[2].begin == 6);
    CHECK(s[2].count == 2);
    CHECK(s[3].begin == 8);
    CHECK(s[3].count == 2);
    auto z = split_even(2, 4);  // 1 1 0 0
    CHECK(z[0].count == 1);
    CHECK(z[1].count == 1);
    CHECK(z[2].count == 0);
    CHECK(z[3].count == 0);
}

TEST_CASE("KS&OFM grid factorisation", "[tso][slicing]") {
    CHECK(ks_ofm_row_sets(4) == 2);  // seed: 2 row sets x 2 filter sets for 4 TLEs
    CHECK(ks_ofm_row_sets(1) == 1);
    CHECK(ks_ofm_row_sets(6) == 2);
    CHECK(ks_ofm_row_sets(9) == 3);
    CHECK(ks_ofm_row_sets(7) == 1);
    CHECK(ks_ofm_row_sets(16) == 4);
}

TEST_CASE("Algorithm 13 on the paper's 4-TLE NMP", "[tso][slicing]") {
    // 71 OFM rows, 192 filters (InceptionV3 5th conv).
    auto ks = tle_slicing(TleSlicing::KS, 71, 192, 64, 4);
    for (const auto& s : ks) {
        CHECK(s.rows.begin == 0);
        CHECK(s.rows.count == 71);
        CHECK(s.filters.count == 48);
    }
    auto ofm = tle_slicing(TleSlicing::OFM, 71, 192, 64, 4);
    CHECK(ofm[0].rows.count == 18);  // 71 = 18 + 18 + 18 + 17
    CHECK(ofm[1].rows.count == 18);
    CHECK(ofm[2].rows.count == 18);
    CHECK(ofm[3].rows.count == 17);
    CHECK(ofm[3].rows.begin == 54);
    for (const auto& s : ofm) CHECK(s.filters.count == 192);
    auto both = tle_slicing(TleSlicing::KS_OFM, 71, 193, 64, 4);
    // TLE id = row_set * 2 + filter_set; rows 36/35, filters 97/96.
    CHECK(both[0].rows.count == 36);
    CHECK(both[0].filters.count == 97);
    CHECK(both[1].rows.count == 36);
    CHECK(both[1].filters.begin == 97);
    CHECK(both[1].filters.count == 96);
    CHECK(both[2].rows.begin == 36);
    CHECK(both[2].rows.count == 35);
    CHECK(both[3].filters.count == 96);
}

TEST_CASE("every slicing covers each (row, filter) pair exactly once", "[tso][slicing]") {
    std::mt19937_64 rng(7);
    for (int it = 0; it < 300; ++it) {
        const int P = std::uniform_int_distribution<int>(1, 40)(rng);
        const int M = std::uniform_int_distribution<int>(1, 70)(rng);
        const int n = std::uniform_int_distribution<int>(1, 9)(rng);
        const int n_tlt = std::uniform_int_distribution<int>(1, 9)(rng);
        for (TleSlicing p : kAllSlicings) {
            std::vector<int> cover(std::size_t(P) * M, 0);
            auto s = tle_slicing(p, P, M, 64, n);
            REQUIRE(int(s.size()) == n);
            int max_rows = 0, min_rows = 1 << 30;
            for (const auto& t : s) {
                for (const auto& f : tlt_filter_split(t.filters, n_tlt))
                    for (int r = t.rows.begin; r < t.rows.begin + t.rows.count; ++r)
                        for (int m = f.begin; m < f.begin + f.count; ++m) ++cover[std::size_t(r) * M + m];
                max_rows = std::max(max_rows, t.rows.count);
                min_rows = std::min(min_rows, t.rows.count);
            }
            for (int v : cover) REQUIRE(v == 1);
            CHECK(max_rows - min_rows <= 1);  // balanced
            // remainders go to the lowest ids: counts never increase with the id
            auto tl = tlt_filter_split(s[0].filters, n_tlt);
            for (std::size_t j = 1; j < tl.size(); ++j) CHECK(tl[j].count <= tl[j - 1].count);
        }
    }
}
