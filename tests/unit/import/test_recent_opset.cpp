// Opsets 18-22 read in process: each recent form, built here as a recent exporter writes it, must
// give the layers of the same network written in its opset-17 form (whose shapes and MACs
// test_import_ops.cpp checks against the operator formulas); what opset 17 cannot express is
// refused naming the node and the attribute.
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
std::string recent_layers_of(const Model& m, const std::string& file) {
    return network_to_json(import_onnx(m.save(file), {}).net)["layers"].dump();
}

// Conv, Gelu, AveragePool, Split, two convs, Concat, Resize, ReduceMean (global), Flatten, Gemm:
// every operator whose form changed after opset 17 in the way a CNN exporter writes it.
Model recent_network(int opset, const std::string& gelu_mode) {
    Model m(opset);
    if (opset >= 21) m.m.set_ir_version(10);
    else if (opset >= 19) m.m.set_ir_version(9);
    m.input("x", {1, 3, 16, 16}).init("w1", {8, 3, 3, 3}).init("w2", {4, 4, 1, 1}).init("w3", {4, 4, 3, 3}).init("wf", {10, 8});
    m.floats("scales", {1, 1, 2, 2}).output("z");
    auto& c1 = m.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
    attr(c1, "pads", std::vector<std::int64_t>{1, 1, 1, 1});
    if (opset >= 20) {
        auto& g = m.node("Gelu", {"c1"}, {"g"}, "gelu");
        if (gelu_mode != "none") attr(g, "approximate", gelu_mode);
    } else {  // the decomposition, named as the rewrite names its nodes
        m.floats("gelu/one", {1.0f}, true).floats("gelu/half", {0.5f}, true);
        std::string inner;
        if (gelu_mode == "none") {
            m.floats("gelu/sqrt2", {1.41421356f}, true);
            m.node("Div", {"c1", "gelu/sqrt2"}, {"gelu/Div1"}, "gelu/Div1");
            m.node("Erf", {"gelu/Div1"}, {"gelu/Erf2"}, "gelu/Erf2");
            inner = "gelu/Erf2";
        } else {
            m.floats("gelu/c", {0.044715f}, true).floats("gelu/sqrt_2_pi", {0.797884561f}, true);
            m.node("Mul", {"c1", "c1"}, {"gelu/Mul1"}, "gelu/Mul1");
            m.node("Mul", {"gelu/Mul1", "c1"}, {"gelu/Mul2"}, "gelu/Mul2");
            m.node("Mul", {"gelu/Mul2", "gelu/c"}, {"gelu/Mul3"}, "gelu/Mul3");
            m.node("Add", {"c1", "gelu/Mul3"}, {"gelu/Add4"}, "gelu/Add4");
            m.node("Mul", {"gelu/Add4", "gelu/sqrt_2_pi"}, {"gelu/Mul5"}, "gelu/Mul5");
            m.node("Tanh", {"gelu/Mul5"}, {"gelu/Tanh6"}, "gelu/Tanh6");
            inner = "gelu/Tanh6";
        }
        const int k = gelu_mode == "none" ? 3 : 7;
        const std::string add = "gelu/Add" + std::to_string(k), mul = "gelu/Mul" + std::to_string(k + 1);
        m.node("Add", {inner, "gelu/one"}, {add}, add);
        m.node("Mul", {"c1", add}, {mul}, mul);
        m.node("Mul", {mul, "gelu/half"}, {"g"}, "gelu/Mul" + std::to_string(k + 2));
    }
    auto& p = m.node("AveragePool", {"g"}, {"p"}, "pool");
    attr(p, "kernel_shape", std::vector<std::int64_t>{2, 2});
    attr(p, "strides", std::vector<std::int64_t>{2, 2});
    if (opset >= 19) attr(p, "dilations", std::vector<std::int64_t>{1, 1});
    auto& s = m.node("Split", {"p"}, {"s0", "s1"}, "split");
    attr(s, "axis", std::int64_t(1));
    if (opset >= 18) attr(s, "num_outputs", std::int64_t(2));
    m.node("Conv", {"s0", "w2"}, {"a"}, "conv_a");
    auto& cb = m.node("Conv", {"s1", "w3"}, {"b"}, "conv_b");
    attr(cb, "pads", std::vector<std::int64_t>{1, 1, 1, 1});
    auto& cat = m.node("Concat", {"a", "b"}, {"cat"}, "cat");
    attr(cat, "axis", std::int64_t(1));
    auto& r = m.node("Resize", {"cat", "", "scales"}, {"r"}, "resize");
    attr(r, "mode", std::string("nearest"));
    if (opset >= 18) {
        attr(r, "antialias", std::int64_t(0));
        attr(r, "keep_aspect_ratio_policy", std::string("stretch"));
    }
    if (opset >= 18) {
        if (opset % 2 == 0) {
            m.ints("axes", {2, 3});
        } else {  // a Constant node, as PyTorch writes it
            auto& k = m.node("Constant", {}, {"axes"}, "axes_const");
            attr(k, "value_ints", std::vector<std::int64_t>{2, 3});
        }
        m.node("ReduceMean", {"r", "axes"}, {"mean"}, "gap");
    } else {
        attr(m.node("ReduceMean", {"r"}, {"mean"}, "gap"), "axes", std::vector<std::int64_t>{2, 3});
    }
    m.node("Flatten", {"mean"}, {"f"}, "flat");
    attr(m.node("Gemm", {"f", "wf"}, {"z"}, "fc"), "transB", std::int64_t(1));
    return m;
}
}  // namespace

