// The row activations of a core's own access stream (mapper::waving::PageReplay and
// OpProfile::activations from profile_run) against an independent reference: every byte of every
// segment replayed in order on one open row per bank, the bank and the row taken from the masks
// bit by bit. The replay under test walks chunks and skips the bank lookups once every bank has had
// a chunk of an op; the reference does neither.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "mapper/waving/mesh_profile.h"

using namespace vp::mapper;
using namespace vp::mapper::waving;

namespace {

struct ByteReplay {
    std::uint64_t bank_mask, row_mask;
    std::map<std::uint64_t, std::uint64_t> open;  // bank bits -> row bits
    std::uint64_t first_opens = 0;                // activations of a bank with no row open yet
    std::uint64_t add(std::uint64_t addr, std::uint64_t n, std::uint64_t bytes, std::uint64_t stride) {
        std::uint64_t acts = 0;
        for (std::uint64_t s = 0; s < n; ++s)
            for (std::uint64_t a = addr + s * stride; a < addr + s * stride + bytes; ++a) {
                const auto it = open.find(a & bank_mask);
                if (it == open.end()) open.emplace(a & bank_mask, a & row_mask), ++acts, ++first_opens;
                else if (it->second != (a & row_mask)) it->second = a & row_mask, ++acts;
            }
        return acts;
    }
};

DramFigures masks(std::uint64_t bank, std::uint64_t row) {
    DramFigures d;
    d.bank_mask = bank;
    d.row_mask = row;
    return d;
}

}  // namespace

TEST_CASE("page replay: activations equal a byte-by-byte replay on random DMA ops", "[waving][pages]") {
    struct Mapping {
        const char* name;
        std::uint64_t bank, row;
    };
    const std::uint64_t rows14 = 0x3FFFull;
    const std::vector<Mapping> mappings = {
        {"row_bank_col: 8 banks above 8 KB columns", 0x7ull << 13, rows14 << 16},
        {"bank_row_col: the banks on top", 0x7ull << 27, rows14 << 13},
        {"bank bits spread over the rows", (1ull << 13) | (1ull << 15) | (1ull << 17),
         (1ull << 14) | (1ull << 16) | (0x7FFull << 18)},
        {"a column bit above the banks (two chunks on one page)", 0x7ull << 13, rows14 << 17},
        {"one bank", 0, 0xFFFFull << 12},
        {"2 channels x 2 ranks x 8 banks, 2 KB columns", 0x7Full << 11, 0x3FFFull << 18},
    };
    std::mt19937_64 rng(11);
    for (const Mapping& m : mappings) {
        INFO(m.name);
        PageReplay fast(masks(m.bank, m.row));
        REQUIRE(fast.active());
        ByteReplay ref{m.bank, m.row, {}};
        const std::uint64_t chunk = (m.bank | m.row) & (~(m.bank | m.row) + 1);
        for (int it = 0; it < 600; ++it) {
            const std::uint64_t n = 1 + rng() % 48, b = 1 + rng() % 3000;
            std::uint64_t st = b;
            switch (rng() % 6) {
                case 0: st = b; break;                                  // contiguous
                case 1: st = b + rng() % 200; break;                    // small gaps
                case 2: st = b + chunk * (1 + rng() % 9) + rng() % 777; break;  // whole chunks between
                case 3: st = b + chunk * 8 * (1 + rng() % 3); break;    // the same bank again and again
                case 4: st = rng() % b; break;                          // overlapping (or 0)
                default: st = b + rng() % (3 * chunk); break;
            }
            const std::uint64_t addr = rng() % (std::uint64_t(1) << 27);
            INFO("op " << it << ": addr " << addr << ", " << n << " x " << b << " B, stride " << st);
            REQUIRE(fast.add(addr, n, b, st) == ref.add(addr, n, b, st));
        }
        CHECK(fast.first_opens() == ref.first_opens);
    }
}

TEST_CASE("page replay: long contiguous and strided ops leave the banks on their last rows", "[waving][pages]") {
    // row_bank_col with 8 banks of 8 KB chunks: 100 chunks from 0 are 100 activations and leave
    // bank i on the row of chunk 96 + i (i < 4) or 88 + i; reading chunk 99 again is then a hit,
    // chunk 91 (bank 3, an older row) a conflict.
    PageReplay r(masks(0x7ull << 13, 0x3FFFull << 16));
    CHECK(r.add(0, 1, 100 * 8192, 0) == 100);
    CHECK(r.add(99 * 8192 + 17, 1, 64, 0) == 0);
    CHECK(r.add(91 * 8192, 1, 64, 0) == 1);
    // 40 segments of 32 bytes, 25 KB apart (a channel plane of 112 x 112 x 2 bytes): 40 chunks,
    // each on a row its bank does not hold open.
    PageReplay s(masks(0x7ull << 13, 0x3FFFull << 16));
    CHECK(s.add(3 * 8192, 40, 32, 25088) == 40);
    // Without masks nothing is counted.
    PageReplay none(DramFigures{});
    CHECK_FALSE(none.active());
    CHECK(none.add(0, 10, 64, 8192) == 0);
}

TEST_CASE("page replay: a profile's activations equal the byte replay of its loop nest", "[waving][pages]") {
    tiling::AsipParams asip;
    PacketFormat fmt;
    const DramFigures d = masks(0x7ull << 13, 0x3FFFull << 16);
    struct Case {
        int C, K, H, R, stride;
    };
    for (const Case& c : {Case{3, 64, 56, 7, 2}, Case{16, 32, 28, 3, 1}, Case{64, 48, 14, 1, 1}}) {
        Layer l;
        l.name = "conv";
        l.C = c.C;
        l.K = c.K;
        l.H = l.W = c.H;
        l.R = l.S = c.R;
        l.stride_h = l.stride_w = c.stride;
        l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = c.R / 2;
        tiling::ConvShape s;
        REQUIRE(tiling::ConvShape::from_layer(l, &s));
        const tiling::SliceRun run{0, 0, std::min(16, s.n_of), 0, s.Q, s.Q};
        const tiling::Tiling t{8, std::min(4, s.n_if), 16};
        OpProfile filters, other;
        profile_run(s, run, t, asip, fmt, 64, &filters, &other, nullptr, &d);
        ByteReplay ref{d.bank_mask, d.row_mask, {}};
        std::uint64_t acts = 0, transfers = 0;
        tiling::LoopNest nest(s, run, t, asip);
        nest.for_each([&](const tiling::Op& op) {
            if (!op.is_dma()) return;
            acts += ref.add(op.dram_addr, op.n_segs, op.seg_bytes, op.seg_stride);
            transfers += op_features(op, fmt, 64).transfers;
        });
        INFO("conv " << c.C << " -> " << c.K << ", " << c.R << "x" << c.R);
        CHECK(acts > 0);
        CHECK(filters.activations + other.activations == double(acts));
        CHECK(filters.requests + other.requests == double(transfers));
    }
}
