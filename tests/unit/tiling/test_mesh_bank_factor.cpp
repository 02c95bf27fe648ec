// The lockstep bank factor of the phased-pages model (mapper::waving::lockstep_bank_factor,
// BankSampler, tensor_offsets; docs/mesh.md, "The cores' strides on the banks"), on page layouts
// worked out by hand (row_bank_col: 8 banks above 8 KB of columns, rows above 64 KB). Per entry the
// factor compares the rows a row change meets on its bank, sum a_b^2 / sum a_b over the banks' rows
// a_b in place, with 1 + (N - 1) / B for N pages at random on B banks.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "mapper/waving/mesh_profile.h"
#include "mapper/waving/mesh_time_model.h"
#include "mapper/workload/layer.h"

using namespace vp::mapper;
using namespace vp::mapper::waving;

namespace {

DramFigures row_bank_col() {
    DramFigures d;
    d.bank_mask = 0x7ull << 13;
    d.row_mask = 0x3FFFull << 16;
    d.burst_bytes = 64;
    return d;
}

// One entry of one 64-B load of the ifmap at address 0.
std::vector<std::vector<BankSample>> one_load(std::uint64_t bytes = 64) {
    BankSample b;
    b.addr = 0;
    b.seg_bytes = bytes;
    b.n_segs = 1;
    b.tensor = 0;
    return {{b}};
}

std::vector<TensorOffsets> cores_at(int k, std::uint64_t stride) {
    std::vector<TensorOffsets> v;
    for (int c = 0; c < k; ++c) v.push_back(TensorOffsets{std::uint64_t(c) * stride, 0, 0});
    return v;
}

}  // namespace

TEST_CASE("bank factor: one core, or cores on their own banks or on one shared page, is 1", "[waving][banks]") {
    const DramFigures d = row_bank_col();
    // One core: nothing to alias with.
    CHECK(lockstep_bank_factor(one_load(), cores_at(1, 0), d) == 1.0);
    // Eight cores 8 KB apart: banks 0..7, one row each; the most loaded bank holds one row, no
    // rotation does better.
    CHECK(lockstep_bank_factor(one_load(), cores_at(8, 8192), d) == 1.0);
    // Eight cores 64 B apart: the same page (bank 0, row 0), one row change for all.
    CHECK(lockstep_bank_factor(one_load(), cores_at(8, 64), d) == 1.0);
    // No bank bits known: 1.
    DramFigures none = d;
    none.bank_mask = 0;
    CHECK(lockstep_bank_factor(one_load(), cores_at(8, 65536), none) == 1.0);
}

TEST_CASE("bank factor: cores 64 KB apart alias onto one bank in different rows", "[waving][banks]") {
    const DramFigures d = row_bank_col();
    // Eight cores 64 KB apart: all on bank 0, rows 0..7: a row change meets 8 rows on its bank; at
    // random 1 + 7/8.
    CHECK(lockstep_bank_factor(one_load(), cores_at(8, 65536), d) == Approx(1.875 / 8.0));
    // Two cores: 2 rows against 1 + 1/8.
    CHECK(lockstep_bank_factor(one_load(), cores_at(2, 65536), d) == Approx(1.125 / 2.0));
    // Four cores 16 KB apart: banks 0, 2, 4, 6 of row 0: one row per bank, better than at random: 1.
    CHECK(lockstep_bank_factor(one_load(), cores_at(4, 16384), d) == 1.0);
    // Six cores 24 KB apart: banks 0, 3, 6, 1, 4, 7 (the fourth in row 1): spread, 1. Six cores
    // 128 KB apart: bank 0, rows 0, 2, ..., 10: 6 rows against 1 + 5/8.
    CHECK(lockstep_bank_factor(one_load(), cores_at(6, 24576), d) == 1.0);
    CHECK(lockstep_bank_factor(one_load(), cores_at(6, 131072), d) == Approx(1.625 / 6.0));
    // Eight cores 32 KB apart: banks 0 and 4, four rows each: 4 against 1 + 7/8.
    CHECK(lockstep_bank_factor(one_load(), cores_at(8, 32768), d) == Approx(1.875 / 4.0));
}

