// Whole networks through the VTA driver (lowering + compiler + untimed executor) against the
// independent CHW reference of network_reference.h, layer by layer, bit-exact.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "mapper/common/errors.h"
#include "mapper/vta/network_driver.h"
#include "network_reference.h"

using namespace vp::mapper;
using namespace vp::mapper::vta;

namespace {
std::string wl(const std::string& f) { return std::string(VP_SOURCE_DIR) + "/workloads/" + f; }

// Runs the driver functionally, then the reference; returns the number of layers compared.
std::size_t check_network_mode(const NetGraph& g, std::uint64_t seed, int strategy, bool dbuf,
                               bool informative = true) {
    INFO("double_buffer " << dbuf);
    DriverOptions o;
    o.seed = seed;
    o.strategy = strategy;
    o.double_buffer = dbuf;
    NetworkDriver d(g, VtaConfig{}, o);
    std::vector<ProgramJob> jobs;
    run_network_functional(d, &jobs);
    REQUIRE(jobs.size() == d.programs_total());
    const auto ref = net_ref::run(d);
    std::size_t nonconst = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        INFO("layer " << g.net.layers[i].name);
        REQUIRE(d.layer_done(i));
        REQUIRE(d.output(i) == ref[i]);
        if (std::any_of(ref[i].begin(), ref[i].end(), [&](std::int8_t v) { return v != ref[i][0]; })) ++nonconst;
    }
    if (informative) CHECK(nonconst == ref.size());  // the requantisation keeps every layer informative (not saturated)
    return ref.size();
}

// Both modes: two virtual threads (the default) and single buffering.
std::size_t check_network(const NetGraph& g, std::uint64_t seed, int strategy = 0) {
    const std::size_t n = check_network_mode(g, seed, strategy, true);
    CHECK(check_network_mode(g, seed, strategy, false) == n);
    return n;
}

// The driver after a functional run of the network with `seed` (for checks on its own figures).
NetworkDriver run_with_seed(const NetGraph& g, std::uint64_t seed) {
    DriverOptions o;
    o.seed = seed;
    NetworkDriver d(g, VtaConfig{}, o);
    run_network_functional(d, nullptr);
    return d;
}

// Appends `l` to `n` with the producers `in`; returns its index.
int add_layer(Network& n, Layer l, std::vector<int> in) {
    l.inputs = std::move(in);
    n.layers.push_back(std::move(l));
    return int(n.layers.size() - 1);
}

// An act layer of C x H x H.
Layer act_layer(const char* name, Activation a, int C, int H) {
    Layer l;
    l.name = name; l.kind = LayerKind::Activation; l.act = a; l.C = l.K = C; l.H = l.W = H;
    return l;
}

Layer conv(const char* n, int C, int K, int H, int R, int stride, int pad, int groups, bool relu) {
    Layer l;
    l.name = n; l.kind = LayerKind::Conv; l.C = C; l.K = K; l.H = l.W = H; l.R = l.S = R;
    l.stride_h = l.stride_w = stride;
    l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = pad;
    l.groups = groups;
    l.relu = relu;
    return l;
}
}  // namespace

TEST_CASE("LeNet-5 (workloads/lenet5_full.json) on the VTA equals the CHW reference", "[vta][network]") {
    const NetGraph g = chain_graph(load_network(wl("lenet5_full.json")));
    for (std::size_t i = 1; i < g.inputs.size(); ++i) REQUIRE(g.inputs[i][0] == int(i - 1));  // fully chained
    CHECK(check_network(g, 3) == 7);
    CHECK(check_network(g, 4, 2) == 7);
}

TEST_CASE("ResNet-20 with residual connections (vta_network) equals the CHW reference", "[vta][network]") {
    const NetGraph g = parse_vta_network(read_json_file(wl("vta/resnet20_full.json")), wl("vta/resnet20_full.json"));
    REQUIRE(g.net.layers.size() == 32);
    std::size_t adds = 0;
    for (const auto& l : g.net.layers) adds += l.kind == LayerKind::Eltwise;
    REQUIRE(adds == 9);
    CHECK(check_network(g, 7) == 32);
}

TEST_CASE("ResNet-20 conv list as a chain: projection shortcuts get generated inputs", "[vta][network]") {
    const NetGraph g = chain_graph(load_network(wl("resnet20.json")));
    int generated = 0;
    for (std::size_t i = 0; i < g.inputs.size(); ++i)
        if (g.inputs[i][0] == NetGraph::kGenerated) {
            ++generated;
            CHECK(g.net.layers[i].name.find("downsample") != std::string::npos);
        }
    CHECK(generated == 2);
    // ResBlock3.1.conv1 follows a downsample whose K, P, Q match: it chains from it.
    CHECK(check_network(g, 11, 1) == 21);
}

TEST_CASE("Grouped and depthwise convolutions, strided and padded, equal the reference", "[vta][network]") {
    Network n;
    n.name = "groups";
    n.layers = {conv("pw", 3, 40, 9, 1, 1, 0, 1, true), conv("dw", 40, 40, 9, 3, 2, 1, 40, true),  // 3 packs: 16+16+8
                conv("g2", 40, 24, 5, 3, 1, 1, 2, false), conv("g8", 24, 48, 5, 1, 1, 0, 8, false)};
    const NetGraph g = chain_graph(n);
    CHECK(check_network(g, 5) == 4);
    NetworkDriver d(g, VtaConfig{}, DriverOptions{});
    CHECK(d.parts(1) == 3);  // depthwise: 16 channels per program
    CHECK(d.parts(2) == 2);  // K/groups = 12: 16/12 = 1 group per program
    CHECK(d.parts(3) == 4);  // K/groups = 6: 2 groups per program, 8 groups
}

TEST_CASE("Dilated convolutions (im2row with the taps d apart), grouped and strided, equal the reference", "[vta][network]") {
    Network n;
    n.name = "dilated";
    Layer d2 = conv("d2", 8, 16, 20, 3, 1, 2, 1, true);
    d2.dilation_h = d2.dilation_w = 2;  // 5 x 5 window: 20 x 20 out
    Layer d23 = conv("d23", 16, 8, 20, 3, 1, 2, 1, false);
    d23.dilation_h = 2;
    d23.dilation_w = 3;
    d23.pad_left = d23.pad_right = 3;  // 5 x 7 window: 20 x 20 out
    Layer d2s2 = conv("d2s2", 8, 8, 20, 3, 2, 1, 1, true);
    d2s2.dilation_h = d2s2.dilation_w = 2;  // (20 + 2 - 5) / 2 + 1 = 9
    Layer dw4 = conv("dw4", 8, 8, 9, 3, 1, 4, 8, false);
    dw4.dilation_h = dw4.dilation_w = 4;  // depthwise, 9 x 9 window on a 9 x 9 map padded by 4
    n.layers = {d2, d23, d2s2, dw4};
    const NetGraph g = chain_graph(n);
    for (std::size_t i = 1; i < g.inputs.size(); ++i) REQUIRE(g.inputs[i][0] == int(i - 1));  // the shapes chain
    CHECK(g.net.layers[2].P() == 9);
    CHECK(check_network(g, 13) == 4);
    CHECK(check_network(g, 14, 2) == 4);
    // By hand, one output of d2: the reference's tap (r, s) reads input (2r - 2, 2s - 2) at output
    // (0, 0), so only the taps r, s >= 1 see the map; a lowering that ignored the dilation would
    // read (r - 2, s - 2) and differ from the reference above.
    CHECK(!direct_conv_supported(d2));
}

TEST_CASE("Average pooling (2x2 and global) and residual add equal the reference", "[vta][network]") {
    Network n;
    n.name = "pools";
    Layer c = conv("c", 5, 20, 8, 3, 1, 1, 1, false);
    Layer p;
    p.name = "avg2"; p.kind = LayerKind::Pool; p.pool_op = PoolOp::Avg; p.C = p.K = 20; p.H = p.W = 8; p.R = p.S = 2;
    p.stride_h = p.stride_w = 2;
    Layer e;
    e.name = "add"; e.kind = LayerKind::Eltwise; e.C = e.K = 20; e.H = e.W = 4;
    Layer gp = p;
    gp.name = "gap"; gp.H = gp.W = 4; gp.R = gp.S = 4; gp.stride_h = gp.stride_w = 4;
    n.layers = {c, p, e, gp};
    CHECK(check_network(chain_graph(n), 9) == 4);
}

