// Operator by operator: small models built here, shapes and MACs against the ONNX operator
// specification's formulas worked by hand in each test (independent of the importer's code).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>

#include "mapper/common/errors.h"
#include "onnx_builder.h"
#include "yolo_head.h"
#include "mapper/workload/network.h"
#include "platform/import/onnx_import.h"

using namespace vp::mapper;
using vp::import::ImportOptions;
using vp::import::import_onnx;
using test_onnx::attr;
using test_onnx::Model;

namespace {
const Layer& only(const Network& n, LayerKind k, int nth = 0) {
    for (const auto& l : n.layers)
        if (l.kind == k && nth-- == 0) return l;
    FAIL("no layer of the kind");
    return n.layers[0];
}
std::size_t count(const Network& n, LayerKind k) {
    std::size_t c = 0;
    for (const auto& l : n.layers) c += l.kind == k;
    return c;
}
// Conv with the given attributes on a 1x3x10x9 input, 4 filters of 3x3.
Network conv_with(void (*set)(onnx::NodeProto&), int opset = 13) {
    Model m(opset);
    m.input("x", {1, 3, 10, 9}).init("w", {4, 3, 3, 3}).output("y");
    set(m.node("Conv", {"x", "w"}, {"y"}, "conv"));
    return import_onnx(m.save("conv.onnx"), {}).net;
}
}  // namespace

TEST_CASE("Conv: pads, strides and the output size of the ONNX formula", "[import]") {
    const Network n = conv_with([](onnx::NodeProto& c) {
        attr(c, "pads", std::vector<std::int64_t>{1, 0, 2, 1});  // top, left, bottom, right
        attr(c, "strides", std::vector<std::int64_t>{2, 3});
    });
    REQUIRE(n.layers.size() == 1);
    const Layer& l = n.layers[0];
    CHECK(l.name == "conv");
    CHECK((l.pad_top == 1 && l.pad_left == 0 && l.pad_bottom == 2 && l.pad_right == 1));
    // floor((10 + 1 + 2 - 3) / 2) + 1 = 6, floor((9 + 0 + 1 - 3) / 3) + 1 = 3
    CHECK(l.P() == 6);
    CHECK(l.Q() == 3);
    CHECK(l.macs() == 3ull * 4 * 9 * 6 * 3);
    CHECK(l.inputs == std::vector<int>{Layer::kNetInput});
}

TEST_CASE("Conv: auto_pad SAME_UPPER, SAME_LOWER and VALID", "[import]") {
    // SAME: output ceil(10 / 2) = 5, total pad (5 - 1) * 2 + 3 - 10 = 1: at the end (UPPER) or
    // the beginning (LOWER); W: ceil(9 / 2) = 5, total (5 - 1) * 2 + 3 - 9 = 2: 1 + 1.
    Network up = conv_with([](onnx::NodeProto& c) {
        attr(c, "auto_pad", std::string("SAME_UPPER"));
        attr(c, "strides", std::vector<std::int64_t>{2, 2});
    });
    CHECK((up.layers[0].pad_top == 0 && up.layers[0].pad_bottom == 1 && up.layers[0].pad_left == 1 && up.layers[0].pad_right == 1));
    CHECK((up.layers[0].P() == 5 && up.layers[0].Q() == 5));
    Network lo = conv_with([](onnx::NodeProto& c) {
        attr(c, "auto_pad", std::string("SAME_LOWER"));
        attr(c, "strides", std::vector<std::int64_t>{2, 2});
    });
    CHECK((lo.layers[0].pad_top == 1 && lo.layers[0].pad_bottom == 0));
    Network valid = conv_with([](onnx::NodeProto& c) { attr(c, "auto_pad", std::string("VALID")); });
    CHECK((valid.layers[0].P() == 8 && valid.layers[0].Q() == 7));  // 10 - 3 + 1, 9 - 3 + 1
}

TEST_CASE("Conv: groups and depthwise, dilation", "[import]") {
    Model m;
    m.input("x", {1, 8, 6, 6}).init("w1", {8, 1, 3, 3}).init("w2", {12, 4, 1, 1}).output("z");
    auto& dw = m.node("Conv", {"x", "w1"}, {"y"}, "dw");
    attr(dw, "group", std::int64_t(8));
    attr(dw, "pads", std::vector<std::int64_t>{1, 1, 1, 1});
    attr(m.node("Conv", {"y", "w2"}, {"z"}, "g2"), "group", std::int64_t(2));
    const Network n = import_onnx(m.save("groups.onnx"), {}).net;
    REQUIRE(n.layers.size() == 2);
    CHECK(n.layers[0].is_depthwise());
    CHECK(n.layers[0].macs() == 1ull * 8 * 9 * 36);
    CHECK(n.layers[1].groups == 2);
    CHECK(n.layers[1].macs() == 4ull * 12 * 36);
    CHECK(n.layers[1].inputs == std::vector<int>{0});

    // Dilation 2 x 3: a 3 x 3 kernel spans 5 x 7 inputs; 10 x 10 unpadded gives 6 x 4 outputs (ONNX
    // shape inference says the same: the importer checks its geometry against it).
    Model d;
    d.input("x", {1, 3, 10, 10}).init("w", {4, 3, 3, 3}).output("y");
    attr(d.node("Conv", {"x", "w"}, {"y"}, "dilated_conv"), "dilations", std::vector<std::int64_t>{2, 3});
    const Layer dl = import_onnx(d.save("dil.onnx"), {}).net.layers.at(0);
    CHECK((dl.dilation_h == 2 && dl.dilation_w == 3));
    CHECK((dl.window_h() == 5 && dl.window_w() == 7));
    CHECK((dl.P() == 6 && dl.Q() == 4));
    CHECK(dl.macs() == 4ull * 3 * 9 * 6 * 4);  // the taps, not the window
    // SAME_UPPER with dilation 2, stride 1: out 10, total padding 9 + 5 - 10 = 4 per axis.
    Model same;
    same.input("x", {1, 3, 10, 10}).init("w", {4, 3, 3, 3}).output("y");
    auto& sc = same.node("Conv", {"x", "w"}, {"y"}, "same_dilated");
    attr(sc, "dilations", std::vector<std::int64_t>{2, 2});
    attr(sc, "auto_pad", std::string("SAME_UPPER"));
    const Layer sl = import_onnx(same.save("dil_same.onnx"), {}).net.layers.at(0);
    CHECK((sl.pad_top == 2 && sl.pad_bottom == 2 && sl.pad_left == 2 && sl.pad_right == 2));
    CHECK((sl.P() == 10 && sl.Q() == 10));
    // A dilated transposed convolution has no equivalent here: rejected naming the node.
    Model t;
    t.input("x", {1, 3, 5, 5}).init("w", {3, 4, 3, 3}).output("y");
    attr(t.node("ConvTranspose", {"x", "w"}, {"y"}, "dilated_up"), "dilations", std::vector<std::int64_t>{2, 2});
    CHECK_THROWS_WITH(import_onnx(t.save("dilt.onnx"), {}),
                      Catch::Contains("node \"dilated_up\" (ConvTranspose)") && Catch::Contains("dilation 2"));
}

TEST_CASE("ConvTranspose as its equivalent convolution", "[import]") {
    Model m;
    m.input("x", {1, 4, 5, 5}).init("w", {4, 6, 3, 3}).output("y");  // C=4 -> K=6
    auto& t = m.node("ConvTranspose", {"x", "w"}, {"y"}, "up");
    attr(t, "strides", std::vector<std::int64_t>{2, 2});
    attr(t, "pads", std::vector<std::int64_t>{1, 1, 1, 1});
    attr(t, "output_padding", std::vector<std::int64_t>{1, 1});
    const Layer l = import_onnx(m.save("convt.onnx"), {}).net.layers.at(0);
    // ONNX: out = 2 * (5 - 1) + 1 + 3 - 1 - 1 = 10. Equivalent conv: 5 inputs with one zero
    // between them (9), padded by 3 - 1 - 1 = 1 before and 1 + 1 = 2 after, stride 1: 10.
    CHECK((l.C == 4 && l.K == 6 && l.H == 9 && l.zero_insert_h == 2));
    CHECK((l.pad_top == 1 && l.pad_bottom == 2 && l.stride_h == 1));
    CHECK((l.P() == 10 && l.Q() == 10));
    CHECK(l.consumed_elems() == 4u * 5 * 5);
}

