// The pruned TSO search against the unpruned brute force: same optimum time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "mapper/common/errors.h"
#include "mapper/tso/tso.h"
#include "tso_test_util.h"

using namespace tso_test;

namespace {

void expect_same_optimum(const ConvShape& c, const NmpParams& hw, const TsoOptions& opt, bool& any_found) {
    bool fast_threw = false, brute_threw = false;
    ConvMapping fast, brute;
    try {
        fast = map_conv(c, hw, opt);
    } catch (const vp::InputError&) {
        fast_threw = true;
    }
    try {
        brute = map_conv_brute_force(c, hw, opt);
    } catch (const vp::InputError&) {
        brute_threw = true;
    }
    REQUIRE(fast_threw == brute_threw);
    if (fast_threw) return;
    any_found = true;
    CHECK(fast.best.times.total_s == brute.best.times.total_s);
    CHECK(fast.fallback == brute.fallback);
    for (int p = 0; p < kNumSlicings; ++p)
        for (int q = 0; q < 3; ++q) CHECK(fast.candidates_s[p][q] == brute.candidates_s[p][q]);
    // The chosen tile really fits and really costs what is reported.
    ConvCostModel m(c, hw, fast.best.slicing);
    CHECK(m.fits(fast.best.schedule, fast.best.tile));
    const ChoiceCost again =
        evaluate_choice(c, hw, fast.best.slicing, fast.best.schedule, fast.best.tile, *model_of(opt));
    CHECK(again.times.total_s == fast.best.times.total_s);
}

}  // namespace

TEST_CASE("pruned search equals brute force on random small layers", "[tso][search]") {
    std::mt19937_64 rng(2024);
    int found = 0;
    for (int it = 0; it < 400; ++it) {
        const Layer l = random_layer(rng, 8, 20, 10);
        const NmpParams hw = random_hw(rng);
        const ConvShape c = make_conv_shape(l, std::uniform_int_distribution<int>(1, 2)(rng));
        TsoOptions opt;
        opt.model = make_time_model(it % 2 ? "burst" : "noburst", {});
        if (it % 7 == 3) opt.fixed_slicing = kAllSlicings[std::size_t(it % 3)];
        if (it % 5 == 2) opt.fixed_schedule = kAllSchedules[std::size_t(it % 3)];
        INFO("iteration " << it << " C=" << l.C << " K=" << l.K << " H=" << l.H << " W=" << l.W << " R=" << l.R
                          << " S=" << l.S << " g=" << l.groups);
        bool any = false;
        expect_same_optimum(c, hw, opt, any);
        found += any;
    }
    CHECK(found > 250);  // most random cases must be feasible, or the test checks little
}

TEST_CASE("pruned search equals brute force on real layers", "[tso][search]") {
    // Layers where the unpruned search is affordable in a unit test.
    struct L {
        const char* name;
        int C, K, H, W, R, S, stride, pad, groups;
    };
    const L layers[] = {
        {"lenet_conv1", 1, 6, 32, 32, 5, 5, 1, 0, 1},
        {"lenet_conv2", 6, 16, 14, 14, 5, 5, 1, 0, 1},
        {"resnet20_conv3x", 64, 64, 8, 8, 3, 3, 1, 1, 1},
        {"inception_mixed7_1x1", 64, 32, 8, 8, 1, 1, 1, 0, 1},
        {"resnet50_res5a_branch2b", 512, 512, 7, 7, 3, 3, 1, 1, 1},
        {"yolov3_13x13_3x3", 256, 512, 13, 13, 3, 3, 1, 1, 1},
        {"mobilenetv2_dw_s2", 144, 144, 56, 56, 3, 3, 2, 1, 144},
    };
    NmpParams hw = tso_test::seed_hw();  // seed defaults
    for (const L& x : layers) {
        Layer l;
        l.name = x.name;
        l.C = x.C;
        l.K = x.K;
        l.H = x.H;
        l.W = x.W;
        l.R = x.R;
        l.S = x.S;
        l.stride_h = l.stride_w = x.stride;
        l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = x.pad;
        l.groups = x.groups;
        for (const char* dm : {"burst", "noburst"}) {
            TsoOptions opt;
            opt.model = make_time_model(dm, {});
            INFO(x.name << " " << dm);
            bool any = false;
            expect_same_optimum(make_conv_shape(l, 2), hw, opt, any);
            CHECK(any);
        }
    }
}