TEST_CASE("Host batchnorm and relu layers of their own equal the reference", "[vta][network]") {
    Network n;
    n.name = "bn";
    Layer c = conv("c", 5, 12, 8, 3, 1, 1, 1, false);
    Layer bn;
    bn.name = "bn"; bn.kind = LayerKind::BatchNorm; bn.C = bn.K = 12; bn.H = bn.W = 8;
    Layer r;
    r.name = "relu"; r.kind = LayerKind::Activation; r.act = vp::mapper::Activation::Relu; r.relu = true;
    r.C = r.K = 12; r.H = r.W = 8;
    Layer c2 = conv("c2", 12, 8, 8, 3, 2, 1, 1, false);
    Layer bn2 = bn;  // with a fused relu6: the lower clamp at 0
    bn2.name = "bn_relu6"; bn2.C = bn2.K = 8; bn2.H = bn2.W = 4; bn2.act = vp::mapper::Activation::Relu6; bn2.relu = true;
    n.layers = {c, bn, r, c2, bn2};
    const NetGraph g = chain_graph(n);
    CHECK(check_network(g, 11) == 5);
    // The host layers run no program; by hand on the driver's own figures: a negative input
    // of bn is clamped by relu, and bn's per-channel constants lie in their documented ranges.
    const NetworkDriver d = run_with_seed(g, 11);
    CHECK(d.programs_total() == 2);
    const auto& bd = d.data(1);
    REQUIRE(bd.scale.size() == 12);
    REQUIRE(bd.bias.size() == 12);
    CHECK(*std::min_element(bd.scale.begin(), bd.scale.end()) >= 64);
    CHECK(*std::max_element(bd.scale.begin(), bd.scale.end()) <= 191);
    CHECK(*std::min_element(bd.bias.begin(), bd.bias.end()) >= -16);
    CHECK(*std::max_element(bd.bias.begin(), bd.bias.end()) <= 16);
    const auto& in = d.output(0);
    const auto& out = d.output(1);
    // Channel 0, element 0 by hand: floor((x s + 64) / 128) + b.
    const int x = in[0], sc = bd.scale[0], b = bd.bias[0];
    const double want = std::floor((double(x) * sc + 64.0) / 128.0) + b;
    CHECK(int(out[0]) == int(std::clamp(want, -128.0, 127.0)));
    const auto& rl = d.output(2);
    for (std::size_t i = 0; i < rl.size(); ++i) CHECK(int(rl[i]) == std::max(0, int(out[i])));
    // A clip without its bounds is refused, naming the layer.
    Layer sg = r;
    sg.name = "clip"; sg.act = vp::mapper::Activation::Clip; sg.relu = false;
    n.layers = {c, sg};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(n), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("layer clip: clip without its bounds"));
}

TEST_CASE("Leaky relu on the host, fused and of its own, equals the reference", "[vta][network]") {
    using vp::mapper::Activation;
    // By hand: -100 x 0.1 = -10 (m = round(0.1 x 2^15) = 3277: floor((-327700 + 16384) / 32768));
    // -3 x 0.1 = -0.3 -> 0 (round to nearest); positive values pass.
    const std::int64_t m = vp::mapper::vta::leaky_multiplier(0.1);
    CHECK(m == 3277);
    CHECK(int(vp::mapper::vta::leaky_int8(-100, m)) == -10);
    CHECK(int(vp::mapper::vta::leaky_int8(-3, m)) == 0);
    CHECK(int(vp::mapper::vta::leaky_int8(-128, m)) == -13);
    CHECK(int(vp::mapper::vta::leaky_int8(77, m)) == 77);
    Network n;
    n.name = "leaky";
    Layer c = conv("c", 6, 16, 8, 3, 1, 1, 2, false);  // grouped: two programs, then the host's leaky
    c.act = Activation::LeakyRelu; c.has_alpha = true; c.alpha = 0.1;
    Layer a;
    a.name = "act"; a.kind = LayerKind::Activation; a.act = Activation::LeakyRelu; a.has_alpha = true; a.alpha = 0.25;
    a.C = a.K = 16; a.H = a.W = 8;
    Layer c2 = conv("c2", 16, 8, 8, 1, 1, 0, 1, false);
    Layer e;
    e.name = "add"; e.kind = LayerKind::Eltwise; e.C = e.K = 8; e.H = e.W = 8;
    e.act = Activation::LeakyRelu; e.has_alpha = true; e.alpha = 0.1;
    n.layers = {c, a, c2, e};
    const NetGraph g = chain_graph(n);
    CHECK(check_network(g, 5) == 4);
    const NetworkDriver d = run_with_seed(g, 5);
    const auto& co = d.output(0);
    CHECK(std::any_of(co.begin(), co.end(), [](std::int8_t v) { return v < 0; }));  // the slope let negatives through
    // Without its slope, a leaky relu is refused on the VTA (the shape platforms do not need it).
    Layer bare = c;
    bare.has_alpha = false;
    n.layers = {bare};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(n), VtaConfig{}, DriverOptions{}), Catch::Contains("layer c: leaky_relu without its slope"));
    bare.has_alpha = true;
    bare.alpha = 1e6;
    n.layers = {bare};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(n), VtaConfig{}, DriverOptions{}), Catch::Contains("outside [-1000, 1000]"));
}

TEST_CASE("Sigmoid, hard sigmoid, hard swish and eltwise mul on the host: the fixed-point rules by hand", "[vta][network]") {
    // v stands for v / 16, a gate g for g / 128.
    CHECK(int(sigmoid_int8(0)) == 64);      // 128 / 2
    CHECK(int(sigmoid_int8(16)) == 94);     // 128 sigmoid(1) = 93.58
    CHECK(int(sigmoid_int8(-16)) == 34);    // 128 sigmoid(-1) = 34.42
    CHECK(int(sigmoid_int8(127)) == 127);   // 127.95, clamped
    CHECK(int(sigmoid_int8(-128)) == 0);    // 0.043
    const HardSigmoidInt m = hard_sigmoid_multipliers(1.0 / 6.0, 0.5);
    CHECK(m.a == 43691);                    // round(2^18 / 6)
    CHECK(m.b == 2097152);                  // 2^21
    CHECK(int(hard_sigmoid_int8(0, m)) == 64);
    CHECK(int(hard_sigmoid_int8(16, m)) == 85);   // 128 (1/6 + 1/2) = 85.33
    CHECK(int(hard_sigmoid_int8(48, m)) == 127);  // x = 3: 1, clamped to 127/128
    CHECK(int(hard_sigmoid_int8(-48, m)) == 0);
    CHECK(int(hard_swish_int8(16)) == 11);    // 16 x 2/3 = 10.67
    CHECK(int(hard_swish_int8(-16)) == -5);   // -16 x 1/3 = -5.33
    CHECK(int(hard_swish_int8(127)) == 127);  // the gate reaches 128 / 128: x passes
    CHECK(int(hard_swish_int8(-64)) == 0);
    CHECK(int(mul_int8(127, 127, false)) == 126);    // floor((16129 + 64) / 128)
    CHECK(int(mul_int8(-128, 127, false)) == -127);  // floor(-16192 / 128) = floor(-126.5)
    CHECK(int(mul_int8(-128, -128, false)) == 127);  // 128, clamped
    CHECK(int(mul_int8(-100, 50, true)) == 0);
    CHECK(broadcast_index(16 * 36, 16, 36, 100) == 100);
    CHECK(broadcast_index(1, 16, 36, 100) == 0);
    CHECK(broadcast_index(16, 16, 36, 100) == 2);  // channel 100 / 36
    CHECK(broadcast_index(36, 16, 36, 100) == 28);  // position 100 % 36
    CHECK(broadcast_index(16, 16, 16, 100) == -1);  // C = H W: ambiguous
    CHECK(broadcast_index(8, 16, 36, 0) == -1);
}

