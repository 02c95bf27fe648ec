// The network workloads under workloads/ against two independent references: the
// summary table of workloads/shapes/README.md (conv count, GMACs to 4 decimals, from the
// published model descriptions) and a recomputation from the CSV tables with our own arithmetic.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "mapper/common/errors.h"
#include "mapper/workload/network.h"

using vp::mapper::load_network;

namespace {
const std::string kRoot = VP_SOURCE_DIR;

struct Expected {
    const char* net;
    std::size_t convs;
    double gmacs;  // shapes/README.md summary table
};
const Expected kTable[] = {
    {"lenet5", 2, 0.0004},        {"lenet_caffe", 2, 0.0019},   {"alexnet", 5, 0.6658},
    {"vgg16", 13, 15.3466},       {"resnet50", 53, 3.8559},     {"resnet50_v1_5", 53, 4.0871},
    {"inception_v3", 94, 5.7112}, {"mobilenetv2", 52, 0.2995},  {"squeezenet1_0", 26, 0.8613},
    {"squeezenet1_1", 26, 0.3877}, {"squeezenet1_1_onnx224", 26, 0.3492}, {"yolov3", 75, 32.9320},
    {"yolov3_tiny", 13, 2.7825},  {"resnet20", 21, 0.0408},
};
// The error message parse_network gives for a document ("no error" when it parses).
std::string bad(const char* text) {
    try {
        vp::mapper::parse_network(nlohmann::json::parse(text), "t.json");
    } catch (const vp::InputError& e) {
        return std::string(e.what());
    }
    return std::string("no error");
}
}  // namespace

TEST_CASE("network workloads match the published conv counts and GMACs", "[workload]") {
    for (const auto& e : kTable) {
        auto net = load_network(kRoot + "/workloads/" + e.net + ".json");
        INFO(e.net);
        CHECK(net.layers.size() == e.convs);
        double g = double(net.total_macs()) * 1e-9;
        CHECK(std::round(g * 1e4) / 1e4 == Approx(e.gmacs).margin(1e-9));
    }
}

TEST_CASE("network workloads equal a recomputation from the CSV shape tables", "[workload]") {
    const std::string dir = kRoot + "/workloads/shapes";
    for (const auto& e : kTable) {
        std::ifstream in(dir + "/" + e.net + ".csv");
        REQUIRE(in);
        std::string line;
        std::getline(in, line);
        unsigned long long macs = 0;
        std::size_t n = 0;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            std::stringstream ss(line);
            std::string f[10];
            for (auto& x : f) std::getline(ss, x, ',');
            long C = std::stol(f[1]), K = std::stol(f[2]), H = std::stol(f[3]), W = std::stol(f[4]),
                 R = std::stol(f[5]), S = std::stol(f[6]), st = std::stol(f[7]), g = std::stol(f[9]);
            long ph, pw;
            auto slash = f[8].find('/');
            if (slash == std::string::npos) ph = pw = std::stol(f[8]);
            else {
                ph = std::stol(f[8].substr(0, slash));
                pw = std::stol(f[8].substr(slash + 1));
            }
            long P = (H + 2 * ph - R) / st + 1, Q = (W + 2 * pw - S) / st + 1;
            macs += (unsigned long long)(C / g) * K * R * S * P * Q;
            ++n;
        }
        auto net = load_network(kRoot + "/workloads/" + e.net + ".json");
        INFO(e.net);
        CHECK(net.layers.size() == n);
        CHECK(net.total_macs() == macs);
    }
}

TEST_CASE("LeNet-5 with pooling and FC layers", "[workload]") {
    auto net = load_network(kRoot + "/workloads/lenet5_full.json");
    REQUIRE(net.layers.size() == 7);
    CHECK(net.layers[1].P() == 14);
    CHECK(net.layers[3].P() == 5);
    // 28*28*6*25 + 10*10*16*150 + 400*120 + 120*84 + 84*10
    CHECK(net.total_macs() == 117600ull + 240000 + 48000 + 10080 + 840);
}