TEST_CASE("Opsets 18 to 22: a network in its recent form gives the layers of its opset-17 form", "[import][recent]") {
    for (const std::string mode : {"none", "tanh"}) {
        const std::string want = recent_layers_of(recent_network(17, mode), "recent17_" + mode + ".onnx");
        for (int opset = 18; opset <= 22; ++opset) {
            INFO("opset " << opset << ", gelu " << mode);
            const auto r = import_onnx(recent_network(opset, mode).save("recent" + std::to_string(opset) + "_" + mode + ".onnx"), {});
            CHECK(network_to_json(r.net)["layers"].dump() == want);
            CHECK(r.stats.opset == opset);
            CHECK(r.stats.read_as_opset == 17);
            // the Split, the Resize, the ReduceMean; from 19 the AveragePool, from 20 the Gelu
            CHECK(r.stats.upgraded_nodes == 3 + (opset >= 19) + (opset >= 20));
            CHECK(r.summary().find("opset " + std::to_string(opset) + " read as opset 17") != std::string::npos);
        }
    }
    // The network has what the operators say: a conv of 8 x 3 x 3 x 3 at 16 x 16, the GELU's
    // layers, a 2 x 2 average pool, two convs, a concat, a resize to 16 x 16, a global pool, an fc.
    const auto r = import_onnx(recent_network(20, "none").save("recent20_check.onnx"), {});
    CHECK(r.net.layers.front().kind == LayerKind::Conv);
    CHECK(r.net.layers.front().macs() == 8u * 3 * 9 * 16 * 16);
    CHECK(r.net.layers.back().kind == LayerKind::FullyConnected);
}

TEST_CASE("Opset 21: QuantizeLinear's output_dtype gives the int8 type opset 17 takes from the zero point", "[import][recent]") {
    auto build = [](int opset) {
        Model m(opset);
        m.input("x", {1, 3, 8, 8}).floats("sc", {0.05f}, true).init("w", {4, 3, 3, 3}, onnx::TensorProto::INT8);
        m.floats("wsc", {0.01f}, true).output("y");
        if (opset >= 21) {
            auto& q = m.node("QuantizeLinear", {"x", "sc"}, {"q"}, "quant");
            attr(q, "output_dtype", std::int64_t(onnx::TensorProto::INT8));
            attr(q, "saturate", std::int64_t(1));
            attr(m.node("DequantizeLinear", {"q", "sc"}, {"dq"}, "dequant"), "block_size", std::int64_t(0));
        } else {
            m.init("zp", {}, onnx::TensorProto::INT8);
            m.g->mutable_initializer(m.g->initializer_size() - 1)->set_int32_data(0, 0);
            m.node("QuantizeLinear", {"x", "sc", "zp"}, {"q"}, "quant");
            m.node("DequantizeLinear", {"q", "sc"}, {"dq"}, "dequant");
        }
        m.node("DequantizeLinear", {"w", "wsc"}, {"wd"}, "wdequant");
        m.node("Conv", {"dq", "wd"}, {"y"}, "conv");
        return m;
    };
    const auto old = import_onnx(build(17).save("q17.onnx"), {});
    const auto now = import_onnx(build(21).save("q21.onnx"), {});
    CHECK(network_to_json(now.net)["layers"].dump() == network_to_json(old.net)["layers"].dump());
    CHECK(now.stats.quantized);
    CHECK(now.net.precision_bits == 8);
    CHECK(now.net.precision_bits == old.net.precision_bits);
}

