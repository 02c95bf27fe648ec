#include <catch2/catch.hpp>

#include "mapper/workload/layer.h"

TEST_CASE("conv MACs follow (C/g)*K*R*S*P*Q") {
    vp::mapper::Layer l;
    l.C = 96; l.K = 256; l.H = 27; l.W = 27; l.R = 5; l.S = 5; l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = 2;
    l.groups = 2;
    CHECK(l.P() == 27);
    CHECK(l.macs() == 48ull * 256 * 25 * 27 * 27);
}
