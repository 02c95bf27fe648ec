// Exact single-core optimiser (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect Eqs. 21/22) against brute force over the full
// integer domain T'_of x T'_if x T'_ox, on many random small layers.
#include <catch2/catch.hpp>

#include <random>

#include "mapper/common/errors.h"
#include "mapper/tiling/single_core_optimizer.h"

using namespace vp::mapper::tiling;

namespace {

bool brute_force(const SliceDims& d, const CostContext& ctx, Objective obj, Tiling* bt, TilingCost* bc) {
    bool found = false;
    for (int a = 1; a <= d.n_of; ++a)
        for (int b = 1; b <= d.n_if; ++b)
            for (int c = 1; c <= d.n_ox; ++c) {
                const Tiling t{a, b, c};
                const TilingCost cost = evaluate_tiling(d, t, ctx);
                if (!cost.fits) continue;
                if (!found || better(cost, t, *bc, *bt, obj)) {
                    *bt = t;
                    *bc = cost;
                    found = true;
                }
            }
    return found;
}

}  // namespace

TEST_CASE("optimiser equals brute force on random small layers", "[tiling][optimizer]") {
    std::mt19937_64 rng(2024);
    auto u = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int feasible = 0, infeasible = 0, dram_bound = 0, comp_bound = 0;
    for (int iter = 0; iter < 1500; ++iter) {
        SliceDims d{u(1, 20), u(1, 20), u(1, 16), u(1, 8), u(1, 5), u(1, 5), u(1, 3), u(1, 3)};
        CostContext ctx;
        ctx.p_ox = u(1, 8);
        ctx.p_of = u(1, 8);
        ctx.bw_sram = 2 * u(1, 8);
        ctx.bw_dram = std::uniform_real_distribution<double>(0.05, 16.0)(rng);
        ctx.sram_words = u(10, 2500);
        for (Objective obj : {Objective::MinComp, Objective::MinDram}) {
            Tiling bt;
            TilingCost bc;
            const bool bf = brute_force(d, ctx, obj, &bt, &bc);
            TilingResult r;
            const bool opt = optimize_tiling(d, ctx, obj, &r);
            INFO("iter " << iter << " obj " << to_string(obj) << " dims " << d.n_of << "," << d.n_if << ","
                         << d.n_ox << "," << d.n_oy << " k" << d.kx << "x" << d.ky << " s" << d.sx << "," << d.sy
                         << " sram " << ctx.sram_words);
            REQUIRE(bf == opt);
            if (!bf) {
                ++infeasible;
                continue;
            }
            ++feasible;
            (bc.c_dram_par > double(bc.c_compute()) ? dram_bound : comp_bound)++;
            CHECK(r.tiling == bt);
            CHECK(r.cost.c_total == bc.c_total);
            CHECK(r.cost.n_dram() == bc.n_dram());
            CHECK(r.cost.fits);
            CHECK(r.evaluated <= std::uint64_t(d.n_of) * d.n_ox);
        }
    }
    // The random cases exercise both regimes and infeasible SRAMs.
    CHECK(feasible > 1000);
    CHECK(infeasible > 20);
    CHECK(dram_bound > 50);
    CHECK(comp_bound > 50);
}

TEST_CASE("min-comp is never slower, min-dram never moves more words", "[tiling][optimizer]") {
    std::mt19937_64 rng(99);
    auto u = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for (int iter = 0; iter < 300; ++iter) {
        SliceDims d{u(1, 64), u(1, 64), u(1, 32), u(1, 16), 3, 3, 1, 1};
        CostContext ctx{8, 4, 16, 2.0, u(500, 20000)};
        TilingResult rc, rd;
        if (!optimize_tiling(d, ctx, Objective::MinComp, &rc)) continue;
        REQUIRE(optimize_tiling(d, ctx, Objective::MinDram, &rd));
        CHECK(rc.cost.c_total <= rd.cost.c_total);
        CHECK(rd.cost.n_dram() <= rc.cost.n_dram());
    }
}

