// Placement of unequal blocks on the active cores (mapper::waving::route_shares, fluid_makespan,
// place_blocks; docs/mesh.md, "Placement of unequal blocks"), on meshes and jobs worked out by
// hand: XY routes to one DRAM interface at (0, 0), round robin per router input.
#include <catch2/catch.hpp>

#include <vector>

#include "mapper/waving/core_placement.h"

using namespace vp::mapper::waving;

namespace {

const MeshNode kIf{0, 0};

}  // namespace

TEST_CASE("route shares: the product of 1 / (inputs with traffic) along each XY route", "[waving][placement]") {
    // The six cores of SqueezeNet 1.0's stem on six cores of mesh-4x4 (docs/mesh.md). Inputs with
    // traffic: (0,0) 2 (from (1,0) and (0,1)); (1,0) 1; (2,0) 2 (local, (3,0)); (0,1) 3 (local,
    // (0,2), (1,1)); (1,1) 2 (local, (2,1)); the others 1.
    const std::vector<MeshNode> cores{{2, 0}, {3, 0}, {0, 1}, {0, 2}, {1, 1}, {2, 1}};
    const std::vector<double> phi = route_shares(cores, {kIf});
    REQUIRE(phi.size() == 6);
    CHECK(phi[0] == Approx(1.0 / 4));
    CHECK(phi[1] == Approx(1.0 / 4));
    CHECK(phi[2] == Approx(1.0 / 6));
    CHECK(phi[3] == Approx(1.0 / 6));
    CHECK(phi[4] == Approx(1.0 / 12));
    CHECK(phi[5] == Approx(1.0 / 12));
    double sum = 0;
    for (double p : phi) sum += p;
    CHECK(sum == Approx(1.0));

    // Two interfaces: each core counts only the cores of its own (nearest) interface.
    const std::vector<double> two = route_shares({{1, 0}, {2, 0}, {3, 3}}, {kIf, MeshNode{3, 3}});
    CHECK(two[0] == Approx(1.0 / 2));  // (1,0): local and (2,0)'s input
    CHECK(two[1] == Approx(1.0 / 2));
    CHECK(two[2] == Approx(1.0));  // alone at its interface
}

TEST_CASE("fluid makespan: compute-bound, shared-bound and hierarchical splits by hand", "[waving][placement]") {
    // One core: its compute bounds it below full demand, the shared side above.
    CHECK(fluid_makespan({{1, 0}}, kIf, {100}, {50}) == Approx(100));
    CHECK(fluid_makespan({{1, 0}}, kIf, {100}, {200}) == Approx(200));
    // Two cores on separate inputs of the interface's router, 0.8 demand each: 0.5 each, both
    // done at the total shared work, 160.
    CHECK(fluid_makespan({{1, 0}, {0, 1}}, kIf, {100, 100}, {80, 80}) == Approx(160));
    // Unequal jobs: B (50 / 40) is done at 80 at 0.5; A (100 / 80) has half left, alone at 0.8
    // (its compute bound) for 50 more: 130.
    CHECK(fluid_makespan({{1, 0}, {0, 1}}, kIf, {100, 50}, {80, 40}) == Approx(130));
    // Three saturating cores: (0,1) gets 1/2, (1,0) and (2,0) 1/4 each; work-conserving: 30.
    CHECK(fluid_makespan({{2, 0}, {1, 0}, {0, 1}}, kIf, {10, 10, 10}, {10, 10, 10}) == Approx(30));
    // Demand below saturation, where the placement decides. Heavy job 20 / 10 (demand 0.5), two
    // light 10 / 5. Heavy at (0,1) (share 1/2): every core at its compute, done at 20. Heavy at
    // (2,0): (0,1)'s light is done at 10; then (1,0)'s light and the heavy job split 1 until 15;
    // then the heavy job alone at its compute, done at 25.
    CHECK(fluid_makespan({{0, 1}, {1, 0}, {2, 0}}, kIf, {20, 10, 10}, {10, 5, 5}) == Approx(20));
    CHECK(fluid_makespan({{2, 0}, {1, 0}, {0, 1}}, kIf, {20, 10, 10}, {10, 5, 5}) == Approx(25));
}

TEST_CASE("place_blocks: the heavier blocks on the larger shares only when the fluid makespan gains",
          "[waving][placement]") {
    const std::vector<MeshNode> ranks{{2, 0}, {1, 0}, {0, 1}};  // shares 1/4, 1/4, 1/2
    // Block 0 heavy: by share it goes to rank 2 ((0,1)), the light ones keep their order: 25 -> 20.
    CHECK(place_blocks(ranks, {kIf}, {20, 10, 10}, {10, 5, 5}) == std::vector<int>{2, 0, 1});
    // Equal blocks: the waving order.
    CHECK(place_blocks(ranks, {kIf}, {10, 10, 10}, {5, 5, 5}) == std::vector<int>{0, 1, 2});
    // The shared side idle enough that every core runs at its compute: no gain, the waving order.
    CHECK(place_blocks(ranks, {kIf}, {20, 10, 10}, {2, 1, 1}) == std::vector<int>{0, 1, 2});
    // Saturated: work-conserving, the same makespan either way: the waving order.
    CHECK(place_blocks(ranks, {kIf}, {20, 10, 10}, {40, 20, 20}) == std::vector<int>{0, 1, 2});
    // Several interfaces: the waving order.
    CHECK(place_blocks(ranks, {kIf, MeshNode{3, 3}}, {20, 10, 10}, {10, 5, 5}) == std::vector<int>{0, 1, 2});
}
