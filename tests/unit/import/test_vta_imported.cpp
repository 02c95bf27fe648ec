// Imported networks on the VTA driver (lowering + compiler + untimed executor), layer by layer
// bit-exact against the independent CHW reference of tests/unit/vta/network_reference.h, with
// the skip connections taken from the model's graph.
#include <catch2/catch.hpp>

#include <fstream>

#include <onnx/onnx_pb.h>

#include "../vta/network_reference.h"
#include "onnx_builder.h"
#include "yolo_head.h"
#include "mapper/vta/network_driver.h"
#include "platform/import/onnx_import.h"

using namespace vp::mapper;
using namespace vp::mapper::vta;

namespace {
const std::string kOnnxDir = std::string(VP_SOURCE_DIR) + "/tests/data/onnx/";

// Driver vs reference on every layer; returns the number of layers compared.
std::size_t check_bit_exact(const NetGraph& g, std::uint64_t seed) {
    DriverOptions o;
    o.seed = seed;
    NetworkDriver d(g, VtaConfig{}, o);
    std::vector<ProgramJob> jobs;
    run_network_functional(d, &jobs);
    REQUIRE(jobs.size() == d.programs_total());
    const auto ref = net_ref::run(d);
    for (std::size_t i = 0; i < ref.size(); ++i) {
        INFO("layer " << g.net.layers[i].name);
        REQUIRE(d.layer_done(i));
        REQUIRE(d.output(i) == ref[i]);
    }
    return ref.size();
}
}  // namespace

TEST_CASE("Imported QDQ ResNet-8 with its own int8 weights on the VTA equals the reference", "[import][vta]") {
    vp::import::ImportOptions opt;
    opt.need_values = true;
    const auto r = vp::import::import_onnx(kOnnxDir + "resnet8_qdq.onnx", opt);
    REQUIRE(r.stats.quantized);
    NetGraph g = chain_graph(r.net, "resnet8_qdq.onnx");
    for (const auto& v : r.values) {
        g.weight_values.push_back(v.weights);
        g.bias_values.push_back(v.bias);
    }
    // The weights the driver uses are the model's int8 initializers, read here directly.
    onnx::ModelProto m;
    {
        std::ifstream f(kOnnxDir + "resnet8_qdq.onnx", std::ios::binary);
        REQUIRE(m.ParseFromIstream(&f));
    }
    std::vector<std::string> weight_names;
    for (const auto& n : m.graph().node())
        if (n.op_type() == "Conv" || n.op_type() == "Gemm") weight_names.push_back(n.input(1) + "_q");
    std::size_t k = 0;
    for (std::size_t i = 0; i < r.net.layers.size(); ++i) {
        if (!r.net.layers[i].has_macs()) continue;
        REQUIRE(k < weight_names.size());
        const onnx::TensorProto* t = nullptr;
        for (const auto& init : m.graph().initializer())
            if (init.name() == weight_names[k]) t = &init;
        REQUIRE(t);
        REQUIRE(t->data_type() == onnx::TensorProto::INT8);
        const std::string& raw = t->raw_data();
        REQUIRE(raw.size() == r.values[i].weights.size());
        CHECK(std::equal(raw.begin(), raw.end(), r.values[i].weights.begin(),
                         [](char a, std::int8_t b) { return std::int8_t(a) == b; }));
        ++k;
    }
    CHECK(k == weight_names.size());
    int adds = 0;
    for (std::size_t i = 0; i < g.inputs.size(); ++i)
        if (g.net.layers[i].kind == LayerKind::Eltwise) {
            ++adds;
            REQUIRE(g.inputs[i].size() == 2);
            CHECK((g.inputs[i][0] >= 0 && g.inputs[i][1] >= 0));  // both operands are layers of the model
        }
    CHECK(adds == 3);
    CHECK(check_bit_exact(g, 5) == r.net.layers.size());
    NetworkDriver d(g, VtaConfig{}, DriverOptions{});
    CHECK(d.parts(1) == 2);  // the 3x3 / 2 max pool of a 32x32 map: two bands of window gathers
}

