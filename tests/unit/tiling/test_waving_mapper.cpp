// Many-core mapping (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect Section VI): slice sets, waving, stitching, Eq. 23 cost,
// flit counting, bad input, determinism.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <sstream>
#include <vector>

#include "mapper/common/errors.h"
#include "mapper/waving/mapping_report.h"
#include "mapper/waving/packet_format_ops.h"
#include "mapper/waving/waving_mapper.h"

using namespace vp::mapper;
using namespace vp::mapper::waving;
using tiling::AsipParams;

namespace {

Layer conv(const std::string& name, int C, int K, int H, int W, int R, int S, int stride, int pad, int groups = 1) {
    Layer l;
    l.name = name;
    l.C = C;
    l.K = K;
    l.H = H;
    l.W = W;
    l.R = R;
    l.S = S;
    l.stride_h = l.stride_w = stride;
    l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = pad;
    l.groups = groups;
    return l;
}

AsipParams small_asip() {
    AsipParams a;
    a.p_ox = 4;
    a.p_of = 4;
    a.sram_bytes = 16 * 1024;
    return a;
}

Layer random_layer(std::mt19937_64& rng) {
    auto u = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const int g = u(1, 2);
    const int r = u(1, 3) * 2 - 1;
    return conv("L", g * u(1, 12), g * u(1, 20), u(r, 20), u(r, 20), r, r, u(1, 2), r / 2, g);
}

// Independent reference of the waving search: for every T and every k, assign contiguous
// count-balanced blocks and measure each core's stitched runs with the loop nest.
double reference_best_cost(const Layer& layer, const AsipParams& asip, const MeshMapParams& mesh, MapMode mode,
                           tiling::Objective obj) {
    tiling::ConvShape s;
    REQUIRE(tiling::ConvShape::from_layer(layer, &s));
    const auto ctx = tiling::make_cost_context(asip, mesh.packet.flit_bits, mesh.noc_mhz);
    const int n_cores = int(mesh.resolved_cores().size());
    std::vector<int> ks;
    if (mode == MapMode::AllCores) ks = {n_cores};
    else {
        for (int k = 1; k < n_cores; k *= 2) ks.push_back(k);
        ks.push_back(n_cores);
    }
    std::vector<int> tofs, toxs;
    for (int t = 1; t <= s.n_of; ++t)
        if (t % asip.p_of == 0 || t == s.n_of) tofs.push_back(t);
    for (int t = 1; t <= s.Q; ++t)
        if (t % asip.p_ox == 0 || t == s.Q) toxs.push_back(t);
    bool any_full = false;  // all-cores mode: slice sets with >= one slice per core, if any
    for (int tof : tofs)
        for (int tox : toxs)
            any_full = any_full || s.groups * ((s.n_of + tof - 1) / tof) * ((s.Q + tox - 1) / tox) >= n_cores;
    double best = -1;
    for (int tof : tofs)
        for (int tox : toxs) {
            const int s_of = (s.n_of + tof - 1) / tof, s_ox = (s.Q + tox - 1) / tox, n = s.groups * s_of * s_ox;
            if (mode == MapMode::AllCores && any_full && n < n_cores) continue;
            tiling::TilingResult full, rem;
            REQUIRE(tiling::optimize_tiling(s.slice(tof, tox), ctx, obj, &full));
            if (s.n_of % tof) REQUIRE(tiling::optimize_tiling(s.slice(s.n_of % tof, tox), ctx, obj, &rem));
            for (int kr : ks) {
                const int k = std::min(kr, n);
                std::uint64_t maxc = 0, flits = 0;
                for (int c = 0; c < k; ++c) {
                    // slices of this core, grouped into runs of equal (group, of slice)
                    std::uint64_t comp = 0;
                    int i = c * n / k;
                    const int end = (c + 1) * n / k;
                    while (i < end) {
                        const int row = i / s_ox;
                        int j = i;
                        while (j < end && j / s_ox == row) ++j;
                        const int grp = row / s_of, of = row % s_of;
                        tiling::SliceRun run{grp, of * tof, std::min(s.n_of, (of + 1) * tof), (i % s_ox) * tox,
                                             std::min(s.Q, ((j - 1) % s_ox + 1) * tox), tox};
                        const bool last_of = (s.n_of % tof) && of == s_of - 1;
                        RunTotals rt = measure_run(s, run, last_of ? rem.tiling : full.tiling, asip, mesh.packet);
                        comp += rt.compute_cycles();
                        flits += rt.noc.flits;
                        i = j;
                    }
                    maxc = std::max(maxc, comp);
                }
                const double cost = double(maxc) + mesh.flit_weight * double(flits);
                if (best < 0 || cost < best) best = cost;
            }
        }
    return best;
}

}  // namespace

