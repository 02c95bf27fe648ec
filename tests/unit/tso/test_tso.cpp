// Algorithm 19 over networks: deduplication, threads, fixed modes, JSON, errors.
#include <catch2/catch.hpp>

#include "tso_test_util.h"

#include <sstream>

#include "mapper/common/errors.h"
#include "mapper/tso/tso.h"
#include "mapper/tso/tso_report.h"

using namespace vp::mapper;
using namespace vp::mapper::tso;

namespace {

Network small_net() {
    nlohmann::json doc = {
        {"name", "small"},
        {"precision", 16},
        {"layers",
         {{{"name", "c1"}, {"type", "conv"}, {"C", 3}, {"K", 16}, {"H", 32}, {"W", 32}, {"R", 3}, {"S", 3},
           {"stride", 1}, {"pad", 1}},
          {{"name", "c2"}, {"type", "conv"}, {"C", 16}, {"K", 32}, {"H", 32}, {"W", 32}, {"R", 3}, {"S", 3},
           {"stride", 2}, {"pad", {1, 1}}},
          {{"name", "p1"}, {"type", "pool"}, {"op", "max"}, {"C", 32}, {"H", 16}, {"W", 16}, {"R", 2}, {"S", 2}, {"stride", 2}},
          {{"name", "c3"}, {"type", "conv"}, {"C", 16}, {"K", 32}, {"H", 32}, {"W", 32}, {"R", 3}, {"S", 3},
           {"stride", 2}, {"pad", {{"top", 1}, {"bottom", 1}, {"left", 1}, {"right", 1}}}},
          {{"name", "dw"}, {"type", "conv"}, {"C", 32}, {"K", 32}, {"H", 16}, {"W", 16}, {"R", 3}, {"S", 3},
           {"pad", 1}, {"groups", 32}},
          {{"name", "fc"}, {"type", "fc"}, {"in", 512}, {"out", 10}}}}};
    return parse_network(doc, "small.json");
}

}  // namespace

TEST_CASE("TSO maps every conv and fc, dedups equal shapes, MACs match", "[tso][net]") {
    const Network net = small_net();
    NmpParams hw = tso_test::seed_hw();
    TsoOptions opt;
    const TsoResult r = run_tso(net, hw, opt);
    REQUIRE(r.convs.size() == 5);
    CHECK(r.skipped == std::vector<std::string>{"p1"});
    CHECK(r.unique_shapes == 4);  // c2 and c3 are the same shape
    CHECK(r.convs[2].layer_name == "c3");
    CHECK(r.convs[2].shared_with == "c2");
    CHECK(r.convs[2].best.times.total_s == r.convs[1].best.times.total_s);
    for (const auto& c : r.convs) {
        CHECK(c.best.counts.macs == net.layers[std::size_t(c.layer_index)].macs());
        CHECK(c.best.times.total_s > 0);
        CHECK(c.best.times.total_s == Approx(c.best.times.t_mac_s + c.best.times.t_dram_s + c.best.times.t_sw_s));
        // The chosen candidate is the minimum of the table of candidates.
        for (auto& row : c.candidates_s)
            for (double v : row)
                if (v >= 0) CHECK(c.best.times.total_s <= v);
    }
}

TEST_CASE("TSO result does not depend on the thread count", "[tso][net]") {
    const Network net = small_net();
    NmpParams hw = tso_test::seed_hw();
    TsoOptions one, two;
    two.threads = 2;
    CHECK(to_json(run_tso(net, hw, one)).dump() != "");
    auto a = to_json(run_tso(net, hw, one));
    auto b = to_json(run_tso(net, hw, two));
    a.erase("threads");
    b.erase("threads");
    CHECK(a == b);
}

TEST_CASE("fixed modes restrict the choice and never beat the free search", "[tso][net]") {
    const Network net = small_net();
    NmpParams hw = tso_test::seed_hw();
    // Under a screen-only model the fixed search is a restriction of the free one.
    TsoOptions paper;
    paper.model = make_time_model("burst", {});
    const TsoResult free = run_tso(net, hw, paper);
    for (TleSlicing p : kAllSlicings) {
        TsoOptions o = paper;
        o.fixed_slicing = p;
        const TsoResult f = run_tso(net, hw, o);
        for (std::size_t i = 0; i < f.convs.size(); ++i) {
            if (!f.convs[i].fallback) CHECK(f.convs[i].best.slicing == p);
            CHECK(f.convs[i].best.times.total_s >= free.convs[i].best.times.total_s);
        }
    }
    for (TltSchedule q : kAllSchedules) {
        TsoOptions o = paper;
        o.fixed_schedule = q;
        const TsoResult f = run_tso(net, hw, o);
        for (std::size_t i = 0; i < f.convs.size(); ++i) {
            if (!f.convs[i].fallback) CHECK(f.convs[i].best.schedule == q);
            CHECK(f.convs[i].best.times.total_s >= free.convs[i].best.times.total_s);
        }
    }
}

TEST_CASE("burst-aware mapping is never slower under the burst model", "[tso][net]") {
    const Network net = small_net();
    NmpParams hw = tso_test::seed_hw();
    TsoOptions nb, bu;
    nb.model = make_time_model("noburst", {});
    bu.model = make_time_model("burst", {});
    const TsoResult rb = run_tso(net, hw, bu);
    const TsoResult rn = run_tso(net, hw, nb);
    for (std::size_t i = 0; i < rb.convs.size(); ++i) {
        const auto& m = rn.convs[i];
        const ChoiceCost as_burst = evaluate_choice(m.conv, hw, m.best.slicing, m.best.schedule, m.best.tile,
                                                    *bu.model);
        CHECK(rb.convs[i].best.times.total_s <= as_burst.times.total_s);
    }
}

