// The mesh mapper's time models (mapper/waving/mesh_time_model.h) and the op profiles they read.
// Independent checks: burst counts against a per-transfer count written separately; the
// calibrated formula of one entry against a hand computation. Regression checks (they compare
// the mapper with itself): profile totals = measure_run's packets and flits (the same loop nest);
// the paper model = the mapper without a model; a fixed (T, k) reproduces its ranked estimate.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "mapper/waving/mesh_profile.h"
#include "mapper/waving/mapping_report.h"
#include "mapper/waving/mesh_time_model.h"
#include "mapper/waving/packet_format_ops.h"
#include "mapper/waving/run_totals.h"
#include "mapper/waving/waving_mapper.h"

using namespace vp::mapper;
using namespace vp::mapper::waving;

namespace {

MeshHwFigures ddr3_time_figures() {  // DDR3-1600 figures as the platform fills them
    MeshHwFigures f;
    f.dram.preset = "ddr3-1600";
    f.dram.tck_ns = 1.25;
    f.dram.burst_bytes = 64;
    f.dram.burst_cycles = 4;
    f.dram.CL = 11;
    f.dram.tRCD = 11;
    f.dram.frontend_latency_ck = 1;
    f.dram.peak_bw_bytes_per_s = 12.8e9;
    f.hop_cycles = 5;
    f.dram_if_outstanding = 16;
    f.inject_depth = 16;
    return f;
}

Layer conv(const std::string& name, int C, int K, int H, int W, int R, int stride) {
    Layer l;
    l.name = name;
    l.C = C;
    l.K = K;
    l.H = H;
    l.W = W;
    l.R = l.S = R;
    l.stride_h = l.stride_w = stride;
    l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = R / 2;
    return l;
}

// What map_layer takes besides the layer and its options: default core and energy figures, the
// DDR3-1600 time figures.
struct MapInputs {
    tiling::AsipParams asip;
    MeshMapParams mesh;
    EnergyParams energy;
    MapInputs() { mesh.hw = ddr3_time_figures(); }
};

// One thread, ranked by the named time model.
MapperOptions options_of(const char* model) {
    MapperOptions o;
    o.threads = 1;
    o.model = make_mesh_model(model, MeshCoefficients{});
    return o;
}

}  // namespace

TEST_CASE("op_features: DRAM bursts equal a per-transfer count on random DMA ops", "[waving][mesh_model]") {
    std::mt19937 rng(7);
    PacketFormat fmt;
    for (int it = 0; it < 2000; ++it) {
        tiling::Op op;
        op.kind = (it % 3) ? tiling::OpKind::LoadIfmap : tiling::OpKind::StoreOfmap;
        op.n_segs = 1 + rng() % 200;
        op.seg_bytes = 2 * (1 + rng() % 150);
        op.seg_stride = op.seg_bytes + 2 * (rng() % 90);
        op.dram_addr = 2 * (rng() % 5000);
        fmt.max_payload_bytes = (it % 2) ? 64 : 32 + int(rng() % 64);
        std::uint64_t bursts = 0, transfers = 0;
        for_each_transfer(op, fmt, [&](std::uint64_t a, std::uint64_t len) {
            bursts += (a + len - 1) / 64 - a / 64 + 1;  // first to last burst touched
            ++transfers;
        });
        const XferFeatures x = op_features(op, fmt, 64);
        REQUIRE(x.transfers == transfers);
        REQUIRE(x.bursts == bursts);
    }
}