TEST_CASE("bad network documents name the JSON pointer", "[workload]") {
    CHECK_THAT(bad(R"({"layers": []})"), Catch::Contains("/layers") && Catch::Contains("empty"));
    CHECK_THAT(bad(R"({"layers": [{"type": "conv", "C": 0, "K": 1, "H": 4, "W": 4, "R": 1, "S": 1}]})"),
               Catch::Contains("/layers/0/C"));
    CHECK_THAT(bad(R"({"layers": [{"type": "conv", "C": 3, "K": 1, "H": 4, "W": 4, "R": 5, "S": 1}]})"),
               Catch::Contains("kernel height"));
    CHECK_THAT(bad(R"({"layers": [{"type": "conv", "C": 3, "K": 4, "H": 4, "W": 4, "R": 1, "S": 1, "groups": 2}]})"),
               Catch::Contains("groups"));
    CHECK_THAT(bad(R"({"layers": [{"type": "convv", "C": 3}]})"), Catch::Contains("did you mean \"conv\""));
    CHECK_THAT(bad(R"({"layers": [{"type": "fc", "in": 3, "out": 4, "bias": 1}]})"),
               Catch::Contains("unknown member \"bias\""));
    CHECK_THAT(bad(R"({"precision": 12, "layers": [{"type": "fc", "in": 3, "out": 4}]})"),
               Catch::Contains("/precision"));
    CHECK_THAT(bad(R"({"layers": [{"type": "conv", "C": 65536, "K": 65536, "H": 32768, "W": 32768, "R": 3, "S": 3, "pad": 1}]})"),
               Catch::Contains("too large"));
}

TEST_CASE("no silent defaults: a pool or eltwise layer names its op, a pad object all four sides", "[workload]") {
    CHECK(bad(R"({"layers": [{"name": "p", "type": "pool", "C": 3, "H": 8, "W": 8, "R": 2, "S": 2}]})") ==
          "t.json: at /layers/0: missing required member \"op\" (\"max\" or \"avg\")");
    CHECK(bad(R"({"layers": [{"name": "e", "type": "eltwise", "C": 3, "H": 8, "W": 8}]})") ==
          "t.json: at /layers/0: missing required member \"op\" (\"add\" or \"mul\")");
    CHECK(bad(R"({"layers": [{"name": "c", "type": "conv", "C": 3, "K": 4, "H": 8, "W": 8, "R": 3, "S": 3, "pad": {"top": 1}}]})") ==
          "t.json: at /layers/0/pad: missing required member \"bottom\" (a pad object gives all four sides: top, bottom, left, right)");
    CHECK_THAT(bad(R"({"layers": [{"name": "c", "type": "conv", "C": 3, "K": 4, "H": 8, "W": 8, "R": 3, "S": 3,
                                   "pad": {"top": 1, "bottom": 1, "left": 1}}]})"),
               Catch::Contains("/layers/0/pad: missing required member \"right\""));
    CHECK(bad(R"({"layers": [{"name": "c", "type": "conv", "C": 3, "K": 4, "H": 8, "W": 8, "R": 3, "S": 3,
                              "pad": {"top": 1, "bottom": 0, "left": 2, "right": 0}},
                             {"name": "p", "type": "pool", "op": "avg", "C": 4, "H": 6, "W": 7, "R": 2, "S": 2},
                             {"name": "e", "type": "eltwise", "op": "mul", "C": 4, "H": 5, "W": 6}]})") == "no error");
}