TEST_CASE("Opsets 18 to 22: what opset 17 cannot express is refused naming the node and the attribute", "[import][recent]") {
    auto base = [](int opset) {
        Model m(opset);
        m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).output("y");
        m.node("Conv", {"x", "w"}, {"c"}, "conv");
        return m;
    };
    auto refused = [](const Model& m, const std::string& file, const std::string& want) {
        try {
            import_onnx(m.save(file), {});
            FAIL("accepted: " + file);
        } catch (const vp::InputError& e) {
            CHECK_THAT(e.what(), Catch::Matchers::Contains(want));
        }
    };
    {
        Model m = base(18);
        m.floats("scales", {1, 1, 2, 2});
        attr(m.node("Resize", {"c", "", "scales"}, {"y"}, "up"), "antialias", std::int64_t(1));
        refused(m, "r_aa.onnx", "node \"up\" (Resize) of opset 18: attribute antialias (opset 17, which the importer reads, cannot express it)");
    }
    {
        Model m = base(19);
        auto& p = m.node("AveragePool", {"c"}, {"y"}, "pool");
        attr(p, "kernel_shape", std::vector<std::int64_t>{2, 2});
        attr(p, "dilations", std::vector<std::int64_t>{2, 2});
        refused(m, "p_dil.onnx", "node \"pool\" (AveragePool) of opset 19: attribute dilations");
    }
    {
        Model m = base(18);
        m.ints("pads", {0, 0, 1, 1}).ints("axes", {2, 3});
        m.node("Pad", {"c", "pads", "", "axes"}, {"y"}, "pad");
        refused(m, "pad_axes.onnx", "node \"pad\" (Pad) of opset 18: input axes");
    }
    {
        Model m = base(18);
        m.node("Shape", {"c"}, {"sh"}, "shape");
        m.node("ReduceMean", {"c", "sh"}, {"y"}, "mean");
        refused(m, "rm_dyn.onnx", "node \"mean\" (ReduceMean) of opset 18: axes computed at run time (input \"sh\")");
    }
    {
        Model m = base(20);
        attr(m.node("Gelu", {"c"}, {"y"}, "gelu"), "approximate", std::string("fast"));
        refused(m, "gelu_bad.onnx", "node \"gelu\" (Gelu) of opset 20: approximate \"fast\"");
    }
    refused(base(23), "op23.onnx", "opset 23 is out of the supported range 1..22 (export the model at that opset or lower)");
}

TEST_CASE("Opset 20: two Gelu nodes of one name, and a tensor named like the first's expansion, expand apart", "[import][recent]") {
    Model m(20);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).init("w2", {4, 4, 1, 1}).output("y");
    m.node("Conv", {"x", "w"}, {"act/Div1"}, "conv");  // a name the first expansion would take
    m.node("Gelu", {"act/Div1"}, {"g1"}, "act");
    m.node("Conv", {"g1", "w2"}, {"c2"}, "conv2");
    attr(m.node("Gelu", {"c2"}, {"y"}, "act"), "approximate", std::string("tanh"));
    const auto r = import_onnx(m.save("gelu_names.onnx"), {});
    CHECK(r.stats.upgraded_nodes == 2);
    std::size_t eltwise = 0;
    for (const auto& l : r.net.layers) eltwise += l.kind == LayerKind::Eltwise;
    CHECK(eltwise == 4 + 8);  // the exact form's 4 layers and the tanh form's 8, as in the test above
    CHECK(r.net.layers.size() == 2 + 4 + 8);
}

TEST_CASE("Opset 18: ReduceMean axes given as floats are refused naming the input", "[import][recent]") {
    Model m(18);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).floats("axes", {2, 3}).output("y");
    m.node("Conv", {"x", "w"}, {"c"}, "conv");
    m.node("ReduceMean", {"c", "axes"}, {"y"}, "mean");
    CHECK_THROWS_WITH(import_onnx(m.save("rm_float_axes.onnx"), {}),
                      Catch::Contains("node \"mean\" (ReduceMean) of opset 18: input \"axes\" holds FLOAT values, expected integers"));
}