TEST_CASE("Pools: ceil_mode, global pools and ReduceMean over the spatial axes", "[import]") {
    Model m;
    m.input("x", {1, 2, 7, 7}).output("g").output("r").output("gm");
    auto& p = m.node("MaxPool", {"x"}, {"p"}, "pool");
    attr(p, "kernel_shape", std::vector<std::int64_t>{3, 3});
    attr(p, "strides", std::vector<std::int64_t>{2, 2});
    attr(p, "ceil_mode", std::int64_t(1));
    m.node("GlobalAveragePool", {"p"}, {"g"}, "gap");
    auto& r = m.node("ReduceMean", {"p"}, {"r"}, "mean");
    attr(r, "axes", std::vector<std::int64_t>{2, 3});
    attr(r, "keepdims", std::int64_t(0));
    m.node("GlobalMaxPool", {"p"}, {"gm"}, "gmp");
    const Network n = import_onnx(m.save("pools.onnx"), {}).net;
    REQUIRE(n.layers.size() == 4);
    // ceil((7 - 3) / 2) + 1 = 3 (floor would give 3 too); 7x7 k3 s2 ceil -> 3.
    CHECK(n.layers[0].P() == 3);
    for (int k = 1; k < 4; ++k) {
        CHECK(n.layers[std::size_t(k)].kind == LayerKind::Pool);
        CHECK((n.layers[std::size_t(k)].P() == 1 && n.layers[std::size_t(k)].R == 3));
        CHECK(n.layers[std::size_t(k)].inputs == std::vector<int>{0});
    }
    CHECK(n.layers[2].pool_op == PoolOp::Avg);
    CHECK(n.layers[3].pool_op == PoolOp::Max);

    Model c;  // 8x8, k2 s3 ceil: ceil((8 - 2) / 3) + 1 = 3 windows, floor gives 3 too; 9x9: ceil(7/3)+1 = 4 vs 3
    c.input("x", {1, 1, 9, 9}).output("p");
    auto& cp = c.node("AveragePool", {"x"}, {"p"}, "ceil_pool");
    attr(cp, "kernel_shape", std::vector<std::int64_t>{2, 2});
    attr(cp, "strides", std::vector<std::int64_t>{3, 3});
    attr(cp, "ceil_mode", std::int64_t(1));
    const Layer cl = import_onnx(c.save("ceil.onnx"), {}).net.layers.at(0);
    CHECK((cl.P() == 4 && cl.Q() == 4));

    Model bad;
    bad.input("x", {1, 2, 7, 7}).output("r");
    attr(bad.node("ReduceMean", {"x"}, {"r"}, "chan_mean"), "axes", std::vector<std::int64_t>{1});
    CHECK_THROWS_WITH(import_onnx(bad.save("rm.onnx"), {}), Catch::Contains("node \"chan_mean\" (ReduceMean)"));
}

TEST_CASE("BatchNormalization and activations fuse into the producing conv, otherwise they are layers", "[import]") {
    Model m;
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).init("s", {4}).init("b", {4}).init("mu", {4}).init("v", {4}).output("a");
    m.output("s2");
    m.node("Conv", {"x", "w"}, {"c"}, "conv");
    m.node("BatchNormalization", {"c", "s", "b", "mu", "v"}, {"bn"}, "bn");
    m.node("Relu", {"bn"}, {"a"}, "relu");
    // a second branch: BN on the network input (nothing to fold into), sigmoid * x (SiLU)
    m.node("BatchNormalization", {"x", "s3", "b3", "m3", "v3"}, {"xb"}, "bn_in");
    m.init("s3", {3}).init("b3", {3}).init("m3", {3}).init("v3", {3});
    m.node("Sigmoid", {"xb"}, {"sg"}, "sig");
    m.node("Mul", {"xb", "sg"}, {"s1"}, "silu");
    m.node("Softmax", {"s1"}, {"s2"}, "softmax");
    const auto r = import_onnx(m.save("fuse.onnx"), {});
    const Network& n = r.net;
    CHECK(r.stats.fused_bn == 1);
    CHECK(r.stats.fused_act == 1);
    const Layer& conv = only(n, LayerKind::Conv);
    CHECK((conv.relu && conv.act == Activation::Relu));
    CHECK(count(n, LayerKind::BatchNorm) == 1);
    CHECK(count(n, LayerKind::Activation) == 2);  // sigmoid (its input has two readers) and softmax
    const Layer& silu = only(n, LayerKind::Eltwise);
    CHECK(silu.eltwise_op == EltwiseOp::Mul);
    REQUIRE(silu.inputs.size() == 2);
    CHECK(n.layers[std::size_t(silu.inputs[0])].kind == LayerKind::BatchNorm);
    CHECK(n.layers[std::size_t(silu.inputs[1])].act == Activation::Sigmoid);
    CHECK(only(n, LayerKind::Activation, 1).act == Activation::Softmax);
}

TEST_CASE("Weights for the VTA: batch norm folded per channel, then symmetric int8", "[import]") {
    // BatchNormalization: y = gamma (x - mean) / sqrt(var + eps) + beta, so the conv weights of
    // output channel k scale by gamma_k / sqrt(var_k + eps): here 4 / sqrt(3 + 1) = 2 and
    // 1 / sqrt(0 + 1) = 1. Weights {0.5, -1} -> {1, -1}; s = 1 / 127 -> {127, -127}.
    Model m;
    m.input("x", {1, 1, 4, 4}).tensor("w", {2, 1, 1, 1}, {0.5f, -1.0f}).output("y");
    m.tensor("g", {2}, {4.0f, 1.0f}).tensor("b", {2}, {0.0f, 0.0f}).tensor("mu", {2}, {0.0f, 0.0f}).tensor("v", {2}, {3.0f, 0.0f});
    m.node("Conv", {"x", "w"}, {"c"}, "conv");
    attr(m.node("BatchNormalization", {"c", "g", "b", "mu", "v"}, {"y"}, "bn"), "epsilon", 1.0f);
    ImportOptions o;
    o.need_values = true;
    const auto r = import_onnx(m.save("bnw.onnx"), o);
    REQUIRE(r.values.size() == 1);
    CHECK(r.values[0].weights == std::vector<std::int8_t>{127, -127});
    CHECK(r.values[0].bias.empty());  // float biases are not converted
    Model q;  // without the batch norm: {0.5, -1} -> round(63.5) = 64, -127
    q.input("x", {1, 1, 4, 4}).tensor("w", {2, 1, 1, 1}, {0.5f, -1.0f}).output("y");
    q.node("Conv", {"x", "w"}, {"y"}, "conv");
    CHECK(import_onnx(q.save("w.onnx"), o).values[0].weights == std::vector<std::int8_t>{64, -127});
}

TEST_CASE("Clip(0, 6) is relu6, LeakyRelu / HardSwish fuse by name", "[import]") {
    Model m(11);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 1, 1}).init("w2", {4, 4, 1, 1}).floats("lo", {0.0f}, true).floats("hi", {6.0f}, true);
    m.output("l");
    m.node("Conv", {"x", "w"}, {"c"}, "c1");
    m.node("Clip", {"c", "lo", "hi"}, {"r6"}, "relu6");
    m.node("Conv", {"r6", "w2"}, {"c2"}, "c2");
    m.node("LeakyRelu", {"c2"}, {"l"}, "leaky");
    const Network n = import_onnx(m.save("clip.onnx"), {}).net;
    REQUIRE(n.layers.size() == 2);
    CHECK((n.layers[0].act == Activation::Relu6 && n.layers[0].relu));
    CHECK((n.layers[1].act == Activation::LeakyRelu && !n.layers[1].relu));
    // LeakyRelu's alpha is recorded: ONNX's default 0.01 without the attribute, else the attribute.
    CHECK((n.layers[1].has_alpha && n.layers[1].alpha == Approx(0.01)));
    CHECK(!n.layers[0].has_alpha);
    Model a(11);
    a.input("x", {1, 3, 8, 8}).init("w", {4, 3, 1, 1}).output("l");
    a.node("Conv", {"x", "w"}, {"c"}, "c1");
    attr(a.node("LeakyRelu", {"c"}, {"l"}, "leaky"), "alpha", 0.1f);
    const Network na = import_onnx(a.save("leaky.onnx"), {}).net;
    REQUIRE(na.layers.size() == 1);
    CHECK((na.layers[0].has_alpha && na.layers[0].alpha == Approx(0.1)));
    // Other bounds: a clip with its bounds recorded, a missing one as infinite (written as null).
    Model k(11);
    k.input("x", {1, 3, 8, 8}).init("w", {4, 3, 1, 1}).floats("lo", {-1.0f}, true).floats("hi", {2.0f}, true).output("k2");
    k.node("Conv", {"x", "w"}, {"c"}, "c1");
    k.node("Clip", {"c", "lo", "hi"}, {"k1"}, "hardtanh");  // fused into c1
    k.node("Clip", {"k1", "lo"}, {"k2"}, "lower_only");     // after a fused clip: an act layer
    const Network nk = import_onnx(k.save("clip_bounds.onnx"), {}).net;
    REQUIRE(nk.layers.size() == 2);
    CHECK((nk.layers[0].act == Activation::Clip && !nk.layers[0].relu && nk.layers[0].has_clip));
    CHECK((nk.layers[0].clip_lo == Approx(-1.0) && nk.layers[0].clip_hi == Approx(2.0)));
    CHECK((nk.layers[1].kind == LayerKind::Activation && nk.layers[1].has_clip && nk.layers[1].clip_lo == Approx(-1.0) &&
           std::isinf(nk.layers[1].clip_hi)));
    const auto doc = network_to_json(nk);
    CHECK(doc["layers"][1]["clip"][1].is_null());
    const Network back = parse_network(doc, "back.json");
    CHECK((back.layers[0].has_clip && back.layers[0].clip_hi == Approx(2.0) && back.layers[1].has_clip && std::isinf(back.layers[1].clip_hi)));
    // min > max: ONNX's Clip gives max everywhere (Min(max, Max(x, min))), recorded as [max, max].
    Model inv(11);
    inv.input("x", {1, 3, 8, 8}).floats("lo", {2.0f}, true).floats("hi", {1.0f}, true).output("y");
    inv.node("Clip", {"x", "lo", "hi"}, {"y"}, "inverted");
    const Network ni = import_onnx(inv.save("clip_inv.onnx"), {}).net;
    REQUIRE(ni.layers.size() == 1);
    CHECK((ni.layers[0].has_clip && ni.layers[0].clip_lo == Approx(1.0) && ni.layers[0].clip_hi == Approx(1.0)));
}

