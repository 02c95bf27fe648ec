// Closed-form counts (cost_model.h) against an operation-by-operation replay of the tile
// walker, on random layers, platforms and tiles.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <random>

#include "mapper/tso/calibrated_model.h"
#include "mapper/tso/tlt_tiling.h"
#include "mapper/tso/time_model.h"
#include "tso_test_util.h"

using namespace tso_test;

namespace {

// A tile drawn within the cost model's domain (memory fit not required).
Tile random_tile(std::mt19937_64& rng, const ConvCostModel& m) {
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Tile t;
    t.t_r = uni(1, m.max_rows());
    t.t_c = uni(1, m.conv().Q);
    t.t_n = uni(1, m.conv().N);
    t.t_m = uni(1, m.max_tlt_filters());
    t.t_h = m.t_h(t.t_r);
    t.t_l = m.t_l(t.t_c);
    return t;
}

}  // namespace

TEST_CASE("closed-form counts equal the replayed tile sequence", "[tso][cost]") {
    std::mt19937_64 rng(12345);
    int checked = 0;
    for (int it = 0; it < 3000 && checked < 1500; ++it) {
        const Layer l = random_layer(rng);
        const NmpParams hw = random_hw(rng);
        const ConvShape c = make_conv_shape(l, std::uniform_int_distribution<int>(1, 2)(rng));
        const TleSlicing p = kAllSlicings[std::size_t(it % 3)];
        const TltSchedule q = kAllSchedules[std::size_t((it / 3) % 3)];
        ConvCostModel m(c, hw, p);
        const Tile t = random_tile(rng, m);
        // Memory fit is irrelevant to the counting; check every tile.
        const CostCounts a = m.counts(q, t);
        const RefResult ref = reference_counts(c, hw, p, q, t);
        INFO("layer C=" << l.C << " K=" << l.K << " H=" << l.H << " W=" << l.W << " R=" << l.R << " S=" << l.S
                        << " s=" << l.stride_h << "," << l.stride_w << " g=" << l.groups << " slicing "
                        << to_string(p) << " schedule " << to_string(q) << " tile M" << t.t_m << " N" << t.t_n
                        << " R" << t.t_r << " C" << t.t_c);
        REQUIRE(ref.coverage_ok);
        CHECK(a.macs == l.macs());
        CHECK(ref.counts.macs == l.macs());
        CHECK(a.in_loads == ref.counts.in_loads);
        CHECK(a.w_loads == ref.counts.w_loads);
        CHECK(a.out_stores == ref.counts.out_stores);
        CHECK(a.in_bytes == ref.counts.in_bytes);
        CHECK(a.w_bytes == ref.counts.w_bytes);
        CHECK(a.out_bytes == ref.counts.out_bytes);
        CHECK(a.in_bursts == ref.counts.in_bursts);
        CHECK(a.w_bursts == ref.counts.w_bursts);
        CHECK(a.out_bursts == ref.counts.out_bursts);
        CHECK(a.mac_cycles == ref.counts.mac_cycles);
        CHECK(a.sw_instr == ref.counts.sw_instr);
        // What the time models read of the critical TLE, TLT and port.
        CHECK(a.tle_bytes == ref.counts.tle_bytes);
        CHECK(a.tle_txns == ref.counts.tle_txns);
        CHECK(a.tle_transfers == ref.counts.tle_transfers);
        CHECK(a.tlt_syncs == ref.counts.tlt_syncs);
        CHECK(a.port_load_bytes == ref.counts.port_load_bytes);
        CHECK(a.port_store_bytes == ref.counts.port_store_bytes);
        ++checked;
    }
    CHECK(checked >= 1500);
}

TEST_CASE("every input a tap reads lies in the IN window of its compute (dilated kernels too)", "[tso][cost]") {
    // By the convolution's definition, output (r, q) reads input (r s_h - pad_top + i d_h,
    // q s_w - pad_left + j d_w) for the taps i < R, j < S that fall inside the map; the walker's IN
    // windows are computed from the window's extent, which this check does not use.
    std::mt19937_64 rng(4242);
    int dilated = 0;
    for (int it = 0; it < 1500; ++it) {
        Layer l = random_layer(rng);
        if (l.kind != LayerKind::Conv) continue;
        const NmpParams hw = random_hw(rng);
        const ConvShape c = make_conv_shape(l, 1);
        dilated += c.dilation_h > 1 || c.dilation_w > 1;
        const TleSlicing p = kAllSlicings[std::size_t(it % 3)];
        const TltSchedule q = kAllSchedules[std::size_t((it / 3) % 3)];
        ConvCostModel m(c, hw, p);
        const Tile t = random_tile(rng, m);
        INFO("layer C=" << l.C << " K=" << l.K << " H=" << l.H << " W=" << l.W << " R=" << l.R << " S=" << l.S
                        << " d=" << l.dilation_h << "," << l.dilation_w << " s=" << l.stride_h << "," << l.stride_w);
        const auto slices = tle_slicing(p, c.P, c.M, c.N, hw.n_tle);
        for (int tle = 0; tle < hw.n_tle; ++tle) {
            const auto tlts = tlt_filter_split(slices[std::size_t(tle)].filters, hw.n_tlt);
            walk_tle(c, tle, slices[std::size_t(tle)], tlts, q, t, hw.macs_per_cycle, [&](const TileOp& o) {
                if (o.kind != OpKind::Compute) return;
                for (int r = o.r0; r < o.r0 + o.rn; ++r)
                    for (int i = 0; i < c.R; ++i) {
                        const int h = r * c.stride_h - c.pad_top + i * c.dilation_h;
                        if (h < 0 || h >= c.H) continue;
                        REQUIRE((h >= o.h0 && h < o.h0 + o.hn));
                    }
                for (int qq = o.q0; qq < o.q0 + o.qn; ++qq)
                    for (int j = 0; j < c.S; ++j) {
                        const int w = qq * c.stride_w - c.pad_left + j * c.dilation_w;
                        if (w < 0 || w >= c.W) continue;
                        REQUIRE((w >= o.w0 && w < o.w0 + o.wn));
                    }
            });
        }
    }
    CHECK(dilated > 100);
}

