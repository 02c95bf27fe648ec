#include "mapper/workload/layer.h"

#include <sstream>

namespace vp::mapper {

const char* to_string(LayerKind k) {
    switch (k) {
    case LayerKind::Conv: return "conv";
    case LayerKind::FullyConnected: return "fc";
    case LayerKind::Pool: return "pool";
    case LayerKind::Eltwise: return "eltwise";
    case LayerKind::Concat: return "concat";
    case LayerKind::Slice: return "slice";
    case LayerKind::Resize: return "resize";
    case LayerKind::Activation: return "act";
    case LayerKind::BatchNorm: return "batchnorm";
    case LayerKind::Pad: return "pad";
    case LayerKind::LayerNorm: return "layernorm";
    case LayerKind::Lrn: return "lrn";
    case LayerKind::DepthToSpace: return "depth_to_space";
    case LayerKind::SpaceToDepth: return "space_to_depth";
    }
    return "?";
}

const char* to_string(Activation a) {
    switch (a) {
    case Activation::None: return "none";
    case Activation::Relu: return "relu";
    case Activation::Relu6: return "relu6";
    case Activation::Clip: return "clip";
    case Activation::LeakyRelu: return "leaky_relu";
    case Activation::Sigmoid: return "sigmoid";
    case Activation::HardSigmoid: return "hard_sigmoid";
    case Activation::HardSwish: return "hard_swish";
    case Activation::Softmax: return "softmax";
    case Activation::Erf: return "erf";
    case Activation::Tanh: return "tanh";
    case Activation::Softplus: return "softplus";
    case Activation::Elu: return "elu";
    }
    return "?";
}

std::uint64_t Layer::macs() const {
    switch (kind) {
    case LayerKind::Conv:
        return std::uint64_t(C / groups) * K * R * S * std::uint64_t(P()) * Q();
    case LayerKind::FullyConnected: return std::uint64_t(C) * K;
    default: return 0;
    }
}

std::uint64_t Layer::input_elems() const {
    return kind == LayerKind::FullyConnected ? std::uint64_t(C) : std::uint64_t(C) * H * W;
}

std::uint64_t Layer::output_elems() const {
    return kind == LayerKind::FullyConnected ? std::uint64_t(K) : std::uint64_t(K) * P() * Q();
}

std::uint64_t Layer::consumed_elems() const {
    if (zero_insert_h == 1 && zero_insert_w == 1) return input_elems();
    return std::uint64_t(C) * std::uint64_t((H - 1) / zero_insert_h + 1) * std::uint64_t((W - 1) / zero_insert_w + 1);
}

std::uint64_t Layer::weight_elems() const {
    switch (kind) {
    case LayerKind::Conv: return std::uint64_t(C / groups) * K * R * S;
    case LayerKind::FullyConnected: return std::uint64_t(C) * K;
    default: return 0;
    }
}

const char* to_string(ResizeCoord c) {
    switch (c) {
        case ResizeCoord::HalfPixel: return "half_pixel";
        case ResizeCoord::PytorchHalfPixel: return "pytorch_half_pixel";
        case ResizeCoord::AlignCorners: return "align_corners";
        case ResizeCoord::Asymmetric: return "asymmetric";
        case ResizeCoord::TfHalfPixelForNn: return "tf_half_pixel_for_nn";
        case ResizeCoord::Unknown: break;
    }
    return "unknown";
}

const char* to_string(NearestRound r) {
    switch (r) {
        case NearestRound::RoundPreferFloor: return "round_prefer_floor";
        case NearestRound::RoundPreferCeil: return "round_prefer_ceil";
        case NearestRound::Floor: return "floor";
        case NearestRound::Ceil: return "ceil";
        case NearestRound::Unknown: break;
    }
    return "unknown";
}

ResizeCoord resize_coord_of(const std::string& s) {
    for (ResizeCoord r : {ResizeCoord::HalfPixel, ResizeCoord::PytorchHalfPixel, ResizeCoord::AlignCorners, ResizeCoord::Asymmetric,
                          ResizeCoord::TfHalfPixelForNn})
        if (s == to_string(r)) return r;
    return ResizeCoord::Unknown;
}

NearestRound nearest_round_of(const std::string& s) {
    for (NearestRound r : {NearestRound::RoundPreferFloor, NearestRound::RoundPreferCeil, NearestRound::Floor, NearestRound::Ceil})
        if (s == to_string(r)) return r;
    return NearestRound::Unknown;
}

const char* to_string(SoftmaxAxis a) {
    switch (a) {
        case SoftmaxAxis::C: return "c";
        case SoftmaxAxis::H: return "h";
        case SoftmaxAxis::W: return "w";
        case SoftmaxAxis::HW: return "hw";
        case SoftmaxAxis::CHW: return "chw";
        case SoftmaxAxis::Unknown: break;
    }
    return "unknown";
}

const char* to_string(PadMode m) {
    switch (m) {
        case PadMode::Constant: return "constant";
        case PadMode::Reflect: return "reflect";
        case PadMode::Edge: return "edge";
    }
    return "?";
}

SoftmaxAxis softmax_axis_of(const std::string& s) {
    for (SoftmaxAxis a : {SoftmaxAxis::C, SoftmaxAxis::H, SoftmaxAxis::W, SoftmaxAxis::HW, SoftmaxAxis::CHW})
        if (s == to_string(a)) return a;
    return SoftmaxAxis::Unknown;
}

std::string set_space_depth_shape(Layer& l) {
    const int b = l.block;
    if (l.kind == LayerKind::DepthToSpace) {
        if (l.C % (b * b) != 0) return "C = " + std::to_string(l.C) + " is not a multiple of block^2 = " + std::to_string(b * b);
        l.K = l.C / (b * b);
        l.out_h = l.H * b;
        l.out_w = l.W * b;
    } else {
        if (l.H % b != 0 || l.W % b != 0)
            return "the map " + std::to_string(l.H) + " x " + std::to_string(l.W) + " is not a multiple of the block " + std::to_string(b);
        l.K = l.C * b * b;
        l.out_h = l.H / b;
        l.out_w = l.W / b;
    }
    return "";
}

std::string set_slice_count(Layer& l, std::int64_t count) {
    const SoftmaxAxis a = l.data_axis;
    const std::int64_t extent = a == SoftmaxAxis::H ? l.H : a == SoftmaxAxis::W ? l.W : l.C;
    if (count < 1 || l.offset < 0 || l.offset + (count - 1) * std::int64_t(l.slice_step) > extent - 1)
        return std::to_string(count) + " positions from offset " + std::to_string(l.offset) + " in steps of " +
               std::to_string(l.slice_step) + " pass the end of the " + std::to_string(extent) + " along the axis";
    l.K = a == SoftmaxAxis::C ? int(count) : l.C;
    l.out_h = a == SoftmaxAxis::H ? int(count) : a == SoftmaxAxis::W ? l.H : 0;
    l.out_w = a == SoftmaxAxis::W ? int(count) : a == SoftmaxAxis::H ? l.W : 0;
    return "";
}

std::uint64_t concat_section(const Layer& l) {
    return l.data_axis == SoftmaxAxis::H ? std::uint64_t(l.C) * l.W : l.data_axis == SoftmaxAxis::W ? std::uint64_t(l.C) * l.H : 1;
}

std::string Layer::shape_key() const {
    std::ostringstream os;
    os << to_string(kind) << ':' << C << ',' << K << ',' << H << ',' << W << ',' << R << ',' << S << ','
       << stride_h << ',' << stride_w << ',' << pad_top << ',' << pad_bottom << ',' << pad_left << ','
       << pad_right << ',' << groups;
    if (kind == LayerKind::Resize) os << ',' << out_h << ',' << out_w;
    if (kind == LayerKind::DepthToSpace || kind == LayerKind::SpaceToDepth) os << ",b" << block << (crd ? "crd" : "");
    if (kind == LayerKind::Slice) os << ',' << offset;
    if (kind == LayerKind::Slice && (data_axis != SoftmaxAxis::C || slice_step != 1))
        os << ',' << to_string(data_axis) << slice_step << ',' << out_h << ',' << out_w;
    if (kind == LayerKind::Concat && data_axis != SoftmaxAxis::C) os << ',' << to_string(data_axis);
    if (zero_insert_h != 1 || zero_insert_w != 1) os << ",z" << zero_insert_h << ',' << zero_insert_w;
    if (dilation_h != 1 || dilation_w != 1) os << ",d" << dilation_h << ',' << dilation_w;
    return os.str();
}

}  // namespace vp::mapper