TEST_CASE("bank factor: an entry whose loads cover every bank counts as at random", "[waving][banks]") {
    const DramFigures d = row_bank_col();
    // Core 0's 64 KB load touches banks 0..7: the entry is neutral (factor 1) even with the cores
    // 64 KB apart.
    CHECK(lockstep_bank_factor(one_load(65536), cores_at(8, 65536), d) == 1.0);
    // Entries weigh by one core's bursts: the aliased one 1 (1.875 at random against 8 in place),
    // the wide one 1,024 (neutral): (1.875 + 1024) / (8 + 1024).
    const std::vector<std::vector<BankSample>> mixed = {one_load(64)[0], one_load(1024 * 64)[0]};
    CHECK(lockstep_bank_factor(mixed, cores_at(8, 65536), d) == Approx((1.875 + 1024.0) / (8.0 + 1024.0)));
}

TEST_CASE("bank factor: a strided load's banks are counted over its segments, not only the priced ones", "[waving][banks]") {
    const DramFigures d = row_bank_col();
    // A filter load of 64 segments of 64 B, 8 KB + 64 B apart: segment i on bank i mod 8. The 4
    // segments the in-place count looks at (0, 16, 32, 48) all sit on bank 0, but the load touches
    // every bank, so its row changes spread as at random: neutral, whatever the cores' offsets.
    BankSample b;
    b.addr = 0;
    b.seg_bytes = 64;
    b.n_segs = 64;
    b.seg_stride = 8192 + 64;
    b.tensor = 1;
    const std::vector<std::vector<BankSample>> load = {{b}};
    std::vector<TensorOffsets> cores;
    for (int c = 0; c < 8; ++c) cores.push_back(TensorOffsets{0, std::uint64_t(c) * 65536, 0});
    CHECK(lockstep_bank_factor(load, cores, d) == 1.0);
    // With 8 segments, 64 KB + 64 B apart (all on bank 0, in rows 0..7), nothing spreads: each core
    // is 8 rows on bank 0, the 8 cores' 4 looked-at rows each in rows c + {0, 2, 4, 6} (shared
    // between cores: 14 distinct), at random 1 + (4 * 8 - 1) / 8.
    b.n_segs = 8;
    b.seg_stride = 65536 + 64;
    const double f = lockstep_bank_factor({{b}}, cores, d);
    CHECK(f == Approx((1.0 + 31.0 / 8.0) / 14.0));
}

TEST_CASE("bank sampler: keeps at most its entries, every stride-th, loads only", "[waving][banks]") {
    BankSampler s(16);
    for (int e = 0; e < 100; ++e) {
        tiling::Op load;
        load.kind = tiling::OpKind::LoadIfmap;
        load.dram_addr = std::uint64_t(e);
        load.seg_bytes = 64;
        load.n_segs = 1;
        s.op(load);
        tiling::Op store = load;
        store.kind = tiling::OpKind::StoreOfmap;
        s.op(store);
        s.end_entry();
        s.end_entry();  // a second Compute op with no DMA op between: not an entry
    }
    // 100 entries, at most 16 kept: the stride doubles to 8, entries 0, 8, ..., 96 (13).
    const auto& kept = s.entries();
    REQUIRE(kept.size() == 13);
    for (std::size_t i = 0; i < kept.size(); ++i) {
        REQUIRE(kept[i].size() == 1);  // the load; the store is not sampled
        CHECK(kept[i][0].addr == 8 * i);
        CHECK(kept[i][0].tensor == 0);
    }
}

TEST_CASE("tensor offsets: a slice's first addresses relative to the origin slice", "[waving][banks]") {
    // 2 groups of 3 -> 4 channels, 5 x 6 ofmap (P x Q), padded ifmap 7 x 8, 3x3 kernel, stride 1,
    // 2-byte words; the slice at group 1, output channel 2, column 4.
    tiling::ConvShape s;
    s.groups = 2;
    s.n_if = 3;
    s.n_of = 4;
    s.P = 5;
    s.Q = 6;
    s.padded_h = 7;
    s.padded_w = 8;
    s.kx = s.ky = 3;
    s.sx = s.sy = 1;
    tiling::AsipParams asip;
    asip.word_bits = 16;
    const TensorOffsets o = tensor_offsets(s, 1, 2, 4, asip);
    CHECK(o[0] == (1u * 3 * 7 * 8 + 4) * 2);   // ifmap: group 1's channels, column 4
    CHECK(o[1] == ((1u * 4 + 2) * 3 * 9) * 2); // weights: filter 6 (group 1, channel 2)
    CHECK(o[2] == ((1u * 4 + 2) * 5 * 6 + 4) * 2);  // ofmap: channel 6, column 4
}