TEST_CASE("Squeeze-and-excitation, SiLU, hard swish, broadcast operands and host pools equal the reference", "[vta][network]") {
    using vp::mapper::Activation;
    Network n;
    n.name = "se";
    auto layer = [&](Layer l, std::vector<int> in) { return add_layer(n, std::move(l), std::move(in)); };
    const auto act = act_layer;
    auto elt = [](const char* name, EltwiseOp op, int C, int H) {
        Layer l;
        l.name = name; l.kind = LayerKind::Eltwise; l.eltwise_op = op; l.C = l.K = C; l.H = l.W = H;
        return l;
    };
    auto global = [](const char* name, PoolOp op, int C, int H) {
        Layer l;
        l.name = name; l.kind = LayerKind::Pool; l.pool_op = op; l.C = l.K = C; l.H = l.W = l.R = l.S = l.stride_h = l.stride_w = H;
        return l;
    };
    const int c0 = layer(conv("c0", 4, 16, 48, 3, 1, 1, 1, false), {Layer::kNetInput});
    const int sig = layer(act("sig", Activation::Sigmoid, 16, 48), {c0});
    const int silu = layer(elt("silu", EltwiseOp::Mul, 16, 48), {c0, sig});         // same shape
    const int gap = layer(global("gap", PoolOp::Avg, 16, 48), {silu});               // 2304 rows > the accumulator: host
    const int fc1 = layer(conv("fc1", 16, 8, 1, 1, 1, 0, 1, true), {gap});
    Layer f2 = conv("fc2", 8, 16, 1, 1, 1, 0, 1, false);
    f2.act = Activation::HardSigmoid; f2.has_alpha = true; f2.alpha = 1.0 / 6.0; f2.beta = 0.5;  // fused: host after the program
    const int fc2 = layer(f2, {fc1});
    const int se = layer(elt("se", EltwiseOp::Mul, 16, 48), {fc2, silu});             // the gate per channel, first
    const int hsw = layer(act("hsw", Activation::HardSwish, 16, 48), {se});
    Layer c1l = conv("c1", 16, 8, 48, 3, 2, 1, 1, false);
    c1l.act = Activation::HardSwish;
    const int c1 = layer(c1l, {hsw});
    Layer c2l = conv("c2", 16, 1, 48, 3, 2, 1, 1, false);
    c2l.act = Activation::Sigmoid;
    const int c2 = layer(c2l, {hsw});                                                // 1 x 24 x 24
    Layer pa = elt("posadd", EltwiseOp::Add, 8, 24);
    pa.act = Activation::Sigmoid;
    const int posadd = layer(pa, {c1, c2});                                          // per position: host
    Layer va = elt("vta_add", EltwiseOp::Add, 8, 24);
    va.act = Activation::HardSigmoid; va.has_alpha = true; va.alpha = 0.2; va.beta = -0.25;
    const int vadd = layer(va, {c1, posadd});                                        // same shape: the VTA, then the host
    const int gmax = layer(global("gmax", PoolOp::Max, 16, 48), {hsw});              // host max pool
    Layer fs;
    fs.name = "fc_s"; fs.kind = LayerKind::FullyConnected; fs.C = 16; fs.K = 1;
    const int fcs = layer(fs, {gmax});
    Layer sm = elt("scalar_mul", EltwiseOp::Mul, 8, 24);
    sm.relu = true; sm.act = Activation::Relu;
    layer(sm, {vadd, fcs});                                                          // one scalar
    const NetGraph g = chain_graph(n, "se");
    for (bool dbuf : {true, false}) CHECK(check_network_mode(g, 17, 0, dbuf, false) == n.layers.size());
    const NetworkDriver d = run_with_seed(g, 17);
    for (int i : {c0, sig, silu, gap, fc1, fc2, se, hsw, c1, c2, posadd, vadd, gmax}) {  // informative (fc_s is one value)
        INFO(n.layers[std::size_t(i)].name);
        const auto& o = d.output(std::size_t(i));
        CHECK(std::any_of(o.begin(), o.end(), [&](std::int8_t v) { return v != o[0]; }));
    }
    std::size_t host = 0;
    for (std::size_t i = 0; i < n.layers.size(); ++i) host += d.parts(i) == 0;
    CHECK(host == 8);  // sig, silu, gap, se, hsw, posadd, gmax, scalar_mul
    // The gate values: fc2's output is the hard sigmoid of its program's int8 output, in [0, 127].
    const auto& gate = d.output(std::size_t(fc2));
    CHECK(*std::min_element(gate.begin(), gate.end()) >= 0);
    // A chain (no producers given): the mul's second operand is generated from the seed.
    Network ch;
    ch.name = "chain";
    ch.layers = {conv("k0", 3, 8, 12, 3, 1, 1, 1, false), elt("gmul", EltwiseOp::Mul, 8, 12), act("gsig", Activation::Sigmoid, 8, 12)};
    CHECK(check_network(chain_graph(ch), 4) == 3);
    // Refused: a broadcast whose element count cannot tell channel from position, a hard sigmoid
    // without its constants.
    Network amb;
    amb.name = "amb";
    Layer a0 = conv("a0", 4, 16, 4, 3, 1, 1, 1, false);
    a0.inputs = {Layer::kNetInput};
    Layer ap = global("ap", PoolOp::Avg, 16, 4);
    ap.inputs = {0};
    Layer am = elt("am", EltwiseOp::Mul, 16, 4);
    am.inputs = {0, 1};
    amb.layers = {a0, ap, am};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(amb, "amb"), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("amb: layer am: a broadcast operand (16 elements from ap") && Catch::Contains("ambiguous"));
    Network bare;
    bare.name = "bare";
    Layer hb = act("hs", Activation::HardSigmoid, 4, 8);
    bare.layers = {conv("b0", 3, 4, 8, 3, 1, 1, 1, false), hb};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(bare, "bare"), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("bare: layer hs: hard_sigmoid without its \"alpha\" and \"beta\""));
}

TEST_CASE("Tanh, erf, softplus, elu and LRN on the host: the fixed-point rules by hand", "[vta][network]") {
    // v stands for v / 16; tanh's result is a gate g / 128.
    CHECK(int(tanh_int8(0)) == 0);
    CHECK(int(tanh_int8(16)) == 97);     // 128 tanh(1) = 97.48
    CHECK(int(tanh_int8(-16)) == -97);
    CHECK(int(tanh_int8(127)) == 127);   // 127.99..., clamped
    CHECK(int(tanh_int8(-128)) == -128);
    CHECK(int(softplus_int8(0)) == 11);   // 16 log 2 = 11.09
    CHECK(int(softplus_int8(16)) == 21);  // 16 log(1 + e) = 20.85
    CHECK(int(softplus_int8(-128)) == 0);  // 16 log(1 + e^-8) = 0.005
    CHECK(int(softplus_int8(127)) == 127);
    CHECK(int(elu_int8(16, 0.5)) == 16);
    CHECK(int(elu_int8(-16, 1.0)) == -10);   // 16 (e^-1 - 1) = -10.11
    CHECK(int(elu_int8(-128, 1.0)) == -16);  // 16 (e^-8 - 1) = -15.99
    CHECK(int(elu_int8(-16, 0.5)) == -5);    // -5.06
    CHECK(int(erf_int8(16)) == 108);         // 128 erf(1) = 107.87, a gate
    CHECK(int(erf_int8(-8)) == -67);         // 128 erf(-0.5) = -66.69
    CHECK(int(erf_int8(127)) == 127);
    // LRN, size 3, alpha 3, beta 1, bias 1, one position: channel values 16, 32, 0 (1, 2, 0):
    // c0: 16 / (1 + 1 (1 + 4)) = 2.67; c1: 32 / (1 + 1 (1 + 4 + 0)) = 5.33; c2: 0.
    CHECK(lrn_int8({16, 32, 0}, 3, 1, 3, 3.0, 1.0, 1.0) == std::vector<std::int8_t>{3, 5, 0});
    // size 2 (even): the window is c .. c + 1: c0 16 / (1 + 1.5 (1 + 4)) = 1.88; c1 32 / (1 + 1.5 (4 + 0)) = 4.57
    CHECK(lrn_int8({16, 32, 0}, 3, 1, 2, 3.0, 1.0, 1.0) == std::vector<std::int8_t>{2, 5, 0});
}