TEST_CASE("HardSigmoid's alpha and beta are recorded (ONNX's defaults without the attributes), fused or of its own", "[import]") {
    Model m(13);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 1, 1}).init("w2", {4, 4, 1, 1}).output("h2");
    m.node("Conv", {"x", "w"}, {"c"}, "c1");
    auto& h = m.node("HardSigmoid", {"c"}, {"h"}, "hs1");  // fused into c1
    attr(h, "alpha", 1.0f / 6.0f);
    attr(h, "beta", 0.25f);
    m.node("Conv", {"h", "w2"}, {"c2"}, "c2");
    m.node("Relu", {"c2"}, {"r"}, "relu");
    m.node("HardSigmoid", {"r"}, {"h2"}, "hs2");  // after a fused relu: a layer of its own, the defaults
    const Network n = import_onnx(m.save("hsig.onnx"), {}).net;
    REQUIRE(n.layers.size() == 3);
    CHECK(n.layers[0].act == Activation::HardSigmoid);
    CHECK((n.layers[0].has_alpha && n.layers[0].alpha == Approx(1.0 / 6.0) && n.layers[0].beta == Approx(0.25)));
    CHECK((n.layers[2].kind == LayerKind::Activation && n.layers[2].act == Activation::HardSigmoid));
    CHECK((n.layers[2].has_alpha && n.layers[2].alpha == Approx(0.2) && n.layers[2].beta == Approx(0.5)));
    Model bad(13);
    bad.input("x", {1, 3, 8, 8}).output("h");
    attr(bad.node("HardSigmoid", {"x"}, {"h"}, "hs"), "alpha", 1e30f);
    CHECK_THROWS_WITH(import_onnx(bad.save("hsig_bad.onnx"), {}), Catch::Contains("hs") && Catch::Contains("HardSigmoid's alpha and beta"));
}

TEST_CASE("LRN is an lrn layer with its four attributes, and Tanh, Softplus (Mish) and Elu are activations", "[import]") {
    Model m(13);
    m.input("x", {1, 3, 8, 8}).init("w", {8, 3, 3, 3}).init("w2", {8, 8, 1, 1}).output("e2");
    m.node("Conv", {"x", "w"}, {"c"}, "c1");
    m.node("Relu", {"c"}, {"r"}, "relu");
    auto& n1 = m.node("LRN", {"r"}, {"n"}, "norm1");
    attr(n1, "size", std::int64_t(5));
    attr(n1, "alpha", 2e-4f);
    attr(n1, "bias", 2.0f);
    m.node("Softplus", {"n"}, {"sp"}, "softplus");
    m.node("Tanh", {"sp"}, {"t"}, "tanh");
    m.node("Mul", {"n", "t"}, {"mish"}, "mish");
    m.node("Conv", {"mish", "w2"}, {"c2"}, "c2");
    attr(m.node("Elu", {"c2"}, {"e"}, "elu"), "alpha", 0.5f);  // fused into c2
    m.node("Elu", {"e"}, {"e2"}, "elu2");                      // ONNX's default alpha 1
    const Network n = import_onnx(m.save("lrn.onnx"), {}).net;
    REQUIRE(n.layers.size() == 7);
    const Layer& l = n.layers[1];
    CHECK((l.kind == LayerKind::Lrn && l.name == "norm1" && l.C == 8 && l.H == 6 && l.W == 6));  // a 3x3 conv without pads
    CHECK((l.lrn_size == 5 && l.alpha == Approx(2e-4) && l.beta == Approx(0.75) && l.lrn_bias == Approx(2.0)));  // beta: ONNX's default
    CHECK((n.layers[2].kind == LayerKind::Activation && n.layers[2].act == Activation::Softplus));
    CHECK((n.layers[3].kind == LayerKind::Activation && n.layers[3].act == Activation::Tanh));
    CHECK((n.layers[4].kind == LayerKind::Eltwise && n.layers[4].eltwise_op == EltwiseOp::Mul));
    CHECK((n.layers[5].act == Activation::Elu && n.layers[5].has_alpha && n.layers[5].alpha == Approx(0.5)));
    CHECK((n.layers[6].kind == LayerKind::Activation && n.layers[6].act == Activation::Elu && n.layers[6].alpha == Approx(1.0)));
    const Network back = parse_network(network_to_json(n), "back.json");
    CHECK((back.layers[1].kind == LayerKind::Lrn && back.layers[1].lrn_size == 5 && back.layers[1].lrn_bias == Approx(2.0)));
    Model nosize(13);
    nosize.input("x", {1, 3, 8, 8}).output("n");
    nosize.node("LRN", {"x"}, {"n"}, "lrn_nosize");
    CHECK_THROWS_WITH(import_onnx(nosize.save("lrn_nosize.onnx"), {}), Catch::Contains("lrn_nosize") && Catch::Contains("size 0"));
    Model neg(13);
    neg.input("x", {1, 3, 8, 8}).output("n");
    auto& nn = neg.node("LRN", {"x"}, {"n"}, "lrn_neg");
    attr(nn, "size", std::int64_t(3));
    attr(nn, "bias", -1.0f);
    CHECK_THROWS_WITH(import_onnx(neg.save("lrn_neg.onnx"), {}), Catch::Contains("lrn_neg") && Catch::Contains("LRN's alpha, beta and bias"));
}

TEST_CASE("PRelu with a constant slope fuses as leaky_relu, a computed slope is not modelled", "[import]") {
    Model m(13);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 1, 1}).init("slope", {4, 1, 1}).output("p");
    m.node("Conv", {"x", "w"}, {"c"}, "conv");
    m.node("PRelu", {"c", "slope"}, {"p"}, "prelu");
    const auto r = import_onnx(m.save("prelu.onnx"), {});
    REQUIRE(r.net.layers.size() == 1);
    CHECK((r.net.layers[0].act == Activation::LeakyRelu && !r.net.layers[0].relu));
    CHECK(r.stats.fused_act == 1);
    CHECK(!r.net.layers[0].has_alpha);  // one slope per channel: no single alpha
    Model one(13);
    one.input("x", {1, 3, 8, 8}).init("w", {4, 3, 1, 1}).floats("s1", {0.25f}, true).output("p");
    one.node("Conv", {"x", "w"}, {"c"}, "conv");
    one.node("PRelu", {"c", "s1"}, {"p"}, "prelu");
    const auto r1 = import_onnx(one.save("prelu1.onnx"), {});
    REQUIRE(r1.net.layers.size() == 1);
    CHECK((r1.net.layers[0].has_alpha && r1.net.layers[0].alpha == Approx(0.25)));
    Model g(13);
    g.input("x", {1, 4, 8, 8}).init("w", {4, 4, 1, 1}).output("p");
    g.node("Conv", {"x", "w"}, {"c"}, "conv");
    g.node("Sigmoid", {"c"}, {"s"}, "gate");
    g.node("PRelu", {"c", "s"}, {"p"}, "prelu_gated");
    CHECK_THROWS_WITH(import_onnx(g.save("prelu_gated.onnx"), {}),
                      Catch::Contains("node \"prelu_gated\" (PRelu)") && Catch::Contains("the slope is not a constant"));
}

// Found by scripts/random_networks.py: a second clamp after a fused relu stayed an "act" layer
// (which the VTA refuses) although relu after relu is relu and relu6 after relu is relu6.
TEST_CASE("Relu / Clip(0, 6) after a fused relu fuse too (the tighter clamp), after leaky_relu they stay layers", "[import]") {
    Model m(11);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 1, 1}).init("w2", {4, 4, 1, 1}).floats("lo", {0.0f}, true).floats("hi", {6.0f}, true);
    m.output("r4");
    m.node("Conv", {"x", "w"}, {"c"}, "c1");
    m.node("Relu", {"c"}, {"r1"}, "relu_a");
    m.node("Relu", {"r1"}, {"r2"}, "relu_b");
    m.node("Clip", {"r2", "lo", "hi"}, {"r3"}, "relu6");
    m.node("Relu", {"r3"}, {"r3b"}, "relu_c");
    m.node("Conv", {"r3b", "w2"}, {"c2"}, "c2");
    m.node("LeakyRelu", {"c2"}, {"l"}, "leaky");
    m.node("Relu", {"l"}, {"r4"}, "relu_d");
    const auto r = import_onnx(m.save("clamps.onnx"), {});
    const Network& n = r.net;
    REQUIRE(n.layers.size() == 3);
    CHECK((n.layers[0].kind == LayerKind::Conv && n.layers[0].act == Activation::Relu6 && n.layers[0].relu));
    CHECK((n.layers[1].kind == LayerKind::Conv && n.layers[1].act == Activation::LeakyRelu));
    CHECK((n.layers[2].kind == LayerKind::Activation && n.layers[2].act == Activation::Relu));
    CHECK(r.stats.fused_act == 5);
}