TEST_CASE("profile totals equal the loop nest's packets and flits (regression)", "[waving][mesh_model]") {
    tiling::AsipParams asip;
    PacketFormat fmt;
    for (const Layer& l : {conv("a", 16, 32, 28, 28, 3, 1), conv("b", 64, 48, 14, 14, 1, 2), conv("c", 3, 16, 31, 31, 5, 2)}) {
        tiling::ConvShape s;
        REQUIRE(tiling::ConvShape::from_layer(l, &s));
        const tiling::SliceRun run{0, 0, std::min(16, s.n_of), 0, s.Q, s.Q};
        const tiling::Tiling t{8, 4, 16};
        const RunTotals r = measure_run(s, run, t, asip, fmt);
        OpProfile f, o;
        profile_run(s, run, t, asip, fmt, 64, &f, &o);
        std::uint64_t transfers = 0, flits = 0, compute = 0;
        for (const OpProfile* p : {&f, &o})
            for (const auto& e : p->entries) {
                transfers += e.count * e.x.transfers;
                flits += e.count * (e.x.flits_in + e.x.flits_out);
                compute += e.count * e.compute;
            }
        CHECK(2 * transfers == r.noc.packets);  // read: request + response; write: request + ack
        CHECK(flits == r.noc.flits);
        CHECK(compute == r.compute_cycles());
        // The mapper takes its totals from the profile's walk: the same figures as measure_run.
        RunTotals w;
        profile_run(s, run, t, asip, fmt, 64, &f, &o, &w);
        CHECK(w.comp_cycles == r.comp_cycles);
        CHECK(w.pfetch_cycles == r.pfetch_cycles);
        CHECK(w.macs == r.macs);
        CHECK(w.sram_reads == r.sram_reads);
        CHECK(w.sram_writes == r.sram_writes);
        CHECK(w.dram_init_bytes == r.dram_init_bytes);
        CHECK(w.dram_par_bytes == r.dram_par_bytes);
        CHECK(w.dram_read_bytes == r.dram_read_bytes);
        CHECK(w.dram_write_bytes == r.dram_write_bytes);
        CHECK(w.filter_bytes == r.filter_bytes);
        CHECK(w.noc.packets == r.noc.packets);
        CHECK(w.noc.flits == r.noc.flits);
        CHECK(w.noc_filters.flits == r.noc_filters.flits);
    }
}

TEST_CASE("calibrated model: one waited-for entry equals the formula by hand", "[waving][mesh_model]") {
    tiling::AsipParams asip;  // 500 MHz, 16 outstanding, 2 setup cycles
    MeshMapParams mesh;       // 1000 MHz NoC
    mesh.hw = ddr3_time_figures();
    MeshCoefficients c;
    c.contention = 0.5;
    c.port_scale = 1.2;
    const CalibratedMeshModel m(c);
    OpProfile p;
    ProfileEntry e;
    e.wait = true;
    e.x.transfers = 100;
    e.x.bursts = 150;
    e.x.flits_in = 900;
    e.x.flits_out = 100;
    e.x.dma_ops = 1;
    e.count = 3;
    p.add(e);
    // Latency: DRAM (1 + 11 + 11 + 4) x 1.25 ns = 33.75 ns = 16.875 core cycles; NoC 2 x (2 + 1) hops x 5
    // NoC cycles = 30 NoC cycles = 15 core cycles.
    const double lat = 16.875 + 15.0;
    // Its demand on the shared side: max(900 flits x 0.5, 150 bursts x 2.5, 100 x 16.875 / 16 slots);
    // its own time: max(100 requests, 100 lat / 16, 1.2 x 900 x 0.5, the shared demand); with
    // 4^0.5 = 2 competing cores: max(lat + own, 2 x shared).
    const double shared = std::max({900 * 0.5, 150 * 2.5, 100 * 16.875 / 16});
    const double own = std::max({100.0, 100 * lat / 16, 1.2 * 900 * 0.5, shared});
    const double d = std::max(lat + own, 2.0 * shared);
    CHECK(d == Approx(900.0));  // the shared side binds here
    CHECK(m.core_cycles(p, CoreContext{2, 4}, asip, mesh) == Approx(3 * (2 + d)));
    // A row hides its transfer behind a longer compute.
    OpProfile row;
    e.wait = false;
    e.compute = 5000;
    row.add(e);
    CHECK(m.core_cycles(row, CoreContext{2, 4}, asip, mesh) == Approx(3 * (2 + 5000)));
}

