// Opsets 1-6 read in process: each legacy form, built here as an early exporter writes it, must
// give the layers of the same network written in its opset-13 form (the shapes and MACs of the
// opset-13 form are checked against the operator formulas in test_import_ops.cpp).
#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "mapper/workload/network.h"
#include "onnx_builder.h"
#include "platform/import/onnx_import.h"

using namespace vp::mapper;
using vp::import::import_onnx;
using test_onnx::attr;
using test_onnx::Model;

namespace {
const Layer& only_resize(const Network& n) {
    for (const auto& l : n.layers)
        if (l.kind == LayerKind::Resize) return l;
    FAIL("no resize layer");
    return n.layers[0];
}
std::string layers_of(const Model& m, const std::string& file) {
    return network_to_json(import_onnx(m.save(file), {}).net)["layers"].dump();
}
}  // namespace

TEST_CASE("Legacy broadcast: a per-channel Add with axis 1 after a conv is its bias", "[import][legacy]") {
    // Opset 6: B [4] aligned at axis 1 of the conv's [1, 4, 8, 8] output (Caffe2 / PyTorch 0.3).
    Model old(6);
    old.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).init("b", {4}).output("z");
    old.node("Conv", {"x", "w"}, {"y"}, "conv");
    auto& add = old.node("Add", {"y", "b"}, {"a"}, "bias");
    attr(add, "broadcast", std::int64_t(1));
    attr(add, "axis", std::int64_t(1));
    old.node("Relu", {"a"}, {"z"}, "relu");
    // Opset 13: B [4, 1, 1] by numpy broadcasting.
    Model now(13);
    now.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).init("b", {4, 1, 1}).output("z");
    now.node("Conv", {"x", "w"}, {"y"}, "conv");
    now.node("Add", {"y", "b"}, {"a"}, "bias");
    now.node("Relu", {"a"}, {"z"}, "relu");
    const auto r = import_onnx(old.save("legacy_bias.onnx"), {});
    CHECK(r.stats.opset == 6);
    CHECK(r.stats.upgraded_nodes == 2);  // the Add and the Unsqueeze that aligns its B
    CHECK(r.stats.fused_bias == 1);
    CHECK(r.stats.nodes == 3);  // the file's nodes, not the Unsqueeze the rewrite adds
    REQUIRE(r.net.layers.size() == 1);
    CHECK(r.net.layers[0].kind == LayerKind::Conv);
    CHECK(network_to_json(r.net)["layers"].dump() == layers_of(now, "modern_bias.onnx"));
    CHECK(r.summary().find("opset 6 read as opset 7") != std::string::npos);
}

TEST_CASE("Legacy broadcast: two activations, B aligned at axis 1, and suffix broadcast without axis", "[import][legacy]") {
    // [1, 4, 6, 6] * [1, 4] (axis 0: B's dims are A's first two) = [1, 4, 6, 6].
    Model old(6);
    old.input("x", {1, 3, 6, 6}).init("w", {4, 3, 1, 1}).init("w2", {4, 4}).output("m");
    old.node("Conv", {"x", "w"}, {"y"}, "conv");
    old.node("GlobalAveragePool", {"y"}, {"g"}, "gap");
    old.node("Flatten", {"g"}, {"f"}, "flat");
    auto& fc = old.node("Gemm", {"f", "w2"}, {"s"}, "fc");
    attr(fc, "broadcast", std::int64_t(1));
    attr(fc, "transB", std::int64_t(1));
    auto& mul = old.node("Mul", {"y", "s"}, {"m"}, "scale");
    attr(mul, "broadcast", std::int64_t(1));
    attr(mul, "axis", std::int64_t(0));
    const auto r = import_onnx(old.save("legacy_scale.onnx"), {});
    const Layer& last = r.net.layers.back();
    CHECK(last.kind == LayerKind::Eltwise);
    CHECK((last.C == 4 && last.H == 6 && last.W == 6));
    CHECK(last.inputs.size() == 2);
    // Rank that cannot be aligned: B of rank 2 at axis 3 of a rank-4 A.
    Model bad(6);
    bad.input("x", {1, 3, 6, 6}).init("b", {3, 6}).output("y");
    auto& add = bad.node("Add", {"x", "b"}, {"y"}, "misaligned");
    attr(add, "broadcast", std::int64_t(1));
    attr(add, "axis", std::int64_t(3));
    CHECK_THROWS_WITH(import_onnx(bad.save("legacy_misaligned.onnx"), {}),
                      Catch::Contains("node \"misaligned\" (Add)") && Catch::Contains("axis 3"));
}

