// Convolution without host im2row (mapper/vta/direct_conv.h): odd shapes (stride 2, padding
// 0-3 and asymmetric, kernels 1x1-7x7, channels not a multiple of the block) through the
// driver in every mode (im2row / direct x two virtual threads / single buffering) and with
// forced tilings (edge tiles, several input-channel steps, output-channel tiles) on the untimed
// executor, against the independent CHW reference of network_reference.h (bit-exact). The
// instruction streams are checked against the buffer halves and the LOAD pad fields.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "mapper/common/errors.h"
#include "mapper/vta/direct_conv.h"
#include "mapper/vta/executor.h"
#include "mapper/vta/network_driver.h"
#include "mapper/vta/strategy_candidates.h"
#include "network_reference.h"

using namespace vp::mapper;
using namespace vp::mapper::vta;
using Lowering = DriverOptions::ConvLowering;

namespace {
Layer conv(const char* n, int C, int K, int H, int W, int R, int stride, int pt, int pb, int pl, int pr, bool relu = true) {
    Layer l;
    l.name = n; l.kind = LayerKind::Conv; l.C = C; l.K = K; l.H = H; l.W = W; l.R = l.S = R;
    l.stride_h = l.stride_w = stride;
    l.pad_top = pt; l.pad_bottom = pb; l.pad_left = pl; l.pad_right = pr;
    l.relu = relu;
    return l;
}

struct RunResult {
    std::vector<ProgramJob> jobs;
    std::size_t layers = 0;
};

// Runs `g` through the driver on the untimed executor and compares every layer with the
// reference; returns the jobs (images dropped).
RunResult run_checked(const NetGraph& g, std::uint64_t seed, Lowering low, bool dbuf) {
    INFO("lowering " << (low == Lowering::Direct ? "direct" : "im2row") << ", double_buffer " << dbuf);
    DriverOptions o;
    o.seed = seed;
    o.double_buffer = dbuf;
    o.conv_lowering = low;
    NetworkDriver d(g, VtaConfig{}, o);
    RunResult r;
    run_network_functional(d, &r.jobs);
    const auto ref = net_ref::run(d);
    for (std::size_t i = 0; i < ref.size(); ++i) {
        INFO("layer " << g.net.layers[i].name);
        REQUIRE(d.layer_done(i));
        REQUIRE(d.output(i) == ref[i]);
    }
    r.layers = ref.size();
    return r;
}

// Every INP/WGT load of a program stays inside one buffer half (two virtual threads) or the
// whole buffer, padding included; returns the number of INP loads with padding.
int check_loads(const CompiledProgram& p) {
    const VtaConfig& c = p.cfg;
    int padded = 0;
    for (const Insn& in : p.insns) {
        if (in.opcode != Opcode::Load || (in.mem_type != MemId::Inp && in.mem_type != MemId::Wgt) || in.x_size == 0) continue;
        const std::uint64_t n = (std::uint64_t(in.x_pad0) + in.x_size + in.x_pad1) * (std::uint64_t(in.y_pad0) + in.y_size + in.y_pad1);
        const std::uint64_t depth = std::uint64_t(in.mem_type == MemId::Inp ? c.inp_depth() : c.wgt_depth());
        const bool whole_wgt = in.mem_type == MemId::Wgt && in.sram_base == 0 && n > depth / 2;  // resident weights
        const std::uint64_t half = p.virtual_threads == 2 && !whole_wgt ? depth / 2 : depth;
        CHECK(in.sram_base / half == (in.sram_base + n - 1) / half);
        CHECK(in.sram_base + n <= depth);
        if (in.mem_type == MemId::Inp && (in.x_pad0 || in.x_pad1 || in.y_pad0 || in.y_pad1)) ++padded;
    }
    return padded;
}
}  // namespace

