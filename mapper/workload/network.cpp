#include "mapper/workload/network.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "mapper/common/json_check.h"
#include "mapper/common/json_text.h"

namespace vp::mapper {

namespace {

constexpr std::int64_t kMaxChannels = 1 << 16;  // channels / filters per layer
constexpr std::int64_t kMaxSpatial = 1 << 15;   // feature-map height / width
constexpr std::int64_t kMaxKernel = 1 << 10;    // kernel height / width
constexpr std::int64_t kMaxStride = 1 << 10;
constexpr std::int64_t kMaxFc = 1 << 24;        // fc inputs / outputs
constexpr std::int64_t kMaxBatch = 1 << 10;
constexpr unsigned __int128 kMaxLayerMacs = (unsigned __int128)1 << 50;  // ~1e15: far above any real layer
constexpr const char* kNetInputName = "input";  // producer name of the network input

// key: N | [h, w] (stride, zero_insert, dilation); pad: N | [pH, pW] | {top, bottom, left, right}
void read_hw(const JsonCheck& j, const char* key, int& h, int& w) {
    if (!j.has(key)) return;
    auto s = j.at(key);
    if (s.value().is_array()) {
        if (s.size() != 2) s.fail(std::string("expected [") + key + "_h, " + key + "_w]");
        h = int(s.at(0).as_int(1, kMaxStride));
        w = int(s.at(1).as_int(1, kMaxStride));
    } else {
        h = w = int(s.as_int(1, kMaxStride));
    }
}
void read_stride(const JsonCheck& j, Layer& l) { read_hw(j, "stride", l.stride_h, l.stride_w); }

void read_pad(const JsonCheck& j, Layer& l) {
    if (!j.has("pad")) return;
    auto p = j.at("pad");
    if (p.value().is_array()) {
        if (p.size() != 2) p.fail("expected [pad_h, pad_w]");
        l.pad_top = l.pad_bottom = int(p.at(0).as_int(0, kMaxKernel));
        l.pad_left = l.pad_right = int(p.at(1).as_int(0, kMaxKernel));
    } else if (p.value().is_object()) {
        p.allow_only({"top", "bottom", "left", "right"});
        // Every side: a side left out is not obviously 0 (ONNX pads, for one, list begins then ends).
        for (const char* side : {"top", "bottom", "left", "right"})
            if (!p.has(side))
                p.fail(std::string("missing required member \"") + side +
                       "\" (a pad object gives all four sides: top, bottom, left, right)");
        l.pad_top = int(p.at("top").as_int(0, kMaxKernel));
        l.pad_bottom = int(p.at("bottom").as_int(0, kMaxKernel));
        l.pad_left = int(p.at("left").as_int(0, kMaxKernel));
        l.pad_right = int(p.at("right").as_int(0, kMaxKernel));
    } else {
        l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = int(p.as_int(0, kMaxKernel));
    }
}

void check_window(const JsonCheck& j, const Layer& l) {
    const bool dilated = l.dilation_h != 1 || l.dilation_w != 1;
    if (l.window_h() > l.H + l.pad_top + l.pad_bottom)
        j.fail("kernel height R=" + std::to_string(l.R) +
               (dilated ? " (window " + std::to_string(l.window_h()) + " with dilation " + std::to_string(l.dilation_h) + ")" : "") +
               " exceeds padded input height " + std::to_string(l.H + l.pad_top + l.pad_bottom));
    if (l.window_w() > l.W + l.pad_left + l.pad_right)
        j.fail("kernel width S=" + std::to_string(l.S) +
               (dilated ? " (window " + std::to_string(l.window_w()) + " with dilation " + std::to_string(l.dilation_w) + ")" : "") +
               " exceeds padded input width " + std::to_string(l.W + l.pad_left + l.pad_right));
}

void read_chw(const JsonCheck& j, Layer& l) {
    l.C = l.K = int(j.at("C").as_int(1, kMaxChannels));
    l.H = int(j.at("H").as_int(1, kMaxSpatial));
    l.W = int(j.at("W").as_int(1, kMaxSpatial));
}

const std::initializer_list<const char*> kActNames = {"relu",    "relu6", "clip", "leaky_relu", "hard_sigmoid", "hard_swish",
                                                      "sigmoid", "softmax", "erf", "tanh",      "softplus",     "elu"};
Activation act_of(const std::string& s) {
    for (Activation a : {Activation::Relu, Activation::Relu6, Activation::Clip, Activation::LeakyRelu, Activation::Sigmoid,
                         Activation::HardSigmoid, Activation::HardSwish, Activation::Softmax, Activation::Erf, Activation::Tanh,
                         Activation::Softplus, Activation::Elu})
        if (s == to_string(a)) return a;
    return Activation::None;
}

// "alpha": leaky_relu's slope for x < 0, elu's alpha (e^x - 1) for x < 0; "alpha" and "beta"
// together: hard_sigmoid's max(0, min(1, alpha x + beta)). Only with those activations.
void read_alpha(const JsonCheck& j, Layer& l) {
    const bool hs = l.act == Activation::HardSigmoid;
    if (j.has("beta") && !hs)
        j.at("beta").fail("\"beta\" is the offset of hard_sigmoid; this layer's activation is " + std::string(to_string(l.act)));
    if (!j.has("alpha")) {
        if (j.has("beta")) j.at("beta").fail("hard_sigmoid's \"beta\" needs its \"alpha\" as well");
        return;
    }
    if (l.act != Activation::LeakyRelu && l.act != Activation::Elu && !hs)
        j.at("alpha").fail("\"alpha\" is the slope of leaky_relu, elu or hard_sigmoid; this layer's activation is " +
                           std::string(to_string(l.act)));
    if (hs && !j.has("beta")) j.at("alpha").fail("hard_sigmoid's \"alpha\" needs its \"beta\" as well");
    l.alpha = j.at("alpha").as_number(-1e3, 1e3);
    if (hs) l.beta = j.at("beta").as_number(-1e3, 1e3);
    l.has_alpha = true;
}

// "clip": [min, max] of a clip activation, null for a bound it does not have.
void read_clip(const JsonCheck& j, Layer& l) {
    if (!j.has("clip")) return;
    auto c = j.at("clip");
    if (l.act != Activation::Clip)
        c.fail("\"clip\" is the bounds of the clip activation; this layer's activation is " + std::string(to_string(l.act)));
    if (c.size() != 2) c.fail("expected [min, max] (null for a bound the clip does not have)");
    const double inf = std::numeric_limits<double>::infinity();
    l.clip_lo = c.at(std::size_t(0)).value().is_null() ? -inf : c.at(std::size_t(0)).as_number(-1e6, 1e6);
    l.clip_hi = c.at(std::size_t(1)).value().is_null() ? inf : c.at(std::size_t(1)).as_number(-1e6, 1e6);
    if (l.clip_lo > l.clip_hi) c.fail("min " + std::to_string(l.clip_lo) + " exceeds max " + std::to_string(l.clip_hi));
    l.has_clip = true;
}

// The activation's parameters, fused or of an act layer: "alpha", "beta" (hard_sigmoid), "clip".
void write_act_params(nlohmann::ordered_json& j, const Layer& l) {
    if (l.has_alpha) j["alpha"] = l.alpha;
    if (l.has_alpha && l.act == Activation::HardSigmoid) j["beta"] = l.beta;
    auto bound = [](double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr); };
    if (l.has_clip) j["clip"] = nlohmann::ordered_json::array({bound(l.clip_lo), bound(l.clip_hi)});
}

// Fused activation of conv / fc / eltwise: "relu": bool or "act": name (not both).
void read_fused_act(const JsonCheck& j, Layer& l) {
    if (j.has("relu") && j.has("act")) j.at("act").fail("give either \"relu\" or \"act\", not both");
    if (j.has("relu")) {
        l.relu = j.at("relu").as_bool();
        l.act = l.relu ? Activation::Relu : Activation::None;
    }
    if (j.has("act")) {
        auto a = j.at("act");
        l.act = act_of(a.as_enum(kActNames));
        if (l.act == Activation::Softmax) a.fail("softmax is not a fused activation (use an \"act\" layer)");
        l.relu = l.act == Activation::Relu || l.act == Activation::Relu6;
    }
    read_alpha(j, l);
    read_clip(j, l);
}

Layer parse_layer(const JsonCheck& j, std::size_t index) {
    j.expect_object();
    Layer l;
    l.name = j.has("name") ? j.at("name").as_string() : "layer" + std::to_string(index);
    const std::string type =
        j.at("type").as_enum({"conv", "fc", "pool", "eltwise", "concat", "slice", "resize", "act", "batchnorm", "layernorm", "lrn", "pad",
                              "depth_to_space", "space_to_depth"});
    if (type == "conv") {
        j.allow_only({"name", "type", "C", "K", "H", "W", "R", "S", "stride", "pad", "dilation", "groups", "relu", "act", "clip",
                      "alpha", "beta", "inputs", "zero_insert"});
        l.kind = LayerKind::Conv;
        l.C = int(j.at("C").as_int(1, kMaxChannels));
        l.K = int(j.at("K").as_int(1, kMaxChannels));
        l.H = int(j.at("H").as_int(1, kMaxSpatial));
        l.W = int(j.at("W").as_int(1, kMaxSpatial));
        l.R = int(j.at("R").as_int(1, kMaxKernel));
        l.S = int(j.at("S").as_int(1, kMaxKernel));
        read_stride(j, l);
        read_pad(j, l);
        read_hw(j, "dilation", l.dilation_h, l.dilation_w);
        l.groups = int(j.get_int("groups", 1, kMaxChannels, 1));
        if (l.C % l.groups != 0 || l.K % l.groups != 0)
            j.at("groups").fail("groups=" + std::to_string(l.groups) + " must divide C=" + std::to_string(l.C) +
                                " and K=" + std::to_string(l.K));
        check_window(j, l);
        read_fused_act(j, l);
        read_hw(j, "zero_insert", l.zero_insert_h, l.zero_insert_w);
        if ((l.H - 1) % l.zero_insert_h != 0 || (l.W - 1) % l.zero_insert_w != 0)
            j.at("zero_insert").fail("H - 1 and W - 1 must be multiples of the zero insertion");
    } else if (type == "fc") {
        j.allow_only({"name", "type", "in", "out", "relu", "act", "alpha", "beta", "clip", "inputs"});
        l.kind = LayerKind::FullyConnected;
        l.C = int(j.at("in").as_int(1, kMaxFc));
        l.K = int(j.at("out").as_int(1, kMaxFc));
        read_fused_act(j, l);
    } else if (type == "pool") {
        j.allow_only({"name", "type", "op", "C", "H", "W", "R", "S", "stride", "pad", "count_include_pad", "inputs"});
        l.kind = LayerKind::Pool;
        // Required: max and avg pooling compute different values (and cost differently on the VTA).
        if (!j.has("op")) j.fail("missing required member \"op\" (\"max\" or \"avg\")");
        l.pool_op = j.at("op").as_enum({"max", "avg"}) == "avg" ? PoolOp::Avg : PoolOp::Max;
        read_chw(j, l);
        l.R = int(j.at("R").as_int(1, kMaxKernel));
        l.S = int(j.at("S").as_int(1, kMaxKernel));
        read_stride(j, l);
        read_pad(j, l);
        check_window(j, l);
        if (j.has("count_include_pad")) {
            if (l.pool_op != PoolOp::Avg)
                j.at("count_include_pad").fail("\"count_include_pad\" is the divisor rule of an average pool; this pool is max");
            l.count_include_pad = j.at("count_include_pad").as_bool();
            l.has_count_include_pad = true;
        }
    } else if (type == "eltwise") {
        j.allow_only({"name", "type", "op", "C", "H", "W", "relu", "act", "alpha", "beta", "clip", "inputs"});
        l.kind = LayerKind::Eltwise;
        if (!j.has("op")) j.fail("missing required member \"op\" (\"add\" or \"mul\")");
        l.eltwise_op = j.at("op").as_enum({"add", "mul"}) == "mul" ? EltwiseOp::Mul : EltwiseOp::Add;
        read_chw(j, l);
        read_fused_act(j, l);
    } else if (type == "concat") {
        j.allow_only({"name", "type", "axis", "C", "H", "W", "inputs"});
        l.kind = LayerKind::Concat;
        read_chw(j, l);
        if (j.has("axis")) l.data_axis = softmax_axis_of(j.at("axis").as_enum({"c", "h", "w"}));
    } else if (type == "slice") {
        // Along C (the default): K channels; along H or W: P rows or Q columns. From `offset` on,
        // every `step`-th position (1 when absent).
        j.allow_only({"name", "type", "axis", "C", "K", "P", "Q", "offset", "step", "H", "W", "inputs"});
        l.kind = LayerKind::Slice;
        read_chw(j, l);
        if (j.has("axis")) l.data_axis = softmax_axis_of(j.at("axis").as_enum({"c", "h", "w"}));
        const SoftmaxAxis a = l.data_axis;
        const int extent = a == SoftmaxAxis::H ? l.H : a == SoftmaxAxis::W ? l.W : l.C;
        const char* count_key = a == SoftmaxAxis::H ? "P" : a == SoftmaxAxis::W ? "Q" : "K";
        for (const char* k : {"K", "P", "Q"})
            if (std::string(k) != count_key && j.has(k))
                j.at(k).fail(std::string("\"") + k + "\" is the count of a slice along " + (k[0] == 'K' ? "C" : k[0] == 'P' ? "H" : "W") +
                             "; this slice is along " + (a == SoftmaxAxis::H ? "H (its count is \"P\")" : a == SoftmaxAxis::W ? "W (its count is \"Q\")" : "C (its count is \"K\")"));
        const std::int64_t count = j.at(count_key).as_int(1, extent);
        l.slice_step = int(j.get_int("step", 1, kMaxChannels, 1));
        l.offset = int(j.get_int("offset", 0, extent - 1, 0));
        if (const std::string e = set_slice_count(l, count); !e.empty()) j.at(count_key).fail(e);
    } else if (type == "resize") {
        j.allow_only({"name", "type", "mode", "coord", "nearest", "C", "H", "W", "P", "Q", "inputs"});
        l.kind = LayerKind::Resize;
        read_chw(j, l);
        l.out_h = int(j.at("P").as_int(1, kMaxSpatial));
        l.out_w = int(j.at("Q").as_int(1, kMaxSpatial));
        l.resize_mode = j.has("mode") && j.at("mode").as_enum({"nearest", "linear"}) == "linear" ? ResizeMode::Linear
                                                                                                  : ResizeMode::Nearest;
        // Optional (the shape platforms do not need them; the VTA host does, but for a nearest
        // resize by integer factors): ONNX's coordinate_transformation_mode and nearest_mode.
        if (j.has("coord")) {
            l.resize_coord = resize_coord_of(
                j.at("coord").as_enum({"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn"}));
        }
        if (j.has("nearest")) {
            if (l.resize_mode != ResizeMode::Nearest) j.at("nearest").fail("\"nearest\" is the rounding of a nearest resize; this one is linear");
            l.nearest_round = nearest_round_of(j.at("nearest").as_enum({"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}));
        }
    } else if (type == "depth_to_space" || type == "space_to_depth") {
        // ONNX's DepthToSpace (its mode required: the channel order decides where each element goes)
        // and SpaceToDepth: data movement, no MACs; nmp and mesh list them as skipped.
        const bool d2s = type == "depth_to_space";
        if (d2s) j.allow_only({"name", "type", "block", "mode", "C", "H", "W", "inputs"});
        else j.allow_only({"name", "type", "block", "C", "H", "W", "inputs"});
        l.kind = d2s ? LayerKind::DepthToSpace : LayerKind::SpaceToDepth;
        read_chw(j, l);
        l.block = int(j.at("block").as_int(1, 1024));
        if (d2s) l.crd = j.at("mode").as_enum({"dcr", "crd"}) == "crd";
        const std::int64_t b = l.block;
        if (d2s ? std::int64_t(l.H) * b > kMaxSpatial || std::int64_t(l.W) * b > kMaxSpatial : std::int64_t(l.C) * b * b > kMaxChannels)
            j.at("block").fail(d2s ? "the output map exceeds " + std::to_string(kMaxSpatial) + " per side"
                                   : "C x block^2 exceeds " + std::to_string(kMaxChannels) + " channels");
        if (const std::string e = set_space_depth_shape(l); !e.empty()) j.at("block").fail(e);
    } else if (type == "act") {
        j.allow_only({"name", "type", "op", "alpha", "beta", "axis", "clip", "C", "H", "W", "inputs"});
        l.kind = LayerKind::Activation;
        read_chw(j, l);
        l.act = act_of(j.at("op").as_enum(kActNames));
        read_alpha(j, l);
        read_clip(j, l);
        // Optional (the shape platforms do not need it; the VTA host does): the axes a softmax
        // normalises over.
        if (j.has("axis")) {
            if (l.act != Activation::Softmax)
                j.at("axis").fail("\"axis\" is the axes a softmax normalises over; this layer's activation is " +
                                  std::string(to_string(l.act)));
            l.softmax_axis = softmax_axis_of(j.at("axis").as_enum({"c", "h", "w", "hw", "chw"}));
        }
    } else if (type == "lrn") {
        // ONNX LRN's four attributes, all required: the values follow from them (the VTA host computes
        // them); nmp and mesh list the layer as skipped.
        j.allow_only({"name", "type", "size", "alpha", "beta", "bias", "C", "H", "W", "inputs"});
        l.kind = LayerKind::Lrn;
        read_chw(j, l);
        l.lrn_size = int(j.at("size").as_int(1, kMaxChannels));
        l.alpha = j.at("alpha").as_number(0.0, 1e3);
        l.beta = j.at("beta").as_number(0.0, 10.0);
        l.lrn_bias = j.at("bias").as_number(1e-6, 1e3);
        l.has_alpha = true;
    } else if (type == "batchnorm") {
        j.allow_only({"name", "type", "C", "H", "W", "inputs"});
        l.kind = LayerKind::BatchNorm;
        read_chw(j, l);
    } else if (type == "layernorm") {
        // Optional (the shape platforms do not need them; the VTA host does): the axes whose elements
        // share a mean and deviation, and the epsilon added to the variance.
        j.allow_only({"name", "type", "axis", "epsilon", "C", "H", "W", "inputs"});
        l.kind = LayerKind::LayerNorm;
        read_chw(j, l);
        if (j.has("axis")) l.norm_axis = softmax_axis_of(j.at("axis").as_enum({"c", "h", "w", "hw", "chw"}));
        if (j.has("epsilon")) {
            l.norm_eps = j.at("epsilon").as_number(0.0, 1e9);
            if (!(l.norm_eps > 0.0)) j.at("epsilon").fail("\"epsilon\" must be above 0 (it is added to the variance before the square root)");
        }
    } else {
        // Optional: what the border holds (ONNX Pad's mode; constant, of 0 unless "value" says).
        j.allow_only({"name", "type", "mode", "value", "C", "H", "W", "pad", "inputs"});
        l.kind = LayerKind::Pad;
        read_chw(j, l);
        read_pad(j, l);
        if (j.has("mode")) {
            const std::string m = j.at("mode").as_enum({"constant", "reflect", "edge"});
            l.pad_mode = m == "reflect" ? PadMode::Reflect : m == "edge" ? PadMode::Edge : PadMode::Constant;
        }
        if (j.has("value")) {
            if (l.pad_mode != PadMode::Constant)
                j.at("value").fail("\"value\" is the constant of a constant pad; this pad's mode is " + std::string(to_string(l.pad_mode)));
            l.pad_value = j.at("value").as_number(-1e9, 1e9);
        }
    }
    unsigned __int128 macs = (unsigned __int128)(l.C / l.groups) * l.K * l.R * l.S * (unsigned)l.P() * (unsigned)l.Q();
    if (macs > kMaxLayerMacs) j.fail("layer is too large (more than 2^50 MACs)");
    return l;
}

// How many producers a layer takes: {min, max}.
std::pair<std::size_t, std::size_t> arity(LayerKind k) {
    switch (k) {
    case LayerKind::Eltwise:  // one producer: the other operand is a constant of the model
    case LayerKind::Concat: return {1, 64};
    default: return {1, 1};
    }
}

// Producers named in "inputs": earlier layers or "input"; element counts must fit the layer.
void read_inputs(const JsonCheck& lj, Network& net, std::size_t i, const std::map<std::string, int>& index) {
    Layer& l = net.layers[i];
    auto in = lj.at("inputs");
    const auto [lo, hi] = arity(l.kind);
    if (in.size() < lo || in.size() > hi)
        in.fail("a " + std::string(to_string(l.kind)) + " layer takes " +
                (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) + " producer(s), got " +
                std::to_string(in.size()));
    std::uint64_t concat_elems = 0;
    for (std::size_t k = 0; k < in.size(); ++k) {
        auto e = in.at(k);
        const std::string name = e.as_string();
        int src = -2;
        if (name == kNetInputName) src = Layer::kNetInput;
        auto it = index.find(name);
        if (it != index.end() && std::size_t(it->second) < i) src = it->second;
        if (src == -2) {
            std::vector<std::string> cands{kNetInputName};
            for (std::size_t j = 0; j < i; ++j) cands.push_back(net.layers[j].name);
            const std::string near = nearest_name(name, cands);
            e.fail("unknown or later layer \"" + name + "\" (inputs name earlier layers or \"input\")" +
                   (near.empty() ? "" : "; did you mean \"" + near + "\"?"));
        }
        l.inputs.push_back(src);
        if (src < 0) continue;
        const std::uint64_t have = net.layers[std::size_t(src)].output_elems(), want = l.consumed_elems();
        concat_elems += have;
        const bool ok = l.kind == LayerKind::Concat ? true
                        : l.kind == LayerKind::Eltwise ? want % have == 0  // broadcast operand
                                                       : have == want;
        if (!ok)
            e.fail("layer \"" + name + "\" produces " + std::to_string(have) + " elements but \"" + l.name + "\" expects " +
                   std::to_string(want));
    }
    if (l.kind == LayerKind::Concat && l.data_axis != SoftmaxAxis::C) {
        // Along H (W): each producer gives whole rows (columns) of the C x W (C x H) cross-section.
        const std::uint64_t section = concat_section(l);
        for (std::size_t k = 0; k < l.inputs.size(); ++k)
            if (const int s = l.inputs[k]; s >= 0 && net.layers[std::size_t(s)].output_elems() % section != 0)
                in.at(k).fail("layer \"" + net.layers[std::size_t(s)].name + "\" produces " +
                              std::to_string(net.layers[std::size_t(s)].output_elems()) + " elements, not a whole number of " +
                              (l.data_axis == SoftmaxAxis::H ? "rows" : "columns") + " of " + std::to_string(section) +
                              " elements for a concat along " + to_string(l.data_axis));
    }
    if (l.kind == LayerKind::Concat) {
        bool all_layers = true;
        for (int s : l.inputs) all_layers = all_layers && s >= 0;
        if (all_layers && concat_elems != l.input_elems())
            in.fail("the producers of \"" + l.name + "\" give " + std::to_string(concat_elems) + " elements, the concat has " +
                    std::to_string(l.input_elems()));
    }
}

nlohmann::ordered_json pad_json(const Layer& l) {
    if (l.pad_top == l.pad_bottom && l.pad_left == l.pad_right) {
        if (l.pad_top == l.pad_left) return l.pad_top;
        return nlohmann::ordered_json::array({l.pad_top, l.pad_left});
    }
    nlohmann::ordered_json o;
    o["top"] = l.pad_top;
    o["bottom"] = l.pad_bottom;
    o["left"] = l.pad_left;
    o["right"] = l.pad_right;
    return o;
}

nlohmann::ordered_json stride_json(const Layer& l) {
    if (l.stride_h == l.stride_w) return l.stride_h;
    return nlohmann::ordered_json::array({l.stride_h, l.stride_w});
}

}  // namespace

std::uint64_t Network::total_macs() const {
    std::uint64_t t = 0;
    for (const auto& l : layers) t += l.macs();
    return t;
}

bool Network::has_graph() const {
    if (layers.empty()) return false;
    for (const auto& l : layers)
        if (l.inputs.empty()) return false;
    return true;
}

Network parse_network(const nlohmann::json& doc, const std::string& source) {
    JsonCheck root(doc, source);
    root.expect_object();
    root.allow_only({"name", "precision", "batch", "layers", "description", "input", "source", "skipped"});
    Network net;
    net.name = root.get_string("name", "network");
    if (root.has("precision")) {
        auto p = root.at("precision");
        net.precision_bits = int(p.as_int(8, 16));
        if (net.precision_bits != 8 && net.precision_bits != 16) p.fail("precision must be 8 or 16 (bits)");
    }
    net.batch = int(root.get_int("batch", 1, kMaxBatch, 1));
    auto layers = root.at("layers");
    if (layers.size() == 0) layers.fail("the layer list is empty");
    std::map<std::string, int> index;
    std::size_t with_inputs = 0;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        auto lj = layers.at(i);
        Layer l = parse_layer(lj, i);
        if (l.name == kNetInputName) lj.at("name").fail("\"input\" names the network input; rename the layer");
        if (!index.emplace(l.name, int(i)).second) lj.at("name").fail("duplicate layer name \"" + l.name + "\"");
        net.layers.push_back(std::move(l));
        if (lj.has("inputs")) {
            read_inputs(lj, net, i, index);
            ++with_inputs;
        }
    }
    if (with_inputs != 0 && with_inputs != net.layers.size())
        for (std::size_t i = 0; i < layers.size(); ++i)
            if (!layers.at(i).has("inputs"))
                layers.at(i).fail("either every layer names its producers (\"inputs\") or none does");
    return net;
}

nlohmann::ordered_json network_to_json(const Network& net) {
    nlohmann::ordered_json layers = nlohmann::ordered_json::array();
    for (const Layer& l : net.layers) {
        nlohmann::ordered_json j;
        j["name"] = l.name;
        j["type"] = to_string(l.kind);
        switch (l.kind) {
        case LayerKind::Conv:
            j["C"] = l.C; j["K"] = l.K; j["H"] = l.H; j["W"] = l.W; j["R"] = l.R; j["S"] = l.S;
            j["stride"] = stride_json(l);
            j["pad"] = pad_json(l);
            if (l.dilation_h != 1 || l.dilation_w != 1)
                j["dilation"] = l.dilation_h == l.dilation_w ? nlohmann::ordered_json(l.dilation_h)
                                                             : nlohmann::ordered_json::array({l.dilation_h, l.dilation_w});
            j["groups"] = l.groups;
            if (l.zero_insert_h != 1 || l.zero_insert_w != 1)
                j["zero_insert"] = l.zero_insert_h == l.zero_insert_w ? nlohmann::ordered_json(l.zero_insert_h)
                                                                      : nlohmann::ordered_json::array({l.zero_insert_h, l.zero_insert_w});
            break;
        case LayerKind::FullyConnected: j["in"] = l.C; j["out"] = l.K; break;
        case LayerKind::Pool:
            j["op"] = l.pool_op == PoolOp::Avg ? "avg" : "max";
            j["C"] = l.C; j["H"] = l.H; j["W"] = l.W; j["R"] = l.R; j["S"] = l.S;
            j["stride"] = stride_json(l);
            j["pad"] = pad_json(l);
            if (l.has_count_include_pad) j["count_include_pad"] = l.count_include_pad;
            break;
        case LayerKind::Eltwise:
            j["op"] = l.eltwise_op == EltwiseOp::Mul ? "mul" : "add";
            j["C"] = l.C; j["H"] = l.H; j["W"] = l.W;
            break;
        case LayerKind::Slice:
            if (l.data_axis != SoftmaxAxis::C) j["axis"] = to_string(l.data_axis);
            j["C"] = l.C;
            if (l.data_axis == SoftmaxAxis::C) j["K"] = l.K;
            if (l.data_axis == SoftmaxAxis::H) j["P"] = l.out_h;
            if (l.data_axis == SoftmaxAxis::W) j["Q"] = l.out_w;
            j["offset"] = l.offset;
            if (l.slice_step != 1) j["step"] = l.slice_step;
            j["H"] = l.H; j["W"] = l.W;
            break;
        case LayerKind::Resize:
            j["mode"] = l.resize_mode == ResizeMode::Linear ? "linear" : "nearest";
            if (l.resize_coord != ResizeCoord::Unknown) j["coord"] = to_string(l.resize_coord);
            if (l.nearest_round != NearestRound::Unknown) j["nearest"] = to_string(l.nearest_round);
            j["C"] = l.C; j["H"] = l.H; j["W"] = l.W; j["P"] = l.out_h; j["Q"] = l.out_w;
            break;
        case LayerKind::Activation:
            j["op"] = to_string(l.act);
            write_act_params(j, l);
            if (l.softmax_axis != SoftmaxAxis::Unknown) j["axis"] = to_string(l.softmax_axis);
            j["C"] = l.C; j["H"] = l.H; j["W"] = l.W;
            break;
        case LayerKind::Pad:
            if (l.pad_mode != PadMode::Constant) j["mode"] = to_string(l.pad_mode);
            if (l.pad_value != 0.0) j["value"] = l.pad_value;
            j["C"] = l.C; j["H"] = l.H; j["W"] = l.W;
            j["pad"] = pad_json(l);
            break;
        case LayerKind::Lrn:
            j["size"] = l.lrn_size; j["alpha"] = l.alpha; j["beta"] = l.beta; j["bias"] = l.lrn_bias;
            j["C"] = l.C; j["H"] = l.H; j["W"] = l.W;
            break;
        case LayerKind::LayerNorm:
            if (l.norm_axis != SoftmaxAxis::Unknown) j["axis"] = to_string(l.norm_axis);
            if (l.norm_eps > 0.0) j["epsilon"] = l.norm_eps;
            j["C"] = l.C; j["H"] = l.H; j["W"] = l.W;
            break;
        case LayerKind::DepthToSpace:
        case LayerKind::SpaceToDepth:
            j["block"] = l.block;
            if (l.kind == LayerKind::DepthToSpace) j["mode"] = l.crd ? "crd" : "dcr";
            j["C"] = l.C; j["H"] = l.H; j["W"] = l.W;
            break;
        case LayerKind::Concat:
            if (l.data_axis != SoftmaxAxis::C) j["axis"] = to_string(l.data_axis);
            j["C"] = l.C; j["H"] = l.H; j["W"] = l.W;
            break;
        case LayerKind::BatchNorm: j["C"] = l.C; j["H"] = l.H; j["W"] = l.W; break;
        }
        if ((l.kind == LayerKind::Conv || l.kind == LayerKind::FullyConnected || l.kind == LayerKind::Eltwise) &&
            l.act != Activation::None) {
            j["act"] = to_string(l.act);
            write_act_params(j, l);
        }
        if (!l.inputs.empty()) {
            nlohmann::ordered_json in = nlohmann::ordered_json::array();
            for (int s : l.inputs) in.push_back(s < 0 ? std::string(kNetInputName) : net.layers[std::size_t(s)].name);
            j["inputs"] = in;
        }
        layers.push_back(std::move(j));
    }
    nlohmann::ordered_json doc;
    doc["name"] = net.name;
    doc["precision"] = net.precision_bits;
    if (net.batch != 1) doc["batch"] = net.batch;
    doc["layers"] = layers;
    return doc;
}

namespace {
// {"a": 1, "b": [1, 2]}: the spacing of the hand-written files.
std::string spaced(const nlohmann::ordered_json& v) {
    if (v.is_object()) {
        std::string s = "{";
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            s += (first ? "" : ", ") + nlohmann::ordered_json(it.key()).dump() + ": " + spaced(it.value());
            first = false;
        }
        return s + "}";
    }
    if (v.is_array()) {
        std::string s = "[";
        for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + spaced(v[i]);
        return s + "]";
    }
    return v.dump();
}
}  // namespace

std::string network_json_text(const nlohmann::ordered_json& doc) {
    std::string out = "{\n";
    bool first = true;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        if (!first) out += ",\n";
        first = false;
        out += "  " + nlohmann::ordered_json(it.key()).dump() + ": ";
        if (it.key() == "layers" || it.key() == "skipped") {
            out += "[";
            for (std::size_t i = 0; i < it.value().size(); ++i) out += (i ? ",\n    " : "\n    ") + spaced(it.value()[i]);
            out += it.value().empty() ? "]" : "\n  ]";
        } else {
            out += spaced(it.value());
        }
    }
    return out + "\n}\n";
}

Network expand_batch(const Network& net) {
    if (net.batch <= 1) return net;
    Network out = net;
    out.batch = 1;
    out.layers.clear();
    const int n = int(net.layers.size());
    for (int b = 0; b < net.batch; ++b)
        for (const Layer& l : net.layers) {
            Layer c = l;
            if (b > 0) c.name += "@b" + std::to_string(b);
            for (int& s : c.inputs)
                if (s >= 0) s += b * n;
            out.layers.push_back(std::move(c));
        }
    return out;
}

nlohmann::json read_json_file(const std::string& path) {
    return parse_json_text(read_input_file(path, "a JSON file"), path);
}

Network load_network(const std::string& path) { return parse_network(read_json_file(path), path); }

}  // namespace vp::mapper