TEST_CASE("Legacy attributes: Reshape's shape, Concat's default axis, Pad's paddings, is_test, Upsample's scales",
          "[import][legacy]") {
    auto net = [](int opset, bool legacy) {
        Model m(opset);
        m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).init("w1", {2, 3, 1, 1}).init("fcw", {10, 6 * 8 * 8});
        m.init("s", {4}).init("bb", {4}).init("mean", {4}).init("var", {4}).init("fcb", {10});
        m.output("out").output("up");
        // Pad (1: paddings) -> Conv -> BatchNormalization (6: is_test) -> Dropout (6: is_test)
        auto& pad = m.node("Pad", {"x"}, {"xp"}, "pad");
        if (opset >= 11) {
            m.ints("pads", {0, 0, 1, 1, 0, 0, 1, 1});
            pad.add_input("pads");
        } else {
            attr(pad, legacy ? "paddings" : "pads", std::vector<std::int64_t>{0, 0, 1, 1, 0, 0, 1, 1});
        }
        m.node("Conv", {"xp", "w"}, {"c"}, "conv");
        auto& bn = m.node("BatchNormalization", {"c", "s", "bb", "mean", "var"}, {"n"}, "bn");
        if (legacy) attr(bn, "is_test", std::int64_t(1));
        auto& drop = m.node("Dropout", {"n"}, {"d"}, "drop");
        if (legacy) attr(drop, "is_test", std::int64_t(1));
        // A second branch concatenated on the channels (Concat 1-3: no axis means 1).
        m.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
        auto& cat = m.node("Concat", {"d", "c1"}, {"cat"}, "cat");
        if (!legacy) attr(cat, "axis", std::int64_t(1));
        // Reshape to [1, 384] (1-4: the shape attribute) -> Gemm
        auto& rs = m.node("Reshape", {"cat"}, {"flat"}, "reshape");
        if (legacy) {
            attr(rs, "shape", std::vector<std::int64_t>{1, -1});
        } else {
            m.ints("flat_shape", {1, -1});
            rs.add_input("flat_shape");
        }
        auto& g = m.node("Gemm", {"flat", "fcw", "fcb"}, {"out"}, "fc");
        attr(g, "transB", std::int64_t(1));
        if (legacy) attr(g, "broadcast", std::int64_t(1));
        // Upsample x2 (1: height_scale / width_scale; 7-8: scales; 10+ Resize-like scales input)
        auto& up = m.node("Upsample", {"cat"}, {"up"}, "up");
        if (legacy) {
            attr(up, "height_scale", 2.0f);
            attr(up, "width_scale", 2.0f);
        } else {
            auto* a = up.add_attribute();
            a->set_name("scales");
            a->set_type(onnx::AttributeProto::FLOATS);
            for (float v : {1.0f, 1.0f, 2.0f, 2.0f}) a->add_floats(v);
        }
        return m;
    };
    const std::string modern = layers_of(net(7, false), "modern_attrs.onnx");
    for (int opset : {1, 3}) {
        INFO("opset " << opset);
        const auto r = import_onnx(net(opset, true).save("legacy_attrs.onnx"), {});
        CHECK(r.stats.upgraded_nodes == 7);  // pad, bn, drop, cat, reshape, fc, up
        CHECK(network_to_json(r.net)["layers"].dump() == modern);
        const Layer& up = only_resize(r.net);
        CHECK((up.H == 8 && up.W == 8 && up.P() == 16 && up.Q() == 16));
        CHECK((up.resize_coord == ResizeCoord::Asymmetric && up.nearest_round == NearestRound::Floor));  // Upsample's
    }
}

TEST_CASE("Legacy Cast names its type: rewritten to the type number, an unknown name is an error", "[import][legacy]") {
    auto net = [](const std::string& to) {
        Model m(5);
        m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).output("y");
        m.node("Conv", {"x", "w"}, {"c"}, "conv");
        attr(m.node("Cast", {"c"}, {"y"}, "cast"), "to", to);
        return m;
    };
    const auto r = import_onnx(net("float").save("legacy_cast.onnx"), {});
    CHECK(r.stats.upgraded_nodes == 1);
    REQUIRE(r.net.layers.size() == 1);
    CHECK(r.net.layers[0].kind == LayerKind::Conv);
    CHECK_THROWS_WITH(import_onnx(net("FLOAT128").save("legacy_cast_bad.onnx"), {}),
                      Catch::Contains("node \"cast\" (Cast)") && Catch::Contains("unknown type name \"FLOAT128\""));
}