TEST_CASE("packet flits: F(p) = header + ceil(payload bits / flit width)", "[waving][flits]") {
    PacketFormat f;  // 64-bit flits, 1 header flit, 64-byte packets, write ack
    tiling::Op op;
    op.kind = tiling::OpKind::LoadIfmap;
    op.n_segs = 3;
    op.seg_bytes = 100;  // 64 + 36 bytes per segment
    op.seg_stride = 1000;
    FlitCount c = op_flits(op, f);
    // per segment: (req 1 + resp 1 + 8) + (req 1 + resp 1 + 5) = 17 flits, 4 packets
    CHECK(c.flits == 3 * 17);
    CHECK(c.packets == 3 * 4);
    op.kind = tiling::OpKind::StorePsum;
    c = op_flits(op, f);
    CHECK(c.flits == 3 * ((1 + 8 + 1) + (1 + 5 + 1)));
    f.write_ack = false;
    CHECK(op_flits(op, f).flits == 3 * ((1 + 8) + (1 + 5)));
    // for_each_transfer agrees with the count and covers the bytes in order.
    std::uint64_t bytes = 0, transfers = 0, last = 0;
    for_each_transfer(op, f, [&](std::uint64_t addr, std::uint64_t b) {
        CHECK(addr >= last);
        last = addr;
        bytes += b;
        ++transfers;
    });
    CHECK(bytes == 300);
    CHECK(transfers == 6);
    op.kind = tiling::OpKind::Compute;
    CHECK(op_flits(op, f).flits == 0);
}

TEST_CASE("waving order: nearest to the DRAM interface first, deterministic ties", "[waving]") {
    MeshMapParams m;  // 4x4, DRAM (0,0), master (1,0)
    const auto cores = m.resolved_cores();
    REQUIRE(cores.size() == 14);
    const auto order = waving_order(m);
    std::vector<int> d;
    for (int i : order) d.push_back(hops(cores[std::size_t(i)], m.dram_ifs[0]));
    CHECK(std::is_sorted(d.begin(), d.end()));
    // hop 1: only (0,1) since (1,0) is the master; hop 2: (2,0), (1,1), (0,2) in row-major order.
    CHECK(cores[std::size_t(order[0])] == MeshNode{0, 1});
    CHECK((cores[std::size_t(order[1])] == MeshNode{2, 0}));
    CHECK((cores[std::size_t(order[2])] == MeshNode{1, 1}));
    CHECK((cores[std::size_t(order[3])] == MeshNode{0, 2}));
    CHECK(core_counts(14, MapMode::Waving) == std::vector<int>{1, 2, 4, 8, 14});
    CHECK(core_counts(16, MapMode::Waving) == std::vector<int>{1, 2, 4, 8, 16});
    CHECK(core_counts(14, MapMode::AllCores) == std::vector<int>{14});
    // Two DRAM interfaces: each core talks to its nearest.
    m.dram_ifs = {MeshNode{0, 0}, MeshNode{3, 3}};
    CHECK(nearest_dram_if(m, MeshNode{3, 2}) == 1);
    CHECK(nearest_dram_if(m, MeshNode{0, 1}) == 0);
}