TEST_CASE("LRN, Mish (softplus, tanh, mul), elu, tanh, clip and a GELU's erf on the host equal the reference", "[vta][network]") {
    using vp::mapper::Activation;
    Network n;
    n.name = "lrn";
    auto layer = [&](Layer l, std::vector<int> in) { return add_layer(n, std::move(l), std::move(in)); };
    const auto act = act_layer;
    auto lrn = [](const char* name, int C, int H, int size, double alpha, double beta, double bias) {
        Layer l;
        l.name = name; l.kind = LayerKind::Lrn; l.C = l.K = C; l.H = l.W = H;
        l.lrn_size = size; l.alpha = alpha; l.beta = beta; l.lrn_bias = bias; l.has_alpha = true;
        return l;
    };
    const int c0 = layer(conv("c0", 3, 16, 20, 3, 1, 1, 1, true), {Layer::kNetInput});
    const int n5 = layer(lrn("lrn5", 16, 20, 5, 0.5, 0.75, 1.0), {c0});       // AlexNet's size, alpha scaled for v / 16
    const int c1 = layer(conv("c1", 16, 12, 20, 3, 1, 1, 1, false), {n5});
    const int sp = layer(act("softplus", Activation::Softplus, 12, 20), {c1});
    const int th = layer(act("tanh", Activation::Tanh, 12, 20), {sp});
    Layer mish;
    mish.name = "mish"; mish.kind = LayerKind::Eltwise; mish.eltwise_op = EltwiseOp::Mul; mish.C = mish.K = 12; mish.H = mish.W = 20;
    const int mi = layer(mish, {c1, th});
    const int n4 = layer(lrn("lrn4", 12, 20, 4, 2.0, 0.5, 2.0), {mi});        // an even window
    const int n30 = layer(lrn("lrn30", 12, 20, 30, 1.0, 1.0, 1.0), {n4});     // wider than the channels
    Layer c2l = conv("c2", 12, 8, 20, 1, 1, 0, 1, false);
    c2l.act = Activation::Elu; c2l.has_alpha = true; c2l.alpha = 0.7;        // fused: the host after the program
    const int c2 = layer(c2l, {n30});
    Layer el = act("elu", Activation::Elu, 8, 20);
    el.has_alpha = true; el.alpha = 1.5;
    const int e = layer(el, {c2});
    Layer c3l = conv("c3", 8, 8, 20, 3, 2, 1, 1, false);
    c3l.act = Activation::Tanh;
    const int c3 = layer(c3l, {e});
    // An exported GELU: x / sqrt 2 (a mul by a constant) with erf fused, then x (1 + erf) / 2 as mul.
    Layer dv;
    dv.name = "gelu_div"; dv.kind = LayerKind::Eltwise; dv.eltwise_op = EltwiseOp::Mul; dv.C = dv.K = 8; dv.H = dv.W = 10;
    dv.act = Activation::Erf;
    const int ge = layer(dv, {c3});
    Layer gm = dv;
    gm.name = "gelu_mul"; gm.act = Activation::None;
    const int gmu = layer(gm, {c3, ge});
    // Clips: fused (no lower bound, an upper bound off the 1/16 grid) and an act layer (hard tanh).
    Layer c4l = conv("c4", 8, 8, 10, 3, 1, 1, 1, false);
    c4l.act = Activation::Clip; c4l.has_clip = true; c4l.clip_lo = -std::numeric_limits<double>::infinity(); c4l.clip_hi = 0.53;
    const int c4 = layer(c4l, {gmu});
    Layer ht = act("hardtanh", Activation::Clip, 8, 10);
    ht.has_clip = true; ht.clip_lo = -1.0; ht.clip_hi = 0.25;
    const int htl = layer(ht, {c4});
    const NetGraph g = chain_graph(n, "lrn");
    for (bool dbuf : {true, false}) CHECK(check_network_mode(g, 23, 0, dbuf, false) == n.layers.size());
    const NetworkDriver d = run_with_seed(g, 23);
    for (int i : {c0, n5, c1, sp, th, mi, n4, n30, c2, e, c3, ge, gmu, c4, htl}) {
        INFO(n.layers[std::size_t(i)].name);
        const auto& o = d.output(std::size_t(i));
        CHECK(std::any_of(o.begin(), o.end(), [&](std::int8_t v) { return v != o[0]; }));
    }
    // The normalisation does something: lrn5 differs from its input where the squares are large.
    CHECK(d.output(std::size_t(n5)) != d.output(std::size_t(c0)));
    std::size_t host = 0;
    for (std::size_t i = 0; i < n.layers.size(); ++i) host += d.parts(i) == 0;
    CHECK(host == 10);  // lrn5, softplus, tanh, mish, lrn4, lrn30, elu, gelu_div, gelu_mul, hardtanh
    // The clips hold: c4 at most round(16 x 0.53) = 8, hardtanh within [-16, 4].
    const auto& o4 = d.output(std::size_t(c4));
    CHECK(*std::max_element(o4.begin(), o4.end()) <= 8);
    const auto& oh = d.output(std::size_t(htl));
    CHECK((*std::min_element(oh.begin(), oh.end()) >= -16 && *std::max_element(oh.begin(), oh.end()) <= 4));
    // Refused: an elu without its alpha.
    Network bare;
    bare.name = "bare";
    bare.layers = {conv("b0", 3, 4, 8, 3, 1, 1, 1, false), act("e", Activation::Elu, 4, 8)};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(bare, "bare"), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("bare: layer e: elu without its \"alpha\""));
}

TEST_CASE("Softmax on the host over each of its axes equals the reference, by hand and in a network", "[vta][network]") {
    using vp::mapper::Activation;
    // Two channels, one position: e^1 / (e^1 + 1) = 0.731 -> 93.6; 0.269 -> 34.4.
    CHECK(softmax_int8({16, 0}, 2, 1, 1, SoftmaxAxis::C) == std::vector<std::int8_t>{94, 34});
    CHECK(softmax_int8({5, 5}, 2, 1, 1, SoftmaxAxis::CHW) == std::vector<std::int8_t>{64, 64});
    // A certain class: the others round to 0, the winner clamps to 127 / 128.
    CHECK(softmax_int8({127, -128, -128}, 3, 1, 1, SoftmaxAxis::C) == std::vector<std::int8_t>{127, 0, 0});
    // Over W of a 1 x 2 x 2 tensor: each row on its own (rows {16, 0} and {0, 0}); over H: each column.
    CHECK(softmax_int8({16, 0, 0, 0}, 1, 2, 2, SoftmaxAxis::W) == std::vector<std::int8_t>{94, 34, 64, 64});
    CHECK(softmax_int8({16, 0, 0, 0}, 1, 2, 2, SoftmaxAxis::H) == std::vector<std::int8_t>{94, 64, 34, 64});
    Network n;
    n.name = "softmax";
    auto layer = [&](Layer l, std::vector<int> in) { return add_layer(n, std::move(l), std::move(in)); };
    auto sm = [](const char* name, SoftmaxAxis a, int C, int H) {
        Layer l;
        l.name = name; l.kind = LayerKind::Activation; l.act = Activation::Softmax; l.softmax_axis = a; l.C = l.K = C; l.H = l.W = H;
        return l;
    };
    const int c0 = layer(conv("c0", 3, 6, 5, 3, 1, 1, 1, false), {Layer::kNetInput});
    std::vector<int> outs;
    for (auto [name, a] : {std::pair{"sm_c", SoftmaxAxis::C}, {"sm_h", SoftmaxAxis::H}, {"sm_w", SoftmaxAxis::W},
                           {"sm_hw", SoftmaxAxis::HW}, {"sm_chw", SoftmaxAxis::CHW}})
        outs.push_back(layer(sm(name, a, 6, 5), {c0}));
    Layer fc;
    fc.name = "fc"; fc.kind = LayerKind::FullyConnected; fc.C = 6 * 5 * 5; fc.K = 10;
    const int f = layer(fc, {c0});
    Layer head = sm("head", SoftmaxAxis::C, 10, 1);
    outs.push_back(layer(head, {f}));
    const NetGraph g = chain_graph(n, "softmax");
    for (bool dbuf : {true, false}) CHECK(check_network_mode(g, 29, 0, dbuf, false) == n.layers.size());
    const NetworkDriver d = run_with_seed(g, 29);
    for (int i : outs) {
        INFO(n.layers[std::size_t(i)].name);
        const auto& o = d.output(std::size_t(i));
        CHECK(std::any_of(o.begin(), o.end(), [&](std::int8_t v) { return v != o[0]; }));
        CHECK(*std::min_element(o.begin(), o.end()) >= 0);
    }
    // The groups of the head sum to about 128 (each probability rounded: within half a unit each).
    int total = 0;
    for (std::int8_t v : d.output(std::size_t(outs.back()))) total += v;
    CHECK(std::abs(total - 128) <= 5);
    Network bare;
    bare.name = "bare";
    bare.layers = {conv("b0", 3, 4, 8, 3, 1, 1, 1, false), sm("s", SoftmaxAxis::Unknown, 4, 8)};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(bare, "bare"), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("bare: layer s: softmax without its \"axis\""));
}