TEST_CASE("Eq. 2's IN check bounds every IN tile the walker loads: T_H x T_L clipped to the map", "[tso][cost]") {
    // fits() checks T_N x min(T_H, H) x min(T_L, W) against MB0: the padding is not loaded. Every
    // LoadIn of the walk must stay within it (the simulated TLT refuses a larger write into MB0),
    // and on small padded maps and dilated windows the clipped extent is reached while T_H or T_L
    // is larger (the unclipped Eq. 2 refuses tiles that fit).
    std::mt19937_64 rng(777);
    int clipped_and_reached = 0;
    for (int it = 0; it < 3000; ++it) {
        Layer l = random_layer(rng);
        if (l.kind != LayerKind::Conv) continue;
        const NmpParams hw = random_hw(rng);
        const ConvShape c = make_conv_shape(l, 1);
        const TleSlicing p = kAllSlicings[std::size_t(it % 3)];
        const TltSchedule q = kAllSchedules[std::size_t((it / 3) % 3)];
        ConvCostModel m(c, hw, p);
        const Tile t = random_tile(rng, m);
        REQUIRE(m.in_h(t.t_r) <= t.t_h);
        REQUIRE(m.in_w(t.t_c) <= t.t_l);
        INFO("layer H=" << l.H << " W=" << l.W << " R=" << l.R << " S=" << l.S << " d=" << l.dilation_h << ","
                        << l.dilation_w << " s=" << l.stride_h << "," << l.stride_w << " pad " << l.pad_top << ","
                        << l.pad_bottom << "," << l.pad_left << "," << l.pad_right << " T_R " << t.t_r << " T_C "
                        << t.t_c);
        const auto slices = tle_slicing(p, c.P, c.M, c.N, hw.n_tle);
        int max_hn = 0, max_wn = 0;
        for (int tle = 0; tle < hw.n_tle; ++tle) {
            const auto tlts = tlt_filter_split(slices[std::size_t(tle)].filters, hw.n_tlt);
            walk_tle(c, tle, slices[std::size_t(tle)], tlts, q, t, hw.macs_per_cycle, [&](const TileOp& o) {
                if (o.kind != OpKind::LoadIn) return;
                REQUIRE(o.cn <= t.t_n);
                REQUIRE(o.hn <= m.in_h(t.t_r));
                REQUIRE(o.wn <= m.in_w(t.t_c));
                max_hn = std::max(max_hn, o.hn);
                max_wn = std::max(max_wn, o.wn);
            });
        }
        if ((m.in_h(t.t_r) < t.t_h && max_hn == m.in_h(t.t_r)) || (m.in_w(t.t_c) < t.t_l && max_wn == m.in_w(t.t_c)))
            ++clipped_and_reached;
    }
    CHECK(clipped_and_reached > 100);
}

TEST_CASE("OUT bytes cover the output once, W bytes of WS are the weights once", "[tso][cost]") {
    const Layer l = tso_test::square_conv(16, 40, 20, 3, 1);
    const ConvShape c = make_conv_shape(l, 2);
    NmpParams hw = tso_test::seed_hw();
    for (TleSlicing p : kAllSlicings) {
        ConvCostModel m(c, hw, p);
        Tile t{3, 4, 5, 7, m.t_h(5), m.t_l(7)};
        const CostCounts ws = m.counts(TltSchedule::WS, t);
        CHECK(ws.out_bytes == l.output_elems() * 2);
        // KS splits the filters: each weight loaded once in total; otherwise once per TLE
        // holding that filter.
        const std::uint64_t copies = p == TleSlicing::KS ? 1 : (p == TleSlicing::OFM ? 4 : 2);
        CHECK(ws.w_bytes == l.weight_elems() * 2 * copies);
    }
}

TEST_CASE("IS keeps IN stationary: IN traffic independent of T_M, one OUT store per TLT and (row, col) tile",
          "[tso][cost][is]") {
    const Layer l = tso_test::square_conv(12, 40, 16, 3, 1);
    const ConvShape c = make_conv_shape(l, 1);
    const NmpParams hw = seed_hw();
    ConvCostModel m(c, hw, TleSlicing::KS);  // 40 filters: 10 per TLE, TLTs with 2 or 1
    const Tile small{1, 4, 4, 8, m.t_h(4), m.t_l(8)}, big{2, 4, 4, 8, m.t_h(4), m.t_l(8)};
    const CostCounts is1 = m.counts(TltSchedule::IS, small), is2 = m.counts(TltSchedule::IS, big);
    const CostCounts os1 = m.counts(TltSchedule::OS, small);
    CHECK(is1.in_bytes == is2.in_bytes);
    CHECK(is1.in_loads == is2.in_loads);
    // 16 / 4 row tiles x 16 / 8 col tiles x 3 channel chunks per TLE, 4 TLEs.
    CHECK(is1.in_loads == 4u * 4 * 2 * 3);
    // OS reloads IN for every filter chunk of the busiest TLT (2 chunks at T_M = 1).
    CHECK(os1.in_loads == 2 * is1.in_loads);
    // Per TLE: 8 (row, col) tiles x 8 TLTs with filters.
    CHECK(is1.out_stores == 4u * 8 * 8);
    CHECK(is1.w_bytes == os1.w_bytes);
    // MB2 holds every filter of the TLT under IS: 2 filters x 4 x 8 x 1 B.
    NmpParams tight = hw;
    tight.mb2_bytes = 2 * 4 * 8 - 1;
    CHECK_FALSE(ConvCostModel(c, tight, TleSlicing::KS).fits(TltSchedule::IS, small));
    CHECK(ConvCostModel(c, tight, TleSlicing::KS).fits(TltSchedule::OS, small));
}