TEST_CASE("dilated convolutions: the window spans (R - 1) d + 1, the MACs count the taps", "[workload]") {
    // DeepLabV3's ASPP branch shape: 3 x 3, dilation 12, padding 12 on a 33 x 33 map keeps 33 x 33.
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "conv", "C": 8, "K": 4, "H": 33, "W": 33, "R": 3, "S": 3,
                                              "pad": 12, "dilation": 12},
                                             {"type": "conv", "C": 4, "K": 2, "H": 33, "W": 33, "R": 3, "S": 5,
                                              "dilation": [2, 3]}]})"),
        "d.json");
    const auto& a = net.layers.at(0);
    CHECK((a.dilation_h == 12 && a.dilation_w == 12 && a.window_h() == 25 && a.window_w() == 25));
    CHECK((a.P() == 33 && a.Q() == 33));  // (33 + 24 - 25) / 1 + 1
    CHECK(a.macs() == 8ull * 4 * 9 * 33 * 33);
    const auto& b = net.layers.at(1);
    CHECK((b.window_h() == 5 && b.window_w() == 13 && b.P() == 29 && b.Q() == 21));
    // Written back with the dilation, read back equal.
    const auto back = vp::mapper::parse_network(vp::mapper::network_to_json(net), "back.json");
    CHECK((back.layers.at(1).dilation_h == 2 && back.layers.at(1).dilation_w == 3));
    CHECK(back.layers.at(0).shape_key() == a.shape_key());
    // Same taps, no dilation: another shape.
    auto plain = a;
    plain.dilation_h = plain.dilation_w = 1;
    CHECK(plain.shape_key() != a.shape_key());

    CHECK_THAT(bad(R"({"layers": [{"type": "conv", "C": 3, "K": 1, "H": 8, "W": 8, "R": 3, "S": 3, "dilation": 0}]})"),
               Catch::Contains("/layers/0/dilation"));
    CHECK_THAT(bad(R"({"layers": [{"type": "conv", "C": 3, "K": 1, "H": 8, "W": 8, "R": 3, "S": 3, "dilation": [2]}]})"),
               Catch::Contains("/layers/0/dilation"));
    CHECK_THAT(bad(R"({"layers": [{"type": "conv", "C": 3, "K": 1, "H": 8, "W": 8, "R": 3, "S": 3, "dilation": 4}]})"),
               Catch::Contains("kernel height R=3 (window 9 with dilation 4) exceeds padded input height 8"));
    CHECK_THAT(bad(R"({"layers": [{"type": "pool", "C": 3, "H": 8, "W": 8, "R": 2, "S": 2, "dilation": 2}]})"),
               Catch::Contains("unknown member \"dilation\""));
}

TEST_CASE("An average pool's \"count_include_pad\": optional, avg only, written back", "[workload]") {
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "pool", "op": "avg", "C": 2, "H": 6, "W": 6, "R": 3, "S": 3, "pad": 1, "count_include_pad": true},
                                             {"type": "pool", "op": "avg", "C": 2, "H": 6, "W": 6, "R": 3, "S": 3, "pad": 1}]})"),
        "p.json");
    CHECK((net.layers.at(0).has_count_include_pad && net.layers.at(0).count_include_pad));
    CHECK(!net.layers.at(1).has_count_include_pad);
    const auto back = vp::mapper::parse_network(vp::mapper::network_to_json(net), "back.json");
    CHECK((back.layers.at(0).has_count_include_pad && back.layers.at(0).count_include_pad && !back.layers.at(1).has_count_include_pad));
    CHECK_THAT(bad(R"({"layers": [{"type": "pool", "op": "max", "C": 2, "H": 6, "W": 6, "R": 3, "S": 3, "count_include_pad": false}]})"),
               Catch::Contains("/layers/0/count_include_pad") && Catch::Contains("this pool is max"));
    CHECK_THAT(bad(R"({"layers": [{"type": "pool", "op": "avg", "C": 2, "H": 6, "W": 6, "R": 3, "S": 3, "count_include_pad": 1}]})"),
               Catch::Contains("/layers/0/count_include_pad"));
}

TEST_CASE("A resize's \"coord\" and \"nearest\": optional, checked, written back", "[workload]") {
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "resize", "mode": "linear", "coord": "pytorch_half_pixel", "C": 2, "H": 4, "W": 4, "P": 7, "Q": 7},
                                             {"type": "resize", "coord": "tf_half_pixel_for_nn", "nearest": "ceil", "C": 2, "H": 7, "W": 7, "P": 3, "Q": 3},
                                             {"type": "resize", "C": 2, "H": 3, "W": 3, "P": 6, "Q": 6}]})"),
        "r.json");
    CHECK(net.layers.at(0).resize_coord == vp::mapper::ResizeCoord::PytorchHalfPixel);
    CHECK((net.layers.at(1).resize_coord == vp::mapper::ResizeCoord::TfHalfPixelForNn &&
           net.layers.at(1).nearest_round == vp::mapper::NearestRound::Ceil));
    CHECK((net.layers.at(2).resize_coord == vp::mapper::ResizeCoord::Unknown && net.layers.at(2).nearest_round == vp::mapper::NearestRound::Unknown));
    const auto back = vp::mapper::parse_network(vp::mapper::network_to_json(net), "back.json");
    CHECK((back.layers.at(0).resize_coord == vp::mapper::ResizeCoord::PytorchHalfPixel &&
           back.layers.at(1).nearest_round == vp::mapper::NearestRound::Ceil && back.layers.at(2).resize_coord == vp::mapper::ResizeCoord::Unknown));
    CHECK_THAT(bad(R"({"layers": [{"type": "resize", "coord": "tf_crop_and_resize", "C": 2, "H": 3, "W": 3, "P": 6, "Q": 6}]})"),
               Catch::Contains("/layers/0/coord"));
    CHECK_THAT(bad(R"({"layers": [{"type": "resize", "mode": "linear", "nearest": "floor", "C": 2, "H": 3, "W": 3, "P": 6, "Q": 6}]})"),
               Catch::Contains("/layers/0/nearest") && Catch::Contains("this one is linear"));
    CHECK_THAT(bad(R"({"layers": [{"type": "resize", "nearest": "down", "C": 2, "H": 3, "W": 3, "P": 6, "Q": 6}]})"),
               Catch::Contains("/layers/0/nearest"));
}

