// The end-of-run invariant checker: every broken law is reported with its scope and both
// figures; nothing is reported when all hold; a test-only fault reaches exactly one check.
#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "models/common/invariant_check.h"

using vp::InvariantCheck;

TEST_CASE("laws that hold report nothing", "[invariants]") {
    InvariantCheck chk;
    chk.equal("flits carried = flits counted", "layer conv1", 12, 12);
    chk.none_left("transactions left in flight", "ni_1_1", 0);
    REQUIRE(chk.ok());
    REQUIRE(chk.checked() == 2);
    REQUIRE(chk.report().empty());
    REQUIRE_NOTHROW(chk.throw_if_broken());
}

TEST_CASE("a broken law names itself, its scope, expected and actual (exit 3)", "[invariants]") {
    InvariantCheck chk;
    chk.equal("MACs simulated = MACs of the layer", "layer conv1", 100, 100);
    chk.equal("NoC flits of the layer = flits counted by the mapper (Eq. 23)", "layer conv2", 1365563, 1401339);
    chk.none_left("DRAM transactions left in flight", "dram", 3);
    REQUIRE_FALSE(chk.ok());
    REQUIRE(chk.violations().size() == 2);
    const std::string r = chk.report();
    REQUIRE(r.find("2 of 3 end-of-run invariants broken") != std::string::npos);
    REQUIRE(r.find("invariant \"NoC flits of the layer = flits counted by the mapper (Eq. 23)\" broken in layer conv2: "
                   "expected 1365563, actual 1401339") != std::string::npos);
    REQUIRE(r.find("invariant \"DRAM transactions left in flight\" broken in dram: expected 0, actual 3") !=
            std::string::npos);
    REQUIRE(r.find("conv1") == std::string::npos);
    REQUIRE_THROWS_AS(chk.throw_if_broken(), vp::SimulationError);  // vp-run maps it to exit code 3
}

TEST_CASE("a long list is cut after kMaxListed lines", "[invariants]") {
    InvariantCheck chk;
    for (int i = 0; i < 30; ++i) chk.equal("law", "router[" + std::to_string(i) + "]", 0, 1);
    const std::string r = chk.report();
    REQUIRE(r.find("router[19]") != std::string::npos);
    REQUIRE(r.find("router[20]") == std::string::npos);
    REQUIRE(r.find("... and 10 more") != std::string::npos);
}

TEST_CASE("a test fault changes exactly the first matching check", "[invariants]") {
    InvariantCheck chk;
    chk.set_fault({"flits", "layer conv2", +7});
    chk.equal("MACs simulated = MACs of the layer", "layer conv2", 5, 5);  // law does not match
    chk.equal("NoC flits of the layer", "layer conv1", 10, 10);          // scope does not match
    chk.equal("NoC flits of the layer", "layer conv2", 10, 10);          // hit
    chk.equal("flits carried during the layer", "layer conv2", 10, 10);  // only once
    REQUIRE(chk.violations().size() == 1);
    REQUIRE(chk.violations()[0].scope == "layer conv2");
    REQUIRE(chk.violations()[0].expected == 10);
    REQUIRE(chk.violations()[0].actual == 17);
}