TEST_CASE("IFM-CH: closed-form counts equal the replayed tile sequence, ring volume by hand", "[tso][cost][ifm_ch]") {
    std::mt19937_64 rng(777);
    int checked = 0, reduced = 0;
    for (int it = 0; it < 2000 && checked < 600; ++it) {
        const Layer l = random_layer(rng);
        const NmpParams hw = random_hw(rng);
        const ConvShape c = make_conv_shape(l, std::uniform_int_distribution<int>(1, 2)(rng));
        const TltSchedule q = kAllSchedules[std::size_t(it % 3)];
        ConvCostModel m(c, hw, TleSlicing::IFM_CH);
        if (m.max_tlt_filters() == 0) continue;
        auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        Tile t;
        t.t_r = uni(1, m.max_rows());
        t.t_c = uni(1, c.Q);
        t.t_n = uni(1, m.max_chans());
        t.t_m = uni(1, m.max_tlt_filters());
        t.t_h = m.t_h(t.t_r);
        t.t_l = m.t_l(t.t_c);
        const CostCounts a = m.counts(q, t);
        const RefResult ref = reference_counts(c, hw, TleSlicing::IFM_CH, q, t);
        // Hand figure: every active TLE but the owner sends its partial of every OUT element.
        const std::uint64_t n_act = std::uint64_t(std::min(c.N, hw.n_tle));
        const std::uint64_t ofm = std::uint64_t(c.groups) * c.M * c.P * c.Q * c.elem_bytes;
        INFO("layer C=" << l.C << " K=" << l.K << " H=" << l.H << " W=" << l.W << " g=" << l.groups << " TLEs "
                        << hw.n_tle << " schedule " << to_string(q));
        REQUIRE(ref.coverage_ok);
        CHECK(a.macs == l.macs());
        CHECK(a.in_loads == ref.counts.in_loads);
        CHECK(a.w_loads == ref.counts.w_loads);
        CHECK(a.out_stores == ref.counts.out_stores);
        CHECK(a.in_bytes == ref.counts.in_bytes);
        CHECK(a.w_bytes == ref.counts.w_bytes);
        CHECK(a.out_bytes == ref.counts.out_bytes);
        CHECK(a.out_bytes == ofm);
        CHECK(a.in_bursts == ref.counts.in_bursts);
        CHECK(a.w_bursts == ref.counts.w_bursts);
        CHECK(a.out_bursts == ref.counts.out_bursts);
        CHECK(a.mac_cycles == ref.counts.mac_cycles);
        CHECK(a.sw_instr == ref.counts.sw_instr);
        CHECK(ref.counts.ring_bytes == (n_act - 1) * ofm);
        CHECK(a.ring_bytes == (n_act - 1) * ofm);
        if (n_act > 1) ++reduced;
        ++checked;
    }
    CHECK(checked >= 600);
    CHECK(reduced >= 300);
}

TEST_CASE("RISC-V control: T_SW by instruction class", "[tso][control]") {
    NmpParams hw;
    hw.clock_mhz = 500;  // 2 ns per cycle
    hw.sw_cycles_per_instr = 16;
    CostCounts k;
    k.sw_instr = 10;
    k.tlt_syncs = 5;
    k.tle_transfers = 7;
    k.tle_ring_msgs = 1;
    CHECK(sw_time_s(k, hw) == Approx(10 * 16 * 2e-9));  // defaults: the constant of before
    hw.control.loop_cycles = 4;
    hw.control.sync_cycles = 3;
    hw.control.dma_issue_cycles = 8;
    // 10 x (16 + 4) + 5 x 3 + (7 + 1) x 8 = 279 cycles
    CHECK(sw_time_s(k, hw) == Approx(279 * 2e-9));
}

TEST_CASE("fabric: busiest port bytes by hand and the estimate's fabric term", "[tso][fabric]") {
    // 1x1 conv 16 -> 64 channels on 8 x 8, 8 bit, KS / OS, tile T_M 2, T_N 16, T_R 8, T_C 8:
    // every TLE 16 filters, 2 per TLT. A port moves its TLE's IN tile (16 x 8 x 8 = 1,024 B,
    // multicast), its W tile (2 x 16 = 32 B) and its OUT tile (2 x 8 x 8 = 128 B): 3 transfers.
    const Layer l = tso_test::square_conv(16, 64, 8, 1);
    const ConvShape c = make_conv_shape(l, 1);
    NmpParams hw = tso_test::seed_hw();
    hw.clock_mhz = 500;  // 2 ns per cycle
    ConvCostModel m(c, hw, TleSlicing::KS);
    const CostCounts k = m.counts(TltSchedule::OS, Tile{2, 16, 8, 8, m.t_h(8), m.t_l(8)});
    CHECK(k.port_load_bytes == 1024 + 32);
    CHECK(k.port_store_bytes == 128);
    CHECK(k.tlt_syncs == 3);
    CHECK(fabric_extra_s(k, hw, 100 * 2e-9) == 0.0);  // fabric off: nothing added
    hw.fabric.enabled = true;
    hw.fabric.bytes_per_cycle = 1;
    hw.fabric.latency_cycles = 4;
    // T_DRAM 100 cycles: max(0, 1,056 - 100) + 128 + 3 x 4 = 1,096 cycles
    CHECK(fabric_extra_s(k, hw, 100 * 2e-9) == Approx(1096 * 2e-9));
    // T_DRAM 2,000 cycles hides the loads: 128 + 12 = 140 cycles
    CHECK(fabric_extra_s(k, hw, 2000 * 2e-9) == Approx(140 * 2e-9));
    hw.fabric.bytes_per_cycle = 16;  // 1,056 / 16 = 66 < 100: 128 / 16 + 12 = 20 cycles
    CHECK(fabric_extra_s(k, hw, 100 * 2e-9) == Approx(20 * 2e-9));
    // Every model adds it: TSO-noburst's total grows by exactly the term.
    const auto nb = make_time_model("noburst", {});
    NmpParams off = hw;
    off.fabric.enabled = false;
    const CostTimes a = nb->screen(k, off), b = nb->screen(k, hw);
    CHECK(b.total_s - a.total_s == Approx(fabric_extra_s(k, hw, a.t_dram_s)));
    CHECK(b.t_fabric_s == Approx(fabric_extra_s(k, hw, a.t_dram_s)));
}

namespace {

// 1 -> 1 channel, 3x3 on 32 x 32, 8 bit (the calibrated-replay tests below).
ConvShape one_channel_3x3() {
    const Layer l = tso_test::square_conv(1, 1, 32, 3);
    return make_conv_shape(l, 1);
}

// The choice (slicing p, schedule q, tile T_M, T_N, T_R, T_C) with its counts.
ChoiceCost choice_of(const ConvShape& c, const NmpParams& hw, TleSlicing p, TltSchedule q, int t_m, int t_n, int t_r,
                     int t_c) {
    ConvCostModel m(c, hw, p);
    ChoiceCost ch;
    ch.found = true;
    ch.slicing = p;
    ch.schedule = q;
    ch.tile = Tile{t_m, t_n, t_r, t_c, m.t_h(t_r), m.t_l(t_c)};
    ch.counts = m.counts(q, ch.tile);
    return ch;
}

// OFM / IS with one tile per TLE (T_R 8, T_C 30).
ChoiceCost ofm_is_one_tile(const ConvShape& c, const NmpParams& hw) {
    return choice_of(c, hw, TleSlicing::OFM, TltSchedule::IS, 1, 1, 8, 30);
}

}  // namespace