TEST_CASE("Direct convolution of odd shapes equals the CHW reference in every mode", "[vta][direct]") {
    const std::vector<Layer> shapes = {
        conv("s2k3p1_c3", 3, 8, 11, 11, 3, 2, 1, 1, 1, 1),     // first-layer style, C = 3
        conv("k5p2_c20", 20, 33, 9, 9, 5, 1, 2, 2, 2, 2),      // K = 33: three output blocks, the last of 1
        conv("k7s2p3_c17", 17, 24, 14, 14, 7, 2, 3, 3, 3, 3),  // 7x7 stride 2
        conv("k1_c40", 40, 16, 7, 7, 1, 1, 0, 0, 0, 0, false),  // 1x1
        conv("k3p0_rect", 16, 16, 13, 10, 3, 1, 0, 0, 0, 0),   // no padding, W != H
        conv("k3s2_same", 24, 20, 10, 10, 3, 2, 0, 1, 0, 1),   // asymmetric (SAME) padding
        conv("k1s2_c24", 24, 40, 15, 15, 1, 2, 0, 0, 0, 0),    // strided 1x1 (downsample)
        conv("k3p2_s2", 5, 7, 8, 8, 3, 2, 2, 2, 2, 2),         // padding 2 on a 3x3 kernel
    };
    std::uint64_t seed = 40;
    for (const Layer& l : shapes) {
        INFO("shape " << l.name);
        Network n;
        n.name = l.name;
        n.layers = {l};
        const NetGraph g = chain_graph(n);
        std::uint64_t inp_im2row = 0, inp_direct = 0;
        for (bool dbuf : {true, false}) {
            const RunResult a = run_checked(g, seed, Lowering::Im2row, dbuf);
            const RunResult b = run_checked(g, seed, Lowering::Direct, dbuf);
            REQUIRE(b.jobs.size() == 1);
            const CompiledProgram& p = b.jobs[0].prog;
            CHECK(p.lowering.rfind("direct", 0) == 0);
            CHECK(a.jobs[0].prog.lowering.empty());
            const int padded = check_loads(p);
            CHECK((padded > 0) == (l.pad_top + l.pad_bottom + l.pad_left + l.pad_right > 0));
            CHECK(p.stats.macs == std::uint64_t(l.P()) * l.Q() * ((l.K + 15) / 16) * ((l.C + 15) / 16) * l.R * l.S * 256);
            inp_im2row = a.jobs[0].prog.stats.inp_bytes;
            inp_direct = p.stats.inp_bytes;
        }
        // The halo'd tiles read each input vector about once; im2row copies it up to R*S times.
        if (l.R * l.S >= 9 && l.stride_h == 1) CHECK(3 * inp_direct < inp_im2row);
        ++seed;
    }
}

TEST_CASE("Direct convolution with forced tilings: edge tiles, input-channel steps, output-channel tiles", "[vta][direct]") {
    const Layer l = conv("t", 40, 40, 10, 9, 3, 1, 1, 1, 1, 1);
    std::mt19937_64 g(9);
    std::vector<std::int8_t> in(std::size_t(l.C) * l.H * l.W);
    for (auto& v : in) v = std::int8_t(int(g() % 256) - 128);
    LayerData d;
    d.weights.resize(std::size_t(l.K) * l.C * l.R * l.S);
    for (auto& v : d.weights) v = std::int8_t(int(g() % 255) - 127);
    d.bias.resize(std::size_t(l.K));
    for (auto& v : d.bias) v = std::int32_t(g() % 4001) - 2000;
    d.requant = Requant{181, 13, true};
    const auto ref = net_ref::conv(l, in, d);  // K x P x Q
    const int PQ = l.P() * l.Q();
    const DirectTiling tilings[] = {{1, 1, 1, 1}, {3, 4, 2, 1}, {10, 9, 3, 3}, {4, 9, 1, 2}, {7, 2, 3, 2}, {0, 0, 0, 0}};
    for (const DirectTiling& t : tilings)
        for (bool dbuf : {true, false}) {
            INFO("tiling " << t.to_string() << ", double_buffer " << dbuf);
            CompileOptions co;
            co.double_buffer = dbuf;
            const CompiledProgram p = compile_direct_conv(l, in, d.weights, d.bias, d.requant, VtaConfig{}, co, t);
            CHECK(p.virtual_threads == (dbuf ? 2 : 1));
            check_loads(p);
            const auto rows = run_functional(p);
            REQUIRE(rows.size() == std::size_t(PQ) * l.K);
            CHECK(rows_to_chw(rows, PQ, l.K) == ref);
        }
}