TEST_CASE("Eq. 23 cost of the chosen mapping equals a loop-nest recount and the reference search",
          "[waving][cost]") {
    std::mt19937_64 rng(31337);
    const AsipParams asip = small_asip();
    EnergyParams energy;
    for (int iter = 0; iter < 40; ++iter) {
        Layer l = random_layer(rng);
        MeshMapParams mesh;
        mesh.width = std::uniform_int_distribution<int>(3, 4)(rng);
        mesh.height = std::uniform_int_distribution<int>(1, 3)(rng);
        mesh.master = MeshNode{mesh.width - 1, mesh.height - 1};
        mesh.dram_ifs = {MeshNode{0, 0}};
        mesh.flit_weight = iter % 3 == 0 ? 0.05 : 1.0;
        mesh.packet.max_payload_bytes = iter % 2 ? 32 : 64;
        mesh.validate("mesh");
        for (MapMode mode : {MapMode::Waving, MapMode::AllCores}) {
            MapperOptions opt;
            opt.mode = mode;
            opt.objective = iter % 4 == 1 ? tiling::Objective::MinDram : tiling::Objective::MinComp;
            const LayerMapping m = map_layer(l, asip, mesh, energy, opt);
            INFO("iter " << iter << " " << l.shape_key() << " mode " << to_string(mode));
            REQUIRE(m.mapped);
            CHECK(recompute_cost(m, mesh) == m.cost);
            CHECK(m.cost == reference_best_cost(l, asip, mesh, mode, opt.objective));
            // All slices are assigned exactly once and all MACs are done.
            CHECK(m.macs == l.macs());
            int next = 0;
            for (const auto& w : m.cores) {
                CHECK(w.first_slice == next);
                next = w.end_slice;
            }
            CHECK(next == m.n_slices);
            CHECK((m.t_of % asip.p_of == 0 || m.t_of == m.shape.n_of));
            CHECK((m.t_ox % asip.p_ox == 0 || m.t_ox == m.shape.Q));
        }
    }
}

TEST_CASE("waving is never worse than all cores, and the extremes behave", "[waving]") {
    std::mt19937_64 rng(4242);
    const AsipParams asip = small_asip();
    MeshMapParams mesh;
    EnergyParams energy;
    int fewer = 0;
    auto u = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for (int iter = 0; iter < 30; ++iter) {
        // Weight-heavy layers with small maps: filter reloads (flits) compete with compute.
        const int hw = u(4, 12);
        Layer l = conv("w", u(16, 96), u(8, 64), hw, hw, 3, 3, 1, 1);
        MapperOptions w, a;
        a.mode = MapMode::AllCores;
        const LayerMapping mw = map_layer(l, asip, mesh, energy, w), ma = map_layer(l, asip, mesh, energy, a);
        CHECK(mw.cost <= ma.cost);
        if (mw.k < ma.k) ++fewer;
    }
    CHECK(fewer > 0);  // the flit term makes fewer cores worthwhile for some small layers
    // Flits free: the compute term alone prefers spreading a large layer over all cores.
    mesh.flit_weight = 0.0;
    const LayerMapping m = map_layer(conv("big", 16, 64, 32, 32, 3, 3, 1, 1), asip, mesh, energy, MapperOptions{});
    CHECK(m.k == 14);
}

TEST_CASE("stitching: one core running every slice loads each weight once", "[waving]") {
    const AsipParams asip = small_asip();
    MeshMapParams mesh;
    mesh.width = 3;
    mesh.height = 1;
    mesh.master = MeshNode{1, 0};
    mesh.dram_ifs = {MeshNode{2, 0}};  // the paper's 3x1 single-core system
    const Layer l = conv("c", 8, 8, 16, 16, 3, 3, 1, 1);
    const LayerMapping m = map_layer(l, asip, mesh, EnergyParams{}, MapperOptions{});
    REQUIRE(m.k == 1);
    REQUIRE(m.cores.size() == 1);
    CHECK(m.cores[0].totals.filter_bytes == l.weight_elems() * std::uint64_t(asip.word_bytes()));
}