TEST_CASE("Imported torchvision ResNet-18 (32x32 input, weights from the seed) on the VTA equals the reference", "[import][vta]") {
    vp::import::ImportOptions opt;
    opt.input_shapes["input"] = {1, 3, 32, 32};
    const auto r = vp::import::import_onnx(kOnnxDir + "resnet18.onnx", opt);
    const NetGraph g = chain_graph(r.net, "resnet18.onnx");
    std::size_t skips = 0;
    for (std::size_t i = 0; i < g.inputs.size(); ++i)
        for (int s : g.inputs[i])
            if (s >= 0 && std::size_t(s) + 1 != i) ++skips;  // an operand that is not the previous layer
    CHECK(skips >= 8);
    CHECK(check_bit_exact(g, 9) == 31);
}

TEST_CASE("Imported MobileNetV2 (32x32 input): depthwise, relu6 and residual adds on the VTA equal the reference", "[import][vta]") {
    vp::import::ImportOptions opt;
    opt.input_shapes["input"] = {1, 3, 32, 32};
    const auto r = vp::import::import_onnx(kOnnxDir + "mobilenet_v2.onnx", opt);
    CHECK(check_bit_exact(chain_graph(r.net, "mobilenet_v2.onnx"), 3) == r.net.layers.size());
}

TEST_CASE("Imported SqueezeNet 1.1 and GoogLeNet (32x32): concats on the host, overlapping ceil-mode pools, equal the reference",
          "[import][vta]") {
    for (const char* m : {"squeezenet1_1", "googlenet"}) {
        INFO(m);
        vp::import::ImportOptions opt;
        opt.input_shapes["input"] = {1, 3, 32, 32};
        const auto r = vp::import::import_onnx(kOnnxDir + m + ".onnx", opt);
        const NetGraph g = chain_graph(r.net, m);
        NetworkDriver d(g, VtaConfig{}, DriverOptions{});
        std::size_t host = 0;
        for (std::size_t i = 0; i < g.net.layers.size(); ++i) host += d.parts(i) == 0;
        CHECK(host >= 8);  // the concats
        CHECK(check_bit_exact(g, 13) == r.net.layers.size());
    }
}

TEST_CASE("Host layers on the VTA: split, concat, pad and nearest resize equal the reference", "[import][vta]") {
    test_onnx::Model m;
    m.input("x", {1, 6, 5, 5}).init("w", {8, 9, 3, 3}).floats("scales", {1.0f, 1.0f, 2.0f, 2.0f}).ints("pads", {0, 0, 1, 0, 0, 0, 0, 2});
    m.output("y");
    test_onnx::attr(m.node("Split", {"x"}, {"a", "b"}, "split"), "axis", std::int64_t(1));
    test_onnx::attr(m.node("Concat", {"b", "x", "a"}, {"cat"}, "cat"), "axis", std::int64_t(1));  // 3 + 6 + 3 = 12
    m.node("Slice", {"cat", "st", "en", "ax"}, {"sl"}, "slice");                                   // channels 2..10
    m.ints("st", {2}).ints("en", {11}).ints("ax", {1});
    m.node("Resize", {"sl", "", "scales"}, {"up"}, "up");  // 9 x 10 x 10
    m.node("Pad", {"up", "pads"}, {"pd"}, "pad");           // before a max pool: a pad layer
    auto& mp = m.node("MaxPool", {"pd"}, {"mp"}, "pool");
    test_onnx::attr(mp, "kernel_shape", std::vector<std::int64_t>{2, 2});
    m.node("Conv", {"mp", "w"}, {"y"}, "conv");
    const auto r = vp::import::import_onnx(m.save("host_layers.onnx"), {});
    const NetGraph g = chain_graph(r.net, "host_layers.onnx");
    std::size_t host = 0;
    NetworkDriver d(g, VtaConfig{}, DriverOptions{});
    for (std::size_t i = 0; i < g.net.layers.size(); ++i) host += d.parts(i) == 0;
    CHECK(host == 6);  // 2 split slices, concat, slice, resize, pad
    CHECK(check_bit_exact(g, 21) == 8);
}