TEST_CASE("Layernorm on the host over each of its axes equals the reference, by hand and in a network", "[vta][network]") {
    // By hand (normalise_int8, before the affine step): {16, -16} are x = 1 and -1, normalised to 1
    // and -1 (16, -16). {1, -1} with eps 0.01: x = +-1/16, var 1/256, (1/16) / sqrt(1/256 + 0.01) =
    // 0.530 -> 8.48 -> 8. {0, 16, 32} over W: mean 1, var 2/3, +-1 / 0.8165 = +-1.2247 -> +-19.6 -> +-20.
    // A constant group is 0. Over H of a 1 x 2 x 2 tensor: each column on its own.
    CHECK(normalise_int8({16, -16}, 2, 1, 1, SoftmaxAxis::C, 1e-5) == std::vector<std::int8_t>{16, -16});
    CHECK(normalise_int8({1, -1}, 1, 1, 2, SoftmaxAxis::W, 0.01) == std::vector<std::int8_t>{8, -8});
    CHECK(normalise_int8({0, 16, 32}, 1, 1, 3, SoftmaxAxis::W, 1e-5) == std::vector<std::int8_t>{-20, 0, 20});
    CHECK(normalise_int8({5, 5, 5}, 3, 1, 1, SoftmaxAxis::CHW, 1e-5) == std::vector<std::int8_t>{0, 0, 0});
    CHECK(normalise_int8({16, 0, -16, 0}, 1, 2, 2, SoftmaxAxis::H, 1e-5) == std::vector<std::int8_t>{16, 0, -16, 0});
    // The affine step: scale 128 (1.0) and bias 3 add 3; scale 64 (0.5) halves, rounding half up.
    CHECK(layernorm_int8({16, -16}, 2, 1, 1, SoftmaxAxis::C, 1e-5, {128, 64}, {3, 0}) == std::vector<std::int8_t>{19, -8});
    Network n;
    n.name = "layernorm";
    auto layer = [&](Layer l, std::vector<int> in) { return add_layer(n, std::move(l), std::move(in)); };
    auto ln = [](const char* name, SoftmaxAxis a, double eps, int C, int H) {
        Layer l;
        l.name = name; l.kind = LayerKind::LayerNorm; l.norm_axis = a; l.norm_eps = eps; l.C = l.K = C; l.H = l.W = H;
        return l;
    };
    const int c0 = layer(conv("c0", 3, 6, 5, 3, 1, 1, 1, false), {Layer::kNetInput});
    std::vector<int> outs;
    for (auto [name, a] : {std::pair{"ln_c", SoftmaxAxis::C}, {"ln_h", SoftmaxAxis::H}, {"ln_w", SoftmaxAxis::W},
                           {"ln_hw", SoftmaxAxis::HW}, {"ln_chw", SoftmaxAxis::CHW}})
        outs.push_back(layer(ln(name, a, 1e-5, 6, 5), {c0}));
    outs.push_back(layer(ln("ln_eps", SoftmaxAxis::C, 2.0, 6, 5), {c0}));  // eps of the order of the variance
    const int c1 = layer(conv("c1", 6, 8, 5, 3, 1, 1, 1, true), {outs[0]});  // a convolution reads the normalised map
    const NetGraph g = chain_graph(n, "layernorm");
    for (bool dbuf : {true, false}) CHECK(check_network_mode(g, 31, 0, dbuf, false) == n.layers.size());
    const NetworkDriver d = run_with_seed(g, 31);
    for (int i : outs) {
        INFO(n.layers[std::size_t(i)].name);
        const auto& o = d.output(std::size_t(i));
        CHECK(std::any_of(o.begin(), o.end(), [&](std::int8_t v) { return v != o[0]; }));
    }
    CHECK(d.layer_done(std::size_t(c1)));
    Network bare;
    bare.name = "bare";
    bare.layers = {conv("b0", 3, 4, 8, 3, 1, 1, 1, false), ln("l", SoftmaxAxis::Unknown, 1e-5, 4, 8)};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(bare, "bare"), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("bare: layer l: layernorm without its \"axis\""));
    bare.layers[1] = ln("l", SoftmaxAxis::HW, 0.0, 4, 8);
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(bare, "bare"), VtaConfig{}, DriverOptions{}), Catch::Contains("\"epsilon\""));
}

TEST_CASE("Reflect, edge and constant pads on the host equal the reference, by hand and in a network", "[vta][network]") {
    // By hand, an axis of 4 elements (0 1 2 3): reflect continues ... 2 1 | 0 1 2 3 | 2 1 0 1 2 3 2 ...
    // (a border wider than 3 reflects again), edge 0 0 | 0 1 2 3 | 3 3, the constant -1. An axis of one
    // element reflects onto itself. The constant on the activation grid: 1.5 -> 24, -100 -> -128.
    CHECK(pad_source(-1, 4, PadMode::Reflect) == 1);
    CHECK(pad_source(-3, 4, PadMode::Reflect) == 3);
    CHECK(pad_source(-4, 4, PadMode::Reflect) == 2);
    CHECK(pad_source(4, 4, PadMode::Reflect) == 2);
    CHECK(pad_source(6, 4, PadMode::Reflect) == 0);
    CHECK(pad_source(7, 4, PadMode::Reflect) == 1);
    CHECK(pad_source(-2, 1, PadMode::Reflect) == 0);
    CHECK(pad_source(-2, 4, PadMode::Edge) == 0);
    CHECK(pad_source(9, 4, PadMode::Edge) == 3);
    CHECK(pad_source(-1, 4, PadMode::Constant) == -1);
    CHECK(pad_source(2, 4, PadMode::Constant) == 2);
    CHECK(pad_constant_int8(1.5) == 24);
    CHECK(pad_constant_int8(-100.0) == -128);
    Network n;
    n.name = "pads";
    auto layer = [&](Layer l, std::vector<int> in) { return add_layer(n, std::move(l), std::move(in)); };
    auto pad = [](const char* name, PadMode m, double value, int C, int H, int t, int b, int le, int r) {
        Layer l;
        l.name = name; l.kind = LayerKind::Pad; l.pad_mode = m; l.pad_value = value; l.C = l.K = C; l.H = l.W = H;
        l.pad_top = t; l.pad_bottom = b; l.pad_left = le; l.pad_right = r;
        return l;
    };
    const int c0 = layer(conv("c0", 3, 6, 5, 3, 1, 1, 1, false), {Layer::kNetInput});
    const int p1 = layer(pad("reflect", PadMode::Reflect, 0, 6, 5, 2, 1, 0, 3), {c0});
    layer(pad("reflect_wide", PadMode::Reflect, 0, 6, 5, 6, 9, 5, 4), {c0});  // borders wider than the map
    layer(pad("edge", PadMode::Edge, 0, 6, 5, 1, 3, 2, 0), {c0});
    layer(pad("constant", PadMode::Constant, 0.75, 6, 5, 1, 1, 1, 1), {c0});
    layer(conv("c1", 6, 4, 8, 3, 1, 0, 1, true), {p1});  // a convolution reads the reflect-padded 8 x 8 map
    const NetGraph g = chain_graph(n, "pads");
    for (bool dbuf : {true, false}) CHECK(check_network_mode(g, 41, 0, dbuf, false) == n.layers.size());
    // The constant border holds 12 (0.75 on the grid); the reflect border mirrors row 1 above row 0.
    const NetworkDriver d = run_with_seed(g, 41);
    CHECK(d.output(4)[0] == 12);
    const auto& in = d.output(std::size_t(c0));
    const auto& r = d.output(std::size_t(p1));  // 6 x 8 x 8: rows -2 -1 0 .. 4 5, columns 0 .. 4 5 6 7
    CHECK(r[0] == in[2 * 5]);      // row -2 is row 2, column 0
    CHECK(r[8 + 5] == in[5 + 3]);  // row -1 is row 1, column 5 is column 3
}