TEST_CASE("Shape subgraphs fold to constants, Flatten / Reshape are layout only", "[import]") {
    Model m;
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).init("fcw", {10, 144}).output("y");
    m.ints("idx0", {0}).ints("minus1", {-1});
    attr(m.node("Conv", {"x", "w"}, {"c"}, "conv"), "strides", std::vector<std::int64_t>{1, 1});  // 6x6
    m.node("Shape", {"c"}, {"sh"}, "shape");
    attr(m.node("Gather", {"sh", "idx0"}, {"n"}, "gather"), "axis", std::int64_t(0));
    attr(m.node("Concat", {"n", "minus1"}, {"newshape"}, "concat_shape"), "axis", std::int64_t(0));
    m.node("Reshape", {"c", "newshape"}, {"flat"}, "reshape");
    attr(m.node("Gemm", {"flat", "fcw"}, {"y"}, "fc"), "transB", std::int64_t(1));
    const auto r = import_onnx(m.save("shape.onnx"), {});
    CHECK(r.stats.folded == 3);
    REQUIRE(r.net.layers.size() == 2);
    const Layer& fc = r.net.layers[1];
    CHECK((fc.kind == LayerKind::FullyConnected && fc.C == 4 * 6 * 6 && fc.K == 10));
    CHECK(fc.inputs == std::vector<int>{0});
}

TEST_CASE("Concat, Split, channel Slice and Resize", "[import]") {
    Model m;
    m.input("x", {1, 6, 4, 4}).floats("scales", {1.0f, 1.0f, 2.0f, 2.0f}).ints("st", {1}).ints("en", {3}).ints("ax", {1});
    m.output("u").output("sl");
    auto& sp = m.node("Split", {"x"}, {"a", "b"}, "split");
    attr(sp, "axis", std::int64_t(1));
    attr(m.node("Concat", {"b", "a", "x"}, {"cat"}, "cat"), "axis", std::int64_t(1));
    m.node("Resize", {"cat", "", "scales"}, {"u"}, "up");
    m.node("Slice", {"x", "st", "en", "ax"}, {"sl"}, "chan_slice");
    const Network n = import_onnx(m.save("concat.onnx"), {}).net;
    REQUIRE(count(n, LayerKind::Slice) == 3);
    const Layer& s0 = only(n, LayerKind::Slice, 0);
    const Layer& s1 = only(n, LayerKind::Slice, 1);
    CHECK((s0.C == 6 && s0.K == 3 && s0.offset == 0 && s1.offset == 3));
    const Layer& cat = only(n, LayerKind::Concat);
    CHECK(cat.C == 12);
    REQUIRE(cat.inputs.size() == 3);
    CHECK(n.layers[std::size_t(cat.inputs[0])].name == s1.name);
    CHECK(cat.inputs[2] == Layer::kNetInput);
    const Layer& up = only(n, LayerKind::Resize);
    CHECK((up.C == 12 && up.P() == 8 && up.Q() == 8 && up.resize_mode == ResizeMode::Nearest));
    // ONNX's defaults: half_pixel, round_prefer_floor (recorded for the VTA host).
    CHECK((up.resize_coord == ResizeCoord::HalfPixel && up.nearest_round == NearestRound::RoundPreferFloor));
    const Layer& cs = only(n, LayerKind::Slice, 2);
    CHECK((cs.K == 2 && cs.offset == 1));
    CHECK(n.total_macs() == 0);
}

TEST_CASE("Resize's coordinate mode and nearest rounding are recorded, and written as \"coord\" and \"nearest\"", "[import]") {
    Model m;
    m.input("x", {1, 2, 4, 6}).ints("sz", {1, 2, 7, 9}).output("a").output("b").output("c");
    auto& a = m.node("Resize", {"x", "", "", "sz"}, {"a"}, "a");
    attr(a, "mode", std::string("linear"));
    attr(a, "coordinate_transformation_mode", std::string("align_corners"));
    auto& b = m.node("Resize", {"x", "", "", "sz"}, {"b"}, "b");
    attr(b, "coordinate_transformation_mode", std::string("asymmetric"));
    attr(b, "nearest_mode", std::string("floor"));
    auto& c = m.node("Resize", {"x", "", "", "sz"}, {"c"}, "c");
    attr(c, "coordinate_transformation_mode", std::string("tf_crop_and_resize"));  // not recorded: the VTA refuses it
    const Network n = import_onnx(m.save("resize_modes.onnx"), {}).net;
    REQUIRE(n.layers.size() == 3);
    CHECK((n.layers[0].resize_mode == ResizeMode::Linear && n.layers[0].resize_coord == ResizeCoord::AlignCorners &&
           n.layers[0].nearest_round == NearestRound::Unknown));
    CHECK((n.layers[1].resize_coord == ResizeCoord::Asymmetric && n.layers[1].nearest_round == NearestRound::Floor));
    CHECK((n.layers[2].resize_coord == ResizeCoord::Unknown && n.layers[2].P() == 7 && n.layers[2].Q() == 9));
    const auto j = network_to_json(n);
    CHECK(j["layers"][0]["coord"] == "align_corners");
    CHECK(!j["layers"][0].contains("nearest"));
    CHECK((j["layers"][1]["coord"] == "asymmetric" && j["layers"][1]["nearest"] == "floor"));
    CHECK(!j["layers"][2].contains("coord"));
    const Network back = parse_network(j, "back.json");
    CHECK((back.layers[0].resize_coord == ResizeCoord::AlignCorners && back.layers[1].nearest_round == NearestRound::Floor));
}

TEST_CASE("Pad folds into the next conv, before a pool it is a layer", "[import]") {
    Model m(13);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).ints("pads", {0, 0, 1, 2, 0, 0, 3, 4}).output("y").output("q");
    m.node("Pad", {"x", "pads"}, {"xp"}, "pad");
    m.node("Conv", {"xp", "w"}, {"y"}, "conv");
    m.node("Pad", {"x", "pads"}, {"xq"}, "pad2");
    auto& mp = m.node("MaxPool", {"xq"}, {"q"}, "pool");
    attr(mp, "kernel_shape", std::vector<std::int64_t>{2, 2});
    const auto r = import_onnx(m.save("pad.onnx"), {});
    CHECK(r.stats.fused_pad == 1);
    const Layer& c = only(r.net, LayerKind::Conv);
    CHECK((c.pad_top == 1 && c.pad_left == 2 && c.pad_bottom == 3 && c.pad_right == 4));
    CHECK((c.P() == 8 + 4 - 2 && c.Q() == 8 + 6 - 2));
    const Layer& p = only(r.net, LayerKind::Pad);
    CHECK((p.P() == 12 && p.Q() == 14));
    CHECK(only(r.net, LayerKind::Pool).H == 12);

    Model z(13);  // all-zero pads (as exported before DenseNet's pools): removed
    z.input("x", {1, 3, 8, 8}).ints("pads", {0, 0, 0, 0, 0, 0, 0, 0}).output("q");
    z.node("Pad", {"x", "pads"}, {"xp"}, "nopad");
    attr(z.node("MaxPool", {"xp"}, {"q"}, "pool"), "kernel_shape", std::vector<std::int64_t>{2, 2});
    const auto rz = import_onnx(z.save("zpad.onnx"), {});
    REQUIRE(rz.net.layers.size() == 1);
    CHECK(rz.net.layers[0].inputs == std::vector<int>{Layer::kNetInput});
}

