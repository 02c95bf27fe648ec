// LoopNest (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Algorithm 2 as reconstructed) against (a) the closed-form counts of
// tiling_cost.h and (b) independent address-coverage and ordering checks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "mapper/tiling/loop_nest.h"
#include "mapper/tiling/tiling_cost.h"

using namespace vp::mapper::tiling;

namespace {

ConvShape random_shape(std::mt19937_64& rng) {
    auto u = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    ConvShape s;
    s.name = "rand";
    s.groups = u(1, 2);
    s.n_of = u(1, 9);
    s.n_if = u(1, 9);
    s.K = s.n_of * s.groups;
    s.C = s.n_if * s.groups;
    s.kx = u(1, 4);
    s.ky = u(1, 4);
    s.sx = u(1, 3);
    s.sy = u(1, 3);
    s.Q = u(1, 11);
    s.P = u(1, 6);
    // Dilated kernels in a third of the shapes (taps dx, dy apart: the window spans wkx x wky).
    if (u(0, 2) == 0) {
        s.dx = u(1, 3);
        s.dy = u(1, 3);
    }
    s.padded_w = (s.Q - 1) * s.sx + s.wkx() + u(0, 2);  // extra columns unused by the window
    s.padded_h = (s.P - 1) * s.sy + s.wky() + u(0, 2);
    return s;
}

struct Sums {
    std::uint64_t filter = 0, ifmap_init = 0, ifmap_par = 0, psum_init = 0, psum_par = 0, store_init = 0,
                  store_par = 0, macs = 0, comp = 0, pfetch = 0;
};

Sums run_nest(const ConvShape& s, const SliceRun& run, const Tiling& t, const AsipParams& a) {
    Sums r;
    LoopNest nest(s, run, t, a);
    const std::uint64_t wb = std::uint64_t(a.word_bytes());
    nest.for_each([&](const Op& op) {
        const std::uint64_t w = op.bytes() / wb;
        switch (op.kind) {
        case OpKind::LoadFilter: r.filter += w; REQUIRE(op.wait); break;
        case OpKind::LoadIfmap: (op.wait ? r.ifmap_init : r.ifmap_par) += w; break;
        case OpKind::LoadPsum: (op.wait ? r.psum_init : r.psum_par) += w; break;
        case OpKind::StorePsum:
        case OpKind::StoreOfmap: (op.wait ? r.store_init : r.store_par) += w; break;
        case OpKind::Compute:
            r.macs += op.macs;
            r.comp += op.comp_cycles;
            r.pfetch += op.pfetch_cycles;
            break;
        }
    });
    return r;
}

}  // namespace

TEST_CASE("loop nest counts equal the closed-form cost model", "[tiling][loop_nest]") {
    std::mt19937_64 rng(12345);
    AsipParams a;
    for (int iter = 0; iter < 400; ++iter) {
        a.p_ox = std::uniform_int_distribution<int>(1, 5)(rng);
        a.p_of = std::uniform_int_distribution<int>(1, 5)(rng);
        a.sram_banks = std::uniform_int_distribution<int>(1, 3)(rng);
        a.word_bits = iter % 2 ? 16 : 8;
        ConvShape s = random_shape(rng);
        Tiling t{std::uniform_int_distribution<int>(1, s.n_of + 1)(rng),
                 std::uniform_int_distribution<int>(1, s.n_if + 1)(rng),
                 std::uniform_int_distribution<int>(1, s.Q + 1)(rng)};
        SliceRun run{s.groups - 1, 0, s.n_of, 0, s.Q, s.Q};
        Sums g = run_nest(s, run, t, a);
        CostContext ctx = make_cost_context(a, 64, 1000.0);
        ctx.sram_words = 1 << 30;
        TilingCost c = evaluate_tiling(s.slice(s.n_of, s.Q), t, ctx);
        INFO("iter " << iter);
        CHECK(g.filter == c.filter_words);
        CHECK(g.ifmap_init + g.ifmap_par == c.ifmap_words);
        CHECK(g.psum_init + g.psum_par == c.psum_load_words);
        CHECK(g.store_init + g.store_par == c.store_words);
        CHECK(g.filter + g.ifmap_init + g.psum_init + g.store_init == c.n_dram_init);
        CHECK(g.ifmap_par + g.psum_par + g.store_par == c.n_dram_par);
        CHECK(g.macs == c.macs);
        CHECK(g.comp == c.c_comp);
        CHECK(g.pfetch == c.c_pfetch);
    }
}

