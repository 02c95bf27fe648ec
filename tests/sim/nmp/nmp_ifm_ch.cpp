// Layers mapped with the IFM-channel slicing (input channels split over the 4 TLEs, partial OUT
// tiles reduced over the ring) replayed by the NMP model. The model moves no data, so the
// reduction is checked by its byte counts against figures worked out by hand from the layer
// shapes (independent of the model and of the cost model):
//  * ring payload sent = delivered = (active TLEs - 1) x OFM bytes: every OUT element's partial
//    sum leaves every active TLE but its owner once;
//  * layer 1 (32 channels -> 8 per TLE, OS, every OUT tile the same size, 32 stores per TLE):
//    each TLE sends OFM / 4 to each other TLE; with the ring's routing (shorter direction,
//    opposite node clockwise from even sources, counter-clockwise from odd ones) every one of
//    the 8 directed links carries exactly 2 of the 12 routes, i.e. OFM / 2 bytes, and the
//    links move 4 x OFM bytes in all (hops 1 + 1 + 2 per source);
//  * layer 2 (3 channels: TLE 3 gets none, 3 TLEs take part, IS, 48 equal stores): 2 x OFM
//    bytes, over the links as listed below;
//  * DRAM: the OUT bytes written = OFM bytes of both layers (each tile stored once, by its owner);
//  * the mapper's counts give the same ring volume (a check of cost_model.cpp).
#include <cstdio>
#include <exception>

#include <systemc>

#include "tests/sim/nmp/nmp_rig.h"

using namespace sc_core;
using namespace vp::mapper;

namespace {

int check(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    return ok ? 0 : 1;
}

}  // namespace

int sc_main(int, char**) {
    int fails = 0;
    try {
        nlohmann::json doc = {
            {"name", "ifm_ch"},
            {"precision", 16},
            {"layers",
             {{{"name", "c1"}, {"type", "conv"}, {"C", 32}, {"K", 64}, {"H", 16}, {"W", 16}, {"R", 3}, {"S", 3},
               {"stride", 1}, {"pad", 1}},
              {{"name", "c2"}, {"type", "conv"}, {"C", 3}, {"K", 16}, {"H", 24}, {"W", 24}, {"R", 3}, {"S", 3},
               {"stride", 1}, {"pad", 1}}}}};
        const Network net = parse_network(doc, "ifm_ch.json");
        const vp::nmp::NmpModelParams p = vp::test::default_nmp();
        tso::TsoOptions opt;
        tso::TsoOptions::LayerChoice a, b;
        a.layer = "c1";
        a.slicing = tso::TleSlicing::IFM_CH;
        a.schedule = tso::TltSchedule::OS;
        a.tile.t_m = 8;  // all 8 filters of a TLT (64 / 8)
        a.tile.t_n = 8;  // the TLE's 8 channels
        a.tile.t_r = 4;
        a.tile.t_c = 16;
        b.layer = "c2";
        b.slicing = tso::TleSlicing::IFM_CH;
        b.schedule = tso::TltSchedule::IS;
        b.tile.t_m = 2;
        b.tile.t_n = 1;
        b.tile.t_r = 4;
        b.tile.t_c = 24;
        opt.fixed_layers = {a, b};
        const tso::TsoResult map = tso::run_tso(net, p.arch, opt);

        const std::uint64_t ofm1 = 64ull * 16 * 16 * 2, ofm2 = 16ull * 24 * 24 * 2;
        vp::test::NmpRig rig(p, map.convs);
        rig.run();
        auto& nmp = rig.nmp;
        const auto& ring = nmp.ring();

        for (std::size_t i = 0; i < map.convs.size(); ++i) {
            const auto& c = map.convs[i];
            const double sim = (nmp.layer_end()[i] - nmp.layer_start()[i]).to_seconds() / p.arch.cycle_s();
            std::printf("%s %s/%s: est %.0f cycles (ring %.0f), sim %.0f cycles; ring bytes (counts) %llu\n",
                        c.layer_name.c_str(), tso::to_string(c.best.slicing), tso::to_string(c.best.schedule),
                        c.best.times.total_cycles, c.best.times.t_ring_s / p.arch.cycle_s(), sim,
                        (unsigned long long)c.best.counts.ring_bytes);
        }
        std::printf("ring: %llu messages, %llu B sent, %llu B delivered; links:",
                    (unsigned long long)ring.messages(), (unsigned long long)ring.bytes_sent(),
                    (unsigned long long)ring.bytes_delivered());
        std::uint64_t link_sum = 0;
        for (int l = 0; l < ring.n_links(); ++l) {
            std::printf(" %llu", (unsigned long long)ring.link_bytes(l));
            link_sum += ring.link_bytes(l);
        }
        std::printf("\n");

        fails += check(map.convs[0].best.slicing == tso::TleSlicing::IFM_CH &&
                           map.convs[1].best.slicing == tso::TleSlicing::IFM_CH,
                       "both layers mapped with IFM-CH");
        fails += check(map.convs[0].tle[0].chans.count == 8 && map.convs[1].tle[3].chans.count == 0,
                       "channel split: 8 per TLE for 32 channels, none on TLE 3 for 3 channels");
        fails += check(ring.bytes_sent() == 3 * ofm1 + 2 * ofm2 && ring.bytes_sent() > 0,
                       "ring bytes = (active TLEs - 1) x OFM bytes, per layer");
        fails += check(ring.bytes_delivered() == ring.bytes_sent(), "every partial tile delivered");
        // Per directed link (2 i: i -> i + 1, 2 i + 1: i -> i - 1), by hand from the routes.
        // Layer 1: 12 routes of OFM1 / 4, two per link. Layer 2 (TLEs 0, 1, 2; 48 equal tiles,
        // 16 owned by each): 6 routes of OFM2 / 3: 0->1 [0cw], 0->2 [0cw 1cw], 1->0 [1ccw],
        // 1->2 [1cw], 2->0 [2cw 3cw] (opposite node, even source: clockwise), 2->1 [2ccw].
        const std::uint64_t q = ofm2 / 3;
        const std::uint64_t want[8] = {2 * q, 0, 2 * q, q, q, q, q, 0};
        bool links_ok = true;
        for (int l = 0; l < 8; ++l) links_ok = links_ok && ring.link_bytes(l) == ofm1 / 2 + want[l];
        fails += check(links_ok, "bytes of every link = the hand count of the routes over it");
        fails += check(link_sum == 4 * ofm1 + 8 * q, "link bytes = 4 x OFM1 + 8 x OFM2 / 3 (payload x hops)");
        std::uint64_t out = 0;
        for (int t = 0; t < nmp.n_tle(); ++t) out += nmp.tle(t).dma().bytes_written();
        fails += check(out == ofm1 + ofm2, "DRAM OUT bytes = OFM bytes (each tile stored once, by its owner)");
        fails += check(map.convs[0].best.counts.ring_bytes == 3 * ofm1 &&
                           map.convs[1].best.counts.ring_bytes == 2 * ofm2,
                       "the mapper's ring volume = the hand figure");
        fails += check(nmp.macs() == nmp.expected_macs(), "simulated MACs = workload MACs");
    } catch (const std::exception& e) {
        std::printf("FAIL: exception: %s\n", e.what());
        return 1;
    }

    std::printf("%s\n", fails ? "FAILED" : "all passed");
    return fails ? 1 : 0;
}
