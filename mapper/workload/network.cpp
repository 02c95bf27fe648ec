#include "mapper/workload/network.h"

#include <fstream>
#include <set>
#include <sstream>

#include "mapper/common/errors.h"
#include "mapper/common/json_check.h"

namespace vp::mapper {

namespace {

constexpr std::int64_t kMaxChannels = 1 << 16;  // channels / filters per layer
constexpr std::int64_t kMaxSpatial = 1 << 15;   // feature-map height / width
constexpr std::int64_t kMaxKernel = 1 << 10;    // kernel height / width
constexpr std::int64_t kMaxStride = 1 << 10;
constexpr unsigned __int128 kMaxLayerMacs = (unsigned __int128)1 << 50;  // ~1e15: far above any real layer

// stride: N | [sh, sw]; pad: N | [pH, pW] | {top, bottom, left, right}
void read_stride(const JsonCheck& j, Layer& l) {
    if (!j.has("stride")) return;
    auto s = j.at("stride");
    if (s.value().is_array()) {
        if (s.size() != 2) s.fail("expected [stride_h, stride_w]");
        l.stride_h = int(s.at(0).as_int(1, kMaxStride));
        l.stride_w = int(s.at(1).as_int(1, kMaxStride));
    } else {
        l.stride_h = l.stride_w = int(s.as_int(1, kMaxStride));
    }
}

void read_pad(const JsonCheck& j, Layer& l) {
    if (!j.has("pad")) return;
    auto p = j.at("pad");
    if (p.value().is_array()) {
        if (p.size() != 2) p.fail("expected [pad_h, pad_w]");
        l.pad_top = l.pad_bottom = int(p.at(0).as_int(0, kMaxKernel));
        l.pad_left = l.pad_right = int(p.at(1).as_int(0, kMaxKernel));
    } else if (p.value().is_object()) {
        p.allow_only({"top", "bottom", "left", "right"});
        l.pad_top = int(p.get_int("top", 0, kMaxKernel, 0));
        l.pad_bottom = int(p.get_int("bottom", 0, kMaxKernel, 0));
        l.pad_left = int(p.get_int("left", 0, kMaxKernel, 0));
        l.pad_right = int(p.get_int("right", 0, kMaxKernel, 0));
    } else {
        l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = int(p.as_int(0, kMaxKernel));
    }
}

void check_window(const JsonCheck& j, const Layer& l) {
    if (l.R > l.H + l.pad_top + l.pad_bottom)
        j.fail("kernel height R=" + std::to_string(l.R) + " exceeds padded input height " +
               std::to_string(l.H + l.pad_top + l.pad_bottom));
    if (l.S > l.W + l.pad_left + l.pad_right)
        j.fail("kernel width S=" + std::to_string(l.S) + " exceeds padded input width " +
               std::to_string(l.W + l.pad_left + l.pad_right));
}

Layer parse_layer(const JsonCheck& j, std::size_t index) {
    j.expect_object();
    Layer l;
    l.name = j.has("name") ? j.at("name").as_string() : "layer" + std::to_string(index);
    std::string type = j.at("type").as_enum({"conv", "fc", "pool", "eltwise"});
    if (type == "conv") {
        j.allow_only({"name", "type", "C", "K", "H", "W", "R", "S", "stride", "pad", "groups", "relu"});
        l.kind = LayerKind::Conv;
        l.C = int(j.at("C").as_int(1, kMaxChannels));
        l.K = int(j.at("K").as_int(1, kMaxChannels));
        l.H = int(j.at("H").as_int(1, kMaxSpatial));
        l.W = int(j.at("W").as_int(1, kMaxSpatial));
        l.R = int(j.at("R").as_int(1, kMaxKernel));
        l.S = int(j.at("S").as_int(1, kMaxKernel));
        read_stride(j, l);
        read_pad(j, l);
        l.groups = int(j.get_int("groups", 1, kMaxChannels, 1));
        if (l.C % l.groups != 0 || l.K % l.groups != 0)
            j.at("groups").fail("groups=" + std::to_string(l.groups) + " must divide C=" + std::to_string(l.C) +
                                " and K=" + std::to_string(l.K));
        check_window(j, l);
    } else if (type == "fc") {
        j.allow_only({"name", "type", "in", "out", "relu"});
        l.kind = LayerKind::FullyConnected;
        l.C = int(j.at("in").as_int(1, 1 << 24));
        l.K = int(j.at("out").as_int(1, 1 << 24));
    } else if (type == "pool") {
        j.allow_only({"name", "type", "op", "C", "H", "W", "R", "S", "stride", "pad"});
        l.kind = LayerKind::Pool;
        l.pool_op = j.has("op") && j.at("op").as_enum({"max", "avg"}) == "avg" ? PoolOp::Avg : PoolOp::Max;
        l.C = l.K = int(j.at("C").as_int(1, kMaxChannels));
        l.H = int(j.at("H").as_int(1, kMaxSpatial));
        l.W = int(j.at("W").as_int(1, kMaxSpatial));
        l.R = int(j.at("R").as_int(1, kMaxKernel));
        l.S = int(j.at("S").as_int(1, kMaxKernel));
        read_stride(j, l);
        read_pad(j, l);
        check_window(j, l);
    } else {
        j.allow_only({"name", "type", "op", "C", "H", "W", "relu"});
        l.kind = LayerKind::Eltwise;
        l.eltwise_op = j.has("op") && j.at("op").as_enum({"add", "mul"}) == "mul" ? EltwiseOp::Mul : EltwiseOp::Add;
        l.C = l.K = int(j.at("C").as_int(1, kMaxChannels));
        l.H = int(j.at("H").as_int(1, kMaxSpatial));
        l.W = int(j.at("W").as_int(1, kMaxSpatial));
    }
    if (j.has("relu")) l.relu = j.at("relu").as_bool();
    unsigned __int128 macs = (unsigned __int128)(l.C / l.groups) * l.K * l.R * l.S * (unsigned)l.P() * (unsigned)l.Q();
    if (macs > kMaxLayerMacs) j.fail("layer is too large (more than 2^50 MACs)");
    return l;
}

}  // namespace

std::uint64_t Network::total_macs() const {
    std::uint64_t t = 0;
    for (const auto& l : layers) t += l.macs();
    return t;
}

Network parse_network(const nlohmann::json& doc, const std::string& source) {
    JsonCheck root(doc, source);
    root.expect_object();
    root.allow_only({"name", "precision", "layers", "description", "input"});
    Network net;
    net.name = root.get_string("name", "network");
    if (root.has("precision")) {
        auto p = root.at("precision");
        net.precision_bits = int(p.as_int(8, 16));
        if (net.precision_bits != 8 && net.precision_bits != 16) p.fail("precision must be 8 or 16 (bits)");
    }
    auto layers = root.at("layers");
    if (layers.size() == 0) layers.fail("the layer list is empty");
    std::set<std::string> names;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        auto lj = layers.at(i);
        Layer l = parse_layer(lj, i);
        if (!names.insert(l.name).second) lj.at("name").fail("duplicate layer name \"" + l.name + "\"");
        net.layers.push_back(std::move(l));
    }
    return net;
}

nlohmann::json read_json_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open file");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // Turn the byte offset into line:column.
        std::size_t line = 1, col = 1;
        for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        std::string what = e.what();
        auto pos = what.find("syntax error");
        throw InputError(path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": JSON " +
                         (pos == std::string::npos ? what : what.substr(pos)));
    }
}

Network load_network(const std::string& path) { return parse_network(read_json_file(path), path); }

}  // namespace vp::mapper