TEST_CASE("calibrated model: row conflicts per request grow with the interleaved streams", "[waving][mesh_model]") {
    tiling::AsipParams asip;
    MeshMapParams mesh;
    mesh.hw = ddr3_time_figures();
    mesh.hw.dram.tRP = 11;
    MeshCoefficients c;
    c.conflict = 0.5;
    c.port_scale = 0.0;
    const CalibratedMeshModel m(c);
    ProfileEntry e;
    e.x.transfers = 10;
    e.x.bursts = 10;
    e.x.flits_in = 1;  // the DRAM side binds
    e.x.flits_out = 1;
    e.x.dma_ops = 1;
    OpProfile p;
    p.add(e);
    // Bursts 10 x 2.5 core cycles; conflicts 10 x 0.5 x (1 - 1/k) x (11 + 11) x 0.625 core cycles.
    CHECK(m.shared_cycles(p, asip, mesh, 1) == Approx(25.0));
    CHECK(m.shared_cycles(p, asip, mesh, 4) == Approx(25.0 + 10 * 0.5 * 0.75 * 22 * 0.625));
}

TEST_CASE("calibrated model: wait_scale and slot_scale by hand", "[waving][mesh_model]") {
    tiling::AsipParams asip;
    MeshMapParams mesh;
    mesh.hw = ddr3_time_figures();
    MeshCoefficients c;
    c.latency_scale = 0.5;  // rows: half the unloaded latency
    c.wait_scale = 2.0;     // waited-for ops: twice
    c.slot_scale = 8.0;     // a request holds an interface slot 8 x the unloaded DRAM access
    c.port_scale = 0.0;
    c.dram_scale = 0.1;
    const CalibratedMeshModel m(c);
    ProfileEntry e;
    e.wait = true;
    e.x.transfers = 100;
    e.x.bursts = 100;
    e.x.flits_in = 200;
    e.x.flits_out = 100;
    e.x.dma_ops = 1;
    OpProfile w;
    w.add(e);
    // Unloaded latency as above (hops 2): 16.875 + 15 core cycles; one core (k = 1).
    const double lat = 16.875 + 15.0;
    // Slot term 100 x 8 x 16.875 / 16 = 843.75 binds (flits 100, bursts 25, Little 100 x 0.5 lat / 16 ~ 100).
    const double d = 100 * 8 * 16.875 / 16;
    CHECK(m.core_cycles(w, CoreContext{2, 1}, asip, mesh) == Approx(2 + 2.0 * lat + d));
    OpProfile row;
    e.wait = false;
    e.compute = 10;
    row.add(e);
    CHECK(m.core_cycles(row, CoreContext{2, 1}, asip, mesh) == Approx(2 + 0.5 * lat + d));
    // The shared side: max(flits 200 x 0.5, bursts, slots) per entry, the slot term again.
    CHECK(m.shared_cycles(row, asip, mesh, 1) == Approx(d));
}

