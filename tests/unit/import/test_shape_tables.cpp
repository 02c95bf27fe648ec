// Independent cross-check: torchvision models exported to ONNX (tests/data/onnx, weights
// stripped) and imported, against the committed workloads/*.json, which were generated from
// layer-shape tables read from other public model descriptions (Caffe prototxts, ONNX zoo
// files, CoSA YAML: workloads/shapes/README.md). Conv layers are compared layer by layer
// (C, K, H, W, R, S, stride, pad, groups) and in total MACs; every difference is spelled out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "platform/import/onnx_import.h"

using namespace vp::mapper;

namespace {
using Shape = std::tuple<int, int, int, int, int, int, int, int, int, int, int>;  // C K H W R S sh sw ph pw g

Shape shape(const Layer& l) {
    return {l.C, l.K, l.H, l.W, l.R, l.S, l.stride_h, l.stride_w, l.pad_top, l.pad_left, l.groups};
}
std::vector<Shape> convs(const Network& n) {
    std::vector<Shape> s;
    for (const auto& l : n.layers)
        if (l.kind == LayerKind::Conv) {
            CHECK((l.pad_top == l.pad_bottom && l.pad_left == l.pad_right));  // torchvision pads symmetrically
            s.push_back(shape(l));
        }
    return s;
}
Network imported(const std::string& name) {
    return vp::import::import_onnx(std::string(VP_SOURCE_DIR) + "/tests/data/onnx/" + name + ".onnx", {}).net;
}
Network table(const std::string& name) { return load_network(std::string(VP_SOURCE_DIR) + "/workloads/" + name + ".json"); }
std::uint64_t conv_macs(const Network& n) {
    std::uint64_t m = 0;
    for (const auto& l : n.layers) m += l.kind == LayerKind::Conv ? l.macs() : 0;
    return m;
}
std::vector<Shape> minus(std::vector<Shape> a, std::vector<Shape> b) {  // multiset a - b
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<Shape> d;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(d));
    return d;
}
}  // namespace

TEST_CASE("ResNet-50, VGG-16, MobileNetV2, InceptionV3: every conv equal to the shape tables, in order", "[import][tables]") {
    // torchvision's ResNet-50 is v1.5 (stride 2 in the 3x3 conv of the first block of a stage),
    // the CoSA table resnet50_v1_5; InceptionV3 at 299 without the auxiliary head.
    for (auto [onnx, tab, fc_macs] : {std::tuple{"resnet50", "resnet50_v1_5", 2048ull * 1000},
                                      std::tuple{"vgg16", "vgg16", 25088ull * 4096 + 4096ull * 4096 + 4096ull * 1000},
                                      std::tuple{"mobilenet_v2", "mobilenetv2", 1280ull * 1000},
                                      std::tuple{"inception_v3", "inception_v3", 2048ull * 1000}}) {
        INFO(onnx << " vs workloads/" << tab << ".json");
        const Network a = imported(onnx), b = table(tab);
        CHECK(convs(a) == convs(b));
        CHECK(conv_macs(a) == b.total_macs());
        CHECK(a.total_macs() == b.total_macs() + fc_macs);  // the tables list convolutions only
    }
}