TEST_CASE("calibrated replay: queue ahead of short transfers by hand, lockstep limit", "[tso][calibrated]") {
    // 1 -> 1 channel, 3x3 on 32 x 32 (30 x 30 out), 8 bit, OFM / IS, tile T_M 1, T_N 1, T_R 8,
    // T_C 30: TLE rows 8, 8, 7, 7, one tile each, one TLT with work per TLE, so the critical
    // TLE runs LoadIn, LoadW, Compute, StoreOut strictly one after the other.
    // Addresses (IN at 0, 32-B rows; W at 4,096; OUT at 8,192, 30-B rows), cut into 128-B
    // transactions from each run's start, 64-B DRAM bursts:
    //   TLE 0: IN 0..319 (2+2+1), W 1, OUT 0..239 (2+2)          = 10 bursts
    //   TLE 1: IN 256..575 (2+2+1), W 1, OUT 240..479 (3+3)      = 12
    //   TLE 2: IN 512..799 (2+2+1), W 1, OUT 480..689 (3+2)      = 11
    //   TLE 3: IN 736..1023 (3+3+1), W 1, OUT 690..899 (3+3)     = 14  (critical)
    // The others move 33 / 14 bursts per burst of TLE 3. The TLE with the most bytes (TLE 0)
    // has 6 transactions in 3 transfers: the others keep min(8, 6 / 3) = 2 transactions of
    // 14 / 6 bursts queued, q = 14 / 3 bursts. The bursts after the first transaction of
    // TLE 3's transfers: IN 4, W 0, OUT 3; the queue ahead adds (q - that) where positive:
    // 2/3 + 14/3 + 5/3 = 7 bursts, each waiting for the others' share 33 / 14 (p = 1 with
    // sync = 1, contention = 1) of a bus time of 4 tCK x 1.25 ns x tREFI / (tREFI - tRFC).
    const ConvShape c = one_channel_3x3();
    const NmpParams hw = tso_test::seed_hw();
    const ChoiceCost ch = ofm_is_one_tile(c, hw);
    REQUIRE(ch.counts.tle_txns == 6);
    REQUIRE(ch.counts.tle_transfers == 3);
    CHECK(tle_burst_counts(c, hw, ch) == std::vector<std::uint64_t>{10, 12, 11, 14});

    TsoCoefficients k;
    k.sync = 1.0;
    k.contention = 1.0;
    k.bus_scale = 1.0;
    TsoCoefficients q = k;
    q.queue_scale = 1.0;
    const double without = CalibratedModel(k).replay(c, hw, ch).total_s;
    const double with = CalibratedModel(q).replay(c, hw, ch).total_s;
    const double t_b = 4 * 1.25e-9 * 6240.0 / (6240.0 - 88.0);
    CHECK(with - without == Approx(7.0 * 33.0 / 14.0 * t_b).epsilon(1e-9));
    q.queue_scale = 2.5;  // linear in its coefficient
    CHECK(CalibratedModel(q).replay(c, hw, ch).total_s - without == Approx(2.5 * 7.0 * 33.0 / 14.0 * t_b).epsilon(1e-9));

    // Lockstep (regression, a limit of the formula): with a very long lockstep every transfer
    // meets all the other TLEs, as sync = 1 says; without it and sync = 0 the sharing is lower.
    TsoCoefficients free = k;
    free.sync = 0.0;
    TsoCoefficients locked = free;
    locked.lockstep_transfers = 1e6;
    CHECK(CalibratedModel(locked).replay(c, hw, ch).total_s == Approx(without).epsilon(1e-5));
    CHECK(CalibratedModel(free).replay(c, hw, ch).total_s < without);
}

TEST_CASE("calibrated replay: bursts of the other TLEs in the same bank groups by hand", "[tso][calibrated]") {
    // The layer of the test above (OFM / IS, one tile per TLE; per TLE one IN load, one W load,
    // one store). Bursts per transaction (its first to its last byte's 64-B burst), by step:
    //   IN:  TLE 0 0..319 (bursts 0-1, 2-3, 4), TLE 1 256..575 (4-5, 6-7, 8), TLE 2 512..799
    //        (8-9, 10-11, 12), TLE 3 736..1023 (11-13, 13-15, 15): 7 bursts
    //   W:   every TLE the one burst at 4,096
    //   OUT: at 8,192 + TLE 0 0..239 (0-1, 2-3), TLE 1 240..479 (3-5, 5-7), TLE 2 480..689
    //        (7-9, 9-10), TLE 3 690..899 (10-12, 12-14): 6 bursts
    const ConvShape c = one_channel_3x3();
    NmpParams hw = tso_test::seed_hw();
    const ChoiceCost ch = ofm_is_one_tile(c, hw);
    // One group: every other burst of the step counts, 15 / 7, 3 / 1, 15 / 6.
    hw.dram.group_mask = 0;
    std::vector<double> g = same_group_bursts(c, hw, ch, 3);
    REQUIRE(g.size() == 3);
    CHECK(g[0] == Approx(15.0 / 7.0));
    CHECK(g[1] == Approx(3.0));
    CHECK(g[2] == Approx(15.0 / 6.0));
    // Groups by address bit 9 (512): TLE 3's IN and OUT bursts all have it set; of the others'
    // IN bursts TLE 1's burst 8 and TLE 2's five, of their OUT bursts TLE 2's 8, 9, 9, 10; the W
    // burst (4,096) has it clear for everyone.
    hw.dram.group_mask = 512;
    g = same_group_bursts(c, hw, ch, 3);
    REQUIRE(g.size() == 3);
    CHECK(g[0] == Approx(6.0 / 7.0));
    CHECK(g[1] == Approx(3.0));
    CHECK(g[2] == Approx(4.0 / 6.0));
    // TLE 0 as the critical one: its IN bursts 0-4 and OUT bursts 0-3 are all below 512.
    g = same_group_bursts(c, hw, ch, 0);
    REQUIRE(g.size() == 3);
    CHECK(g[0] == Approx(4.0 / 5.0));  // TLE 1's bursts 4-7, none of TLE 2's or 3's
    CHECK(g[1] == Approx(3.0));
    CHECK(g[2] == Approx((6.0 + 1.0) / 4.0));  // TLE 1's six, TLE 2's burst 7
}