TEST_CASE("loop nest covers every ofmap, weight and needed ifmap element", "[tiling][loop_nest]") {
    std::mt19937_64 rng(777);
    AsipParams a;
    a.word_bits = 8;  // one byte per word: addresses are element indices
    for (int iter = 0; iter < 200; ++iter) {
        ConvShape s = random_shape(rng);
        Tiling t{std::uniform_int_distribution<int>(1, s.n_of)(rng), std::uniform_int_distribution<int>(1, s.n_if)(rng),
                 std::uniform_int_distribution<int>(1, s.Q)(rng)};
        const int g = std::uniform_int_distribution<int>(0, s.groups - 1)(rng);
        // A run of stitched slices: random chunk width.
        const int chunk = std::uniform_int_distribution<int>(1, s.Q)(rng);
        SliceRun run{g, 0, s.n_of, 0, s.Q, chunk};
        DramLayout lay{0, 1u << 20, 1u << 24};
        std::vector<int> ofmap(std::size_t(s.K) * s.P * s.Q, 0), weights(std::size_t(s.K) * s.n_if * s.kx * s.ky, 0);
        std::vector<int> psum_loads(ofmap.size(), 0);
        std::uint64_t macs = 0;
        // Rows of the padded ifmap on chip for the current tile: set of (channel, row).
        std::set<std::pair<int, int>> rows_on_chip;
        int cur_x0 = -1, cur_x1 = -1;
        LoopNest nest(s, run, t, a, lay);
        nest.for_each([&](const Op& op) {
            auto each_byte = [&](auto f) {
                for (std::uint32_t i = 0; i < op.n_segs; ++i)
                    for (std::uint64_t b = 0; b < op.seg_bytes; ++b) f(op.dram_addr + i * op.seg_stride + b);
            };
            if (op.kind == OpKind::StoreOfmap) each_byte([&](std::uint64_t ad) { ofmap.at(ad - lay.ofmap_base)++; });
            if (op.kind == OpKind::LoadPsum) each_byte([&](std::uint64_t ad) { psum_loads.at(ad - lay.ofmap_base)++; });
            if (op.kind == OpKind::LoadFilter) each_byte([&](std::uint64_t ad) { weights.at(ad - lay.weight_base)++; });
            if (op.kind == OpKind::LoadIfmap) {
                if (op.wait && op.oy == 0) rows_on_chip.clear();  // new tile
                std::uint64_t lo = ~0ull, hi = 0;
                each_byte([&](std::uint64_t ad) {
                    const std::uint64_t plane = std::uint64_t(s.padded_h) * s.padded_w;
                    const int c = int(ad / plane), y = int((ad % plane) / s.padded_w);
                    const std::uint64_t x = ad % s.padded_w;
                    rows_on_chip.insert({c, y});
                    lo = std::min(lo, x);
                    hi = std::max(hi, x);
                });
                cur_x0 = int(lo);
                cur_x1 = int(hi);
            }
            if (op.kind == OpKind::Compute) {
                macs += op.macs;
                // Every input row a tap of this output row reads (oy s + r d), for every channel of
                // the if tile, is on chip, and every column a tap of the ox tile reads (ox s + k d)
                // was loaded: the taps by the convolution's definition, not by the nest's extents.
                for (int c = 0; c < op.n_if; ++c)
                    for (int r = 0; r < s.ky; ++r) {
                        const int ch = g * s.n_if + op.if_begin + c;
                        REQUIRE(rows_on_chip.count({ch, op.oy * s.sy + r * s.dy}) == 1);
                    }
                for (int ox = op.ox_begin; ox < op.ox_begin + op.n_ox; ++ox)
                    for (int k = 0; k < s.kx; ++k) {
                        const int x = ox * s.sx + k * s.dx;
                        REQUIRE((x >= cur_x0 && x <= cur_x1));
                    }
                // The loaded columns are the windows' dense extent (an ASSUMPTION of the nest).
                REQUIRE(cur_x0 == op.ox_begin * s.sx);
                REQUIRE(cur_x1 == (op.ox_begin + op.n_ox - 1) * s.sx + (s.kx - 1) * s.dx);
            }
        });
        const int s_if = (s.n_if + t.t_if - 1) / t.t_if;
        for (int k = 0; k < s.K; ++k)
            for (int i = 0; i < s.P * s.Q; ++i) {
                const bool mine = k / s.n_of == g;
                REQUIRE(ofmap[std::size_t(k) * s.P * s.Q + i] == (mine ? 1 : 0));
                REQUIRE(psum_loads[std::size_t(k) * s.P * s.Q + i] == (mine ? s_if - 1 : 0));
            }
        for (std::size_t w = 0; w < weights.size(); ++w) {
            const bool mine = int(w / (std::size_t(s.n_if) * s.kx * s.ky)) / s.n_of == g;
            REQUIRE(weights[w] == (mine ? 1 : 0));
        }
        REQUIRE(macs == s.macs() / std::uint64_t(s.groups));
    }
}

TEST_CASE("stitched run loads each filter tile once, separate slices reload it", "[tiling][loop_nest]") {
    ConvShape s;
    s.name = "st";
    s.n_of = s.K = 8;
    s.n_if = s.C = 4;
    s.kx = s.ky = 3;
    s.Q = 12;
    s.P = 5;
    s.padded_w = 14;
    s.padded_h = 7;
    AsipParams a;
    Tiling t{4, 2, 3};
    auto filter_bytes = [&](const SliceRun& r) {
        std::uint64_t b = 0;
        LoopNest(s, r, t, a).for_each([&](const Op& op) {
            if (op.kind == OpKind::LoadFilter) b += op.bytes();
        });
        return b;
    };
    const std::uint64_t all_w = std::uint64_t(8) * 4 * 9 * 2;
    CHECK(filter_bytes(SliceRun{0, 0, 8, 0, 12, 4}) == all_w);          // 3 slices stitched
    CHECK(filter_bytes(SliceRun{0, 0, 8, 0, 4, 4}) * 3 == 3 * all_w);   // one slice alone: all weights
}