// Swin Transformer's padding to a multiple of the window, as torch.onnx exports F.pad with pads
// computed from the map: (window - W % window) % window, the pad list reshaped to [axes, 2],
// transposed and flattened. Mod and Transpose fold like the other shape arithmetic (they did not:
// the pads stayed unknown, and an empty Slice behind them was blamed for the import's failure).
TEST_CASE("Shape arithmetic with Mod (fmod 0 and 1) and Transpose folds into the pads of a conv", "[import]") {
    Model m(13);
    m.input("x", {1, 3, 10, 9}).init("w", {4, 3, 3, 3}).output("y");
    m.ints("idx3", {3}).ints("four", {4}).ints("minus7", {-7}).ints("zeros", {0, 0, 0, 0}).ints("zero", {0});
    m.ints("rows", {4, 2}).ints("flat", {-1});
    m.node("Shape", {"x"}, {"sh"}, "shape");
    attr(m.node("Gather", {"sh", "idx3"}, {"wdim"}, "gather_w"), "axis", std::int64_t(0));  // [9]
    m.node("Mod", {"wdim", "four"}, {"wmod"}, "w_mod");                                   // 9 mod 4 = 1
    m.node("Sub", {"four", "wmod"}, {"wsub"}, "w_sub");                                   // 3
    m.node("Mod", {"wsub", "four"}, {"pr"}, "pad_right");                                 // 3 mod 4 = 3
    m.node("Mod", {"minus7", "four"}, {"pb"}, "pad_bottom");  // fmod 0: the divisor's sign, -7 mod 4 = 1
    attr(m.node("Mod", {"minus7", "four"}, {"ptn"}, "pad_top_neg"), "fmod", std::int64_t(1));  // C fmod: -3
    m.node("Abs", {"ptn"}, {"pt"}, "pad_top");                                            // 3
    // [N begin, N end, C begin, C end, H begin, H end, W begin, W end] as [4, 2], transposed to
    // ONNX's order [begins..., ends...].
    attr(m.node("Concat", {"zeros", "pt", "pb", "zero", "pr"}, {"pairs"}, "pairs"), "axis", std::int64_t(0));
    m.node("Reshape", {"pairs", "rows"}, {"pairs2"}, "pairs_2d");
    attr(m.node("Transpose", {"pairs2"}, {"pairs_t"}, "pairs_t"), "perm", std::vector<std::int64_t>{1, 0});
    m.node("Reshape", {"pairs_t", "flat"}, {"pads"}, "pads");
    m.node("Pad", {"x", "pads"}, {"xp"}, "pad");
    m.node("Conv", {"xp", "w"}, {"y"}, "conv");
    const auto r = import_onnx(m.save("modpad.onnx"), {});
    CHECK(r.stats.fused_pad == 1);
    REQUIRE(r.net.layers.size() == 1);
    const Layer& c = only(r.net, LayerKind::Conv);
    CHECK((c.pad_top == 3 && c.pad_bottom == 1 && c.pad_left == 0 && c.pad_right == 3));
    CHECK((c.P() == 10 + 3 + 1 - 2 && c.Q() == 9 + 0 + 3 - 2));

    // Floating-point Mod: fmod 1 is C's fmod(-7.5, 2) = -1.5, fmod 0 numpy's mod(-7.5, 2) = 0.5;
    // |-1.5| and 0.5 rounded up pad the left and the right by 2 and 1.
    Model f(13);
    f.input("x", {1, 3, 10, 9}).init("w", {4, 3, 3, 3}).output("y");
    f.floats("a", {-7.5f}).floats("two", {2.0f}).ints("zero", {0});
    attr(f.node("Mod", {"a", "two"}, {"m1"}, "fmod1"), "fmod", std::int64_t(1));
    f.node("Abs", {"m1"}, {"m1a"}, "abs");
    f.node("Ceil", {"m1a"}, {"m1c"}, "ceil1");
    f.node("Mod", {"a", "two"}, {"m0"}, "fmod0");
    f.node("Ceil", {"m0"}, {"m0c"}, "ceil0");
    attr(f.node("Cast", {"m1c"}, {"pl"}, "cast_l"), "to", std::int64_t(onnx::TensorProto::INT64));
    attr(f.node("Cast", {"m0c"}, {"prr"}, "cast_r"), "to", std::int64_t(onnx::TensorProto::INT64));
    // [N, C, H begins, W begin = pl, N, C, H ends, W end = prr]
    attr(f.node("Concat", {"zero", "zero", "zero", "pl", "zero", "zero", "zero", "prr"}, {"fpads"}, "fpads"), "axis",
         std::int64_t(0));
    f.node("Pad", {"x", "fpads"}, {"xp"}, "pad");
    f.node("Conv", {"xp", "w"}, {"y"}, "conv");
    const auto rf = import_onnx(f.save("fmodpad.onnx"), {});
    const Layer& cf = only(rf.net, LayerKind::Conv);
    CHECK((cf.pad_left == 2 && cf.pad_right == 1 && cf.pad_top == 0 && cf.pad_bottom == 0));

    // A perm that is not a permutation of the axes: an input error naming the node (ONNX's shape
    // inference finds it before the folding, which checks it too).
    Model bad(13);
    bad.input("x", {1, 3, 4, 4}).output("y").ints("shape2", {2, 2}).ints("v", {1, 2, 3, 4});
    bad.node("Reshape", {"v", "shape2"}, {"v2"}, "v2");
    attr(bad.node("Transpose", {"v2"}, {"vt"}, "bad_perm"), "perm", std::vector<std::int64_t>{0, 0});
    bad.node("Reshape", {"x", "vt"}, {"y"}, "reshape");
    CHECK_THROWS_WITH(import_onnx(bad.save("badperm.onnx"), {}),
                      Catch::Contains("bad_perm") && Catch::Contains("perm"));
}

TEST_CASE("DepthToSpace and SpaceToDepth: a YOLOv2 passthrough and a pixel shuffle", "[import]") {
    // YOLOv2's passthrough: the 26 x 26 map reorganised to 13 x 13 with four times the channels,
    // concatenated with the deeper path; a super-resolution head: 3 x 9 channels to 3 x 3 times the
    // map (PyTorch's PixelShuffle exports as DepthToSpace CRD). By hand: 16 x 26 x 26 -> 64 x 13 x 13;
    // 27 x 13 x 13 -> 3 x 39 x 39.
    Model m(13);
    m.input("x", {1, 16, 26, 26}).init("w1", {32, 16, 3, 3}).init("w2", {27, 96, 3, 3}).output("y");
    attr(m.node("SpaceToDepth", {"x"}, {"r"}, "reorg"), "blocksize", std::int64_t(2));
    onnx::NodeProto& c1 = m.node("Conv", {"x", "w1"}, {"d"}, "deep");
    attr(c1, "strides", std::vector<std::int64_t>{2, 2});
    attr(c1, "pads", std::vector<std::int64_t>{1, 1, 1, 1});
    attr(m.node("Concat", {"r", "d"}, {"cat"}, "route"), "axis", std::int64_t(1));
    attr(m.node("Conv", {"cat", "w2"}, {"sr"}, "head"), "pads", std::vector<std::int64_t>{1, 1, 1, 1});
    onnx::NodeProto& ps = m.node("DepthToSpace", {"sr"}, {"y"}, "shuffle");
    attr(ps, "blocksize", std::int64_t(3));
    attr(ps, "mode", std::string("CRD"));
    const auto r = import_onnx(m.save("space_depth.onnx"), {});
    const Layer& s2d = only(r.net, LayerKind::SpaceToDepth);
    CHECK((s2d.name == "reorg" && s2d.block == 2 && s2d.K == 64 && s2d.P() == 13 && s2d.Q() == 13 && s2d.macs() == 0));
    CHECK(only(r.net, LayerKind::Concat).C == 96);
    const Layer& d2s = only(r.net, LayerKind::DepthToSpace);
    CHECK((d2s.block == 3 && d2s.crd && d2s.K == 3 && d2s.P() == 39 && d2s.Q() == 39));
    CHECK(r.net.total_macs() == 32ull * 16 * 9 * 13 * 13 + 27ull * 96 * 9 * 13 * 13);
    const Network back = parse_network(nlohmann::json::parse(network_to_json(r.net).dump()), "round trip");
    CHECK((only(back, LayerKind::DepthToSpace).crd && only(back, LayerKind::SpaceToDepth).block == 2));
}