TEST_CASE("Direct tiling respects the buffers on large layers", "[vta][direct]") {
    // YOLOv3-tiny's first layer (416x416x3, 3x3) and a ResNet-18 layer4 conv (512 channels, 7x7):
    // the input tile with its halo, the weights of the kernel window and the accumulator tile.
    const VtaConfig cfg;
    for (const Layer& l : {conv("yolo0", 3, 16, 416, 416, 3, 1, 1, 1, 1, 1), conv("r18l4", 512, 512, 7, 7, 3, 1, 1, 1, 1, 1),
                           conv("k7", 3, 64, 224, 224, 7, 2, 3, 3, 3, 3)})
        for (bool dbuf : {true, false}) {
            INFO(l.name << " double_buffer " << dbuf);
            const DirectTiling t = choose_direct_tiling(l, cfg, dbuf);
            const int h = dbuf ? 2 : 1, th = (t.tp - 1) * l.stride_h + l.R, tw = (t.tq - 1) * l.stride_w + l.S;
            CHECK(t.tc * th * tw <= cfg.inp_depth() / h);
            CHECK(t.tk * t.tp * t.tq + t.tk <= cfg.acc_depth());
            const bool resident = t.tk * 16 >= l.K && t.tc * 16 >= l.C;
            CHECK((t.tk * t.tc * l.R * l.S <= cfg.wgt_depth() / h || (resident && t.tk * t.tc * l.R * l.S <= cfg.wgt_depth())));
        }
    // Errors: a depthwise conv and padding as large as the kernel are not lowered directly.
    Layer dw = conv("dw", 32, 32, 8, 8, 3, 1, 1, 1, 1, 1);
    dw.groups = 32;
    std::string why;
    CHECK_FALSE(direct_conv_supported(dw, &why));
    CHECK(why.find("depthwise") != std::string::npos);
    CHECK_FALSE(direct_conv_supported(conv("p3", 4, 4, 8, 8, 3, 1, 3, 3, 3, 3), &why));
    CHECK_THROWS_WITH(compile_direct_conv(dw, {}, {}, {}, Requant{}, cfg, CompileOptions{}), Catch::Contains("layer dw"));
}

TEST_CASE("Direct mode: ResNet-20 with residual adds and depthwise layers (im2row fallback) equal the reference", "[vta][direct]") {
    const std::string p = std::string(VP_SOURCE_DIR) + "/workloads/vta/resnet20_full.json";
    const NetGraph g = parse_vta_network(read_json_file(p), p);
    for (bool dbuf : {true, false}) {
        const RunResult r = run_checked(g, 7, Lowering::Direct, dbuf);
        CHECK(r.layers == 32);
        int direct = 0;
        for (const auto& j : r.jobs) direct += j.prog.lowering.rfind("direct", 0) == 0;
        CHECK(direct == 21);  // every conv, the two 1x1 downsamples included (the fc and the adds keep their lowerings)
        // auto: per conv layer the lowering with fewer estimated cycles; the outputs are the same.
        CHECK(run_checked(g, 7, Lowering::Auto, dbuf).layers == 32);
    }
    Network n;
    n.name = "dw";
    Layer dw = conv("dw", 40, 40, 9, 9, 3, 2, 1, 1, 1, 1);
    dw.groups = 40;
    n.layers = {conv("pw", 3, 40, 9, 9, 1, 1, 0, 0, 0, 0), dw};
    for (bool dbuf : {true, false}) {
        const RunResult r = run_checked(chain_graph(n), 5, Lowering::Direct, dbuf);
        REQUIRE(r.jobs.size() == 4);
        CHECK(r.jobs[0].prog.lowering.rfind("direct", 0) == 0);
        for (std::size_t i = 1; i < 4; ++i) CHECK(r.jobs[i].prog.lowering.empty());  // depthwise packs: im2row
    }
}