TEST_CASE("An imported YOLOv5 head (Focus slices, rank-5 view, split and concat along W, Pow by 2) on the VTA equals the reference",
          "[import][vta]") {
    const auto r = vp::import::import_onnx(test_onnx::yolov5_head().save("yolov5_head_vta.onnx"), {});
    const NetGraph g = chain_graph(r.net, "yolov5_head");
    CHECK(check_bit_exact(g, 29) == r.net.layers.size());
    CHECK(check_bit_exact(g, 30) == r.net.layers.size());
}

TEST_CASE("An imported YOLOv8 head (scales joined along the positions, DFL softmax and conv, box decoding) on the VTA equals the "
          "reference",
          "[import][vta]") {
    const auto r = vp::import::import_onnx(test_onnx::yolov8_head().save("yolov8_head_vta.onnx"), {});
    std::size_t along_h = 0;
    for (const Layer& l : r.net.layers) along_h += l.kind == LayerKind::Concat && l.data_axis == SoftmaxAxis::H;
    CHECK(along_h == 1);
    const NetGraph g = chain_graph(r.net, "yolov8_head");
    CHECK(check_bit_exact(g, 31) == r.net.layers.size());
    CHECK(check_bit_exact(g, 32) == r.net.layers.size());
}

TEST_CASE("Every torchvision fixture at its export size is accepted by the VTA driver", "[import][vta]") {
    // Construction checks every layer kind, activation and host layer; parts() sizes the
    // programs (pool bands). The full-size networks are not run here (minutes of simulation).
    for (const char* m : {"resnet18", "resnet50", "mobilenet_v2", "squeezenet1_1", "vgg16", "alexnet", "googlenet", "inception_v3",
                          "densenet121",  // DenseNet: its unfoldable batchnorms and relus on the host
                          "mobilenet_v3_small", "mobilenet_v3_large", "efficientnet_b0", "efficientnet_v2_s", "regnet_y_400mf",
                          "fcn_resnet50", "deeplabv3_mobilenet_v3_large", "convnext_tiny", "yolov5n", "yolov5n_focus", "yolov8n",
                          // added to bench/heldout on 2026-12-07
                          "convnext_small", "densenet161", "efficientnet_b3", "regnet_x_800mf", "regnet_y_1_6gf",
                          "shufflenet_v2_x1_5", "mnasnet0_75", "vgg13", "lraspp_mobilenet_v3_large", "deeplabv3_resnet50",
                          "resnet50_199x257"}) {
        INFO(m);
        const auto r = vp::import::import_onnx(kOnnxDir + m + ".onnx", {});
        const NetworkDriver d(chain_graph(r.net, m), VtaConfig{}, DriverOptions{});
        std::size_t programs = 0;
        for (std::size_t i = 0; i < r.net.layers.size(); ++i) programs += std::size_t(d.parts(i));
        CHECK(programs == d.programs_total());
        std::size_t vta_layers = 0;  // each at least one program; the host layers none
        for (std::size_t i = 0; i < r.net.layers.size(); ++i) {
            const Layer& l = r.net.layers[i];
            vta_layers += d.parts(i) > 0;
            if (l.has_macs()) CHECK(d.parts(i) > 0);  // every conv and fc runs on the VTA
        }
        CHECK(programs >= vta_layers);
        // The detectors' SiLUs are two host layers per conv (sigmoid, mul), and their heads' decoding more.
        if (std::string(m).rfind("yolo", 0) != 0) CHECK(vta_layers >= r.net.layers.size() / 3);
        else CHECK(vta_layers >= r.net.layers.size() / 4);
    }
}

TEST_CASE("Imported ConvNeXt-Tiny (32x32): channels-last layernorms over C, erf GELUs and layer scales on the host, equal the "
          "reference",
          "[import][vta]") {
    // The 23 layernorms: each normalises over the channels of its position (the block's norm after
    // the permute to channels-last, and the downsampling layers' LayerNorm2d), in the depthwise
    // conv's C x H x W.
    vp::import::ImportOptions opt;
    opt.input_shapes["input"] = {1, 3, 32, 32};
    const auto r = vp::import::import_onnx(kOnnxDir + "convnext_tiny.onnx", opt);
    std::size_t norms = 0;
    for (const auto& l : r.net.layers)
        if (l.kind == LayerKind::LayerNorm) {
            ++norms;
            CHECK((l.norm_axis == SoftmaxAxis::C && l.norm_eps > 0.0));
            CHECK((l.C == 96 || l.C == 192 || l.C == 384 || l.C == 768));
        }
    CHECK(norms == 23);
    CHECK(check_bit_exact(chain_graph(r.net, "convnext_tiny"), 37) == r.net.layers.size());
}