TEST_CASE("hard_sigmoid's \"alpha\" and \"beta\": read together and written back, only with that activation", "[workload]") {
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "conv", "C": 3, "K": 4, "H": 8, "W": 8, "R": 3, "S": 3, "pad": 1,
                                              "act": "hard_sigmoid", "alpha": 0.2, "beta": 0.5},
                                             {"type": "act", "op": "hard_sigmoid", "alpha": 0.125, "beta": -1, "C": 4, "H": 8, "W": 8},
                                             {"type": "act", "op": "hard_sigmoid", "C": 4, "H": 8, "W": 8}]})"),
        "h.json");
    CHECK((net.layers.at(0).has_alpha && net.layers.at(0).alpha == Approx(0.2) && net.layers.at(0).beta == Approx(0.5)));
    CHECK((net.layers.at(1).has_alpha && net.layers.at(1).alpha == Approx(0.125) && net.layers.at(1).beta == Approx(-1)));
    CHECK(!net.layers.at(2).has_alpha);  // not given: the shape platforms do not need them
    const auto back = vp::mapper::parse_network(vp::mapper::network_to_json(net), "back.json");
    CHECK((back.layers.at(0).has_alpha && back.layers.at(0).alpha == Approx(0.2) && back.layers.at(0).beta == Approx(0.5)));
    CHECK((back.layers.at(1).has_alpha && back.layers.at(1).alpha == Approx(0.125) && back.layers.at(1).beta == Approx(-1)));
    CHECK(!back.layers.at(2).has_alpha);
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "hard_sigmoid", "alpha": 0.2, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/alpha") && Catch::Contains("needs its \"beta\" as well"));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "hard_sigmoid", "beta": 0.5, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/beta") && Catch::Contains("needs its \"alpha\" as well"));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "leaky_relu", "alpha": 0.1, "beta": 0.5, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/beta") && Catch::Contains("the offset of hard_sigmoid; this layer's activation is leaky_relu"));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "hard_sigmoid", "alpha": 0.2, "beta": 1e9, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/beta"));
    CHECK_THAT(bad(R"({"layers": [{"type": "pool", "op": "max", "C": 3, "H": 8, "W": 8, "R": 2, "S": 2, "beta": 0.5}]})"),
               Catch::Contains("unknown member \"beta\""));
}