TEST_CASE("YOLO detection heads: rank-5 views, strided slices, splits and concats along H and W, Pow by 2", "[import]") {
    const auto r = import_onnx(test_onnx::yolov5_head().save("yolov5_head.onnx"), {});
    const Network& n = r.net;
    auto at = [&](const std::string& name) -> const Layer& {
        for (const Layer& l : n.layers)
            if (l.name == name) return l;
        FAIL("no layer " << name);
        return n.layers[0];
    };
    // Focus, by hand: one Slice over H and W is two chained slice layers (rows, then columns).
    const Layer& f00r = at("focus00:axis2");
    CHECK((f00r.kind == LayerKind::Slice && f00r.data_axis == SoftmaxAxis::H && f00r.offset == 0 && f00r.slice_step == 2 &&
           f00r.C == 4 && f00r.H == 8 && f00r.W == 8 && f00r.P() == 4 && f00r.Q() == 8 && f00r.inputs == std::vector<int>{Layer::kNetInput}));
    const Layer& f11 = at("focus11");
    CHECK((f11.data_axis == SoftmaxAxis::W && f11.offset == 1 && f11.slice_step == 2 && f11.H == 4 && f11.W == 8 && f11.K == 4 &&
           f11.P() == 4 && f11.Q() == 4 && n.layers[std::size_t(f11.inputs[0])].name == "focus11:axis2"));
    CHECK((at("focus10").data_axis == SoftmaxAxis::W && at("focus10").offset == 1 && at("rows1").offset == 1));
    CHECK((at("focus").data_axis == SoftmaxAxis::C && at("focus").C == 16 && at("focus").H == 4));
    // The head: [1, 3, 4, 4, 7] is C = 12, H = 4, W = 7; the split is three slices along W.
    const Layer& sg = at("sigmoid");
    CHECK((sg.kind == LayerKind::Activation && sg.C == 12 && sg.H == 4 && sg.W == 7));
    const Layer& xy = at("split:0");
    const Layer& conf = at("split:2");
    CHECK((xy.data_axis == SoftmaxAxis::W && xy.offset == 0 && xy.Q() == 2 && xy.K == 12 && xy.P() == 4));
    CHECK((conf.data_axis == SoftmaxAxis::W && conf.offset == 4 && conf.Q() == 3));
    const Layer& pw = at("wh_pow");
    CHECK((pw.kind == LayerKind::Eltwise && pw.eltwise_op == EltwiseOp::Mul && pw.inputs.size() == 2 && pw.inputs[0] == pw.inputs[1]));
    CHECK((at("xy_grid").kind == LayerKind::Eltwise && at("xy_grid").inputs.size() == 1 && at("xy_grid").W == 2));
    const Layer& join = at("join");
    CHECK((join.kind == LayerKind::Concat && join.data_axis == SoftmaxAxis::W && join.C == 12 && join.H == 4 && join.W == 7));
    CHECK(n.total_macs() == 8ull * 16 * 16 + 21ull * 8 * 16);
    // The workload keeps the axes, steps and counts.
    const Network back = parse_network(nlohmann::json::parse(network_to_json(n).dump()), "round trip");
    CHECK(network_to_json(back).dump() == network_to_json(n).dump());

    // YOLOv8's head joins the three scales' [1, C, H W] along the positions (axis 2: H of N x C x L).
    Model m8(13);
    m8.input("a", {1, 10, 4, 4}).input("b", {1, 10, 2, 2}).output("box").output("cls");
    m8.ints("fa", {1, 10, 16}).ints("fb", {1, 10, 4}).ints("parts", {4, 6});
    m8.node("Reshape", {"a", "fa"}, {"a3"}, "view_a");
    m8.node("Reshape", {"b", "fb"}, {"b3"}, "view_b");
    attr(m8.node("Concat", {"a3", "b3"}, {"cat"}, "cat"), "axis", std::int64_t(2));
    attr(m8.node("Split", {"cat", "parts"}, {"box", "cls0"}, "split"), "axis", std::int64_t(1));
    m8.node("Sigmoid", {"cls0"}, {"cls"}, "sigmoid");
    const auto r8 = import_onnx(m8.save("yolov8_cat.onnx"), {});
    const Layer& cat = only(r8.net, LayerKind::Concat);
    CHECK((cat.data_axis == SoftmaxAxis::H && cat.C == 10 && cat.H == 20 && cat.W == 1));
    CHECK((r8.net.layers.at(1).data_axis == SoftmaxAxis::C && r8.net.layers.at(1).K == 4 && r8.net.layers.at(2).offset == 4));

    // Refused, naming the node: a join along an inner axis of the merged channels (its positions
    // interleave), powers other than 2, reversed slices, a softmax over a rank-5 tensor.
    Model bad(13);
    bad.input("x", {1, 3, 4, 4, 7}).input("z", {1, 3, 4, 4, 7}).output("a").output("b").output("c").output("d");
    bad.floats("three", {3.0f}, true).ints("s", {6}).ints("e", {-1000}).ints("ax", {4}).ints("st", {-1});
    attr(bad.node("Concat", {"x", "z"}, {"a"}, "inner_cat"), "axis", std::int64_t(2));
    bad.node("Pow", {"x", "three"}, {"b"}, "cube");
    bad.node("Slice", {"x", "s", "e", "ax", "st"}, {"c"}, "reverse");
    attr(bad.node("Softmax", {"z"}, {"d"}, "softmax5"), "axis", std::int64_t(-1));
    try {
        (void)import_onnx(bad.save("yolo_bad.onnx"), {});
        FAIL("imported");
    } catch (const vp::InputError& e) {
        const std::string msg = e.what();
        CHECK_THAT(msg, Catch::Contains("\"inner_cat\" (Concat): concat along axis 2"));
        CHECK_THAT(msg, Catch::Contains("\"cube\" (Pow): exponent 3"));
        CHECK_THAT(msg, Catch::Contains("\"reverse\" (Slice): a slice with step -1"));
        CHECK_THAT(msg, Catch::Contains("\"softmax5\" (Softmax)"));
    }
}

TEST_CASE("Pad's mode and constant value are the pad layer's", "[import]") {
    // Reflect and edge pads (style-transfer networks pad with reflect before each conv) are layers
    // with their mode, even before a convolution; a constant pad keeps its value; a zero constant pad
    // before a conv still folds into it.
    Model m(13);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).ints("pads", {0, 0, 1, 1, 0, 0, 1, 1}).floats("v", {1.25f}, true);
    m.floats("ninf", {-std::numeric_limits<float>::infinity()}, true);
    m.output("a").output("b").output("c").output("d");
    attr(m.node("Pad", {"x", "pads"}, {"xr"}, "reflect"), "mode", std::string("reflect"));
    m.node("Conv", {"xr", "w"}, {"a"}, "conv");
    attr(m.node("Pad", {"x", "pads"}, {"b"}, "edge"), "mode", std::string("edge"));
    m.node("Pad", {"x", "pads", "v"}, {"c"}, "const");
    m.node("Pad", {"x", "pads", "ninf"}, {"d"}, "ninf");  // before a max pool: -inf, recorded as -1e9
    const auto r = import_onnx(m.save("pad_modes.onnx"), {});
    CHECK(r.stats.fused_pad == 0);
    std::map<std::string, const Layer*> by;
    for (const auto& l : r.net.layers) by[l.name] = &l;
    REQUIRE((by.count("reflect") && by.count("edge") && by.count("const") && by.count("ninf")));
    CHECK((by["reflect"]->pad_mode == vp::mapper::PadMode::Reflect && by["reflect"]->P() == 10));
    CHECK(by["edge"]->pad_mode == vp::mapper::PadMode::Edge);
    CHECK((by["const"]->pad_mode == vp::mapper::PadMode::Constant && by["const"]->pad_value == 1.25));
    CHECK(by["ninf"]->pad_value == -1e9);
    CHECK(by["conv"]->pad_top == 0);
    const Network back = parse_network(nlohmann::json::parse(network_to_json(r.net).dump()), "round trip");
    for (const auto& l : back.layers)
        if (l.kind == LayerKind::Pad) CHECK((l.pad_mode == by[l.name]->pad_mode && l.pad_value == by[l.name]->pad_value));
    Model w(13);  // "wrap" (opset 19) is not modelled
    w.input("x", {1, 3, 8, 8}).ints("pads", {0, 0, 1, 1, 0, 0, 1, 1}).output("y");
    attr(w.node("Pad", {"x", "pads"}, {"y"}, "wrap"), "mode", std::string("wrap"));
    CHECK_THROWS_WITH(import_onnx(w.save("pad_wrap.onnx"), {}), Catch::Contains("node \"wrap\" (Pad)") && Catch::Contains("mode \"wrap\""));
}

TEST_CASE("MatMul with constant weights: fc, or a 1x1 conv over rows, two activations are unsupported", "[import]") {
    Model m;
    m.input("x", {1, 7, 16}).init("w", {16, 32}).output("y").output("z");
    m.node("MatMul", {"x", "w"}, {"y"}, "proj");
    m.node("MatMul", {"y", "yt"}, {"z"}, "attn");
    attr(m.node("Transpose", {"y"}, {"yt"}, "t"), "perm", std::vector<std::int64_t>{0, 2, 1});
    // Transpose after its reader in the file: the importer orders the graph itself.
    try {
        import_onnx(m.save("mm.onnx"), {});
        FAIL("no error");
    } catch (const vp::InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("node \"attn\" (MatMul)") && Catch::Contains("two activations"));
    }
    ImportOptions o;
    o.allow_unsupported = true;
    const auto r = import_onnx(m.save("mm.onnx"), o);
    const Layer& l = r.net.layers.at(0);
    CHECK((l.kind == LayerKind::Conv && l.C == 16 && l.K == 32 && l.H == 7 && l.W == 1 && l.R == 1));
    CHECK(l.macs() == 7ull * 16 * 32);
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].name == "attn");
}