TEST_CASE("depth_to_space (DCR, CRD) and space_to_depth on the host equal the reference, by hand and in a network", "[vta][network]") {
    // By hand, block 2 and 3 shallow channels: block position (i, j) of shallow channel c is deep
    // channel (2 i + j) 3 + c (DCR, and space_to_depth), or (2 c + i) 2 + j (CRD).
    CHECK(space_depth_channel(0, 0, 0, 3, 2, false) == 0);
    CHECK(space_depth_channel(2, 0, 1, 3, 2, false) == 5);
    CHECK(space_depth_channel(1, 1, 0, 3, 2, false) == 7);
    CHECK(space_depth_channel(2, 1, 1, 3, 2, false) == 11);
    CHECK(space_depth_channel(1, 1, 0, 3, 2, true) == 6);
    CHECK(space_depth_channel(2, 0, 1, 3, 2, true) == 9);
    Network n;
    n.name = "space_depth";
    auto layer = [&](Layer l, std::vector<int> in) { return add_layer(n, std::move(l), std::move(in)); };
    auto sd = [](const char* name, LayerKind k, int C, int H, int W, int b, bool crd) {
        Layer l;
        l.name = name; l.kind = k; l.C = C; l.H = H; l.W = W; l.block = b; l.crd = crd;
        REQUIRE(set_space_depth_shape(l).empty());
        return l;
    };
    const int c0 = layer(conv("c0", 3, 12, 6, 3, 1, 1, 1, false), {Layer::kNetInput});
    const int s2d = layer(sd("reorg", LayerKind::SpaceToDepth, 12, 6, 6, 2, false), {c0});     // 48 x 3 x 3
    layer(sd("s2d3", LayerKind::SpaceToDepth, 12, 6, 6, 3, false), {c0});                       // 108 x 2 x 2
    layer(sd("d2s_dcr", LayerKind::DepthToSpace, 12, 6, 6, 2, false), {c0});                    // 3 x 12 x 12
    const int crd = layer(sd("d2s_crd", LayerKind::DepthToSpace, 48, 3, 3, 2, true), {s2d});    // 12 x 6 x 6
    layer(conv("c1", 12, 8, 6, 3, 1, 1, 1, true), {crd});
    const NetGraph g = chain_graph(n, "space_depth");
    for (bool dbuf : {true, false}) CHECK(check_network_mode(g, 43, 0, dbuf, false) == n.layers.size());
    // space_to_depth then depth_to_space with the same channel order gives the map back (DCR); the
    // CRD layer above reads the DCR reorg, so it does not.
    Network rt;
    rt.name = "round_trip";
    rt.layers = {conv("r0", 3, 8, 4, 3, 1, 1, 1, false), sd("s", LayerKind::SpaceToDepth, 8, 4, 4, 2, false),
                 sd("d", LayerKind::DepthToSpace, 32, 2, 2, 2, false)};
    const NetworkDriver d = run_with_seed(chain_graph(rt, "round_trip"), 5);
    CHECK(d.output(2) == d.output(0));
    const NetworkDriver d2 = run_with_seed(g, 43);
    CHECK(d2.output(std::size_t(crd)) != d2.output(std::size_t(c0)));
}

TEST_CASE("Concats along H and W and strided slices along C, H and W on the host equal the reference, by hand and in a network",
          "[vta][network]") {
    Network n;
    n.name = "spatial";
    auto layer = [&](Layer l, std::vector<int> in) { return add_layer(n, std::move(l), std::move(in)); };
    auto cat = [](const char* name, SoftmaxAxis a, int C, int H, int W) {
        Layer l;
        l.name = name; l.kind = LayerKind::Concat; l.data_axis = a; l.C = l.K = C; l.H = H; l.W = W;
        return l;
    };
    auto slice = [](const char* name, SoftmaxAxis a, int C, int H, int W, int offset, int step, int count) {
        Layer l;
        l.name = name; l.kind = LayerKind::Slice; l.data_axis = a; l.C = l.K = C; l.H = H; l.W = W;
        l.offset = offset; l.slice_step = step;
        REQUIRE(set_slice_count(l, count).empty());
        return l;
    };
    const int c0 = layer(conv("c0", 3, 6, 8, 3, 1, 1, 1, false), {Layer::kNetInput});   // 6 x 8 x 8
    const int c1 = layer(conv("c1", 3, 6, 8, 3, 1, 1, 1, false), {Layer::kNetInput});
    // YOLOv5's Focus: every second row from 0 and 1, then every second column: four 6 x 4 x 4 maps
    const int r0 = layer(slice("rows0", SoftmaxAxis::H, 6, 8, 8, 0, 2, 4), {c0});
    const int r1 = layer(slice("rows1", SoftmaxAxis::H, 6, 8, 8, 1, 2, 4), {c0});
    const int q00 = layer(slice("q00", SoftmaxAxis::W, 6, 4, 8, 0, 2, 4), {r0});
    const int q10 = layer(slice("q10", SoftmaxAxis::W, 6, 4, 8, 0, 2, 4), {r1});
    const int q01 = layer(slice("q01", SoftmaxAxis::W, 6, 4, 8, 1, 2, 4), {r0});
    const int q11 = layer(slice("q11", SoftmaxAxis::W, 6, 4, 8, 1, 2, 4), {r1});
    const int focus = layer(cat("focus", SoftmaxAxis::C, 24, 4, 4), {q00, q10, q01, q11});
    layer(conv("c2", 24, 8, 4, 3, 1, 1, 1, true), {focus});
    const int ch = layer(cat("cat_h", SoftmaxAxis::H, 6, 12, 8), {c0, r1});         // 8 + 4 rows
    const int cw = layer(cat("cat_w", SoftmaxAxis::W, 6, 4, 16), {q00, r1, q11});  // 4 + 8 + 4 columns
    layer(slice("cols", SoftmaxAxis::W, 6, 4, 16, 2, 5, 3), {cw});                  // columns 2, 7, 12
    layer(conv("c3", 6, 4, 8, 3, 1, 1, 1, true), {c1});
    layer(slice("odd_channels", SoftmaxAxis::C, 6, 12, 8, 1, 2, 3), {ch});
    layer(slice("last_rows", SoftmaxAxis::H, 6, 12, 8, 9, 1, 3), {ch});
    const NetGraph g = chain_graph(n, "spatial");
    for (bool dbuf : {true, false}) CHECK(check_network_mode(g, 47, 0, dbuf, false) == n.layers.size());
    // By hand, on the driver's own outputs: Focus quadrant (1, 0) element (c, y, x) is (c, 2y + 1, 2x)
    // of c0; row 9 of cat_h is row 1 of rows1, i.e. row 3 of c0.
    const NetworkDriver d = run_with_seed(g, 47);
    const auto& in = d.output(std::size_t(c0));
    const auto& f = d.output(std::size_t(focus));
    for (int c = 0; c < 6; ++c)
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x) {
                CHECK(f[std::size_t(((0 * 6 + c) * 4 + y) * 4 + x)] == in[std::size_t((c * 8 + 2 * y) * 8 + 2 * x)]);
                CHECK(f[std::size_t(((1 * 6 + c) * 4 + y) * 4 + x)] == in[std::size_t((c * 8 + 2 * y + 1) * 8 + 2 * x)]);
                CHECK(f[std::size_t(((3 * 6 + c) * 4 + y) * 4 + x)] == in[std::size_t((c * 8 + 2 * y + 1) * 8 + 2 * x + 1)]);
            }
    const auto& h = d.output(std::size_t(ch));
    for (int c = 0; c < 6; ++c)
        for (int x = 0; x < 8; ++x) {
            CHECK(h[std::size_t((c * 12 + 0) * 8 + x)] == in[std::size_t((c * 8 + 0) * 8 + x)]);
            CHECK(h[std::size_t((c * 12 + 9) * 8 + x)] == in[std::size_t((c * 8 + 3) * 8 + x)]);
        }
    // Column 5 of cat_w's row y is column 1 of rows1's row y, i.e. (2y + 1, 1) of c0.
    const auto& w = d.output(std::size_t(cw));
    for (int c = 0; c < 6; ++c)
        for (int y = 0; y < 4; ++y) CHECK(w[std::size_t((c * 4 + y) * 16 + 5)] == in[std::size_t((c * 8 + 2 * y + 1) * 8 + 1)]);
}