// The calibrated model's screen is monotone in every count at fixed T_MAC, so the pruned
// tile search finds the brute-force screen optimum too (its replay then re-ranks a shortlist).
TEST_CASE("pruned search equals brute force under the calibrated screen", "[tso][search]") {
    std::mt19937_64 rng(77);
    int found = 0;
    const auto model = make_time_model("calibrated", {});
    for (int it = 0; it < 200; ++it) {
        const Layer l = random_layer(rng, 8, 20, 10);
        const NmpParams hw = random_hw(rng);
        const ConvShape c = make_conv_shape(l, std::uniform_int_distribution<int>(1, 2)(rng));
        for (TleSlicing p : kAllSlicings) {
            const ConvCostModel m(c, hw, p);
            for (TltSchedule q : kAllSchedules) {
                TopChoices fast(1), brute(1);
                tlt_tiling(m, q, *model, hw, fast);
                tlt_tiling_brute_force(m, q, *model, hw, brute);
                REQUIRE(fast.list().size() == brute.list().size());
                if (fast.list().empty()) continue;
                ++found;
                CHECK(fast.list()[0].times.total_s == Approx(brute.list()[0].times.total_s).epsilon(1e-12));
            }
        }
    }
    CHECK(found > 500);
}

// Regression (both sides use the same cost functions): a (slicing, schedule) search that
// prunes against the larger of its own best and the whole search's shortlist worst so far
// keeps the same pair best and the same whole-search shortlist as searches that prune against
// their own 8 best only; the unrefined pick stays first when refinement asks for more
// candidates than the model's shortlist.
TEST_CASE("shared shortlist bound keeps the shortlist and the unrefined pick leads any longer list", "[tso][search]") {
    std::mt19937_64 rng(4242);
    TsoCoefficients coef;
    coef.contention = 2.0;
    coef.sync = 0.7;
    coef.turnaround_ns = 20.0;
    const auto model = make_time_model("calibrated", coef);
    int found = 0;
    for (int it = 0; it < 120; ++it) {
        const Layer l = random_layer(rng, 8, 20, 10);
        const NmpParams hw = random_hw(rng);
        const ConvShape c = make_conv_shape(l, std::uniform_int_distribution<int>(1, 2)(rng));
        INFO("iteration " << it);
        TopChoices all_own(8), all_shared(8);
        for (TleSlicing p : kAllSlicings) {
            const ConvCostModel m(c, hw, p);
            for (TltSchedule q : kAllSchedules) {
                TopChoices own(8), shared(8, &all_shared);
                tlt_tiling(m, q, *model, hw, own);
                tlt_tiling(m, q, *model, hw, shared);
                REQUIRE(own.list().empty() == shared.list().empty());
                if (own.list().empty()) continue;
                CHECK(own.list()[0].times.total_s == shared.list()[0].times.total_s);
                for (const auto& x : own.list()) all_own.consider(x);
                for (const auto& x : shared.list()) all_shared.consider(x);
            }
        }
        REQUIRE(all_own.list().size() == all_shared.list().size());
        if (all_own.list().empty()) continue;
        ++found;
        for (std::size_t i = 0; i < all_own.list().size(); ++i)
            CHECK(all_own.list()[i].times.total_s == all_shared.list()[i].times.total_s);
        TsoOptions one, many;
        one.model = many.model = model;
        one.keep_candidates = 1;
        many.keep_candidates = 20;
        const ConvMapping a = map_conv(c, hw, one), b = map_conv(c, hw, many);
        CHECK(b.ranked.front().times.total_s == a.best.times.total_s);
        CHECK(b.ranked.front().tile.t_m == a.best.tile.t_m);
        CHECK(b.ranked.front().tile.t_n == a.best.tile.t_n);
        CHECK(b.ranked.front().tile.t_r == a.best.tile.t_r);
        CHECK(b.ranked.front().tile.t_c == a.best.tile.t_c);
        for (std::size_t i = 2; i < b.ranked.size(); ++i)
            CHECK(b.ranked[i - 1].times.total_s <= b.ranked[i].times.total_s);
    }
    CHECK(found > 60);
}