TEST_CASE("calibrated replay: group share of the other TLEs near the same step by hand", "[tso][calibrated]") {
    // The bursts of the test above, groups by address bit 9 (512), TLE 3 critical, counted per
    // step over the other TLEs (0, 1, 2) as clear / set:
    //   IN:  TLE 0 5 / 0, TLE 1 4 / 1 (burst 8), TLE 2 0 / 5: 9 / 6
    //   W:   3 / 0
    //   OUT: TLE 0 4 / 0, TLE 1 6 / 0, TLE 2 1 / 4 (burst 7 clear, 8, 9, 9, 10 set): 11 / 4
    // TLE 3's IN and OUT bursts are all set, its W burst clear. Every TLE has three transfers,
    // so its step i meets their step i.
    const ConvShape c = one_channel_3x3();
    NmpParams hw = tso_test::seed_hw();
    const ChoiceCost ch = ofm_is_one_tile(c, hw);
    hw.dram.group_mask = 512;
    std::vector<double> near;
    same_group_bursts(c, hw, ch, 3, &near, 1);  // steps i - 1 .. i + 1
    REQUIRE(near.size() == 3);
    CHECK(near[0] == Approx(6.0 / 18.0));   // IN + W: 12 clear, 6 set
    CHECK(near[1] == Approx(23.0 / 33.0));  // all three: 23 clear, 10 set; own W clear
    CHECK(near[2] == Approx(4.0 / 18.0));   // W + OUT: 14 clear, 4 set
    same_group_bursts(c, hw, ch, 3, &near, 0);  // the same step only
    CHECK(near[0] == Approx(6.0 / 15.0));
    CHECK(near[1] == Approx(1.0));
    CHECK(near[2] == Approx(4.0 / 15.0));
    same_group_bursts(c, hw, ch, 3, &near, 2);  // the whole layer: each of TLE 3's groups' share
    CHECK(near[0] == Approx(10.0 / 33.0));
    CHECK(near[1] == Approx(23.0 / 33.0));
    CHECK(near[2] == Approx(10.0 / 33.0));
    // One group: every burst is in the own group.
    hw.dram.group_mask = 0;
    same_group_bursts(c, hw, ch, 3, &near, 1);
    for (double x : near) CHECK(x == Approx(1.0));
}

TEST_CASE("calibrated model: tCCD_L above the burst time slows the transfers and the group mask alone changes nothing", "[tso][calibrated]") {
    // DDR3 (tCCD_L = the burst's 4 tCK) has no bank-group term: the replay does not depend on
    // the group mask. With tCCD_L = 6 tCK a TLE's bursts are 6 tCK apart at least, so the
    // replay grows where the bursts bind (contention 0: the bus term is the TLE's own bursts).
    const ConvShape c = one_channel_3x3();
    NmpParams hw = tso_test::seed_hw();
    const ChoiceCost ch = ofm_is_one_tile(c, hw);
    REQUIRE(hw.dram.burst_cycles == 4);
    REQUIRE(hw.dram.tCCD_L == 4);
    TsoCoefficients k;
    k.sync = 1.0;
    k.contention = 0.0;
    const CalibratedModel m(k);
    const double ddr3 = m.replay(c, hw, ch).total_s;
    hw.dram.group_mask = 512;
    CHECK(m.replay(c, hw, ch).total_s == ddr3);
    hw.dram.tCCD_L = 6;
    const double grouped = m.replay(c, hw, ch).total_s;
    CHECK(grouped > ddr3);
    hw.dram.group_mask = 0;  // one group: all the others' bursts of a step are tCCD_L apart too
    CHECK(m.replay(c, hw, ch).total_s > grouped);
    // The closed form: a lone stream's bursts tCCD_L apart, above the bus time here.
    hw.dram.tCCD_L = 4;
    const double screen3 = m.screen(ch.counts, hw).total_s;
    hw.dram.tCCD_L = 6;
    CHECK(m.screen(ch.counts, hw).total_s > screen3);
}

TEST_CASE("calibrated replay: row activations of the first transactions by hand", "[tso][calibrated]") {
    // The layer of the test above: OFM / IS, one tile per TLE, every TLE runs LoadIn (IN at
    // 0..1023), LoadW (W at 4,096), Compute, StoreOut (OUT from 8,192) one after the other.
    const ConvShape c = one_channel_3x3();
    NmpParams hw = tso_test::seed_hw();
    const ChoiceCost ch = ofm_is_one_tile(c, hw);
    const std::size_t crit = 3;  // the most bursts (test above)

    // DDR3-1600, row_bank_col: 8-KiB rows, bank = address bits 13-15. IN and W are in bank 0,
    // row 0; OUT in bank 1. Warm start: the layer begins with the rows its own sequence leaves
    // open (bank 0 row 0, bank 1 row 0), so every first transaction finds its row open.
    CHECK(first_row_activation_ck(c, hw, ch, crit) == std::vector<double>{0, 0, 0});
    hw.dram.open_page = false;  // closed page: every first transaction activates its row
    CHECK(first_row_activation_ck(c, hw, ch, crit) == std::vector<double>{10, 10, 10});
    hw.dram.open_page = true;

    // A hand-made geometry: one bank of 4-KiB rows, so IN (row 0), W (row 1) and OUT (row 2)
    // conflict. Lockstep: before the W load every TLE has loaded IN, so row 0 is open (tRP +
    // tRCD = 20), before the store row 1 (20); the first IN load finds the row the stores of the
    // layer's end leave open, row 2 (20; a cold start, every bank closed, would be tRCD = 10).
    hw.dram.bank_mask = std::uint64_t(1) << 40;  // above every address: one bank
    hw.dram.row_mask = ~std::uint64_t(4095);
    CHECK(first_row_activation_ck(c, hw, ch, crit) == std::vector<double>{20, 20, 20});
    CHECK(first_row_activation_ck(c, hw, ch, 0) == std::vector<double>{20, 20, 20});

    // The replay adds them to the first transaction's latency, times latency_scale: with sync = 1
    // (p = 1 whatever the duty) and the strictly serial sequence, exactly 60 tCK x 1.25 ns x 1.5
    // (contention 0: no transfer's bus round exceeds its latency path, test below).
    TsoCoefficients k;
    k.sync = 1.0;
    k.latency_scale = 1.5;
    k.contention = 0.0;
    const double with = CalibratedModel(k).replay(c, hw, ch).total_s;
    hw.dram.bank_mask = hw.dram.row_mask = 0;  // unknown geometry: no activations
    CHECK(first_row_activation_ck(c, hw, ch, crit).empty());
    const double without = CalibratedModel(k).replay(c, hw, ch).total_s;
    CHECK(with - without == Approx(60 * 1.25e-9 * 1.5).epsilon(1e-9));
}