TEST_CASE("lrn layers and the tanh, softplus and elu activations: read, checked, written back", "[workload]") {
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "conv", "C": 3, "K": 4, "H": 8, "W": 8, "R": 3, "S": 3, "pad": 1, "act": "elu", "alpha": 0.5},
                                             {"type": "lrn", "size": 5, "alpha": 1e-4, "beta": 0.75, "bias": 2, "C": 4, "H": 8, "W": 8},
                                             {"type": "act", "op": "softplus", "C": 4, "H": 8, "W": 8},
                                             {"type": "act", "op": "tanh", "C": 4, "H": 8, "W": 8},
                                             {"type": "eltwise", "op": "mul", "act": "tanh", "C": 4, "H": 8, "W": 8},
                                             {"type": "act", "op": "elu", "C": 4, "H": 8, "W": 8}]})"),
        "n.json");
    using vp::mapper::Activation;
    const auto check = [](const vp::mapper::Network& n) {
        CHECK((n.layers.at(0).act == Activation::Elu && n.layers.at(0).has_alpha && n.layers.at(0).alpha == Approx(0.5)));
        const auto& l = n.layers.at(1);
        CHECK((l.kind == vp::mapper::LayerKind::Lrn && l.lrn_size == 5 && l.alpha == Approx(1e-4) && l.beta == Approx(0.75) &&
               l.lrn_bias == Approx(2.0) && l.output_elems() == 4u * 8 * 8 && l.macs() == 0));
        CHECK(n.layers.at(2).act == Activation::Softplus);
        CHECK(n.layers.at(3).act == Activation::Tanh);
        CHECK(n.layers.at(4).act == Activation::Tanh);
        CHECK((n.layers.at(5).act == Activation::Elu && !n.layers.at(5).has_alpha));  // the shape platforms do not need it
    };
    check(net);
    const auto back = vp::mapper::parse_network(vp::mapper::network_to_json(net), "back.json");
    check(back);
    CHECK_THAT(bad(R"({"layers": [{"type": "lrn", "alpha": 1e-4, "beta": 0.75, "bias": 1, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0") && Catch::Contains("\"size\""));
    CHECK_THAT(bad(R"({"layers": [{"type": "lrn", "size": 0, "alpha": 1e-4, "beta": 0.75, "bias": 1, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/size"));
    CHECK_THAT(bad(R"({"layers": [{"type": "lrn", "size": 3, "alpha": 1e-4, "beta": 0.75, "bias": 0, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/bias"));
    CHECK_THAT(bad(R"({"layers": [{"type": "lrn", "size": 3, "alpha": -1, "beta": 0.75, "bias": 1, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/alpha"));
    CHECK_THAT(bad(R"({"layers": [{"type": "lrn", "size": 3, "alpha": 1e-4, "beta": 0.75, "bias": 1, "C": 4, "H": 8, "W": 8, "R": 3}]})"),
               Catch::Contains("unknown member \"R\""));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "tanh", "alpha": 0.5, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/alpha") && Catch::Contains("this layer's activation is tanh"));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "mish", "C": 4, "H": 8, "W": 8}]})"), Catch::Contains("/layers/0/op"));
}