// The unrefined pick of a model with a replay is the replay's best of the screen's shortlist
// and of every (slicing, schedule) pair's screen best, each pair searched here on its own with
// tlt_tiling and replayed with evaluate_choice; the pick does not depend on how many candidates
// are kept. A consistency test of map_with (the same search and replay on both sides).
TEST_CASE("the unrefined pick is the best replay of the shortlist and of every pair's best", "[tso][search]") {
    std::mt19937_64 rng(777);
    const auto model = make_time_model("calibrated", TsoCoefficients{});
    int found = 0, pair_won = 0;
    for (int it = 0; it < 150; ++it) {
        const Layer l = random_layer(rng, 8, 20, 10);
        const NmpParams hw = random_hw(rng);
        const ConvShape c = make_conv_shape(l, std::uniform_int_distribution<int>(1, 2)(rng));
        INFO("iteration " << it);
        TsoOptions short_only, with_pairs, many;
        short_only.model = with_pairs.model = many.model = model;
        short_only.replay_pair_bests = false;
        many.keep_candidates = 20;
        ConvMapping a, b, m;
        try {
            a = map_conv(c, hw, short_only);
        } catch (const vp::InputError&) {
            CHECK_THROWS_AS(map_conv(c, hw, with_pairs), vp::InputError);
            continue;
        }
        b = map_conv(c, hw, with_pairs);
        m = map_conv(c, hw, many);
        ++found;
        double expect = a.best.times.total_s;
        for (TleSlicing p : kAllSlicings) {
            const ConvCostModel cm(c, hw, p);
            for (TltSchedule q : kAllSchedules) {
                TopChoices top(1);
                tlt_tiling(cm, q, *model, hw, top);
                if (top.list().empty()) continue;
                const ChoiceCost r = evaluate_choice(c, hw, p, q, top.list().front().tile, *model);
                REQUIRE(r.found);
                expect = std::min(expect, r.times.total_s);
            }
        }
        CHECK(b.best.times.total_s == expect);
        CHECK(b.best.times.total_s <= a.best.times.total_s);
        if (b.best.times.total_s < a.best.times.total_s) ++pair_won;
        CHECK(same_choice(m.ranked.front(), b.best));
        CHECK(m.ranked.front().times.total_s == b.best.times.total_s);
        for (std::size_t i = 2; i < m.ranked.size(); ++i) CHECK(m.ranked[i - 1].times.total_s <= m.ranked[i].times.total_s);
    }
    INFO("picks changed by a pair's best: " << pair_won << " of " << found);
    CHECK(found > 60);
    CHECK(pair_won > 0);  // the pairs' bests do change picks: the test would see them left out
}

TEST_CASE("pruned search equals brute force with the IFM-channel slicing, double buffering and the fabric", "[tso][search][ifm_ch]") {
    std::mt19937_64 rng(99);
    int found = 0, ifm = 0;
    for (int it = 0; it < 200; ++it) {
        const Layer l = random_layer(rng, 8, 20, 10);
        NmpParams hw = random_hw(rng);
        hw.double_buffer = it % 4 == 1;
        if (it % 5 == 3) {  // the fabric term (NmpParams::fabric) keeps the bound a bound
            hw.fabric.enabled = true;
            hw.fabric.bytes_per_cycle = 1 + it % 7;
            hw.fabric.latency_cycles = it % 3;
        }
        if (it % 3 == 2) {
            hw.control.loop_cycles = 4;
            hw.control.sync_cycles = 4;
            hw.control.dma_issue_cycles = 8;
        }
        const ConvShape c = make_conv_shape(l, std::uniform_int_distribution<int>(1, 2)(rng));
        TsoOptions opt;
        opt.model = make_time_model(it % 2 ? "burst" : "noburst", {});
        opt.ifm_channel_slicing = true;
        INFO("iteration " << it << " C=" << l.C << " K=" << l.K << " H=" << l.H << " W=" << l.W << " g=" << l.groups);
        bool any = false;
        expect_same_optimum(c, hw, opt, any);
        found += any;
        if (any) {
            const ConvMapping f = map_conv(c, hw, opt);
            ifm += f.candidates_s[int(TleSlicing::IFM_CH)][0] >= 0 || f.candidates_s[int(TleSlicing::IFM_CH)][1] >= 0 ||
                   f.candidates_s[int(TleSlicing::IFM_CH)][2] >= 0;
            // IFM-CH was searched and compared like the others.
            for (int q = 0; q < 3; ++q) {
                const double v = f.candidates_s[int(TleSlicing::IFM_CH)][q];
                if (v >= 0) CHECK(f.best.times.total_s <= v);
            }
        }
    }
    CHECK(found >= 100);
    CHECK(ifm >= 100);
}