TEST_CASE("paper model = the mapper without a model, fixed (T, k) reproduces its ranked estimate", "[waving][mesh_model]") {
    const MapInputs in;
    const auto& [asip, mesh, energy] = in;
    MapperOptions plain;
    plain.threads = 1;
    const MapperOptions paper = options_of("paper");
    MapperOptions cal = options_of("calibrated");
    cal.keep_candidates = 6;
    for (const Layer& l : {conv("a", 16, 64, 28, 28, 3, 1), conv("b", 64, 96, 14, 14, 1, 1)}) {
        const LayerMapping a = map_layer(l, asip, mesh, energy, plain);
        const LayerMapping b = map_layer(l, asip, mesh, energy, paper);
        CHECK(a.t_of == b.t_of);
        CHECK(a.t_ox == b.t_ox);
        CHECK(a.k == b.k);
        CHECK(a.est_cycles == b.est_cycles);
        const LayerMapping m = map_layer(l, asip, mesh, energy, cal);
        REQUIRE(m.ranked.size() == 6);
        CHECK(m.ranked[0].choice.t_of == m.t_of);
        CHECK(m.ranked[0].choice.k == m.k);
        CHECK(m.ranked[0].est_cycles == m.est_cycles);
        for (std::size_t i = 1; i < m.ranked.size(); ++i) CHECK(m.ranked[i - 1].score <= m.ranked[i].score);
        for (const RankedChoice& r : m.ranked) {
            MapperOptions f = cal;
            f.fixed = r.choice;
            f.keep_candidates = 1;
            const LayerMapping x = map_layer(l, asip, mesh, energy, f);
            CHECK(x.t_of == r.choice.t_of);
            CHECK(x.t_ox == r.choice.t_ox);
            CHECK(x.k == r.choice.k);
            CHECK(x.est_cycles == Approx(r.est_cycles));
        }
    }
}

TEST_CASE("near ties: the fewest cores, then the most even slices, within the band of the best estimate",
          "[waving][mesh_model]") {
    const MapInputs in;
    const auto& [asip, mesh, energy] = in;
    MapperOptions all = options_of("calibrated");
    all.keep_candidates = 1000;  // the whole ranking, best first
    int moved = 0, evened = 0;
    // The smallest slice's share of a full one, by hand: 112 columns in chunks of 64 leave 48.
    tiling::ConvShape s;
    s.n_of = 96;
    s.Q = 112;
    CHECK(slice_evenness(s, 96, 64) == Approx(48.0 / 64.0));
    CHECK(slice_evenness(s, 96, 80) == Approx(32.0 / 80.0));
    CHECK(slice_evenness(s, 64, 56) == Approx(32.0 / 64.0));
    CHECK(slice_evenness(s, 32, 112) == Approx(1.0));
    for (const Layer& l : {conv("a", 16, 64, 28, 28, 3, 1), conv("b", 64, 96, 14, 14, 1, 1), conv("c", 32, 128, 56, 56, 3, 1),
                           conv("d", 16, 96, 112, 112, 1, 1)}) {
        INFO(l.name);
        const LayerMapping r = map_layer(l, asip, mesh, energy, all);
        REQUIRE(r.ranked.size() > 1);
        for (double band : {1e-4, 0.002, 0.01, 0.05, 0.1}) {
            // By hand over the ranking: among the candidates whose score is within (1 + band) of
            // the best, the fewest cores, then the largest (last T_of chunk / T_of) x (last T_ox
            // chunk / T_ox), then the rank.
            const int n_of = r.shape.n_of, q = r.shape.Q;
            auto even = [&](const SliceChoice& c) {
                const int lo = n_of - (n_of + c.t_of - 1) / c.t_of * c.t_of + c.t_of;
                const int lx = q - (q + c.t_ox - 1) / c.t_ox * c.t_ox + c.t_ox;
                return double(lo) / c.t_of * double(lx) / c.t_ox;
            };
            std::size_t want = 0, fewest = 0;
            for (std::size_t i = 1; i < r.ranked.size(); ++i) {
                if (r.ranked[i].score > r.ranked[0].score * (1 + band)) continue;
                const SliceChoice& c = r.ranked[i].choice;
                const SliceChoice& w = r.ranked[want].choice;
                if (c.k < w.k || (c.k == w.k && even(c) > even(w))) want = i;
                if (c.k < r.ranked[fewest].choice.k) fewest = i;
            }
            MapperOptions o = all;
            o.keep_candidates = 1;
            o.near_tie = band;
            const LayerMapping m = map_layer(l, asip, mesh, energy, o);
            CHECK(m.t_of == r.ranked[want].choice.t_of);
            CHECK(m.t_ox == r.ranked[want].choice.t_ox);
            CHECK(m.k == r.ranked[want].choice.k);
            CHECK(m.est_cycles == Approx(r.ranked[want].est_cycles));
            moved += want != 0;
            evened += want != fewest;
        }
    }
    CHECK(moved > 0);   // some band reaches a candidate of fewer cores
    CHECK(evened > 0);  // and some picks more even slices than the first of the fewest cores
}