TEST_CASE("A layernorm's axis and epsilon: read, checked, written back", "[workload]") {
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "layernorm", "axis": "c", "epsilon": 1e-6, "C": 4, "H": 8, "W": 8},
                                             {"type": "layernorm", "axis": "hw", "epsilon": 0.01, "C": 4, "H": 8, "W": 8},
                                             {"type": "layernorm", "C": 4, "H": 8, "W": 8}]})"),
        "ln.json");
    using vp::mapper::SoftmaxAxis;
    const auto check = [](const vp::mapper::Network& n) {
        CHECK((n.layers.at(0).norm_axis == SoftmaxAxis::C && n.layers.at(0).norm_eps == Approx(1e-6)));
        CHECK((n.layers.at(1).norm_axis == SoftmaxAxis::HW && n.layers.at(1).norm_eps == Approx(0.01)));
        // Not given (workloads written before these fields): the shape platforms do not need them.
        CHECK((n.layers.at(2).norm_axis == SoftmaxAxis::Unknown && n.layers.at(2).norm_eps == 0.0));
    };
    check(net);
    const auto j = vp::mapper::network_to_json(net);
    CHECK(!j["layers"][2].contains("axis"));
    CHECK(!j["layers"][2].contains("epsilon"));
    check(vp::mapper::parse_network(j, "back.json"));
    CHECK_THAT(bad(R"({"layers": [{"type": "layernorm", "axis": "n", "epsilon": 1e-5, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/axis"));
    CHECK_THAT(bad(R"({"layers": [{"type": "layernorm", "axis": "c", "epsilon": 0, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/epsilon") && Catch::Contains("above 0"));
    CHECK_THAT(bad(R"({"layers": [{"type": "layernorm", "axis": "c", "epsilon": -1, "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/epsilon"));
    CHECK_THAT(bad(R"({"layers": [{"type": "batchnorm", "axis": "c", "C": 4, "H": 8, "W": 8}]})"), Catch::Contains("unknown member \"axis\""));
}

TEST_CASE("depth_to_space and space_to_depth layers: shapes, read, checked, written back", "[workload]") {
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "space_to_depth", "block": 2, "C": 4, "H": 8, "W": 6},
                                             {"type": "depth_to_space", "block": 2, "mode": "crd", "C": 16, "H": 4, "W": 3},
                                             {"type": "depth_to_space", "block": 4, "mode": "dcr", "C": 64, "H": 2, "W": 2}]})"),
        "sd.json");
    using vp::mapper::LayerKind;
    const auto check = [](const vp::mapper::Network& n) {
        const auto& a = n.layers.at(0);
        CHECK((a.kind == LayerKind::SpaceToDepth && a.K == 16 && a.P() == 4 && a.Q() == 3 && a.output_elems() == 4u * 8 * 6 && a.macs() == 0));
        const auto& b = n.layers.at(1);
        CHECK((b.kind == LayerKind::DepthToSpace && b.crd && b.K == 4 && b.P() == 8 && b.Q() == 6));
        const auto& c = n.layers.at(2);
        CHECK((!c.crd && c.K == 4 && c.P() == 8 && c.Q() == 8));
    };
    check(net);
    check(vp::mapper::parse_network(vp::mapper::network_to_json(net), "back.json"));
    CHECK_THAT(bad(R"({"layers": [{"type": "depth_to_space", "block": 2, "C": 16, "H": 4, "W": 3}]})"),
               Catch::Contains("/layers/0") && Catch::Contains("\"mode\""));
    CHECK_THAT(bad(R"({"layers": [{"type": "depth_to_space", "block": 3, "mode": "dcr", "C": 16, "H": 4, "W": 3}]})"),
               Catch::Contains("/layers/0/block") && Catch::Contains("not a multiple of block^2 = 9"));
    CHECK_THAT(bad(R"({"layers": [{"type": "space_to_depth", "block": 3, "C": 4, "H": 8, "W": 6}]})"),
               Catch::Contains("/layers/0/block") && Catch::Contains("8 x 6 is not a multiple of the block 3"));
    CHECK_THAT(bad(R"({"layers": [{"type": "space_to_depth", "block": 2, "mode": "dcr", "C": 4, "H": 8, "W": 6}]})"),
               Catch::Contains("unknown member \"mode\""));
}