TEST_CASE("bad mesh input is an InputError with a clear message", "[waving][errors]") {
    const AsipParams asip = small_asip();
    Network net;
    net.name = "n";
    net.layers.push_back(conv("c", 8, 8, 8, 8, 3, 3, 1, 1));
    MeshMapParams mesh;
    mesh.dram_ifs = {MeshNode{4, 0}};
    CHECK_THROWS_WITH(map_network(net, asip, mesh, EnergyParams{}, MapperOptions{}),
                      Catch::StartsWith("mesh.dram_ifs[0]:") && Catch::Contains("outside the 4x4 mesh"));
    mesh = MeshMapParams{};
    mesh.width = 2;
    mesh.height = 2;
    mesh.cores = {MeshNode{0, 1}, MeshNode{1, 1}, MeshNode{1, 1}};
    CHECK_THROWS_WITH(mesh.validate("mesh"), Catch::StartsWith("mesh.cores:") && Catch::Contains("only 2 nodes"));
    mesh.cores = {MeshNode{0, 1}, MeshNode{0, 1}};
    CHECK_THROWS_WITH(mesh.validate("mesh"), Catch::StartsWith("mesh.cores[1]:") && Catch::Contains("already taken"));
    mesh.cores = {MeshNode{0, 5}};
    CHECK_THROWS_WITH(mesh.validate("mesh"), Catch::StartsWith("mesh.cores[0]:"));
    mesh = MeshMapParams{};
    mesh.width = 1;
    mesh.height = 2;
    mesh.master = MeshNode{0, 1};
    CHECK_THROWS_WITH(mesh.validate("mesh"), Catch::Contains("no node left for a processing core"));
    mesh = MeshMapParams{};
    mesh.packet.flit_bits = 4;
    CHECK_THROWS_WITH(mesh.validate("mesh"), Catch::StartsWith("mesh.packet.flit_bits:"));
    // A layer whose smallest tile does not fit the SRAM.
    AsipParams tiny = asip;
    tiny.sram_bytes = 64;
    net.layers[0] = conv("conv_big_kernel", 3, 8, 32, 32, 11, 11, 4, 0);
    CHECK_THROWS_AS(map_network(net, tiny, MeshMapParams{}, EnergyParams{}, MapperOptions{}), vp::InputError);
    CHECK_THROWS_WITH(map_network(net, tiny, MeshMapParams{}, EnergyParams{}, MapperOptions{}),
                      Catch::Contains("conv_big_kernel") && Catch::Contains("smallest tile"));
}

TEST_CASE("mapping is deterministic across thread counts, JSON and table carry the result", "[waving][report]") {
    const AsipParams asip = small_asip();
    Network net;
    net.name = "tiny";
    net.layers.push_back(conv("c1", 3, 16, 20, 20, 3, 3, 1, 1));
    net.layers.push_back(conv("c2", 16, 24, 20, 20, 3, 3, 2, 1, 2));
    net.layers.push_back(conv("c3", 16, 24, 20, 20, 3, 3, 2, 1, 2));  // same shape: solved once
    Layer pool;
    pool.name = "p";
    pool.kind = LayerKind::Pool;
    net.layers.push_back(pool);
    MapperOptions o1, o2;
    o1.threads = 1;
    o2.threads = 2;
    const NetworkMapping a = map_network(net, asip, MeshMapParams{}, EnergyParams{}, o1);
    const NetworkMapping b = map_network(net, asip, MeshMapParams{}, EnergyParams{}, o2);
    const nlohmann::json ja = to_json(a), jb = to_json(b);
    CHECK(ja.dump() == jb.dump());
    REQUIRE(ja["layers"].size() == 4);
    CHECK(ja["layers"][0]["slices"]["T_of"].get<int>() == a.layers[0].t_of);
    CHECK(ja["layers"][0]["k"].get<int>() == a.layers[0].k);
    CHECK(ja["layers"][0]["cores"].size() == std::size_t(a.layers[0].k));
    CHECK(ja["layers"][1]["estimate"]["flits"].get<std::uint64_t>() == a.layers[1].flits);
    CHECK(ja["layers"][2]["name"] == "c3");
    CHECK(ja["layers"][2]["estimate"] == ja["layers"][1]["estimate"]);
    CHECK(ja["layers"][3]["mapped"] == false);
    CHECK(a.layers[1].energy.total_pj() > 0);
    std::ostringstream os;
    print_table(os, a);
    CHECK(os.str().find("c2") != std::string::npos);
    CHECK(os.str().find("skipped") != std::string::npos);
}