TEST_CASE("closed-form numbers of a hand-worked tiling", "[tiling][cost]") {
    // N_of=4, N_if=6, N_ox=5, N_oy=3, 3x3 kernel, stride 1; T' = (2, 4, 3); P_ox=2, P_of=2.
    SliceDims d{4, 6, 5, 3, 3, 3, 1, 1};
    CostContext ctx{2, 2, 4, 2.0, 100000};
    TilingCost c = evaluate_tiling(d, Tiling{2, 4, 3}, ctx);
    // Tiles: of {2,2}, if {4,2}, ox {3,2} -> tix {5,4}; ifmap rows per ox tile = 3 + 2*1 = 5.
    CHECK(c.s_of == 2);
    CHECK(c.s_if == 2);
    CHECK(c.s_ox == 2);
    CHECK(c.filter_words == 4 * 6 * 9);
    CHECK(c.ifmap_words == 2 * 6 * (5 + 4) * 5);        // S'_of * N_if * sum(tix) * rows
    CHECK(c.psum_load_words == 1 * 4 * 5 * 3);          // (S'_if - 1) * N_of * N_ox * N_oy
    CHECK(c.store_words == 2 * 4 * 5 * 3);
    CHECK(c.n_dram_init == 216 + 2 * 6 * 9 * 3 + 20 + 40);  // filters + first 3 rows + psum row 0 + drain
    CHECK(c.n_dram_init + c.n_dram_par == c.filter_words + c.ifmap_words + c.psum_load_words + c.store_words);
    // C_comp = N_oy * N_if * 9 * sum ceil(tof/2) * sum ceil(tox/2) = 3 * 6 * 9 * 2 * 3.
    CHECK(c.c_comp == 3u * 6 * 9 * 2 * 3);
    // C_pfetch = N_oy * (S'_if-1) * sum_of sum_ox ceil(tof*tox/4) = 3 * (2*(2+1)) = 18.
    CHECK(c.c_pfetch == 18);
    // SRAM (Eq. 19): 4*(2*9 + 4*5) + 3*2*3 = 170.
    CHECK(c.sram_words_used == 170);
    CHECK(c.c_total == Approx(double(c.n_dram_init) / 2.0 + std::max(double(c.c_comp + c.c_pfetch),
                                                                     double(c.n_dram_par) / 2.0)));
}

TEST_CASE("a layer whose smallest tile does not fit the SRAM is an InputError", "[tiling][errors]") {
    SliceDims d{8, 8, 8, 8, 11, 11, 4, 4};
    CostContext ctx{4, 4, 8, 1.0, 150};  // 1*121 + 15*11 + 3 = 289 words needed
    TilingResult r;
    CHECK_FALSE(optimize_tiling(d, ctx, Objective::MinComp, &r));
    CHECK_THROWS_AS(optimize_tiling_or_throw(d, ctx, Objective::MinComp, "conv1"), vp::InputError);
    CHECK_THROWS_WITH(optimize_tiling_or_throw(d, ctx, Objective::MinComp, "conv1"),
                      Catch::Contains("conv1") && Catch::Contains("289") && Catch::Contains("sram_bytes"));
    ctx.sram_words = 289;
    CHECK(optimize_tiling(d, ctx, Objective::MinComp, &r));
    CHECK(r.tiling == Tiling{1, 1, 1});
}

TEST_CASE("AsipParams validation names the field", "[tiling][errors]") {
    AsipParams a;
    CHECK_NOTHROW(a.validate("asip"));
    a.word_bits = 12;
    CHECK_THROWS_WITH(a.validate("asip"), Catch::StartsWith("asip.word_bits:"));
    a = AsipParams{};
    a.p_ox = 0;
    CHECK_THROWS_WITH(a.validate("mesh.core"), Catch::StartsWith("mesh.core.p_ox:"));
    a = AsipParams{};
    a.core_mhz = -1;
    CHECK_THROWS_AS(a.validate("asip"), vp::InputError);
    CHECK_THROWS_WITH(parse_objective("min-time", "mapper.objective"), Catch::Contains("min-comp"));
}