TEST_CASE("Refinement candidates: the direct lowering next to im2row's strategies, per-layer lowering override", "[vta][direct]") {
    // A 3x3 conv whose im2row operands overflow the buffers (its strategies differ), a depthwise
    // conv (no direct lowering) and an fc.
    const Layer a = conv("a", 16, 32, 16, 16, 3, 1, 1, 1, 1, 1);
    Layer dw = conv("dw", 32, 32, 8, 8, 3, 1, 1, 1, 1, 1);
    dw.groups = 32;
    Layer fc;
    fc.name = "fc"; fc.kind = LayerKind::FullyConnected; fc.C = 64; fc.K = 10; fc.H = fc.W = 1;
    DriverOptions o;
    const VtaConfig cfg;
    auto count_direct = [](const std::vector<StrategyCandidate>& v) {
        return std::count_if(v.begin(), v.end(), [](const StrategyCandidate& c) { return c.direct; });
    };
    REQUIRE(o.conv_lowering == Lowering::Auto);  // the default
    const auto ra = rank_strategies(a, cfg, o);
    CHECK(count_direct(ra) == 1);
    CHECK(ra.size() >= 3);  // direct and at least two distinct im2row strategies
    for (std::size_t i = 1; i < ra.size(); ++i) CHECK(ra[i - 1].estimated_cycles <= ra[i].estimated_cycles);
    for (const auto& c : ra) {
        // Each candidate's programs are what its settings make the driver compile.
        const auto progs = layer_programs(a, cfg, o, c);
        REQUIRE_FALSE(progs.empty());
        for (const auto& p : progs) CHECK((p.lowering.rfind("direct", 0) == 0) == c.direct);
        CHECK(candidate_settings(c).front() == (c.direct ? "vta_compiler.conv_lowering=direct" : "vta_compiler.conv_lowering=im2row"));
    }
    CHECK(count_direct(rank_strategies(dw, cfg, o)) == 0);
    CHECK(count_direct(rank_strategies(fc, cfg, o)) == 0);
    o.conv_lowering = Lowering::Direct;  // direct asked for and possible: nothing else
    const auto rd = rank_strategies(a, cfg, o);
    REQUIRE(rd.size() == 1);
    CHECK(rd[0].direct);
    o.conv_lowering = Lowering::Im2row;
    const auto ri = rank_strategies(a, cfg, o);
    CHECK(count_direct(ri) == 0);
    CHECK(ri.size() == ra.size() - 1);

    // layer_lowering overrides conv_lowering per layer; Auto entries leave it alone. Outputs
    // equal the CHW reference either way.
    Network n;
    n.name = "mixed";
    n.layers = {a, conv("b", 32, 16, 16, 16, 3, 1, 1, 1, 1, 1)};
    DriverOptions m;
    m.seed = 3;
    m.conv_lowering = Lowering::Im2row;
    m.layer_lowering = {Lowering::Direct, Lowering::Auto};
    NetworkDriver d(chain_graph(n), cfg, m);
    std::vector<ProgramJob> jobs;
    run_network_functional(d, &jobs);
    const auto ref = net_ref::run(d);
    for (std::size_t i = 0; i < ref.size(); ++i) CHECK(d.output(i) == ref[i]);
    REQUIRE(jobs.size() == 2);
    CHECK(jobs[0].prog.lowering.rfind("direct", 0) == 0);
    CHECK(jobs[1].prog.lowering.empty());
}