TEST_CASE("activation price: the bank factor divides the banks in use", "[waving][banks]") {
    // 8 banks, q = min(16, 14 x min(8, 64)) = 16 requests: b = 8 (1 - (7/8)^16); reads: a bank's
    // turn tRAS + tRP = 28 + 10 = 38 tCK, BL/2 = 4; the activation window tFAW / 4 = 6.
    MeshMapParams mesh;
    mesh.hw.dram.banks = 8;
    mesh.hw.dram.ranks = 1;
    mesh.hw.dram.channels = 1;
    mesh.hw.dram.tRAS = 28;
    mesh.hw.dram.tRP = 10;
    mesh.hw.dram.tRCD = 10;
    mesh.hw.dram.CWL = 8;
    mesh.hw.dram.tWR = 12;
    mesh.hw.dram.tFAW = 24;
    mesh.hw.dram.tRRD = 5;
    mesh.hw.dram.burst_cycles = 4;
    mesh.hw.dram_if_outstanding = 16;
    tiling::AsipParams asip;
    asip.dma_max_outstanding = 8;
    const double b16 = 8.0 * (1.0 - std::pow(7.0 / 8.0, 16.0));
    CHECK(PhasedMeshModel::activation_price(mesh.hw, asip, 14, 64, 0.0) == Approx(std::max(38.0 / b16, 6.0) - 4.0));
    CHECK(PhasedMeshModel::activation_price(mesh.hw, asip, 14, 64, 0.0, 0.5) == Approx(38.0 / (0.5 * b16) - 4.0));
    // At least one bank: a factor of 0.01 leaves one bank, 38 - 4.
    CHECK(PhasedMeshModel::activation_price(mesh.hw, asip, 14, 64, 0.0, 0.01) == Approx(34.0));
}

TEST_CASE("tensor offsets: a slice's loop nest is the origin slice's shifted by them", "[waving][banks]") {
    // The offsets restate the loop nest's address formulas; walk both nests and compare every DMA op
    // (the last case depthwise: one output channel per group).
    tiling::AsipParams asip;
    struct Case {
        int groups, C, H, R, stride, dilation;
    };
    for (const Case& c : {Case{2, 8, 12, 3, 1, 1}, Case{4, 16, 14, 5, 2, 1}, Case{4, 16, 10, 3, 1, 2}, Case{8, 8, 10, 3, 1, 2}}) {
        Layer l;
        l.name = "conv";
        l.C = l.K = c.C;
        l.groups = c.groups;
        l.H = l.W = c.H;
        l.R = l.S = c.R;
        l.stride_h = l.stride_w = c.stride;
        l.dilation_h = l.dilation_w = c.dilation;
        l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = c.dilation * (c.R / 2);
        tiling::ConvShape s;
        REQUIRE(tiling::ConvShape::from_layer(l, &s));
        REQUIRE(s.Q >= 4);
        const int of = s.n_of / 2, w = s.n_of - of, x = 2, wx = 2;
        const tiling::SliceRun origin{0, 0, w, 0, wx, wx};
        const tiling::SliceRun moved{c.groups - 1, of, of + w, x, x + wx, wx};
        const tiling::Tiling t{w, std::min(2, s.n_if), wx};
        std::vector<tiling::Op> a, b;
        tiling::LoopNest(s, origin, t, asip).for_each([&](const tiling::Op& op) { if (op.is_dma()) a.push_back(op); });
        tiling::LoopNest(s, moved, t, asip).for_each([&](const tiling::Op& op) { if (op.is_dma()) b.push_back(op); });
        REQUIRE(a.size() == b.size());
        const TensorOffsets o = tensor_offsets(s, c.groups - 1, of, x, asip);
        INFO("groups " << c.groups << ", " << c.R << "x" << c.R << " stride " << c.stride << " dilation " << c.dilation);
        for (std::size_t i = 0; i < a.size(); ++i) {
            REQUIRE(a[i].kind == b[i].kind);
            const int tensor = a[i].kind == tiling::OpKind::LoadIfmap ? 0 : a[i].kind == tiling::OpKind::LoadFilter ? 1 : 2;
            CHECK(b[i].dram_addr - a[i].dram_addr == o[std::size_t(tensor)]);
        }
    }
}