TEST_CASE("JSON and table output", "[tso][net]") {
    const TsoResult r = run_tso(small_net(), tso_test::seed_hw(), TsoOptions{});
    const auto j = to_json(r);
    CHECK(j.at("mapper") == "tso");
    REQUIRE(j.at("convs").size() == 5);
    const auto& c0 = j.at("convs").at(0);
    for (const char* k : {"slicing", "schedule", "tile", "tle", "alpha", "bursts", "bytes", "estimate"})
        CHECK(c0.contains(k));
    CHECK(c0.at("tle").size() == 4);
    CHECK(c0.at("tle").at(0).at("tlt_filters").size() == 8);
    std::ostringstream os;
    print_table(os, r);
    CHECK(os.str().find("c1") != std::string::npos);
    CHECK(os.str().find("total:") != std::string::npos);
}

TEST_CASE("bad input gives vp::InputError", "[tso][errors]") {
    const Network net = small_net();
    NmpParams hw = tso_test::seed_hw();
    hw.n_tle = 0;
    CHECK_THROWS_AS(run_tso(net, hw, TsoOptions{}), vp::InputError);
    try {
        run_tso(net, hw, TsoOptions{});
    } catch (const vp::InputError& e) {
        CHECK(std::string(e.what()).find("nmp.n_tle") != std::string::npos);
    }
    NmpParams tiny = tso_test::seed_hw();
    tiny.mb0_bytes = 16;  // a 3x3 16-bit window needs 18 B
    CHECK_THROWS_AS(run_tso(net, tiny, TsoOptions{}), vp::InputError);
    try {
        run_tso(net, tiny, TsoOptions{});
    } catch (const vp::InputError& e) {
        CHECK(std::string(e.what()).find("c1") != std::string::npos);
        CHECK(std::string(e.what()).find("no TLT tile fits") != std::string::npos);
    }
    Layer zero;
    zero.name = "z";
    zero.C = 0;
    CHECK_THROWS_AS(make_conv_shape(zero, 2), vp::InputError);
    TsoOptions bad;
    bad.threads = 0;
    CHECK_THROWS_AS(run_tso(net, tso_test::seed_hw(), bad), vp::InputError);
    CHECK_THROWS_AS(parse_slicing("KSOFM", "x"), vp::InputError);
    CHECK(parse_slicing("KS&OFM", "x") == TleSlicing::KS_OFM);
}

// vp-run --check's feasibility test (check_mappable: Eq. 2 of the smallest tile, no search)
// against the search itself (run_tso): on random layers and TLT memories from a few bytes up,
// under every option that changes which choices the search tries, both refuse the same
// networks with the same message, and check_mappable accepts every network run_tso maps.
TEST_CASE("check_mappable refuses exactly what run_tso refuses", "[tso][errors]") {
    std::mt19937_64 rng(20261206);
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int refused = 0, mapped = 0;
    for (int it = 0; it < 2000; ++it) {
        NmpParams hw = tso_test::random_hw(rng);
        // memories from too small for a 1x1 window to roomy, so that both outcomes occur
        hw.mb0_bytes = uni(1, 400);
        hw.mb1_bytes = uni(1, 400);
        hw.mb2_bytes = uni(1, 200);
        hw.double_buffer = uni(0, 3) == 0;
        Network net;
        net.name = "rnd";
        net.precision_bits = uni(0, 1) ? 16 : 8;
        const int n_layers = uni(1, 3);
        for (int i = 0; i < n_layers; ++i) {
            Layer l = tso_test::random_layer(rng, 12, 24, 14);
            l.name = "l" + std::to_string(i);
            net.layers.push_back(l);
        }
        TsoOptions opt;
        opt.threads = 1;
        opt.ifm_channel_slicing = uni(0, 1) == 1;
        if (uni(0, 2) == 0) opt.fixed_slicing = kAllSlicingsExt[std::size_t(uni(0, int(kAllSlicingsExt.size()) - 1))];
        if (uni(0, 2) == 0) opt.fixed_schedule = kAllSchedules[std::size_t(uni(0, int(kAllSchedules.size()) - 1))];
        if (uni(0, 4) == 0) {  // one given choice for every layer
            opt.fixed_slicing = kAllSlicingsExt[std::size_t(uni(0, int(kAllSlicingsExt.size()) - 1))];
            opt.fixed_schedule = kAllSchedules[std::size_t(uni(0, int(kAllSchedules.size()) - 1))];
            Tile t;
            t.t_m = uni(1, 4);
            t.t_n = uni(1, 4);
            t.t_r = uni(1, 4);
            t.t_c = uni(1, 4);
            opt.fixed_tile = t;
        }
        std::string run_err, check_err;
        try {
            run_tso(net, hw, opt);
        } catch (const vp::InputError& e) {
            run_err = e.what();
        }
        try {
            check_mappable(net, hw, opt);
        } catch (const vp::InputError& e) {
            check_err = e.what();
        }
        INFO("draw " << it << ": run_tso \"" << run_err << "\", check_mappable \"" << check_err << "\"");
        CHECK(check_err == run_err);
        (run_err.empty() ? mapped : refused) += 1;
    }
    // Both outcomes are exercised.
    CHECK(refused > 300);
    CHECK(mapped > 300);
}