TEST_CASE("Imported MobileNetV3-Small, EfficientNet-B0 and RegNetY-400MF (32x32): sigmoid, hard sigmoid, SE multiplies on the host, "
          "equal the reference",
          "[import][vta]") {
    for (const char* m : {"mobilenet_v3_small", "efficientnet_b0", "regnet_y_400mf"}) {
        INFO(m);
        vp::import::ImportOptions opt;
        opt.input_shapes["input"] = {1, 3, 32, 32};
        const auto r = vp::import::import_onnx(kOnnxDir + m + ".onnx", opt);
        const NetGraph g = chain_graph(r.net, m);
        std::size_t gates = 0, muls = 0, broadcast = 0;
        for (std::size_t i = 0; i < g.net.layers.size(); ++i) {
            const Layer& l = g.net.layers[i];
            gates += l.act == Activation::Sigmoid || l.act == Activation::HardSigmoid;
            if (l.kind != LayerKind::Eltwise || l.eltwise_op != EltwiseOp::Mul) continue;
            ++muls;
            for (int s : g.inputs[i]) broadcast += s >= 0 && layer_out_elems(g.net.layers[std::size_t(s)]) == std::uint64_t(l.C);
        }
        CHECK(gates >= 10);
        CHECK(muls >= 10);
        CHECK(broadcast >= 3);  // the squeeze-and-excitation gates, one per channel
        CHECK(check_bit_exact(g, 23) == r.net.layers.size());
    }
}

TEST_CASE("Imported DeepLabV3-MobileNetV3-Large (224x224, its export size: the resizes' sizes are constants): dilated convs, SE "
          "blocks and bilinear resizes (half_pixel) equal the reference",
          "[import][vta]") {
    const auto r = vp::import::import_onnx(kOnnxDir + "deeplabv3_mobilenet_v3_large.onnx", {});
    std::size_t linear = 0;
    for (const auto& l : r.net.layers)
        linear += l.kind == LayerKind::Resize && l.resize_mode == ResizeMode::Linear && l.resize_coord == ResizeCoord::HalfPixel;
    CHECK(linear == 2);
    CHECK(check_bit_exact(chain_graph(r.net, "deeplabv3"), 29) == r.net.layers.size());
}

TEST_CASE("What the VTA cannot run is an input error naming the layer", "[import][vta]") {
    // A LayerNormalization over W and C of a channels-last map (axis 2 of [N, H, W, C]): axes that are
    // not a group of the layer's C x H x W, so none is recorded, and the VTA host refuses the layer.
    test_onnx::Model m(17);
    m.input("x", {1, 3, 6, 6}).init("w", {4, 3, 3, 3}).init("g", {6, 4}).init("b", {6, 4}).output("y");
    m.node("Conv", {"x", "w"}, {"c"}, "conv");
    test_onnx::attr(m.node("Transpose", {"c"}, {"t"}, "to_nhwc"), "perm", std::vector<std::int64_t>{0, 2, 3, 1});
    test_onnx::attr(m.node("LayerNormalization", {"t", "g", "b"}, {"y"}, "norm"), "axis", std::int64_t(2));
    const auto r = vp::import::import_onnx(m.save("ln_wc.onnx"), {});
    REQUIRE(r.net.layers.at(1).kind == LayerKind::LayerNorm);
    CHECK(r.net.layers.at(1).norm_axis == SoftmaxAxis::Unknown);
    CHECK_THROWS_WITH(NetworkDriver(chain_graph(r.net, "ln_wc"), VtaConfig{}, DriverOptions{}),
                      Catch::Contains("layer norm: layernorm without its \"axis\""));
}