TEST_CASE("whole-layer mode runs the single-core optimum of the whole layer on one core", "[waving]") {
    const AsipParams asip = small_asip();
    MeshMapParams mesh;
    const Layer l = conv("c", 24, 40, 18, 18, 3, 3, 1, 1);
    MapperOptions opt;
    opt.mode = MapMode::WholeLayer;
    for (auto obj : {tiling::Objective::MinComp, tiling::Objective::MinDram}) {
        opt.objective = obj;
        const LayerMapping m = map_layer(l, asip, mesh, EnergyParams{}, opt);
        tiling::ConvShape s;
        REQUIRE(tiling::ConvShape::from_layer(l, &s));
        tiling::TilingResult r;
        REQUIRE(tiling::optimize_tiling(s.slice(s.n_of, s.Q),
                                        tiling::make_cost_context(asip, mesh.packet.flit_bits, mesh.noc_mhz), obj, &r));
        CHECK(m.k == 1);
        CHECK(m.n_slices == 1);
        CHECK(m.tiling_full == r.tiling);
        // The loop nest of the one core moves exactly the closed-form DRAM words.
        CHECK(m.dram_bytes == r.cost.n_dram() * std::uint64_t(asip.word_bytes()));
        CHECK(m.max_core_cycles_wo_dram == r.cost.c_compute());
    }
}

// vp-run --check's test of the mesh mapper's inputs (check_mappable: the smallest tile and a fixed
// slice set, no search) against map_network itself, on random layers, SRAM sizes from a few words
// and fixed slice sets drawn at random (most of them not slice sets of the layer): both refuse the
// same networks with the same message, and check_mappable accepts every network map_network maps.
TEST_CASE("mesh check_mappable refuses exactly what map_network refuses", "[waving][errors]") {
    std::mt19937_64 rng(20261207);
    auto u = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int refused = 0, mapped = 0;
    for (int it = 0; it < 600; ++it) {
        AsipParams asip = small_asip();
        asip.sram_bytes = 4 * u(4, 160);
        Network net;
        net.name = "rnd";
        const int n = u(1, 3);
        for (int i = 0; i < n; ++i) {
            Layer l = random_layer(rng);
            l.name = "l" + std::to_string(i);
            net.layers.push_back(l);
        }
        MapperOptions opt;
        opt.threads = 1;
        opt.mode = u(0, 2) == 0 ? MapMode::AllCores : u(0, 1) ? MapMode::WholeLayer : MapMode::Waving;
        if (u(0, 3) == 0) opt.fixed = SliceChoice{4 * u(1, 3), 4 * u(1, 3), u(0, 3)};
        if (u(0, 5) == 0) opt.fixed_layers.push_back({u(0, 3) ? "l0" : "nope", SliceChoice{4, 4, 1}});
        std::string map_err, check_err;
        try {
            map_network(net, asip, MeshMapParams{}, EnergyParams{}, opt);
        } catch (const vp::InputError& e) {
            map_err = e.what();
        }
        try {
            check_mappable(net, asip, MeshMapParams{}, EnergyParams{}, opt);
        } catch (const vp::InputError& e) {
            check_err = e.what();
        }
        INFO("draw " << it << ": map_network \"" << map_err << "\", check_mappable \"" << check_err << "\"");
        CHECK(check_err == map_err);
        (map_err.empty() ? mapped : refused) += 1;
    }
    CHECK(refused > 100);
    CHECK(mapped > 100);
}