TEST_CASE("calibrated replay: the bus round of short transfers in lockstep by hand", "[tso][calibrated]") {
    // The layer of the tests above (OFM / IS, one tile per TLE; the critical TLE 3 runs LoadIn,
    // LoadW, Compute, StoreOut one after the other). TLE 3's transfers, 64-B bursts:
    //   IN  read,  3 transactions, 3 + 3 + 1 = 7 bursts (first 3), row open (warm start): 0
    //   W   read,  1 transaction,  1 burst,                          row open: 0
    //   OUT write, 2 transactions, 3 + 3 = 6 bursts (first 3),       row open (warm start): 0
    // The others move 33 / 14 bursts per burst of TLE 3. With sync = 1 (p = 1), contention 1,
    // bus_scale 1 and latency_scale 1, a transfer lasts the bus round of its and the others'
    // bursts, b x t_burst x (1 + 33 / 14), at least: its latency path L_first + max((n - 1) L / O,
    // (b - b_first) t_burst (1 + 33 / 14)) counts the first transaction's bursts as latency.
    // DDR3-1600 preset, in tCK of 1.25 ns: frontend 0, CL 10, CWL 8, a burst 4 tCK on the bus,
    // stretched by the refresh share tREFI / (tREFI - tRFC) = 6240 / 6152; O = 8.
    const ConvShape c = one_channel_3x3();
    const NmpParams hw = tso_test::seed_hw();
    const ChoiceCost ch = ofm_is_one_tile(c, hw);
    REQUIRE(hw.dram.frontend_latency_ck == 0);
    REQUIRE(hw.dram.CL == 10);
    REQUIRE(hw.dram.CWL == 8);
    REQUIRE(hw.dram.burst_cycles == 4);
    REQUIRE(hw.dma_max_outstanding == 8);
    REQUIRE(first_row_activation_ck(c, hw, ch, 3) == std::vector<double>{0, 0, 0});

    const double tb = 4.0 * 6240.0 / 6152.0, s = 1.0 + 33.0 / 14.0;  // tCK
    // IN: L_first = 0.5 + 10 + 3 x 4 = 22.5; L = 0.5 + 10 + 7 / 3 x 4; round 7 tb s.
    const double in_first = 22.5, in_little = 2.0 * (10.5 + 28.0 / 3.0) / 8.0;
    const double in_round = 7 * tb * s - (in_first + std::max(in_little, 4 * tb * s));
    // W: L_first = 0.5 + 10 + 4 = 14.5 > its round of one burst, 1 tb s = 13.6: no excess.
    const double w_round = std::max(0.0, 1 * tb * s - 14.5);
    // OUT: L_first = 0.5 + 8 + 3 x 4 = 20.5; L = 0.5 + 8 + 12; round 6 tb s.
    const double out_first = 20.5, out_little = 1.0 * 20.5 / 8.0;
    const double out_round = 6 * tb * s - (out_first + std::max(out_little, 3 * tb * s));
    CHECK(in_round == Approx(18.37).epsilon(1e-3));
    CHECK(w_round == 0.0);
    CHECK(out_round == Approx(20.36).epsilon(1e-3));

    // Against the same walk without sharing (contention 0: a round is its own bursts, never
    // longer than the latency path), the difference is the shared rest of IN and OUT plus the
    // two rounds' excess.
    TsoCoefficients k;
    k.sync = 1.0;
    TsoCoefficients alone = k;
    alone.contention = 0.0;
    const double shared_rest = (4 * tb * s - std::max(in_little, 4 * tb)) + (3 * tb * s - std::max(out_little, 3 * tb));
    const double tck = 1.25e-9;
    CHECK(CalibratedModel(k).replay(c, hw, ch).total_s - CalibratedModel(alone).replay(c, hw, ch).total_s ==
          Approx((shared_rest + in_round + w_round + out_round) * tck).epsilon(1e-9));

    // One TLE: no others, no round beyond its own bursts.
    NmpParams one = hw;
    one.n_tle = 1;
    const ChoiceCost ch1 = ofm_is_one_tile(c, one);
    CHECK(CalibratedModel(k).replay(c, one, ch1).total_s == Approx(CalibratedModel(alone).replay(c, one, ch1).total_s));
}