TEST_CASE("ResNet-50 v1.5 against the original v1 table: exactly the stride placement of 3 stages differs", "[import][tables]") {
    const Network a = imported("resnet50"), b = table("resnet50");
    // v1 (He et al. prototxt): stride 2 in the first 1x1 (branch2a) of stages 3-5; v1.5: in the 3x3
    // (branch2b), so the 1x1 reads the full map and the 3x3 runs on it.
    const std::vector<Shape> only_v15 = {{256, 128, 56, 56, 1, 1, 1, 1, 0, 0, 1}, {128, 128, 56, 56, 3, 3, 2, 2, 1, 1, 1},
                                         {512, 256, 28, 28, 1, 1, 1, 1, 0, 0, 1}, {256, 256, 28, 28, 3, 3, 2, 2, 1, 1, 1},
                                         {1024, 512, 14, 14, 1, 1, 1, 1, 0, 0, 1}, {512, 512, 14, 14, 3, 3, 2, 2, 1, 1, 1}};
    const std::vector<Shape> only_v1 = {{256, 128, 56, 56, 1, 1, 2, 2, 0, 0, 1}, {128, 128, 28, 28, 3, 3, 1, 1, 1, 1, 1},
                                        {512, 256, 28, 28, 1, 1, 2, 2, 0, 0, 1}, {256, 256, 14, 14, 3, 3, 1, 1, 1, 1, 1},
                                        {1024, 512, 14, 14, 1, 1, 2, 2, 0, 0, 1}, {512, 512, 7, 7, 3, 3, 1, 1, 1, 1, 1}};
    auto sorted = [](std::vector<Shape> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    CHECK(sorted(minus(convs(a), convs(b))) == sorted(only_v15));
    CHECK(sorted(minus(convs(b), convs(a))) == sorted(only_v1));
    // The 3x3 conv produces the same output either way; the 1x1 branch2a produces a map 4x as
    // large in v1.5: 3 x its v1 MACs more (0.2312 GMACs: 4.0871 - 3.8559 in the shape tables).
    std::uint64_t v1_branch2a = 0;
    for (auto [c, k, hw] : {std::tuple{256, 128, 28}, std::tuple{512, 256, 14}, std::tuple{1024, 512, 7}})
        v1_branch2a += std::uint64_t(c) * k * hw * hw;
    CHECK(conv_macs(a) - conv_macs(b) == 3 * v1_branch2a);
}

TEST_CASE("SqueezeNet 1.1: the ONNX-zoo 224 table as a multiset (each fire lists expand3x3 first)", "[import][tables]") {
    const Network a = imported("squeezenet1_1"), b = table("squeezenet1_1_onnx224");
    const auto ca = convs(a), cb = convs(b);
    CHECK(minus(ca, cb).empty());
    CHECK(minus(cb, ca).empty());
    // In order once each fire module's pair (expand1x1, expand3x3) is swapped.
    REQUIRE(ca.size() == 26);
    auto swapped = ca;
    for (std::size_t f = 0; f < 8; ++f) std::swap(swapped[2 + 3 * f], swapped[3 + 3 * f]);
    CHECK(swapped == cb);
    CHECK(conv_macs(a) == b.total_macs());
    // The Caffe 1.1 table runs at 227: the same layers (C, K, R, S, stride, pad, groups) on other
    // map sizes.
    auto no_map = [](std::vector<Shape> v) {
        for (auto& x : v) std::get<2>(x) = std::get<3>(x) = 0;
        std::sort(v.begin(), v.end());
        return v;
    };
    const auto caffe = convs(table("squeezenet1_1"));
    CHECK(no_map(caffe) == no_map(ca));
    CHECK(minus(caffe, ca).size() == 26);
}

TEST_CASE("AlexNet: torchvision's single-tower variant against the grouped Caffe table", "[import][tables]") {
    // torchvision's AlexNet follows "One weird trick" (Krizhevsky 2014): 64/192/384/256/256
    // filters, no groups, 224 input with padding 2 in conv1; the Caffe table is the 2012
    // two-tower network: 96/256/384/384/256 filters, groups 2 on conv2/4/5, 227 input. The kernel
    // geometry is the same layer by layer.
    const auto a = convs(imported("alexnet")), b = convs(table("alexnet"));
    REQUIRE(a.size() == 5);
    REQUIRE(b.size() == 5);
    const int tv_k[5] = {64, 192, 384, 256, 256}, caffe_k[5] = {96, 256, 384, 384, 256}, caffe_g[5] = {1, 2, 1, 2, 2};
    for (std::size_t i = 0; i < 5; ++i) {
        INFO("conv" << i + 1);
        CHECK(std::get<4>(a[i]) == std::get<4>(b[i]));  // R
        CHECK(std::get<6>(a[i]) == std::get<6>(b[i]));  // stride
        CHECK(std::get<1>(a[i]) == tv_k[i]);
        CHECK(std::get<1>(b[i]) == caffe_k[i]);
        CHECK(std::get<10>(a[i]) == 1);
        CHECK(std::get<10>(b[i]) == caffe_g[i]);
        if (i > 0) CHECK(std::get<2>(a[i]) == std::get<2>(b[i]));  // 27, 13, 13, 13 after conv1
    }
    CHECK((std::get<2>(a[0]) == 224 && std::get<2>(b[0]) == 227 && std::get<8>(a[0]) == 2 && std::get<8>(b[0]) == 0));
}