TEST_CASE("Slices along C, H and W with a step, concats along H and W: read, checked, written back", "[workload]") {
    const auto net = vp::mapper::parse_network(nlohmann::json::parse(R"({"layers": [
        {"name": "c", "type": "conv", "C": 3, "K": 6, "H": 8, "W": 8, "R": 3, "S": 3, "pad": 1, "inputs": ["input"]},
        {"name": "rows", "type": "slice", "axis": "h", "C": 6, "P": 4, "offset": 1, "step": 2, "H": 8, "W": 8, "inputs": ["c"]},
        {"name": "cols", "type": "slice", "axis": "w", "C": 6, "Q": 2, "offset": 2, "step": 3, "H": 4, "W": 8, "inputs": ["rows"]},
        {"name": "chans", "type": "slice", "C": 6, "K": 3, "offset": 1, "step": 2, "H": 8, "W": 8, "inputs": ["c"]},
        {"name": "cat_h", "type": "concat", "axis": "h", "C": 6, "H": 12, "W": 8, "inputs": ["c", "rows"]},
        {"name": "cat_w", "type": "concat", "axis": "w", "C": 6, "H": 4, "W": 10, "inputs": ["rows", "cols"]},
        {"name": "cat_c", "type": "concat", "axis": "c", "C": 12, "H": 4, "W": 8, "inputs": ["rows", "rows"]}]})"),
                                               "spatial.json");
    using vp::mapper::SoftmaxAxis;
    const auto check = [](const vp::mapper::Network& n) {
        const auto& rows = n.layers.at(1);
        CHECK((rows.data_axis == SoftmaxAxis::H && rows.K == 6 && rows.P() == 4 && rows.Q() == 8 && rows.offset == 1 && rows.slice_step == 2));
        const auto& cols = n.layers.at(2);
        CHECK((cols.data_axis == SoftmaxAxis::W && cols.P() == 4 && cols.Q() == 2 && cols.output_elems() == 6u * 4 * 2));
        const auto& chans = n.layers.at(3);
        CHECK((chans.data_axis == SoftmaxAxis::C && chans.K == 3 && chans.slice_step == 2 && chans.P() == 8));
        CHECK((n.layers.at(4).data_axis == SoftmaxAxis::H && n.layers.at(5).data_axis == SoftmaxAxis::W &&
               n.layers.at(6).data_axis == SoftmaxAxis::C));
        CHECK(n.layers.at(1).shape_key() != n.layers.at(3).shape_key());
    };
    check(net);
    const auto back = vp::mapper::parse_network(vp::mapper::network_to_json(net), "back.json");
    check(back);
    CHECK(vp::mapper::network_to_json(back).dump() == vp::mapper::network_to_json(net).dump());
    CHECK(vp::mapper::network_to_json(net)["layers"][6].dump().find("axis") == std::string::npos);  // C: the default, not written
    // Errors name the member.
    CHECK_THAT(bad(R"({"layers": [{"type": "slice", "axis": "h", "C": 6, "K": 3, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/K") && Catch::Contains("its count is \"P\""));
    CHECK_THAT(bad(R"({"layers": [{"type": "slice", "axis": "w", "C": 6, "Q": 3, "offset": 2, "step": 3, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/Q") && Catch::Contains("pass the end of the 8"));
    CHECK_THAT(bad(R"({"layers": [{"type": "slice", "axis": "hw", "C": 6, "K": 3, "H": 8, "W": 8}]})"), Catch::Contains("/layers/0/axis"));
    CHECK_THAT(bad(R"({"layers": [{"type": "slice", "C": 6, "K": 2, "step": 0, "H": 8, "W": 8}]})"), Catch::Contains("/layers/0/step"));
    CHECK_THAT(bad(R"({"layers": [{"type": "slice", "axis": "h", "C": 6, "H": 8, "W": 8}]})"), Catch::Contains("\"P\""));
    CHECK_THAT(bad(R"({"layers": [
        {"name": "c", "type": "conv", "C": 3, "K": 6, "H": 8, "W": 8, "R": 3, "S": 3, "pad": 1, "inputs": ["input"]},
        {"name": "r", "type": "slice", "C": 6, "K": 1, "H": 8, "W": 8, "inputs": ["c"]},
        {"name": "cat", "type": "concat", "axis": "h", "C": 6, "H": 9, "W": 8, "inputs": ["c", "r"]}]})"),
               Catch::Contains("/layers/2/inputs/1") && Catch::Contains("not a whole number of rows"));
}

TEST_CASE("A pad layer's mode and value: read, checked, written back", "[workload]") {
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "pad", "mode": "reflect", "C": 4, "H": 8, "W": 8, "pad": 2},
                                             {"type": "pad", "mode": "edge", "C": 4, "H": 12, "W": 12, "pad": [1, 0]},
                                             {"type": "pad", "value": -0.5, "C": 4, "H": 14, "W": 12, "pad": 1},
                                             {"type": "pad", "C": 4, "H": 16, "W": 14, "pad": 1}]})"),
        "p.json");
    using vp::mapper::PadMode;
    const auto check = [](const vp::mapper::Network& n) {
        CHECK((n.layers.at(0).pad_mode == PadMode::Reflect && n.layers.at(0).P() == 12));
        CHECK(n.layers.at(1).pad_mode == PadMode::Edge);
        CHECK((n.layers.at(2).pad_mode == PadMode::Constant && n.layers.at(2).pad_value == -0.5));
        CHECK((n.layers.at(3).pad_mode == PadMode::Constant && n.layers.at(3).pad_value == 0.0));  // zeros, as before
    };
    check(net);
    const auto j = vp::mapper::network_to_json(net);
    CHECK(!j["layers"][3].contains("mode"));
    CHECK(!j["layers"][3].contains("value"));
    check(vp::mapper::parse_network(j, "back.json"));
    CHECK_THAT(bad(R"({"layers": [{"type": "pad", "mode": "wrap", "C": 4, "H": 8, "W": 8, "pad": 1}]})"), Catch::Contains("/layers/0/mode"));
    CHECK_THAT(bad(R"({"layers": [{"type": "pad", "mode": "edge", "value": 1, "C": 4, "H": 8, "W": 8, "pad": 1}]})"),
               Catch::Contains("/layers/0/value") && Catch::Contains("this pad's mode is edge"));
}