TEST_CASE("calibrated replay: the WS pipeline, the others' transfers in a compute gap, by hand", "[tso][calibrated]") {
    // 4 -> 1 channels, 1x1 on 32 x 32, 8 bit, OFM / WS, tile T_M 1, T_N 1, T_R 8, T_C 32: every
    // TLE has 8 rows, one TLT with work, and runs W (4 B, 1 burst), then per channel an IN load
    // of 256 B (2 transactions of 2 bursts, 64-B aligned) and its compute, then the OUT store
    // of 256 B (2 x 2 bursts): 21 bursts each, others = 3 per burst of the critical TLE 0.
    // The IN loads of channels 1-3 and the store wait for the compute before them, the gap
    // g = (256 MACs / 16 + T_SW 16) cycles at 375 MHz = 85.33 ns = 68.27 tCK; the W load and
    // the first IN load follow no compute. With sync = 1 (p = 1), bus_scale 1, latency_scale 1
    // and no row activations, a transfer shared by all lasts its round 4 tb (1 + 3 c) (c =
    // contention), which exceeds its latency path. The TLEs out of step (lockstep 0) transfer
    // in the gap: the transfer lasts max(its unshared path, round - g); in step (lockstep
    // -> infinity) they meet. IN: unshared L_first + max(L / 8, 2 tb), L_first = 0.5 + CL 10 +
    // 2 x 4 = 18.5 tCK; OUT: 0.5 + CWL 8 + 8 = 16.5 tCK.
    const Layer l = tso_test::square_conv(4, 1, 32, 1);
    const ConvShape c = make_conv_shape(l, 1);
    NmpParams hw = tso_test::seed_hw();
    hw.dram.bank_mask = hw.dram.row_mask = 0;  // no row activations
    REQUIRE(hw.macs_per_cycle == 16);
    REQUIRE(hw.conv_sw_cycles() == 16);
    REQUIRE(hw.clock_mhz == 375.0);
    ConvCostModel m(c, hw, TleSlicing::OFM);
    ChoiceCost ch;
    ch.found = true;
    ch.slicing = TleSlicing::OFM;
    ch.schedule = TltSchedule::WS;
    ch.tile = Tile{1, 1, 8, 32, m.t_h(8), m.t_l(32)};
    ch.counts = m.counts(TltSchedule::WS, ch.tile);
    REQUIRE(ch.counts.tle_transfers == 6);
    REQUIRE(tle_burst_counts(c, hw, ch) == std::vector<std::uint64_t>{21, 21, 21, 21});

    const double tck = 1.25e-9, tb = 4.0 * 6240.0 / 6152.0, g = 32.0 / 375e6 / tck;
    TsoCoefficients k;
    k.sync = 1.0;
    TsoCoefficients in_step = k;
    in_step.lockstep_transfers = 1e9;  // e^(-i / 1e9): in step on every transfer of the layer
    auto piped_less = [&](const TsoCoefficients& a, const TsoCoefficients& b) {
        return CalibratedModel(b).replay(c, hw, ch).total_s - CalibratedModel(a).replay(c, hw, ch).total_s;
    };
    // contention 1: round 16 tb = 64.9 tCK < g, so each of the four transfers after a gap
    // lasts its unshared path: 3 x (16 tb - (18.5 + 2 tb)) + (16 tb - (16.5 + 2 tb)).
    CHECK(16 * tb < g);
    CHECK(piped_less(k, in_step) / tck == Approx(3 * (14 * tb - 18.5) + (14 * tb - 16.5)).epsilon(1e-6));
    // contention 3: round 40 tb = 162.3 tCK; round - g = 94.0 exceeds the unshared paths (26.6,
    // 24.6): each of the four is shorter by g.
    k.contention = in_step.contention = 3.0;
    CHECK(40 * tb - g > 18.5 + 2 * tb);
    CHECK(piped_less(k, in_step) / tck == Approx(4 * g).epsilon(1e-6));
}

TEST_CASE("calibrated screen_below gives up only on candidates the screen rejects", "[tso][calibrated]") {
    // Regression (the model against itself): the search's early exit (screen_below, which stops
    // the duty's fixed point once the total at a step's slowdown reaches the bound) against the
    // whole screen, on random layers, platforms, tiles and coefficients (negative txn_ns too),
    // at bounds on both sides of the screen's total. The picks of a search with and without the
    // exit are then the same (test_search.cpp checks the picks against brute force).
    std::mt19937_64 rng(4242);
    auto uni = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    int gave_up = 0, kept = 0;
    for (int it = 0; it < 3000; ++it) {
        const Layer l = random_layer(rng);
        const NmpParams hw = random_hw(rng);
        const ConvShape c = make_conv_shape(l, std::uniform_int_distribution<int>(1, 2)(rng));
        const ConvCostModel m(c, hw, kAllSlicings[std::size_t(it % 3)]);
        const TltSchedule q = kAllSchedules[std::size_t((it / 3) % 3)];
        const CostCounts k = m.counts(q, random_tile(rng, m));
        TsoCoefficients co;
        co.latency_scale = uni(0, 3);
        co.bus_scale = uni(0, 3);
        co.contention = uni(0, 3);
        co.txn_ns = it % 4 == 0 ? uni(-1000, 0) : uni(0, 20);
        co.compute_scale = uni(0, 2);
        co.sync = it % 5 == 0 ? 0.0 : uni(0, 1);
        co.turnaround_ns = uni(0, 50);
        const CalibratedModel model(co);
        const CostTimes full = model.screen(k, hw);
        for (double f : {0.5, 0.9, 0.999999, 1.0, 1.000001, 1.1, 2.0}) {
            const double bound = full.total_s * f;
            CostTimes out;
            out.total_s = -1;
            const bool below = model.screen_below(k, hw, bound, &out);
            INFO("it " << it << " f " << f << " total " << full.total_s);
            REQUIRE(below == (full.total_s < bound));
            if (below) {
                ++kept;
                CHECK(out.total_s == full.total_s);
                CHECK(out.t_dram_s == full.t_dram_s);
                CHECK(out.t_mac_s == full.t_mac_s);
                CHECK(out.total_cycles == full.total_cycles);
            } else if (out.total_s < 0) {
                ++gave_up;
            }
        }
    }
    CHECK(gave_up > 1000);  // the exit is taken, not only the full screen
    CHECK(kept > 1000);
}

TEST_CASE("calibrated screen_below_n equals screen_below candidate by candidate", "[tso][calibrated]") {
    // Regression (the model against itself): the search's batches (up to 40 candidates, past the
    // 16 side by side) give what one call per candidate gives, bit for bit.
    std::mt19937_64 rng(4343);
    auto uni = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    for (int it = 0; it < 300; ++it) {
        const NmpParams hw = random_hw(rng);
        TsoCoefficients co;
        co.contention = uni(0, 3);
        co.sync = uni(0, 1);
        co.txn_ns = it % 4 == 0 ? uni(-1000, 0) : uni(0, 20);
        co.bus_scale = uni(0, 3);
        const CalibratedModel model(co);
        std::vector<CostCounts> ks;
        const int n = 1 + int(rng() % 40);
        for (int i = 0; i < n; ++i) {
            const ConvShape c = make_conv_shape(random_layer(rng), 1);
            const ConvCostModel m(c, hw, kAllSlicings[rng() % 3]);
            ks.push_back(m.counts(kAllSchedules[rng() % 3], random_tile(rng, m)));
        }
        // A bound among the candidates' totals, so that some are below it and some give up.
        const double bound = model.screen(ks[rng() % ks.size()], hw).total_s * uni(0.8, 1.2);
        std::vector<CostTimes> out(ks.size());
        std::unique_ptr<bool[]> below(new bool[ks.size()]);
        model.screen_below_n(ks.data(), ks.size(), hw, bound, out.data(), below.get());
        for (std::size_t i = 0; i < ks.size(); ++i) {
            CostTimes one;
            const bool b = model.screen_below(ks[i], hw, bound, &one);
            INFO("it " << it << " candidate " << i);
            REQUIRE(below[i] == b);
            if (b) {
                CHECK(out[i].total_s == one.total_s);
                CHECK(out[i].t_dram_s == one.t_dram_s);
                CHECK(out[i].total_cycles == one.total_cycles);
            }
        }
    }
}