TEST_CASE("the runner-up of the ranking and its near tie are reported", "[waving][mesh_model]") {
    const MapInputs in;
    const auto& [asip, mesh, energy] = in;
    MapperOptions all = options_of("calibrated");
    all.keep_candidates = 2;
    MapperOptions one = options_of("calibrated");
    int apart = 0;
    for (const Layer& l : {conv("a", 16, 64, 28, 28, 3, 1), conv("b", 64, 96, 14, 14, 1, 1), conv("c", 32, 128, 56, 56, 3, 1),
                           conv("d", 3, 64, 112, 112, 3, 1)}) {
        INFO(l.name);
        const LayerMapping r = map_layer(l, asip, mesh, energy, all);
        REQUIRE(r.ranked.size() == 2);
        const LayerMapping m = map_layer(l, asip, mesh, energy, one);  // the runner-up does not need keep_candidates
        CHECK(m.runner_up.t_of == r.ranked[1].choice.t_of);
        CHECK(m.runner_up.t_ox == r.ranked[1].choice.t_ox);
        CHECK(m.runner_up.k == r.ranked[1].choice.k);
        CHECK(m.runner_up_score == r.ranked[1].score);
        CHECK(m.ranked.front().score == r.ranked[0].score);
        CHECK(m.runner_up_over_pick() == r.ranked[1].score / r.ranked[0].score);
        const bool near = r.ranked[1].score <= r.ranked[0].score * (1 + kNearTieReport);
        CHECK(m.near_tie() == near);
        apart += !near;
        const nlohmann::json j = to_json(m);
        CHECK(j["runner_up"]["k"] == m.runner_up.k);
        CHECK(j["runner_up"]["near_tie"] == near);
        MapperOptions f = one;  // one candidate: no runner-up
        f.fixed = SliceChoice{m.t_of, m.t_ox, m.k};
        const LayerMapping x = map_layer(l, asip, mesh, energy, f);
        CHECK(x.runner_up.k == 0);
        CHECK(!x.near_tie());
        CHECK(!to_json(x).contains("runner_up"));
    }
    CHECK(apart > 0);  // the rule is not trivially true: some runner-up lies beyond the band
    NetworkMapping n;
    n.layers.push_back(map_layer(conv("a", 16, 64, 28, 28, 3, 1), asip, mesh, energy, one));
    n.layers.back().ranked.front().score = 100;
    n.layers.back().runner_up_score = 100.4;  // within 0.5 %
    n.layers.push_back(n.layers.back());
    n.layers.back().name = "b";
    n.layers.back().runner_up_score = 101;  // 1 % apart
    CHECK(n.near_tied() == std::vector<std::string>{"a"});
    CHECK_THAT(near_tie_text(n), Catch::Contains("in 1 of 2 layers (a)"));
    n.layers.front().runner_up_score = 102;
    CHECK(near_tie_text(n).empty());
}

TEST_CASE("time model registry: names and unknown names", "[waving][mesh_model]") {
    CHECK(mesh_model_names() == std::vector<std::string>{"calibrated", "paper", "phased", "phased-engine", "phased-pages", "phased-serial", "phased-slices", "queueing"});
    CHECK_THROWS_WITH(make_mesh_model("fast", MeshCoefficients{}),
                      Catch::Contains("unknown cost model \"fast\" (known: calibrated, paper, phased, phased-engine, phased-pages, phased-serial, phased-slices, queueing)"));
}