TEST_CASE("A ConvNeXt block: channels-last LayerNormalization, MatMul over the map and an erf GELU", "[import]") {
    // torchvision's ConvNeXt block as exported at opset 17: depthwise 7x7 conv (NCHW), permute to
    // NHWC, LayerNormalization over the last axis, Linear 8 -> 32 (MatMul on [1, 6, 5, 8]), GELU as
    // x * (1 + erf(x / sqrt 2)) * 0.5, Linear 32 -> 8, permute back. By hand: the pointwise layers
    // are 1x1 convs over the 6 x 5 map, 6 * 5 * 8 * 32 MACs each; the depthwise conv 8 * 49 * 30.
    Model m(17);
    m.input("x", {1, 8, 6, 5}).init("dw", {8, 1, 7, 7}).init("g", {8}).init("b", {8});
    m.init("w1", {8, 32}).init("w2", {32, 8}).floats("r2", {1.41421356f}, true).floats("one", {1.0f}, true);
    m.floats("half", {0.5f}, true).output("y");
    onnx::NodeProto& dw = m.node("Conv", {"x", "dw"}, {"c"}, "dwconv");
    attr(dw, "group", std::int64_t(8));
    attr(dw, "pads", std::vector<std::int64_t>{3, 3, 3, 3});
    attr(m.node("Transpose", {"c"}, {"t"}, "to_nhwc"), "perm", std::vector<std::int64_t>{0, 2, 3, 1});
    attr(m.node("LayerNormalization", {"t", "g", "b"}, {"ln"}, "norm"), "axis", std::int64_t(-1));
    m.node("MatMul", {"ln", "w1"}, {"h"}, "pw1");
    m.node("Div", {"h", "r2"}, {"hd"}, "gelu_div");
    m.node("Erf", {"hd"}, {"e"}, "gelu_erf");
    m.node("Add", {"e", "one"}, {"e1"}, "gelu_add");
    m.node("Mul", {"h", "e1"}, {"hm"}, "gelu_mul");
    m.node("Mul", {"hm", "half"}, {"g2"}, "gelu_half");
    m.node("MatMul", {"g2", "w2"}, {"p"}, "pw2");
    attr(m.node("Transpose", {"p"}, {"y"}, "to_nchw"), "perm", std::vector<std::int64_t>{0, 3, 1, 2});
    const auto r = import_onnx(m.save("convnext_block.onnx"), {});
    const Network& n = r.net;
    CHECK(count(n, LayerKind::LayerNorm) == 1);
    const Layer& ln = only(n, LayerKind::LayerNorm);
    CHECK(ln.input_elems() == 8u * 6 * 5);
    CHECK(n.layers[std::size_t(ln.inputs.at(0))].name == "dwconv");
    // Over the channels of the channels-last map: in the depthwise conv's C x H x W, over C; the
    // node's epsilon (ONNX's default).
    CHECK((ln.C == 8 && ln.H == 6 && ln.W == 5 && ln.norm_axis == vp::mapper::SoftmaxAxis::C));
    CHECK(ln.norm_eps == Approx(1e-5).epsilon(1e-6));
    const Layer& pw1 = only(n, LayerKind::Conv, 1);
    CHECK((pw1.name == "pw1" && pw1.C == 8 && pw1.K == 32 && pw1.H == 6 && pw1.W == 5 && pw1.R == 1));
    CHECK(pw1.macs() == 6ull * 5 * 8 * 32);
    CHECK(n.layers[std::size_t(pw1.inputs.at(0))].kind == LayerKind::LayerNorm);
    const Layer& pw2 = only(n, LayerKind::Conv, 2);
    CHECK((pw2.C == 32 && pw2.K == 8 && pw2.H == 6 && pw2.W == 5));
    CHECK(n.total_macs() == 8ull * 49 * 30 + 2 * 6ull * 5 * 8 * 32);
    // The erf fuses into the division before it (an eltwise layer); the GELU's other operations
    // stay eltwise layers of 32 x 6 x 5 elements.
    CHECK(only(n, LayerKind::Eltwise).act == Activation::Erf);
    CHECK(count(n, LayerKind::Eltwise) == 4);
    CHECK(r.stats.fused_act == 1);
    // The workload round trip keeps the new kind and activation.
    const Network back = parse_network(nlohmann::json::parse(network_to_json(n).dump()), "round trip");
    CHECK(back.layers.at(1).kind == LayerKind::LayerNorm);
    CHECK((back.layers.at(1).norm_axis == vp::mapper::SoftmaxAxis::C && back.layers.at(1).norm_eps == ln.norm_eps));
    CHECK(only(back, LayerKind::Eltwise).act == Activation::Erf);
}

TEST_CASE("LayerNorm decomposed below opset 17 (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div) is one layernorm", "[import]") {
    // torch.nn.LayerNorm at opset 14: y = (x - mean) / sqrt(mean((x - mean)^2) + eps) * g + b over
    // the last axis; the same layer as LayerNormalization, the scale and shift folded into it. Also
    // with the square written as Mul(d, d). A ReduceMean over the last axis that is not a layer
    // norm (here followed by Relu) stays unsupported.
    for (const bool mul_square : {false, true}) {
        Model m(14);
        m.input("x", {1, 5, 4, 6}).init("g", {6}).init("b", {6}).floats("two", {2.0f}, true).floats("eps", {1e-6f}, true);
        m.output("y");
        attr(m.node("ReduceMean", {"x"}, {"mu"}, "ln_mean"), "axes", std::vector<std::int64_t>{-1});
        m.node("Sub", {"x", "mu"}, {"d"}, "ln_sub");
        if (mul_square) m.node("Mul", {"d", "d"}, {"d2"}, "ln_sq");
        else m.node("Pow", {"d", "two"}, {"d2"}, "ln_sq");
        attr(m.node("ReduceMean", {"d2"}, {"var"}, "ln_var"), "axes", std::vector<std::int64_t>{3});
        m.node("Add", {"var", "eps"}, {"ve"}, "ln_eps");
        m.node("Sqrt", {"ve"}, {"sd"}, "ln_sqrt");
        m.node("Div", {"d", "sd"}, {"nx"}, "ln_div");
        m.node("Mul", {"nx", "g"}, {"sc"}, "ln_scale");
        m.node("Add", {"sc", "b"}, {"y"}, "ln_shift");
        const auto r = import_onnx(m.save("ln_decomposed.onnx"), {});
        REQUIRE(r.net.layers.size() == 1);
        const Layer& l = r.net.layers[0];
        CHECK((l.kind == LayerKind::LayerNorm && l.name == "ln_mean" && l.input_elems() == 5u * 4 * 6));
        CHECK(l.inputs == std::vector<int>{Layer::kNetInput});
        // Over the last axis of an N x C x H x W tensor: W; the Add's constant is the epsilon.
        CHECK((l.norm_axis == vp::mapper::SoftmaxAxis::W && l.norm_eps == Approx(1e-6).epsilon(1e-6)));
        CHECK(r.stats.fused_bias == 2);
    }
    Model m(14);
    m.input("x", {1, 5, 4, 6}).output("y");
    attr(m.node("ReduceMean", {"x"}, {"mu"}, "mean_only"), "axes", std::vector<std::int64_t>{-1});
    m.node("Relu", {"mu"}, {"y"}, "relu");
    CHECK_THROWS_WITH(import_onnx(m.save("mean_only.onnx"), {}),
                      Catch::Contains("node \"mean_only\" (ReduceMean)") && Catch::Contains("LayerNorm decomposition"));
}

TEST_CASE("LayerNormalization's and InstanceNormalization's axes and epsilon as the layer's", "[import]") {
    // By hand: on [2, 4, 3, 5] (N, C, H, W) LayerNormalization from axis 1 spans C, H, W; from 2 H
    // and W; from 3 (or -1) W. InstanceNormalization normalises each channel over H x W (rank 4) or
    // over L (rank 3: H = L, W = 1). Epsilon as given, ONNX's 1e-5 when absent; 0 is refused.
    using vp::mapper::SoftmaxAxis;
    for (auto [axis, want] : {std::pair{1, SoftmaxAxis::CHW}, {2, SoftmaxAxis::HW}, {3, SoftmaxAxis::W}, {-1, SoftmaxAxis::W}, {-3, SoftmaxAxis::CHW}}) {
        Model m(17);
        m.input("x", {2, 4, 3, 5}).init("g", {5}).init("b", {5}).output("y");
        onnx::NodeProto& ln = m.node("LayerNormalization", {"x", "g", "b"}, {"y"}, "ln");
        attr(ln, "axis", std::int64_t(axis));
        attr(ln, "epsilon", 0.25f);
        const Layer l = import_onnx(m.save("ln_axes.onnx"), {}).net.layers.at(0);
        INFO("axis " << axis);
        CHECK((l.C == 4 && l.H == 3 && l.W == 5 && l.norm_axis == want && l.norm_eps == 0.25));
    }
    for (const bool rank3 : {false, true}) {
        Model m(17);
        m.input("x", rank3 ? test_onnx::Dims{1, 6, 7} : test_onnx::Dims{1, 6, 4, 7}).init("s", {6}).init("b", {6}).output("y");
        onnx::NodeProto& in = m.node("InstanceNormalization", {"x", "s", "b"}, {"y"}, "inorm");
        if (rank3) attr(in, "epsilon", 0.01f);
        const auto r = import_onnx(m.save("instnorm.onnx"), {});
        REQUIRE(r.net.layers.size() == 1);
        const Layer& l = r.net.layers[0];
        CHECK((l.kind == LayerKind::LayerNorm && l.name == "inorm" && l.C == 6 && l.H == (rank3 ? 7 : 4) && l.W == (rank3 ? 1 : 7)));
        CHECK(l.norm_axis == SoftmaxAxis::HW);
        CHECK(l.norm_eps == Approx(rank3 ? 0.01 : 1e-5).epsilon(1e-6));
        // Written and read back with its axis and epsilon.
        const Network back = parse_network(nlohmann::json::parse(network_to_json(r.net).dump()), "round trip");
        CHECK((back.layers.at(0).norm_axis == SoftmaxAxis::HW && back.layers.at(0).norm_eps == l.norm_eps));
    }
    // A zero epsilon divides a constant group by zero; a computed scale is not modelled.
    for (const bool zero_eps : {true, false}) {
        Model m(17);
        m.input("x", {1, 3, 4, 4}).init("b", {3}).output("y");
        if (zero_eps) m.init("s", {3});
        else m.input("s", {3});
        onnx::NodeProto& in = m.node("InstanceNormalization", {"x", "s", "b"}, {"y"}, "inorm");
        if (zero_eps) attr(in, "epsilon", 0.0f);
        CHECK_THROWS_WITH(import_onnx(m.save("instnorm_bad.onnx"), {}),
                          Catch::Contains("node \"inorm\" (InstanceNormalization)") &&
                              Catch::Contains(zero_eps ? "an epsilon of 0" : "not a constant"));
    }
}