namespace {

ChoiceCost ws_choice(const ConvShape& c, const NmpParams& hw, TleSlicing p, int t_m, int t_n, int t_r, int t_c) {
    return choice_of(c, hw, p, TltSchedule::WS, t_m, t_n, t_r, t_c);
}

}  // namespace

TEST_CASE("ws_lockstep_holds: the lockstep states measured in simulation traces", "[tso][calibrated]") {
    // Validation against recorded measurements (docs/nmp.md, "Tried: the WS lockstep from the
    // last batch of an IN load" and "DenseNet-121's 16-bit 1x1 convs of dense block 2"): each
    // layer simulated alone after a warm-up copy of itself on configs/nmp.yaml, the four TLEs'
    // IN load start times read from the trace. "Lockstep" = the TLEs start every IN load within
    // 15 ns of each other to the layer's end; the others drift apart by hundreds of ns to us.
    const NmpParams hw = tso_test::seed_hw();
    REQUIRE(hw.dma_max_outstanding == 8);
    REQUIRE(hw.txn_bytes() == 128);
    struct Case {
        int C, K, map, bytes;
        TleSlicing p;
        int t_m, t_n, t_r, t_c;
        bool lockstep;
    };
    const Case cases[] = {
        // MobileNetV2 features.3.conv.2 (144 -> 24, 56 x 56, 1x1), OFM / WS
        {144, 24, 56, 1, TleSlicing::OFM, 3, 7, 14, 56, true},
        {144, 24, 56, 1, TleSlicing::OFM, 3, 3, 14, 56, false},
        {144, 24, 56, 1, TleSlicing::OFM, 3, 4, 14, 56, false},
        {144, 24, 56, 2, TleSlicing::OFM, 3, 5, 14, 56, true},
        {144, 24, 56, 2, TleSlicing::OFM, 3, 3, 14, 56, false},
        // ResNet-50 res2c_branch2a (256 -> 64, 56 x 56, 1x1), OFM / WS; T_N = 6 stays in step
        // for five loads only, then drifts into the pipeline
        {256, 64, 56, 1, TleSlicing::OFM, 8, 7, 14, 56, true},
        {256, 64, 56, 1, TleSlicing::OFM, 8, 6, 14, 56, false},
        {256, 64, 56, 1, TleSlicing::OFM, 8, 3, 14, 56, false},
        // DenseNet-121 dense block 2, layer 9 conv1 (384 -> 128, 28 x 28, 1x1), 16 bit, KS&OFM / WS
        {384, 128, 28, 2, TleSlicing::KS_OFM, 8, 3, 14, 28, false},
        {384, 128, 28, 2, TleSlicing::KS_OFM, 8, 4, 14, 28, false},
        {384, 128, 28, 2, TleSlicing::KS_OFM, 8, 5, 14, 28, false},
        {384, 128, 28, 2, TleSlicing::KS_OFM, 8, 6, 14, 28, false},
        {384, 128, 28, 2, TleSlicing::KS_OFM, 8, 7, 14, 28, true},
        {384, 128, 28, 2, TleSlicing::KS_OFM, 8, 8, 14, 28, false},
        {384, 128, 28, 2, TleSlicing::KS_OFM, 8, 9, 14, 28, false},
        {384, 128, 28, 2, TleSlicing::KS_OFM, 8, 10, 14, 28, false},
    };
    for (const Case& k : cases) {
        const ConvShape c = make_conv_shape(tso_test::square_conv(k.C, k.K, k.map, 1), k.bytes);
        const ChoiceCost ch = ws_choice(c, hw, k.p, k.t_m, k.t_n, k.t_r, k.t_c);
        INFO("C " << k.C << " K " << k.K << " map " << k.map << " bytes " << k.bytes << " tile " << k.t_m << ","
                  << k.t_n << "," << k.t_r << "," << k.t_c);
        CHECK(ws_lockstep_holds(c, hw, ch) == k.lockstep);
    }

    // Only WS walks are judged, and one active TLE has nobody to be in step with.
    const ConvShape c = make_conv_shape(tso_test::square_conv(144, 24, 56, 1), 1);
    ChoiceCost is = ws_choice(c, hw, TleSlicing::OFM, 3, 7, 14, 56);
    is.schedule = TltSchedule::IS;
    CHECK_FALSE(ws_lockstep_holds(c, hw, is));
    NmpParams one = hw;
    one.n_tle = 1;
    CHECK_FALSE(ws_lockstep_holds(c, one, ws_choice(c, one, TleSlicing::OFM, 3, 7, 14, 56)));

    // The replay charges a layer in step throughout when the criterion holds: with a decaying
    // lockstep (tau = 26 transfers) the estimate of the locked tile equals that of a lockstep
    // that never decays, and the drifting tile's does not.
    TsoCoefficients decay, never;
    decay.lockstep_transfers = 26.0;
    never.lockstep_transfers = 1e9;
    const ChoiceCost locked = ws_choice(c, hw, TleSlicing::OFM, 3, 7, 14, 56);
    const ChoiceCost drifts = ws_choice(c, hw, TleSlicing::OFM, 3, 4, 14, 56);
    CHECK(CalibratedModel(decay).replay(c, hw, locked).total_s ==
          Approx(CalibratedModel(never).replay(c, hw, locked).total_s).epsilon(1e-6));
    CHECK(CalibratedModel(decay).replay(c, hw, drifts).total_s <
          CalibratedModel(never).replay(c, hw, drifts).total_s * 0.999);
}