TEST_CASE("A clip's bounds: \"clip\": [min, max] with null for a missing bound, written back", "[workload]") {
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "conv", "C": 3, "K": 4, "H": 8, "W": 8, "R": 3, "S": 3, "pad": 1, "act": "clip", "clip": [-1, 2.5]},
                                             {"type": "act", "op": "clip", "clip": [null, 0.75], "C": 4, "H": 8, "W": 8},
                                             {"type": "act", "op": "clip", "C": 4, "H": 8, "W": 8}]})"),
        "c.json");
    const auto check = [](const vp::mapper::Network& n) {
        CHECK((n.layers.at(0).has_clip && n.layers.at(0).clip_lo == Approx(-1) && n.layers.at(0).clip_hi == Approx(2.5)));
        CHECK((n.layers.at(1).has_clip && std::isinf(n.layers.at(1).clip_lo) && n.layers.at(1).clip_lo < 0 &&
               n.layers.at(1).clip_hi == Approx(0.75)));
        CHECK(!n.layers.at(2).has_clip);  // not given: the shape platforms do not need them
    };
    check(net);
    check(vp::mapper::parse_network(vp::mapper::network_to_json(net), "back.json"));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "relu", "clip": [0, 1], "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/clip") && Catch::Contains("this layer's activation is relu"));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "clip", "clip": [2, 1], "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/clip") && Catch::Contains("exceeds max"));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "clip", "clip": [1], "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/clip") && Catch::Contains("[min, max]"));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "clip", "clip": ["a", 1], "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/clip/0"));
    CHECK_THAT(bad(R"({"layers": [{"type": "pool", "op": "max", "C": 3, "H": 8, "W": 8, "R": 2, "S": 2, "clip": [0, 1]}]})"),
               Catch::Contains("unknown member \"clip\""));
}

TEST_CASE("leaky_relu's slope: \"alpha\" read and written back, only with that activation", "[workload]") {
    const auto net = vp::mapper::parse_network(
        nlohmann::json::parse(R"({"layers": [{"type": "conv", "C": 3, "K": 4, "H": 8, "W": 8, "R": 3, "S": 3, "pad": 1,
                                              "act": "leaky_relu", "alpha": 0.1},
                                             {"type": "act", "op": "leaky_relu", "alpha": 0.2, "C": 4, "H": 8, "W": 8},
                                             {"type": "act", "op": "leaky_relu", "C": 4, "H": 8, "W": 8}]})"),
        "l.json");
    CHECK((net.layers.at(0).has_alpha && net.layers.at(0).alpha == Approx(0.1)));
    CHECK((net.layers.at(1).has_alpha && net.layers.at(1).alpha == Approx(0.2)));
    CHECK(!net.layers.at(2).has_alpha);  // not given: the shape platforms do not need it
    const auto back = vp::mapper::parse_network(vp::mapper::network_to_json(net), "back.json");
    CHECK((back.layers.at(0).has_alpha && back.layers.at(0).alpha == Approx(0.1)));
    CHECK((back.layers.at(1).has_alpha && back.layers.at(1).alpha == Approx(0.2)));
    CHECK(!back.layers.at(2).has_alpha);
    CHECK_THAT(bad(R"({"layers": [{"type": "conv", "C": 3, "K": 4, "H": 8, "W": 8, "R": 3, "S": 3, "act": "relu", "alpha": 0.1}]})"),
               Catch::Contains("/layers/0/alpha") && Catch::Contains("the slope of leaky_relu, elu or hard_sigmoid; this layer's activation is relu"));
    CHECK_THAT(bad(R"({"layers": [{"type": "fc", "in": 3, "out": 4, "alpha": 0.1}]})"), Catch::Contains("/layers/0/alpha"));
    CHECK_THAT(bad(R"({"layers": [{"type": "act", "op": "leaky_relu", "alpha": "x", "C": 4, "H": 8, "W": 8}]})"),
               Catch::Contains("/layers/0/alpha"));
}
