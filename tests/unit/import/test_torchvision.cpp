// Independent validation: the imported torchvision models (ONNX graph only) against the shapes
// and MACs PyTorch itself reports for every Conv2d / Linear module (forward hooks, recorded by
// scripts/export_torchvision.py in tests/data/onnx/torchvision_layers.json), layer by layer.
#include <catch2/catch.hpp>

#include <cmath>

#include "mapper/workload/network.h"
#include "platform/import/onnx_import.h"

using namespace vp::mapper;

namespace {
const std::string kDir = std::string(VP_SOURCE_DIR) + "/tests/data/onnx/";
}

TEST_CASE("Imported torchvision models equal PyTorch's own conv / linear shapes and MACs", "[import][torchvision]") {
    const nlohmann::json ref = read_json_file(kDir + "torchvision_layers.json");
    const auto& models = ref.at("models");
    REQUIRE(models.size() == 42);
    int dilated = 0;
    for (auto it = models.begin(); it != models.end(); ++it) {
        INFO(it.key());
        const Network n = vp::import::import_onnx(kDir + it.key() + ".onnx", {}).net;
        std::vector<const Layer*> mac_layers;
        for (const auto& l : n.layers)
            if (l.has_macs()) mac_layers.push_back(&l);
        const auto& layers = it.value().at("layers");
        REQUIRE(mac_layers.size() == layers.size());
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const auto& r = layers[i];
            const Layer& l = *mac_layers[i];
            INFO("layer " << i << " " << l.name);
            total += r.at("macs").get<std::uint64_t>();
            CHECK(l.macs() == r.at("macs").get<std::uint64_t>());
            if (r.at("type") == "fc") {
                CHECK(l.kind == LayerKind::FullyConnected);
                CHECK((l.C == r.at("in").get<int>() && l.K == r.at("out").get<int>()));
                continue;
            }
            CHECK(l.kind == LayerKind::Conv);
            CHECK((l.C == r.at("C").get<int>() && l.K == r.at("K").get<int>() && l.H == r.at("H").get<int>() &&
                   l.W == r.at("W").get<int>()));
            CHECK((l.R == r.at("R").get<int>() && l.S == r.at("S").get<int>() && l.groups == r.at("groups").get<int>()));
            CHECK((l.stride_h == r.at("stride")[0].get<int>() && l.stride_w == r.at("stride")[1].get<int>()));
            CHECK((l.pad_top == r.at("pad")[0].get<int>() && l.pad_bottom == r.at("pad")[0].get<int>()));
            CHECK((l.pad_left == r.at("pad")[1].get<int>() && l.pad_right == r.at("pad")[1].get<int>()));
            CHECK((l.P() == r.at("P").get<int>() && l.Q() == r.at("Q").get<int>()));
            // Recorded only for dilated modules (FCN, DeepLabV3).
            const auto dil = r.value("dilation", nlohmann::json::array({1, 1}));
            CHECK((l.dilation_h == dil[0].get<int>() && l.dilation_w == dil[1].get<int>()));
            dilated += l.dilation_h > 1 || l.dilation_w > 1;
        }
        CHECK(n.total_macs() == total);
    }
    // FCN-ResNet50's layer3 / layer4 3x3 convs (dilation 2, 4), DeepLabV3-MobileNetV3's last three
    // depthwise convs (2) and its ASPP branches (12, 24, 36), LR-ASPP's last three depthwise convs
    // (2), DeepLabV3-ResNet50's layer3 / layer4 3x3 convs and ASPP branches.
    CHECK(dilated == 28);
}

TEST_CASE("Imported MACs round to the GFLOPS column of torchvision's model documentation", "[import][torchvision]") {
    // torchvision's classification weights tables print "GFLOPS" counted as multiply-adds, two
    // decimals: a published figure for every fixture.
    for (auto [m, g] : {std::pair{"alexnet", 0.71}, std::pair{"vgg16", 15.47}, std::pair{"resnet18", 1.81},
                        std::pair{"resnet50", 4.09}, std::pair{"squeezenet1_1", 0.35}, std::pair{"mobilenet_v2", 0.30},
                        std::pair{"googlenet", 1.50}, std::pair{"inception_v3", 5.71}, std::pair{"mobilenet_v3_small", 0.06},
                        std::pair{"densenet121", 2.83}, std::pair{"shufflenet_v2_x0_5", 0.04},
                        std::pair{"convnext_tiny", 4.46}}) {
        INFO(m);
        const double gmacs = double(vp::import::import_onnx(kDir + m + ".onnx", {}).net.total_macs()) * 1e-9;
        CHECK(std::round(gmacs * 100) / 100 == Approx(g).margin(1e-9));
    }
}

TEST_CASE("Imported YOLO detectors' MACs round to their published FLOPs", "[import][torchvision]") {
    // The detectors' release tables give FLOPs (2 x multiply-adds) at 640 x 640, one decimal:
    // YOLOv5n 4.5 G, YOLOv8n 8.7 G. The fixtures are exported at 320 x 320; every layer's work
    // scales with the map's area, so 2 x MACs x 4 must round to those figures.
    for (auto [m, g] : {std::pair{"yolov5n", 4.5}, std::pair{"yolov8n", 8.7}}) {
        INFO(m);
        const double gflops_640 = 2.0 * 4.0 * double(vp::import::import_onnx(kDir + m + ".onnx", {}).net.total_macs()) * 1e-9;
        CHECK(std::round(gflops_640 * 10) / 10 == Approx(g).margin(1e-9));
    }
}