TEST_CASE("A first concat of the network input with itself equals the reference and a layer reading the input in another size is refused",
          "[vta][network]") {
    for (SoftmaxAxis a : {SoftmaxAxis::C, SoftmaxAxis::W}) {
        Network n;
        n.name = "cat_input";
        Layer cat;  // the input (4 x 8 x 8) twice: 8 x 8 x 8 along C, 4 x 8 x 16 along W
        cat.name = "cat"; cat.kind = LayerKind::Concat; cat.data_axis = a;
        cat.C = cat.K = a == SoftmaxAxis::C ? 8 : 4; cat.H = 8; cat.W = a == SoftmaxAxis::C ? 8 : 16;
        const int c = add_layer(n, cat, {Layer::kNetInput, Layer::kNetInput});
        Layer cv = conv("conv", cat.K, 8, 8, 3, 1, 1, 1, true);
        cv.W = cat.W;
        add_layer(n, cv, {c});
        const NetGraph g = chain_graph(n, "cat_input");
        for (bool dbuf : {true, false}) CHECK(check_network_mode(g, 5, 0, dbuf, false) == 2);
        const NetworkDriver d = run_with_seed(g, 5);
        REQUIRE(d.input().size() == 4 * 8 * 8);
        const auto& out = d.output(std::size_t(c));
        for (int ch = 0; ch < 4; ++ch)  // by hand: both copies of input element (ch, y, x)
            for (int y = 0; y < 8; ++y)
                for (int x = 0; x < 8; ++x) {
                    const auto v = d.input()[std::size_t((ch * 8 + y) * 8 + x)];
                    if (a == SoftmaxAxis::C) {
                        CHECK(out[std::size_t((ch * 8 + y) * 8 + x)] == v);
                        CHECK(out[std::size_t(((ch + 4) * 8 + y) * 8 + x)] == v);
                    } else {
                        CHECK(out[std::size_t((ch * 8 + y) * 16 + x)] == v);
                        CHECK(out[std::size_t((ch * 8 + y) * 16 + x + 8)] == v);
                    }
                }
    }
    // Two layers reading the input as 3 x 16 x 16 and as 5 x 8 x 8 (a model with two inputs).
    Network n;
    n.name = "two_inputs";
    add_layer(n, conv("a", 3, 8, 16, 3, 2, 1, 1, false), {Layer::kNetInput});
    add_layer(n, conv("b", 5, 8, 8, 1, 1, 0, 1, false), {Layer::kNetInput});
    try {
        NetworkDriver d(chain_graph(n, "two_inputs"), VtaConfig{}, DriverOptions{});
        FAIL("accepted");
    } catch (const vp::InputError& e) {
        CHECK_THAT(e.what(), Catch::Matchers::Contains("layer b: it reads the network input as 320 elements, the input has 768 "
                                                       "(what layer a reads): the VTA runs networks with one input tensor"));
    }
}

TEST_CASE("Transposed convolutions (im2row over the zero-inserted input), grouped and strided, equal the reference", "[vta][network]") {
    Network n;
    n.name = "deconv";
    Layer c = conv("c", 3, 8, 6, 3, 1, 1, 1, false);
    c.inputs = {Layer::kNetInput};
    Layer t2 = conv("t2", 8, 6, 11, 3, 1, 2, 1, true);  // 6 -> 11 (zeros between), pad R - 1: 13 x 13
    t2.zero_insert_h = t2.zero_insert_w = 2;
    t2.inputs = {0};
    Layer t3 = conv("t3", 6, 6, 37, 4, 2, 1, 2, false);  // 13 -> 37 rows with z = 3, 1 x 3 ... grouped, strided
    t3.zero_insert_h = t3.zero_insert_w = 3;
    t3.inputs = {1};
    Layer t23 = conv("t23", 8, 4, 11, 2, 1, 1, 1, false);  // unequal insertion: 6 -> 11 rows (z 2), 6 -> 16 columns (z 3)
    t23.W = 16;
    t23.zero_insert_h = 2;
    t23.zero_insert_w = 3;
    t23.inputs = {0};
    n.layers = {c, t2, t3, t23};
    const NetGraph g = chain_graph(n, "deconv");
    CHECK(check_network(g, 43) == 4);
    // The inserted zeros matter: the reference without them (reading the producer as if it had H
    // rows) is another tensor, and the driver's zero_inserted places the values z apart.
    const auto ins = zero_inserted(t23, run_with_seed(g, 43).output(0));
    REQUIRE(ins.size() == std::size_t(8) * 11 * 16);
    CHECK(std::count(ins.begin(), ins.end(), std::int8_t(0)) >= std::ptrdiff_t(8 * (11 * 16 - 6 * 6)));
    // As a chain (no producers given): the transposed conv follows its producer's 6 x 6 output.
    Network ch;
    ch.name = "deconv_chain";
    ch.layers = {conv("c", 3, 8, 6, 3, 1, 1, 1, false), t2};
    ch.layers[1].inputs.clear();
    ch.layers[0].inputs.clear();
    const NetGraph gc = chain_graph(ch);
    CHECK(gc.inputs[1] == std::vector<int>{0});
    CHECK(check_network(gc, 44) == 2);
}

TEST_CASE("Padded average pools on the host, counting the padding or not, equal the reference", "[vta][network]") {
    Network n;
    n.name = "padavg";
    Layer c = conv("c", 3, 5, 9, 3, 1, 1, 1, false);
    c.inputs = {Layer::kNetInput};
    n.layers = {c};
    for (bool include : {false, true})
        for (auto [R, st, pt, pb, pl, pr] : {std::array{3, 1, 1, 1, 1, 1}, std::array{3, 2, 1, 0, 2, 1}, std::array{2, 2, 0, 1, 1, 0},
                                             std::array{5, 3, 2, 2, 2, 2}}) {
            Layer p;
            p.name = std::string(include ? "inc" : "exc") + std::to_string(n.layers.size());
            p.kind = LayerKind::Pool; p.pool_op = PoolOp::Avg; p.C = p.K = 5; p.H = p.W = 9; p.R = p.S = R;
            p.stride_h = p.stride_w = st;
            p.pad_top = pt; p.pad_bottom = pb; p.pad_left = pl; p.pad_right = pr;
            p.has_count_include_pad = true;
            p.count_include_pad = include;
            p.inputs = {0};
            n.layers.push_back(p);
        }
    const NetGraph g = chain_graph(n, "padavg");
    CHECK(check_network_mode(g, 41, 0, true, true) == n.layers.size());
    // By hand: the corner window of the 3x3 / 1 pool with pads 1 holds 4 input positions; without
    // the padding counted the divisor is 4 (multiplier round(2^14 / 4) = 4096), with it 9 (1820).
    const NetworkDriver d = run_with_seed(g, 41);
    const auto& x = d.output(0);
    const int sum = x[0] + x[1] + x[9] + x[10];
    CHECK(int(d.output(1)[0]) == std::clamp(int(std::floor((sum * 4096.0 + 8192.0) / 16384.0)), -128, 127));
    CHECK(int(d.output(5)[0]) == std::clamp(int(std::floor((sum * 1820.0 + 8192.0) / 16384.0)), -128, 127));
    // Without the rule, refused.
    Network bare = n;
    bare.layers.resize(2);
    bare.layers[1].has_count_include_pad = false;
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(bare, "bare"), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("bare: layer exc1: average pooling with padding does not run on the VTA without its divisor rule"));
}

TEST_CASE("Resize on the host: ONNX's coordinate modes and roundings by hand", "[vta][network]") {
    Layer l;
    l.kind = LayerKind::Resize;
    l.C = l.K = 1;
    l.H = 2; l.W = 3; l.out_h = 4; l.out_w = 2;
    l.resize_mode = ResizeMode::Linear;
    l.resize_coord = ResizeCoord::HalfPixel;
    // Rows 2 -> 4, half_pixel: s = (p + 1/2) / 2 - 1/2 = -0.25 (clamped to 0), 0.25, 0.75, 1.25.
    auto ty = resize_taps(l, true);
    REQUIRE(ty.size() == 4);
    CHECK((ty[0].i0 == 0 && ty[0].i1 == 1 && ty[0].w1 == 0));
    CHECK((ty[1].i0 == 0 && ty[1].i1 == 1 && ty[1].w1 == 32));
    CHECK((ty[2].i0 == 0 && ty[2].i1 == 1 && ty[2].w1 == 96));
    CHECK((ty[3].i0 == 1 && ty[3].i1 == 1 && ty[3].w1 == 32));
    // Columns 3 -> 2: s = (q + 1/2) 3/2 - 1/2 = 0.25, 1.75.
    auto tx = resize_taps(l, false);
    CHECK((tx[0].i0 == 0 && tx[0].w1 == 32 && tx[1].i0 == 1 && tx[1].i1 == 2 && tx[1].w1 == 96));
    l.resize_coord = ResizeCoord::AlignCorners;  // 3 -> 2: s = q 2 / 1 = 0, 2
    tx = resize_taps(l, false);
    CHECK((tx[0].i0 == 0 && tx[0].w1 == 0 && tx[1].i0 == 2 && tx[1].i1 == 2));
    l.resize_mode = ResizeMode::Nearest;
    l.resize_coord = ResizeCoord::HalfPixel;
    l.nearest_round = NearestRound::RoundPreferFloor;  // 0.25 -> 0, 1.75 -> 2
    tx = resize_taps(l, false);
    CHECK((tx[0].i0 == 0 && tx[1].i0 == 2));
    l.resize_coord = ResizeCoord::Asymmetric;  // s = 0, 1.5: floor 0, 1; round_prefer_floor 0, 1; round_prefer_ceil 0, 2; ceil 0, 2
    l.nearest_round = NearestRound::Floor;
    CHECK(resize_taps(l, false)[1].i0 == 1);
    l.nearest_round = NearestRound::RoundPreferFloor;
    CHECK(resize_taps(l, false)[1].i0 == 1);
    l.nearest_round = NearestRound::RoundPreferCeil;
    CHECK(resize_taps(l, false)[1].i0 == 2);
    l.nearest_round = NearestRound::Ceil;
    CHECK(resize_taps(l, false)[1].i0 == 2);
    l.resize_coord = ResizeCoord::TfHalfPixelForNn;  // rows 2 -> 4: s = (p + 1/2) / 2 = 0.25, 0.75, 1.25, 1.75; ceil 1, 1, 2 -> 1, 2 -> 1
    ty = resize_taps(l, true);
    CHECK((ty[0].i0 == 1 && ty[1].i0 == 1 && ty[2].i0 == 1 && ty[3].i0 == 1));
    l.resize_coord = ResizeCoord::PytorchHalfPixel;  // one output: 0
    l.out_w = 1;
    CHECK(resize_taps(l, false)[0].i0 == 0);
    l.resize_coord = ResizeCoord::Unknown;  // without the modes: integer factors only (2 -> 4 rows), 3 -> 1 is an input error
    CHECK((resize_taps(l, true)[1].i0 == 0 && resize_taps(l, true)[2].i0 == 1));
    CHECK_THROWS_WITH(resize_taps(l, false), Catch::Contains("by a factor other than an integer"));
}

