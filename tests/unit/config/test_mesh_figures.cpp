// The mesh mapper's hardware figures (platform/config/mesh_figures.cpp) from the NoC section: the
// stream figures of `phased-engine` (g = max(router_stages - 2, 0), the credit stall
// max(0, g - (buffer_depth - (1 + link_latency + credit_delay))), buffer_depth), by hand.
#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "platform/config/mesh_figures.h"
#include "platform/config/platform_spec.h"

using namespace vp::config;

namespace {
const std::string kConfig = std::string(VP_SOURCE_DIR) + "/configs/mesh-4x4.yaml";
}

TEST_CASE("mesh figures: the NoC's stream figures for phased-engine") {
    // Defaults: router_stages 4, link_latency 1, credit_delay 1, buffer_depth 4: g 2, R 3, stall 1.
    const auto f = mesh_figures(load_platform(kConfig, {}));
    CHECK(f.packet_gap == 2);
    CHECK(f.credit_stall == 1);
    CHECK(f.buffer_depth == 4);
    // B = 8 >= R + g: no stall.
    CHECK(mesh_figures(load_platform(kConfig, {"noc.buffer_depth=8"})).credit_stall == 0);
    // router_stages 6: g 4, stall 4 - (4 - 3) = 3; link_latency 2: R 4, stall 2 - 0 = 2.
    const auto r6 = mesh_figures(load_platform(kConfig, {"noc.router_stages=6"}));
    CHECK(r6.packet_gap == 4);
    CHECK(r6.credit_stall == 3);
    CHECK(mesh_figures(load_platform(kConfig, {"noc.link_latency=2"})).credit_stall == 2);
    // router_stages 2: no gap, no stall.
    const auto r2 = mesh_figures(load_platform(kConfig, {"noc.router_stages=2"}));
    CHECK(r2.packet_gap == 0);
    CHECK(r2.credit_stall == 0);
}

TEST_CASE("mapper.mesh_model: phased-pages is the default, phased is accepted, an unknown model lists the known ones") {
    CHECK(load_platform(kConfig, {"mapper.mesh_model=phased"}).mapper.mesh_model == "phased");
    CHECK(load_platform(kConfig, {}).mapper.mesh_model == "phased-pages");
    CHECK_THROWS_WITH(load_platform(kConfig, {"mapper.mesh_model=engine"}),
                      Catch::Contains("unknown cost model \"engine\" (known: calibrated, paper, phased, phased-engine, "
                                      "phased-pages, phased-serial, phased-slices, queueing)"));
}