TEST_CASE("The graph is kept: residual adds and concats name their producers", "[import][torchvision]") {
    const Network r50 = vp::import::import_onnx(kDir + "resnet50.onnx", {}).net;
    REQUIRE(r50.has_graph());
    int adds = 0, projections = 0;
    for (std::size_t i = 0; i < r50.layers.size(); ++i) {
        const Layer& l = r50.layers[i];
        for (int p : l.inputs) CHECK(p < int(i));  // producers come first
        if (l.kind != LayerKind::Eltwise) continue;
        ++adds;
        REQUIRE(l.inputs.size() == 2);
        CHECK(l.relu);
        // One operand is the block's last 1x1 conv, the other the shortcut: the block input or a
        // projection conv.
        const Layer& a = r50.layers[std::size_t(l.inputs[0])];
        CHECK((a.kind == LayerKind::Conv && a.R == 1 && a.K == l.C));
        const int s = l.inputs[1];
        if (r50.layers[std::size_t(s)].kind == LayerKind::Conv) ++projections;
    }
    CHECK(adds == 16);
    CHECK(projections == 4);
    const Network sq = vp::import::import_onnx(kDir + "squeezenet1_1.onnx", {}).net;
    int concats = 0;
    for (const auto& l : sq.layers)
        if (l.kind == LayerKind::Concat) {
            ++concats;
            REQUIRE(l.inputs.size() == 2);
            const Layer& e1 = sq.layers[std::size_t(l.inputs[0])];
            const Layer& e3 = sq.layers[std::size_t(l.inputs[1])];
            CHECK((e1.R == 1 && e3.R == 3 && e1.K + e3.K == l.C));
        }
    CHECK(concats == 8);
}

TEST_CASE("Exporter patterns: lone batch norms, squeeze-excitation, hard-swish, channel split and shuffle", "[import][torchvision]") {
    auto count = [](const Network& n, LayerKind k, const char* op = nullptr) {
        std::size_t c = 0;
        for (const auto& l : n.layers)
            if (l.kind == k && (!op || (k == LayerKind::Eltwise ? (l.eltwise_op == EltwiseOp::Mul) == (std::string(op) == "mul")
                                                                 : std::string(to_string(l.act)) == op)))
                ++c;
        return c;
    };
    // DenseNet-121: BN-ReLU-Conv before each conv. The exporter folds the batch norms that follow a
    // conv; the others stay layers: norm1 of 58 dense layers, 3 transitions, norm5. Its empty
    // Pads before the transition pools are removed.
    const auto dn = vp::import::import_onnx(kDir + "densenet121.onnx", {});
    CHECK(count(dn.net, LayerKind::BatchNorm) == 58 + 3 + 1);
    CHECK(count(dn.net, LayerKind::Pad) == 0);
    CHECK(count(dn.net, LayerKind::Concat) == 58 + 4);  // each dense layer, and the torchvision _DenseBlock's final cat
    // MobileNetV3-small: 9 squeeze-excitation blocks multiply the map by a per-channel scale (a conv
    // with a fused hard sigmoid, broadcast over H x W); 19 hard-swishes are exported as
    // x * HardSigmoid(x).
    const Network mv3 = vp::import::import_onnx(kDir + "mobilenet_v3_small.onnx", {}).net;
    std::size_t se = 0;
    for (const auto& l : mv3.layers)
        if (l.kind == LayerKind::Eltwise && l.eltwise_op == EltwiseOp::Mul) {
            REQUIRE(l.inputs.size() == 2);
            const Layer& scale = mv3.layers[std::size_t(l.inputs[0])];  // torchvision: scale * input
            if (scale.kind == LayerKind::Conv && scale.act == Activation::HardSigmoid) {
                ++se;
                CHECK((scale.K == l.C && scale.P() == 1 && l.H > 1));
            }
        }
    CHECK(se == 9);
    CHECK(count(mv3, LayerKind::Activation, "hard_sigmoid") == 19);
    CHECK(count(mv3, LayerKind::Eltwise, "mul") == 19 + 9);
    // ShuffleNetV2 x0.5: 13 of its 16 units split the channels in two (26 slice layers) and
    // concatenate; the 16 channel shuffles (Reshape / Transpose / Reshape) are layout only and
    // their shape arithmetic folds.
    const auto sh = vp::import::import_onnx(kDir + "shufflenet_v2_x0_5.onnx", {});
    CHECK(count(sh.net, LayerKind::Slice) == 26);
    CHECK(count(sh.net, LayerKind::Concat) == 16);
    CHECK(sh.stats.layout == 16 * 3);
    CHECK(sh.stats.folded > 100);
    // ConvNeXt-Tiny at opset 13: its 23 LayerNorms (the stem's, 18 blocks', 3 downsamplings' and
    // the classifier's) written as ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, each one layer
    // with its scale and shift folded in; the 18 blocks' GELUs as Div (carrying the erf), Add, Mul,
    // Mul; the 36 pointwise Linear layers on the channels-last map as 1x1 convs over it
    // (torchvision_layers.json checks their shapes above).
    const auto cx = vp::import::import_onnx(kDir + "convnext_tiny.onnx", {});
    CHECK(count(cx.net, LayerKind::LayerNorm) == 23);
    std::size_t erf = 0;
    for (const auto& l : cx.net.layers) erf += l.kind == LayerKind::Eltwise && l.act == Activation::Erf;
    CHECK(erf == 18);
    CHECK(count(cx.net, LayerKind::Activation) == 0);
    // Per block: the GELU's four and the layer scale and residual add; nothing else.
    CHECK(count(cx.net, LayerKind::Eltwise) == 18 * 6);
}