TEST_CASE("Nearest and linear resizes in every coordinate mode, up and down, equal the reference", "[vta][network]") {
    Network n;
    n.name = "resize";
    Layer c = conv("c", 3, 6, 7, 3, 1, 1, 1, false);
    c.W = 9;
    c.inputs = {Layer::kNetInput};
    n.layers = {c};
    int k = 0;
    for (ResizeMode mode : {ResizeMode::Nearest, ResizeMode::Linear})
        for (ResizeCoord coord : {ResizeCoord::HalfPixel, ResizeCoord::PytorchHalfPixel, ResizeCoord::AlignCorners, ResizeCoord::Asymmetric,
                                  ResizeCoord::TfHalfPixelForNn})
            for (auto [P, Q] : {std::pair{13, 20}, std::pair{3, 5}, std::pair{1, 1}, std::pair{14, 9}}) {
                Layer r;
                r.name = "r" + std::to_string(k);
                r.kind = LayerKind::Resize;
                r.C = r.K = 6; r.H = 7; r.W = 9; r.out_h = P; r.out_w = Q;
                r.resize_mode = mode;
                r.resize_coord = coord;
                r.nearest_round = mode == ResizeMode::Linear ? NearestRound::Unknown
                                                              : std::array{NearestRound::RoundPreferFloor, NearestRound::RoundPreferCeil,
                                                                           NearestRound::Floor, NearestRound::Ceil}[std::size_t(k % 4)];
                r.inputs = {0};
                n.layers.push_back(r);
                ++k;
            }
    Layer up;  // integer factors without a coordinate mode: floor(p / f)
    up.name = "up"; up.kind = LayerKind::Resize; up.C = up.K = 6; up.H = 7; up.W = 9; up.out_h = 14; up.out_w = 27; up.inputs = {0};
    n.layers.push_back(up);
    const NetGraph g = chain_graph(n, "resize");
    CHECK(check_network_mode(g, 31, 0, true, false) == n.layers.size());
    // Refused: a linear resize, or a nearest one by other than integer factors, without the mode or rounding.
    Network bad;
    bad.name = "bad";
    Layer lin = up;
    lin.name = "lin"; lin.resize_mode = ResizeMode::Linear;
    bad.layers = {c, lin};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(bad, "bad"), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("bad: layer lin: without its coordinate mode (\"coord\""));
    Layer odd = up;
    odd.name = "odd"; odd.out_h = 10; odd.resize_coord = ResizeCoord::HalfPixel;
    bad.layers = {c, odd};
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(bad, "bad"), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("bad: layer odd: without its rounding (\"nearest\""));
}

TEST_CASE("vta_network errors name the JSON pointer and the problem", "[vta][network]") {
    auto doc = read_json_file(wl("vta/resnet20_full.json"));
    auto bad = doc;
    bad["layers"][3]["inputs"][0] = "ResBlock1.0.conv";
    try {
        parse_vta_network(bad, "x.json");
        FAIL("no error");
    } catch (const vp::InputError& e) {
        const std::string m = e.what();
        CHECK(m.find("/layers/3/inputs/0") != std::string::npos);
        CHECK(m.find("did you mean \"ResBlock1.0.conv1\"") != std::string::npos);
    }
    bad = doc;
    bad["layers"][3]["inputs"][1] = "conv1";  // add of 16x32x32 tensors: conv1 fits
    CHECK_NOTHROW(parse_vta_network(bad, "x.json"));
    bad["layers"][3]["inputs"][1] = "ResBlock2.0.conv1";  // a later layer
    CHECK_THROWS_WITH(parse_vta_network(bad, "x.json"), Catch::Contains("unknown or later layer"));
    bad = doc;
    bad["layers"][11]["inputs"][0] = "ResBlock1.0.add";  // ResBlock2.0.conv2 expects 32x16x16
    CHECK_THROWS_WITH(parse_vta_network(bad, "x.json"), Catch::Contains("produces 16384 elements"));
    bad = doc;
    bad["layers"][1]["weights"] = "nope.bin";
    CHECK_THROWS_WITH(parse_vta_network(bad, "x.json"), Catch::Contains("/layers/1/weights"));
}

TEST_CASE("The driver is deterministic in its seed", "[vta][network]") {
    const NetGraph g = chain_graph(load_network(wl("lenet5_full.json")));
    auto run = [&](std::uint64_t seed) {
        DriverOptions o;
        o.seed = seed;
        NetworkDriver d(g, VtaConfig{}, o);
        run_network_functional(d);
        std::vector<std::vector<std::int8_t>> out;
        for (std::size_t i = 0; i < g.net.layers.size(); ++i) out.push_back(d.output(i));
        return out;
    };
    const auto a = run(17), b = run(17), c = run(18);
    CHECK(a == b);
    CHECK(a.front() != c.front());
}

TEST_CASE("Host time model and output layers", "[vta][network]") {
    const NetGraph g = parse_vta_network(read_json_file(wl("vta/resnet20_full.json")), wl("vta/resnet20_full.json"));
    DriverOptions o;
    o.host_ns_per_byte = 2.0;
    o.host_ns_per_program = 500.0;
    NetworkDriver d(g, VtaConfig{}, o);
    ProgramJob j;
    REQUIRE(d.next(j));
    CHECK(j.host_bytes == j.prog.image.size() + std::uint64_t(32 * 32) * 16);  // image + conv1 output [1024, 16]
    CHECK(j.host_ns == Approx(500.0 + 2.0 * double(j.host_bytes)));
    const auto outs = d.output_layers();
    REQUIRE(outs.size() == 1);
    CHECK(g.net.layers[outs[0]].name == "fc");
    o.strategy = 5;
    CHECK_THROWS_WITH(NetworkDriver(g, VtaConfig{}, o), Catch::Contains("vta_compiler.strategy"));
}

// Networks of scripts/random_networks.py (tests/data/random_networks/, and the folder named by
// VP_RANDOM_NETWORKS when set): odd shapes, graphs with adds, concats and resizes, every layer
// equal to the reference in both buffering modes. Random shapes may saturate a layer (C = 1), so
// the informativeness check of the hand-made networks is left out.
TEST_CASE("Random networks (scripts/random_networks.py) equal the CHW reference", "[vta][network]") {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    std::vector<fs::path> dirs = {fs::path(VP_SOURCE_DIR) / "tests/data/random_networks"};
    if (const char* extra = std::getenv("VP_RANDOM_NETWORKS")) dirs.emplace_back(extra);
    for (const auto& dir : dirs)
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 4);
    for (const auto& f : files) {
        INFO(f.string());
        const NetGraph g = chain_graph(load_network(f.string()), f.string());
        for (bool dbuf : {true, false}) CHECK(check_network_mode(g, 17, 0, dbuf, false) == g.net.layers.size());
    }
}