TEST_CASE("A constant Mul after a layernorm folds into it only when it keeps the element count", "[import]") {
    // [1, 4, 3] * [1, 4, 1, 3] broadcasts to [1, 4, 4, 3]: four times the elements, a layer of its own.
    for (const bool widening : {false, true}) {
        Model m(17);
        m.input("x", {1, 4, 3}).init("g", {3}).init("b", {3}).output("y");
        m.init("k", widening ? test_onnx::Dims{1, 4, 1, 3} : test_onnx::Dims{3});
        m.node("LayerNormalization", {"x", "g", "b"}, {"ln"}, "norm");
        m.node("Mul", {"ln", "k"}, {"y"}, "scale");
        const auto r = import_onnx(m.save("ln_mul.onnx"), {});
        CHECK(r.net.layers.size() == (widening ? 2u : 1u));
        CHECK(r.stats.fused_bias == (widening ? 0u : 1u));
    }
}

TEST_CASE("LayerNormalization: training outputs, a computed scale and the batch axis are refused", "[import]") {
    auto build = [](int axis, bool mean_out, bool computed_scale) {
        Model m(17);
        m.input("x", {1, 4, 3, 3}).init("b", {3}).output("y");
        if (computed_scale) {
            m.input("g", {3});
        } else {
            m.init("g", {3});
        }
        std::vector<std::string> outs{"y"};
        if (mean_out) {
            outs.push_back("mu");
            m.output("mu");
        }
        attr(m.node("LayerNormalization", {"x", "g", "b"}, outs, "ln"), "axis", std::int64_t(axis));
        return m;
    };
    CHECK(import_onnx(build(-1, false, false).save("ln_ok.onnx"), {}).net.layers.at(0).kind == LayerKind::LayerNorm);
    // An axis outside the rank: libonnx 1.12's own inference would read past the shape (found by fuzzing).
    CHECK_THROWS_WITH(import_onnx(build(9, false, false).save("ln_axis.onnx"), {}),
                      Catch::Contains("LayerNormalization: attribute axis is 9, outside [-4, 3]"));
    {
        // A scalar input with the default axis -1 and the training outputs: libonnx 1.12 writes
        // the mean's dim -1 (a crash, found by fuzzing).
        Model s(17);
        s.input("x", {}).init("g", {1}).init("b", {1}).output("y").output("mu").output("inv");
        s.node("LayerNormalization", {"x", "g", "b"}, {"y", "mu", "inv"}, "ln");
        CHECK_THROWS_WITH(import_onnx(s.save("ln_scalar.onnx"), {}), Catch::Contains("LayerNormalization: the input has rank 0"));
    }
    for (auto [m, what] : {std::pair{build(0, false, false), "batch axis"}, std::pair{build(-1, true, false), "inverse deviation output"},
                           std::pair{build(-1, false, true), "not a constant"}}) {
        try {
            import_onnx(m.save("ln_bad.onnx"), {});
            FAIL("no error for " << what);
        } catch (const vp::InputError& e) {
            CHECK_THAT(e.what(), Catch::Contains("node \"ln\" (LayerNormalization)") && Catch::Contains(what));
        }
    }
}

TEST_CASE("Quantized operators: precision from the tensor types", "[import]") {
    Model m(10);
    m.input("x", {1, 3, 8, 8}, onnx::TensorProto::UINT8).output("y", onnx::TensorProto::UINT8);
    m.init("w", {4, 3, 3, 3}, onnx::TensorProto::UINT8).floats("xs", {0.1f}, true).floats("ws", {0.1f}, true).floats("ys", {0.1f}, true);
    m.init("xz", {}, onnx::TensorProto::UINT8).init("wz", {}, onnx::TensorProto::UINT8).init("yz", {}, onnx::TensorProto::UINT8);
    m.init("bias", {4}, onnx::TensorProto::INT32);
    m.node("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"}, {"y"}, "qconv");
    ImportOptions o;
    o.need_values = true;
    const auto r = import_onnx(m.save("qconv.onnx"), o);
    CHECK(r.stats.quantized);
    CHECK(r.net.precision_bits == 8);
    REQUIRE(r.values.size() == 1);
    CHECK(r.values[0].weights.size() == 4u * 27);
    CHECK(r.values[0].bias.size() == 4u);
    o.precision = 16;
    CHECK_THROWS_WITH(import_onnx(m.save("qconv.onnx"), o), Catch::Contains("quantized to 8-bit") && Catch::Contains("--precision 16"));
    ImportOptions f;
    f.precision = 16;
    CHECK(import_onnx(VP_SOURCE_DIR "/tests/data/onnx/alexnet.onnx", f).net.precision_bits == 16);  // a float model
}

TEST_CASE("Unsupported operators: every node listed with name and op type, --allow-unsupported skips them", "[import]") {
    Model m;
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).output("z");
    m.node("Conv", {"x", "w"}, {"c"}, "conv");
    m.node("Sin", {"c"}, {"t"}, "sin_1");
    m.node("Cos", {"t"}, {"e"}, "cos_2");
    m.node("Relu", {"e"}, {"z"}, "relu");
    try {
        import_onnx(m.save("unsup.onnx"), {});
        FAIL("no error");
    } catch (const vp::InputError& e) {
        const std::string s = e.what();
        CHECK(s.find("2 unsupported node(s)") != std::string::npos);
        CHECK(s.find("node \"sin_1\" (Sin)") != std::string::npos);
        CHECK(s.find("node \"cos_2\" (Cos)") != std::string::npos);
    }
    ImportOptions o;
    o.allow_unsupported = true;
    const auto r = import_onnx(m.save("unsup.onnx"), o);
    REQUIRE(r.skipped.size() == 2);
    CHECK(r.summary().find("skipped node \"cos_2\" (Cos)") != std::string::npos);
    const auto doc = r.workload_json();
    REQUIRE(doc["skipped"].size() == 2);
    CHECK(doc["skipped"][0]["op"] == "Sin");
    // The relu after the skipped nodes: a layer fed by the conv (same element count).
    const Layer& relu = only(r.net, LayerKind::Activation);
    CHECK(relu.inputs == std::vector<int>{0});
}

TEST_CASE("Unknown operators and other domains: listed, nodes after them are not blamed", "[import]") {
    Model m;
    auto* ms = m.m.add_opset_import();
    ms->set_domain("com.microsoft");
    ms->set_version(1);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).output("y");
    m.node("Conv", {"x", "w"}, {"c"}, "conv");
    m.node("FooBar", {"c"}, {"t"}, "foo");  // no schema: shape inference cannot size "t"
    m.node("FusedGemm", {"t"}, {"u"}, "ms").set_domain("com.microsoft");
    m.node("Relu", {"u"}, {"y"}, "relu");
    try {
        import_onnx(m.save("unknown.onnx"), {});
        FAIL("no error");
    } catch (const vp::InputError& e) {
        const std::string s = e.what();
        CHECK(s.find("2 unsupported node(s)") != std::string::npos);
        CHECK(s.find("node \"foo\" (FooBar): operator not modelled") != std::string::npos);
        CHECK(s.find("node \"ms\" (FusedGemm): operator of the domain \"com.microsoft\"") != std::string::npos);
        CHECK(s.find("and 1 node(s) after them") != std::string::npos);
        CHECK(s.find("\"relu\"") == std::string::npos);
    }
    ImportOptions o;
    o.allow_unsupported = true;
    const auto r = import_onnx(m.save("unknown.onnx"), o);
    CHECK(r.net.layers.size() == 1);
    REQUIRE(r.skipped.size() == 3);
    CHECK(r.skipped[2].follows_skipped);
}

TEST_CASE("Dynamic shapes need --input-shape or --batch, batch becomes layer copies", "[import]") {
    Model m;
    m.input("x", {-1, 3, 8, 8}).init("w", {4, 3, 3, 3}).output("y");
    m.node("Conv", {"x", "w"}, {"y"}, "conv");
    const std::string p = m.save("dyn.onnx");
    CHECK_THROWS_WITH(import_onnx(p, {}), Catch::Contains("input \"x\"") && Catch::Contains("dynamic dimension \"N\"") &&
                                              Catch::Contains("--input-shape"));
    ImportOptions o;
    o.batch = 3;
    const auto r = import_onnx(p, o);
    CHECK(r.net.batch == 3);
    const Network e = expand_batch(r.net);
    REQUIRE(e.layers.size() == 3);
    CHECK(e.layers[2].name == "conv@b2");
    CHECK(e.total_macs() == 3 * r.net.total_macs());
    ImportOptions s;
    s.input_shapes["x"] = {1, 3, 16, 16};
    CHECK(import_onnx(p, s).net.layers[0].P() == 14);
    s.input_shapes = {{"image", {1, 3, 16, 16}}};
    CHECK_THROWS_WITH(import_onnx(p, s), Catch::Contains("not an input of the model (inputs: x)"));
}

TEST_CASE("The written workload parses back to the same network (regression)", "[import]") {
    for (const char* f : {"resnet18", "squeezenet1_1", "inception_v3", "mobilenet_v2"}) {
        INFO(f);
        const auto r = import_onnx(std::string(VP_SOURCE_DIR) + "/tests/data/onnx/" + f + ".onnx", {});
        const Network back = parse_network(nlohmann::json::parse(network_json_text(r.workload_json())), "back.json");
        REQUIRE(back.layers.size() == r.net.layers.size());
        CHECK(back.has_graph());
        for (std::size_t i = 0; i < back.layers.size(); ++i) {
            CHECK(back.layers[i].shape_key() == r.net.layers[i].shape_key());
            CHECK(back.layers[i].inputs == r.net.layers[i].inputs);
            CHECK(back.layers[i].act == r.net.layers[i].act);
        }
    }
}
