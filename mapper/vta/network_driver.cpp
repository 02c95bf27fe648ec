#include "mapper/vta/network_driver.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "mapper/common/errors.h"
#include "mapper/common/int_math.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/direct_conv.h"
#include "mapper/vta/executor.h"
#include "mapper/vta/layer_lowering.h"

namespace vp::mapper::vta {

void DriverOptions::validate(const std::string& prefix) const {
    if (strategy < 0 || strategy > 4) throw InputError(prefix + ".strategy: expected 1..4 or auto");
    if (dram_base % CompileOptions::kPageBytes != 0) throw InputError(prefix + ".dram_base: must be 4 KiB aligned");
    if (!(host_ns_per_byte >= 0) || host_ns_per_byte > 1e6) throw InputError(prefix + ".host_ns_per_byte: expected 0..1e6 ns");
    if (!(host_ns_per_program >= 0) || host_ns_per_program > 1e9)
        throw InputError(prefix + ".host_ns_per_program: expected 0..1e9 ns");
    parse_estimate_model(estimate_model, prefix + ".estimate_model");
    coefficients.validate(prefix + ".coefficients");
    for (int s : layer_strategy)
        if (s < 0 || s > 4) throw InputError(prefix + ": a per-layer strategy must be 1..4");
}

namespace {
std::uint64_t mix(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (a + 1) * 0xBF58476D1CE4E5B9ull ^ (b + 7) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}
std::vector<std::int8_t> gen_int8(std::size_t n, std::uint64_t seed, int lo, int hi) {
    std::mt19937_64 g(seed);
    std::vector<std::int8_t> v(n);
    const std::uint64_t span = std::uint64_t(hi - lo + 1);
    for (auto& x : v) x = std::int8_t(lo + int(g() % span));
    return v;
}
template <class T>
std::vector<T> read_raw(const std::string& path, std::size_t n, const std::string& what) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a folder, expected the " + what + " file");
    std::ifstream f(path, std::ios::binary);
    if (!f) throw InputError(path + ": cannot open " + what + " file");
    f.seekg(0, std::ios::end);
    const auto size = std::size_t(f.tellg());
    if (size != n * sizeof(T))
        throw InputError(path + ": " + what + " file has " + std::to_string(size) + " bytes, expected " + std::to_string(n * sizeof(T)) +
                         " (raw little-endian " + (sizeof(T) == 1 ? "int8" : "int32") + ")");
    f.seekg(0);
    std::vector<unsigned char> b(size);
    f.read(reinterpret_cast<char*>(b.data()), std::streamsize(size));
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t u = 0;
        for (std::size_t k = 0; k < sizeof(T); ++k) u |= std::uint32_t(b[i * sizeof(T) + k]) << (8 * k);
        v[i] = T(u);
    }
    return v;
}
double rms(const std::vector<std::int8_t>& v) {
    double s = 0;
    for (auto x : v) s += double(x) * double(x);
    return v.empty() ? 0.0 : std::sqrt(s / double(v.size()));
}
}  // namespace

std::int64_t leaky_multiplier(double alpha) { return std::llround(alpha * double(1 << kLeakyShift)); }

std::int8_t leaky_int8(std::int8_t x, std::int64_t m) {
    if (x >= 0) return x;
    const std::int64_t v = (std::int64_t(x) * m + (std::int64_t(1) << (kLeakyShift - 1))) >> kLeakyShift;
    return std::int8_t(std::clamp<std::int64_t>(v, -128, 127));
}

std::int8_t sigmoid_int8(std::int8_t v) {
    const double g = double(1 << kGateFrac) / (1.0 + std::exp(-double(v) / double(1 << kActFrac)));
    return std::int8_t(std::clamp<long long>(std::llround(g), 0, 127));
}

HardSigmoidInt hard_sigmoid_multipliers(double alpha, double beta) {
    return {std::llround(std::ldexp(alpha, kHardShift + kGateFrac - kActFrac)), std::llround(std::ldexp(beta, kHardShift + kGateFrac))};
}

namespace {
std::int64_t hard_gate(std::int8_t v, const HardSigmoidInt& m) {
    return (std::int64_t(v) * m.a + m.b + (std::int64_t(1) << (kHardShift - 1))) >> kHardShift;
}
}  // namespace

std::int8_t hard_sigmoid_int8(std::int8_t v, const HardSigmoidInt& m) {
    return std::int8_t(std::clamp<std::int64_t>(hard_gate(v, m), 0, 127));
}

std::int8_t hard_swish_int8(std::int8_t v) {
    static const HardSigmoidInt m = hard_sigmoid_multipliers(1.0 / 6.0, 0.5);
    const std::int64_t g = std::clamp<std::int64_t>(hard_gate(v, m), 0, std::int64_t(1) << kGateFrac);
    return std::int8_t(std::clamp<std::int64_t>((std::int64_t(v) * g + (std::int64_t(1) << (kGateFrac - 1))) >> kGateFrac, -128, 127));
}

std::int8_t mul_int8(std::int8_t a, std::int8_t b, bool relu) {
    const std::int32_t p = (std::int32_t(a) * std::int32_t(b) + (1 << (kGateFrac - 1))) >> kGateFrac;
    return std::int8_t(std::clamp<std::int32_t>(p, relu ? 0 : -128, 127));
}

namespace {
std::int8_t round_int8(double x) { return std::int8_t(std::clamp<long long>(std::llround(x), -128, 127)); }
}  // namespace

std::int8_t tanh_int8(std::int8_t v) { return round_int8(double(1 << kGateFrac) * std::tanh(double(v) / double(1 << kActFrac))); }

std::int8_t erf_int8(std::int8_t v) { return round_int8(double(1 << kGateFrac) * std::erf(double(v) / double(1 << kActFrac))); }

std::int8_t softplus_int8(std::int8_t v) {
    return round_int8(double(1 << kActFrac) * std::log1p(std::exp(double(v) / double(1 << kActFrac))));
}

std::int8_t elu_int8(std::int8_t v, double alpha) {
    if (v >= 0) return v;
    return round_int8(double(1 << kActFrac) * alpha * std::expm1(double(v) / double(1 << kActFrac)));
}

std::vector<std::int8_t> lrn_int8(const std::vector<std::int8_t>& in, int C, std::size_t HW, int size, double alpha, double beta,
                                  double bias) {
    std::vector<std::int8_t> out(in.size());
    const int below = (size - 1) / 2, above = size - 1 - below;  // ONNX: floor((size - 1) / 2), ceil((size - 1) / 2)
    const double unit = double(1 << (2 * kActFrac));               // a squared activation's scale
    for (std::size_t j = 0; j < HW; ++j) {
        // s over the window of channel c, slid along c: add the channel entering, drop the one leaving.
        std::int64_t s = 0;
        for (int k = 0; k < std::min(above, C - 1) + 1; ++k) s += std::int64_t(in[std::size_t(k) * HW + j]) * in[std::size_t(k) * HW + j];
        for (int c = 0; c < C; ++c) {
            const std::int8_t v = in[std::size_t(c) * HW + j];
            const double d = std::pow(bias + alpha / double(size) * double(s) / unit, beta);
            out[std::size_t(c) * HW + j] = round_int8(double(v) / d);
            if (c + above + 1 < C) {
                const std::int64_t e = in[std::size_t(c + above + 1) * HW + j];
                s += e * e;
            }
            if (c - below >= 0) {
                const std::int64_t e = in[std::size_t(c - below) * HW + j];
                s -= e * e;
            }
        }
    }
    return out;
}

namespace {

// The groups of a C x H x W tensor (CHW) whose elements an axis spans: `n` elements `step` apart,
// starting at each of `starts`.
struct AxisGroups {
    std::size_t n = 0, step = 1;
    std::vector<std::size_t> starts;
};
AxisGroups axis_groups(int C, int H, int W, SoftmaxAxis axis, const char* what) {
    const std::size_t HW = std::size_t(H) * W;
    AxisGroups g;
    switch (axis) {
        case SoftmaxAxis::C:
            g.n = std::size_t(C), g.step = HW;
            for (std::size_t j = 0; j < HW; ++j) g.starts.push_back(j);
            break;
        case SoftmaxAxis::H:
            g.n = std::size_t(H), g.step = std::size_t(W);
            for (std::size_t c = 0; c < std::size_t(C); ++c)
                for (std::size_t x = 0; x < std::size_t(W); ++x) g.starts.push_back(c * HW + x);
            break;
        case SoftmaxAxis::W:
            g.n = std::size_t(W);
            for (std::size_t r = 0; r < std::size_t(C) * H; ++r) g.starts.push_back(r * std::size_t(W));
            break;
        case SoftmaxAxis::HW:
            g.n = HW;
            for (std::size_t c = 0; c < std::size_t(C); ++c) g.starts.push_back(c * HW);
            break;
        case SoftmaxAxis::CHW:
            g.n = std::size_t(C) * HW;
            g.starts.push_back(0);
            break;
        case SoftmaxAxis::Unknown: throw InputError(std::string(what) + ": the axis is not known");
    }
    return g;
}

}  // namespace

std::vector<std::int8_t> normalise_int8(const std::vector<std::int8_t>& in, int C, int H, int W, SoftmaxAxis axis, double eps) {
    const AxisGroups g = axis_groups(C, H, W, axis, "normalise_int8");
    const std::int64_t n = std::int64_t(g.n);
    const double floor_term = double(1 << (2 * kActFrac)) * eps * double(n) * double(n);
    std::vector<std::int8_t> out(in.size());
    for (std::size_t s0 : g.starts) {
        std::int64_t S = 0, Q = 0;
        for (std::size_t k = 0; k < g.n; ++k) {
            const std::int64_t v = in[s0 + k * g.step];
            S += v;
            Q += v * v;
        }
        // n Q - S^2 >= 0 (n^2 times the variance), in 128 bits: n Q reaches 2^63 near 2^24 elements.
        const double den = std::sqrt(double((__int128)n * Q - (__int128)S * S) + floor_term);
        for (std::size_t k = 0; k < g.n; ++k) {
            const std::int64_t d = n * std::int64_t(in[s0 + k * g.step]) - S;
            out[s0 + k * g.step] = std::int8_t(std::clamp<long long>(std::llround(double(1 << kActFrac) * double(d) / den), -128, 127));
        }
    }
    return out;
}

std::vector<std::int8_t> layernorm_int8(const std::vector<std::int8_t>& in, int C, int H, int W, SoftmaxAxis axis, double eps,
                                        const std::vector<std::int32_t>& scale, const std::vector<std::int32_t>& bias) {
    std::vector<std::int8_t> out = normalise_int8(in, C, H, W, axis, eps);
    const std::size_t HW = std::size_t(H) * W;
    for (std::size_t c = 0; c < std::size_t(C); ++c)
        for (std::size_t j = 0; j < HW; ++j) {
            std::int8_t& t = out[c * HW + j];
            const std::int32_t v = ((std::int32_t(t) * scale[c] + (1 << (kBnShift - 1))) >> kBnShift) + bias[c];
            t = std::int8_t(std::clamp(v, -128, 127));
        }
    return out;
}

std::vector<std::int8_t> softmax_int8(const std::vector<std::int8_t>& in, int C, int H, int W, SoftmaxAxis axis) {
    const AxisGroups g = axis_groups(C, H, W, axis, "softmax_int8");
    const std::size_t n = g.n, step = g.step;
    std::vector<std::int8_t> out(in.size());
    std::vector<double> e(n);
    for (std::size_t s0 : g.starts) {
        int m = -128;
        for (std::size_t k = 0; k < n; ++k) m = std::max<int>(m, in[s0 + k * step]);
        double sum = 0;
        for (std::size_t k = 0; k < n; ++k) sum += e[k] = std::exp(double(in[s0 + k * step] - m) / double(1 << kActFrac));
        for (std::size_t k = 0; k < n; ++k)
            out[s0 + k * step] = std::int8_t(std::clamp<long long>(std::llround(double(1 << kGateFrac) * e[k] / sum), 0, 127));
    }
    return out;
}

int space_depth_channel(int c, int i, int j, int shallow_channels, int b, bool crd) {
    return crd ? (c * b + i) * b + j : (i * b + j) * shallow_channels + c;
}

int pad_source(int i, int n, PadMode mode) {
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case PadMode::Constant: return -1;
        case PadMode::Edge: return i < 0 ? 0 : n - 1;
        case PadMode::Reflect: {
            if (n == 1) return 0;
            const int period = 2 * (n - 1);
            int j = i % period;
            if (j < 0) j += period;
            return j < n ? j : period - j;
        }
    }
    return -1;
}

std::int8_t pad_constant_int8(double value) {
    return std::int8_t(std::clamp<double>(std::round(value * double(1 << kActFrac)), -128.0, 127.0));
}

bool host_activation(Activation a) {
    return a == Activation::Relu || a == Activation::Relu6 || a == Activation::LeakyRelu || a == Activation::Sigmoid ||
           a == Activation::HardSigmoid || a == Activation::HardSwish || a == Activation::Tanh || a == Activation::Erf ||
           a == Activation::Softplus || a == Activation::Elu || a == Activation::Clip;
}

std::array<std::int8_t, 256> activation_table(const Layer& l) {
    std::array<std::int8_t, 256> t{};
    const std::int64_t leaky = leaky_multiplier(l.alpha);
    const HardSigmoidInt hs = hard_sigmoid_multipliers(l.alpha, l.beta);
    const auto bound = [](double b, int none) {  // a clip bound on the activation grid
        return std::isfinite(b) ? int(std::clamp<long long>(std::llround(b * double(1 << kActFrac)), -128, 127)) : none;
    };
    const int clip_lo = bound(l.clip_lo, -128), clip_hi = bound(l.clip_hi, 127);
    for (int v = -128; v < 128; ++v) {
        const auto x = std::int8_t(v);
        std::int8_t y = x;
        switch (l.act) {
            case Activation::Relu:
            case Activation::Relu6: y = std::max<std::int8_t>(0, x); break;
            case Activation::LeakyRelu: y = leaky_int8(x, leaky); break;
            case Activation::Sigmoid: y = sigmoid_int8(x); break;
            case Activation::HardSigmoid: y = hard_sigmoid_int8(x, hs); break;
            case Activation::HardSwish: y = hard_swish_int8(x); break;
            case Activation::Tanh: y = tanh_int8(x); break;
            case Activation::Erf: y = erf_int8(x); break;
            case Activation::Clip: y = std::int8_t(std::clamp(v, clip_lo, clip_hi)); break;
            case Activation::Softplus: y = softplus_int8(x); break;
            case Activation::Elu: y = elu_int8(x, l.alpha); break;
            default: break;
        }
        t[std::size_t(v + 128)] = y;
    }
    return t;
}

std::vector<ResizeTap> resize_taps(const Layer& l, bool rows) {
    const std::int64_t H = rows ? l.H : l.W, P = rows ? l.P() : l.Q();
    std::vector<ResizeTap> taps(static_cast<std::size_t>(P));
    const bool known = l.resize_coord != ResizeCoord::Unknown && (l.resize_mode == ResizeMode::Linear || l.nearest_round != NearestRound::Unknown);
    for (std::int64_t p = 0; p < P; ++p) {
        ResizeTap& t = taps[std::size_t(p)];
        if (!known) {  // nearest by an integer factor (the driver refuses other resizes without the modes)
            if (P % H != 0)
                throw InputError("layer " + l.name + ": a resize without its coordinate mode or rounding, by a factor other than an integer");
            t.i0 = int(p / (P / H));
            continue;
        }
        std::int64_t num = 0, den = 1;
        switch (l.resize_coord) {
            case ResizeCoord::PytorchHalfPixel:
                if (P == 1) break;
                [[fallthrough]];
            case ResizeCoord::HalfPixel: num = (2 * p + 1) * H - P; den = 2 * P; break;
            case ResizeCoord::AlignCorners:
                if (P > 1) { num = p * (H - 1); den = P - 1; }
                break;
            case ResizeCoord::Asymmetric: num = p * H; den = P; break;
            case ResizeCoord::TfHalfPixelForNn: num = (2 * p + 1) * H; den = 2 * P; break;
            case ResizeCoord::Unknown: break;
        }
        if (l.resize_mode == ResizeMode::Nearest) {
            std::int64_t i = 0;
            switch (l.nearest_round) {
                case NearestRound::RoundPreferFloor: i = -floor_div(den - 2 * num, 2 * den); break;  // ceil(s - 1/2)
                case NearestRound::RoundPreferCeil: i = floor_div(2 * num + den, 2 * den); break;    // floor(s + 1/2)
                case NearestRound::Floor: i = floor_div(num, den); break;
                case NearestRound::Ceil: i = -floor_div(-num, den); break;
                case NearestRound::Unknown: break;
            }
            t.i0 = int(std::clamp<std::int64_t>(i, 0, H - 1));
            continue;
        }
        num = std::max<std::int64_t>(num, 0);
        const std::int64_t f = num / den, r = num - f * den;
        t.i0 = int(std::min(f, H - 1));
        t.i1 = int(std::min(f + 1, H - 1));
        t.w1 = int((256 * r + den) / (2 * den));
    }
    return taps;
}

std::int64_t broadcast_index(std::uint64_t elems, int C, std::uint64_t HW, std::uint64_t j) {
    if (elems == std::uint64_t(C) * HW) return std::int64_t(j);
    if (elems == 1) return 0;
    if (std::uint64_t(C) == HW) return -1;  // per channel or per position: the element count cannot tell
    if (elems == std::uint64_t(C)) return std::int64_t(j / HW);
    if (elems == HW) return std::int64_t(j % HW);
    return -1;
}

std::vector<std::int8_t> zero_inserted(const Layer& l, const std::vector<std::int8_t>& in) {
    const int zh = l.zero_insert_h, zw = l.zero_insert_w, h = (l.H - 1) / zh + 1, w = (l.W - 1) / zw + 1;
    if (in.size() != std::size_t(l.C) * std::size_t(h) * std::size_t(w))
        throw SimulationError("VTA driver: layer " + l.name + ": the zero-inserted input needs " + std::to_string(std::size_t(l.C) * h * w) +
                              " elements, its producer gives " + std::to_string(in.size()));
    std::vector<std::int8_t> out(std::size_t(l.C) * std::size_t(l.H) * std::size_t(l.W), 0);
    for (int c = 0; c < l.C; ++c)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                out[(std::size_t(c) * l.H + std::size_t(y * zh)) * l.W + std::size_t(x * zw)] = in[(std::size_t(c) * h + std::size_t(y)) * w + std::size_t(x)];
    return out;
}

namespace {
int pack_groups(const Layer& l, int block) {
    const int kg = l.K / l.groups;
    return l.groups == 1 ? 1 : std::min(l.groups, kg >= block ? 1 : std::max(1, block / kg));
}
}  // namespace

NetworkDriver::NetworkDriver(NetGraph g, const VtaConfig& cfg, const DriverOptions& opt)
    : m_g(std::move(g)), m_cfg(cfg), m_opt(opt) {
    m_opt.validate("vta_compiler");
    const std::size_t n = m_g.net.layers.size();
    if (n == 0) throw InputError(m_g.source + ": the network has no layers");
    m_out.resize(n);
    m_data.resize(n);
    m_done.assign(n, false);
    m_prepared.assign(n, false);
    m_parts_done.assign(n, 0);
    {
        const Layer& first = m_g.net.layers[0];
        const std::size_t operands = first.kind == LayerKind::Concat ? std::max<std::size_t>(1, m_g.inputs[0].size()) : 1;
        m_input_elems = layer_in_elems(first) / operands;
        if (m_input_elems * operands != layer_in_elems(first))
            throw InputError(m_g.source + ": layer " + first.name + ": a concat of the network input " + std::to_string(operands) +
                             " times reads " + std::to_string(layer_in_elems(first)) + " elements, not a multiple of " +
                             std::to_string(operands));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const Layer& l = m_g.net.layers[i];
        const std::string where = m_g.source + ": layer " + l.name + ": ";
        if (l.kind != LayerKind::Eltwise && l.kind != LayerKind::Concat &&
            std::count(m_g.inputs[i].begin(), m_g.inputs[i].end(), NetGraph::kNetInput) > 0 && layer_in_elems(l) != m_input_elems)
            throw InputError(where + "it reads the network input as " + std::to_string(layer_in_elems(l)) + " elements, the input has " +
                             std::to_string(m_input_elems) + " (what layer " + m_g.net.layers[0].name +
                             " reads): the VTA runs networks with one input tensor, so a model with several inputs of different "
                             "sizes does not run on it");
        switch (l.kind) {
            case LayerKind::Conv:  // a transposed one (zero-inserted input) by im2row over the zero-inserted input
            case LayerKind::FullyConnected: break;
            case LayerKind::Eltwise:
                if (m_g.inputs[i].size() != 2)
                    throw InputError(where + "an eltwise " + (l.eltwise_op == EltwiseOp::Add ? "add" : "mul") +
                                     " on the VTA takes two operands, got " + std::to_string(m_g.inputs[i].size()));
                for (int s : m_g.inputs[i]) {  // a broadcast operand (fewer elements) is valid in a workload
                    if (s == NetGraph::kGenerated) continue;
                    const std::uint64_t e = producer_elems(s);
                    if (broadcast_index(e, l.C, std::uint64_t(l.H) * l.W, 0) < 0)
                        throw InputError(where + "a broadcast operand (" + std::to_string(e) + " elements from " +
                                         (s >= 0 ? m_g.net.layers[std::size_t(s)].name : std::string("input")) + ", the layer has " +
                                         std::to_string(l.C) + " x " + std::to_string(l.H) + " x " + std::to_string(l.W) +
                                         ") does not run on the VTA's host: it broadcasts a scalar, one value per channel or one per "
                                         "position" + (std::uint64_t(l.C) == std::uint64_t(l.H) * l.W ? " (here C = H x W: which one is "
                                                                                                       "ambiguous)" : ""));
                }
                break;
            case LayerKind::Pool:
                if (l.pool_op == PoolOp::Avg && (l.pad_top || l.pad_bottom || l.pad_left || l.pad_right) && !l.has_count_include_pad)
                    throw InputError(where + "average pooling with padding does not run on the VTA without its divisor rule "
                                             "(\"count_include_pad\"; vp-import writes ONNX's)");
                break;
            case LayerKind::Concat:
            case LayerKind::Slice:
            case LayerKind::Pad:
            case LayerKind::BatchNorm:
            case LayerKind::DepthToSpace:
            case LayerKind::SpaceToDepth:
            case LayerKind::Lrn: break;  // the host (run_host_layer)
            case LayerKind::LayerNorm:
                if (l.norm_axis == SoftmaxAxis::Unknown || !(l.norm_eps > 0.0))
                    throw InputError(where + "layernorm without its \"axis\" (c, h, w, hw or chw: the axes it normalises over) "
                                             "and \"epsilon\" does not run on the VTA's host (vp-import writes both when the axes "
                                             "are the layer's)");
                break;
            case LayerKind::Activation:
                if (!host_activation(l.act) && l.act != Activation::Softmax)
                    throw InputError(where + "an act layer (" + std::string(to_string(l.act)) +
                                     ") does not run on the VTA or its host (relu, relu6, leaky_relu, sigmoid, hard_sigmoid, "
                                     "hard_swish, tanh, erf, softplus, elu, clip and softmax do)");
                if (l.act == Activation::Softmax && l.softmax_axis == SoftmaxAxis::Unknown)
                    throw InputError(where + "softmax without its \"axis\" (c, h, w, hw or chw: the axes it normalises over) does "
                                             "not run on the VTA's host (vp-import writes it when the axes are the layer's)");
                break;
            case LayerKind::Resize:
                if (l.resize_coord == ResizeCoord::Unknown &&
                    (l.resize_mode != ResizeMode::Nearest || l.out_h % l.H != 0 || l.out_w % l.W != 0))
                    throw InputError(where + "without its coordinate mode (\"coord\"; vp-import writes ONNX's when the node's scale "
                                             "is the ratio of the sizes), the host runs nearest-neighbour resizes by integer factors only");
                if (l.resize_coord != ResizeCoord::Unknown && l.resize_mode == ResizeMode::Nearest &&
                    l.nearest_round == NearestRound::Unknown && (l.out_h % l.H != 0 || l.out_w % l.W != 0))
                    throw InputError(where + "without its rounding (\"nearest\"; vp-import writes ONNX's), the host runs "
                                             "nearest-neighbour resizes by integer factors only");
                break;
            default:
                throw InputError(where + "layers of type \"" + std::string(to_string(l.kind)) + "\"" +
                                 (l.kind == LayerKind::Activation ? " (" + std::string(to_string(l.act)) + ")" : "") +
                                 " do not run on the VTA (it runs conv, fc, pool and eltwise add layers; the host "
                                 "concat, slice, pad, resize, depth_to_space, space_to_depth, eltwise mul, activation, batchnorm, "
                                 "layernorm and lrn layers)");
        }
        if (!is_host_layer(i)) check_compiler_config(m_cfg, where);  // VTA programs: compiled when the layer runs
        if (is_host_layer(i) && l.kind != LayerKind::Eltwise && l.kind != LayerKind::Pool) {
            std::uint64_t in = 0;
            bool generated = false;
            for (int s : m_g.inputs[i]) {
                generated = generated || s == NetGraph::kGenerated;
                in += producer_elems(s);
            }
            if (m_g.inputs[i].empty() || generated || in != layer_in_elems(l) || (l.kind != LayerKind::Concat && m_g.inputs[i].size() != 1))
                throw InputError(where + "its producers do not give the " + std::to_string(layer_in_elems(l)) + " elements it reads");
            if (l.kind == LayerKind::Concat && l.data_axis != SoftmaxAxis::C) {
                const std::uint64_t section = concat_section(l);
                for (int s : m_g.inputs[i])
                    if (producer_elems(s) % section != 0)
                        throw InputError(where + "a producer gives " + std::to_string(producer_elems(s)) + " elements, not whole " +
                                         (l.data_axis == SoftmaxAxis::H ? "rows" : "columns") + " of the concat's " +
                                         std::to_string(section) + "-element cross-section");
            }
        }
        if (l.kind != LayerKind::Activation && l.act != Activation::None && !host_activation(l.act))
            throw InputError(where + "the fused activation " + std::string(to_string(l.act)) +
                             " does not run on the VTA (relu and relu6 do: a lower clamp at 0; leaky_relu, sigmoid, hard_sigmoid, "
                             "hard_swish, tanh, erf, softplus, elu and clip on the host)");
        if (l.act == Activation::HardSigmoid && !l.has_alpha)
            throw InputError(where + "hard_sigmoid without its \"alpha\" and \"beta\" does not run on the VTA: its host needs "
                                     "them (an imported HardSigmoid has them)");
        if (l.act == Activation::HardSigmoid && !(std::abs(l.alpha) <= 1000.0 && std::abs(l.beta) <= 1000.0))
            throw InputError(where + "hard_sigmoid's alpha " + std::to_string(l.alpha) + " or beta " + std::to_string(l.beta) +
                             " is outside [-1000, 1000]");
        if (l.act == Activation::Clip && !l.has_clip)
            throw InputError(where + "clip without its bounds (\"clip\": [min, max]) does not run on the VTA: its host needs them "
                                     "(an imported Clip has them)");
        if (l.act == Activation::Elu && !l.has_alpha)
            throw InputError(where + "elu without its \"alpha\" does not run on the VTA: its host needs it (an imported Elu has it)");
        if (l.act == Activation::Elu && !(std::abs(l.alpha) <= 1000.0))
            throw InputError(where + "elu's alpha " + std::to_string(l.alpha) + " is outside [-1000, 1000]");
        if (l.act == Activation::LeakyRelu && !l.has_alpha)
            throw InputError(where + "leaky_relu without its slope does not run on the VTA: its host needs \"alpha\" (an "
                                     "imported LeakyRelu has it; a PRelu with one slope per channel does not)");
        if (l.act == Activation::LeakyRelu && !(std::abs(l.alpha) <= 1000.0))
            throw InputError(where + "leaky_relu's slope " + std::to_string(l.alpha) + " is outside [-1000, 1000]");
    }
    // Data files are read (and their sizes checked) now, before any simulation starts.
    for (std::size_t i = 0; i < n; ++i) {
        const Layer& l = m_g.net.layers[i];
        const bool fc = l.kind == LayerKind::FullyConnected;
        const std::size_t nw = std::size_t(l.K) * (fc ? std::size_t(l.C) : std::size_t(l.C / l.groups) * l.R * l.S);
        if (!m_g.weight_files[i].empty()) m_data[i].weights = read_raw<std::int8_t>(m_g.weight_files[i], nw, "weights");
        if (!m_g.bias_files[i].empty()) m_data[i].bias = read_raw<std::int32_t>(m_g.bias_files[i], std::size_t(l.K), "bias");
        if (i < m_g.weight_values.size() && !m_g.weight_values[i].empty()) {
            if (m_g.weight_values[i].size() != nw)
                throw InputError(m_g.source + ": layer " + l.name + ": " + std::to_string(m_g.weight_values[i].size()) +
                                 " weights given, the layer needs " + std::to_string(nw));
            m_data[i].weights = m_g.weight_values[i];
        }
        if (i < m_g.bias_values.size() && !m_g.bias_values[i].empty()) {
            if (m_g.bias_values[i].size() != std::size_t(l.K))
                throw InputError(m_g.source + ": layer " + l.name + ": " + std::to_string(m_g.bias_values[i].size()) +
                                 " biases given, the layer needs " + std::to_string(l.K));
            m_data[i].bias = m_g.bias_values[i];
        }
    }
    m_input = m_g.input_file.empty() ? gen_int8(m_input_elems, mix(m_opt.seed, 0xFFFF, 0), -128, 127)
                                     : read_raw<std::int8_t>(m_g.input_file, m_input_elems, "input");
}

bool NetworkDriver::pool_on_host(const Layer& l) const {
    if (l.pool_op == PoolOp::Avg && (l.pad_top || l.pad_bottom || l.pad_left || l.pad_right)) return true;  // a divisor per window
    const std::int64_t cap = m_cfg.acc_depth();
    return (pool_needs_gather(l) || std::int64_t(l.H) * l.W > cap) && std::int64_t(l.Q()) * l.R * l.S > cap;
}

int NetworkDriver::pool_band(const Layer& l) const {
    const std::int64_t cap = m_cfg.acc_depth();  // ACC rows an ALU-only program may keep resident
    if (!pool_needs_gather(l) && std::int64_t(l.H) * l.W <= cap) return 0;
    const std::int64_t per_row = std::int64_t(l.Q()) * l.R * l.S;
    if (per_row > cap)
        throw InputError(m_g.source + ": layer " + l.name + ": one output row of the pooling windows (" + std::to_string(per_row) +
                         " gathered rows) exceeds the VTA accumulator (" + std::to_string(cap) + " rows)");
    return int(std::min<std::int64_t>(l.P(), cap / per_row));
}

std::uint64_t NetworkDriver::producer_elems(int s) const {
    return s >= 0 ? layer_out_elems(m_g.net.layers[std::size_t(s)]) : m_input_elems;
}

bool NetworkDriver::is_host_layer(std::size_t i) const {
    const Layer& l = m_g.net.layers[i];
    if (l.kind == LayerKind::Pool) return pool_on_host(l);
    if (l.kind == LayerKind::Eltwise) {
        if (l.eltwise_op == EltwiseOp::Mul) return true;
        for (int s : m_g.inputs[i])  // an add with a broadcast operand
            if (s != NetGraph::kGenerated && producer_elems(s) != layer_in_elems(l)) return true;
        return false;
    }
    return l.kind == LayerKind::Concat || l.kind == LayerKind::Slice || l.kind == LayerKind::Pad || l.kind == LayerKind::Resize ||
           l.kind == LayerKind::Activation || l.kind == LayerKind::BatchNorm || l.kind == LayerKind::LayerNorm ||
           l.kind == LayerKind::Lrn || l.kind == LayerKind::DepthToSpace || l.kind == LayerKind::SpaceToDepth;
}

const LayerData& NetworkDriver::generate_affine(std::size_t i) {
    const Layer& l = m_g.net.layers[i];
    LayerData& d = m_data[i];
    std::mt19937_64 g(mix(m_opt.seed, i, 3));
    d.scale.resize(std::size_t(l.C));
    d.bias.resize(std::size_t(l.C));
    for (int c = 0; c < l.C; ++c) {
        d.scale[std::size_t(c)] = 64 + std::int32_t(g() % 128);
        d.bias[std::size_t(c)] = std::int32_t(g() % 33) - 16;
    }
    return d;
}

void NetworkDriver::run_host_layer(std::size_t i) {
    const Layer& l = m_g.net.layers[i];
    if (!m_prepared[i]) prepare_layer(i);  // an eltwise operand generated from the seed
    std::vector<std::int8_t>& out = m_out[i];
    out.assign(layer_out_elems(l), 0);
    const std::size_t HW = std::size_t(l.H) * l.W;
    switch (l.kind) {
        case LayerKind::Concat: {  // CHW tensors: along C, channel blocks one after the other; along H or
            // W, each channel's rows (H) or each row's columns (W) of the producers one after the other:
            // a producer gives `run` consecutive elements of each of `outer` runs of the output
            const std::size_t outer = l.data_axis == SoftmaxAxis::C ? 1 : l.data_axis == SoftmaxAxis::H ? std::size_t(l.C)
                                                                                                      : std::size_t(l.C) * l.H;
            const std::size_t out_run = out.size() / outer;
            std::size_t at = 0;
            for (std::size_t k = 0; k < m_g.inputs[i].size(); ++k) {
                const auto& in = operand(i, k);
                const std::size_t run = in.size() / outer;
                for (std::size_t o = 0; o < outer; ++o)
                    std::copy(in.begin() + std::ptrdiff_t(o * run), in.begin() + std::ptrdiff_t((o + 1) * run),
                              out.begin() + std::ptrdiff_t(o * out_run + at));
                at += run;
            }
            break;
        }
        case LayerKind::Slice: {  // every slice_step-th channel (row, column) from offset on
            const auto& in = operand(i, 0);
            const int P = l.P(), Q = l.Q();
            const bool c = l.data_axis == SoftmaxAxis::C, h = l.data_axis == SoftmaxAxis::H;
            std::size_t j = 0;
            for (int k = 0; k < l.K; ++k)
                for (int y = 0; y < P; ++y)
                    for (int x = 0; x < Q; ++x) {
                        const std::size_t ic = c ? std::size_t(l.offset) + std::size_t(k) * std::size_t(l.slice_step) : std::size_t(k);
                        const std::size_t iy = h ? std::size_t(l.offset) + std::size_t(y) * std::size_t(l.slice_step) : std::size_t(y);
                        const std::size_t ix = !c && !h ? std::size_t(l.offset) + std::size_t(x) * std::size_t(l.slice_step) : std::size_t(x);
                        out[j++] = in[(ic * std::size_t(l.H) + iy) * std::size_t(l.W) + ix];
                    }
            break;
        }
        case LayerKind::DepthToSpace:
        case LayerKind::SpaceToDepth: {  // space_depth_channel's comment (network_driver.h)
            const auto& in = operand(i, 0);
            const bool d2s = l.kind == LayerKind::DepthToSpace;
            const int b = l.block, P = l.P(), Q = l.Q();
            // The deep side (C x H x W of depth_to_space, K x P x Q of space_to_depth) has the block's
            // channels; element (c, y, x) of the shallow side is in channel space_depth_channel(c, y % b,
            // x % b) at (y / b, x / b) of the deep side.
            const int shallow_c = d2s ? l.K : l.C, shallow_h = d2s ? P : l.H, shallow_w = d2s ? Q : l.W;
            const int deep_h = shallow_h / b, deep_w = shallow_w / b;
            for (int c = 0; c < shallow_c; ++c)
                for (int y = 0; y < shallow_h; ++y)
                    for (int x = 0; x < shallow_w; ++x) {
                        const std::size_t s = (std::size_t(c) * shallow_h + std::size_t(y)) * shallow_w + std::size_t(x);
                        const int dc = space_depth_channel(c, y % b, x % b, shallow_c, b, l.crd);
                        const std::size_t d = (std::size_t(dc) * deep_h + std::size_t(y / b)) * deep_w + std::size_t(x / b);
                        if (d2s) out[s] = in[d];
                        else out[d] = in[s];
                    }
            break;
        }
        case LayerKind::Activation: {  // relu / relu6: the lower clamp at 0 (as fused); the others by table
            const auto& in = operand(i, 0);
            if (l.act == Activation::Softmax) {
                out = softmax_int8(in, l.C, l.H, l.W, l.softmax_axis);
                break;
            }
            const auto t = activation_table(l);
            for (std::size_t j = 0; j < out.size(); ++j) out[j] = t[std::size_t(in[j] + 128)];
            break;
        }
        case LayerKind::Pool: {  // one output row of windows exceeds the accumulator, or a padded average: the VTA's
            const auto& in = operand(i, 0);  // arithmetic on the host, the divisor per window by count_include_pad
            const int P = l.P(), Q = l.Q();
            const bool avg = l.pool_op == PoolOp::Avg;
            for (int c = 0; c < l.C; ++c)
                for (int p = 0; p < P; ++p)
                    for (int q = 0; q < Q; ++q) {
                        std::int64_t best = -128, sum = 0;
                        int n = 0;
                        for (int r = 0; r < l.R; ++r)
                            for (int t = 0; t < l.S; ++t) {
                                const int y = p * l.stride_h + r - l.pad_top, x = q * l.stride_w + t - l.pad_left;
                                if (y < 0 || y >= l.H || x < 0 || x >= l.W) {
                                    n += l.count_include_pad;  // a zero of the padding (the layer's own pads)
                                    continue;
                                }
                                const std::int64_t v = in[(std::size_t(c) * l.H + std::size_t(y)) * l.W + std::size_t(x)];
                                best = std::max(best, v);
                                sum += v;
                                ++n;
                            }
                        const std::int64_t v =
                            !avg ? best : n == 0 ? 0 : (sum * avg_multiplier(n) + (std::int64_t(1) << (kAvgShift - 1))) >> kAvgShift;
                        out[(std::size_t(c) * P + std::size_t(p)) * Q + std::size_t(q)] = std::int8_t(std::clamp<std::int64_t>(v, -128, 127));
                    }
            break;
        }
        case LayerKind::Eltwise: {  // mul, or add with a broadcast operand; then a fused activation
            const auto& a = operand(i, 0);
            const auto& b = operand(i, 1);
            const int C = l.C;
            const std::uint64_t HW = std::uint64_t(l.H) * l.W;
            const bool mul = l.eltwise_op == EltwiseOp::Mul;
            for (std::size_t j = 0; j < out.size(); ++j) {
                const std::int8_t x = a[std::size_t(broadcast_index(a.size(), C, HW, j))];
                const std::int8_t y = b[std::size_t(broadcast_index(b.size(), C, HW, j))];
                out[j] = mul ? mul_int8(x, y, l.relu) : std::int8_t(std::clamp(int(x) + int(y), l.relu ? 0 : -128, 127));
            }
            if (l.act != Activation::None && !l.relu) {
                const auto t = activation_table(l);
                for (auto& v : out) v = t[std::size_t(v + 128)];
            }
            break;
        }
        case LayerKind::LayerNorm: {  // layernorm_int8's comment (network_driver.h)
            const LayerData& d = generate_affine(i);
            out = layernorm_int8(operand(i, 0), l.C, l.H, l.W, l.norm_axis, l.norm_eps, d.scale, d.bias);
            break;
        }
        case LayerKind::BatchNorm: {  // kBnShift's comment (network_driver.h)
            const auto& in = operand(i, 0);
            const LayerData& d = generate_affine(i);
            const int lo = l.relu ? 0 : -128;  // a fused relu / relu6
            for (int c = 0; c < l.C; ++c)
                for (std::size_t j = 0; j < HW; ++j) {
                    const std::size_t at = std::size_t(c) * HW + j;
                    const std::int32_t v =
                        ((std::int32_t(in[at]) * d.scale[std::size_t(c)] + (1 << (kBnShift - 1))) >> kBnShift) + d.bias[std::size_t(c)];
                    out[at] = std::int8_t(std::clamp(v, lo, 127));
                }
            break;
        }
        case LayerKind::Lrn:  // lrn_int8's comment (network_driver.h)
            out = lrn_int8(operand(i, 0), l.C, HW, l.lrn_size, l.alpha, l.beta, l.lrn_bias);
            break;
        case LayerKind::Pad: {  // pad_source's comment (network_driver.h)
            const auto& in = operand(i, 0);
            const int P = l.P(), Q = l.Q();
            std::vector<int> sy(static_cast<std::size_t>(P)), sx(static_cast<std::size_t>(Q));
            for (int p = 0; p < P; ++p) sy[std::size_t(p)] = pad_source(p - l.pad_top, l.H, l.pad_mode);
            for (int q = 0; q < Q; ++q) sx[std::size_t(q)] = pad_source(q - l.pad_left, l.W, l.pad_mode);
            const std::int8_t k = pad_constant_int8(l.pad_value);
            for (int c = 0; c < l.C; ++c)
                for (int p = 0; p < P; ++p)
                    for (int q = 0; q < Q; ++q) {
                        const int y = sy[std::size_t(p)], x = sx[std::size_t(q)];
                        out[(std::size_t(c) * P + std::size_t(p)) * Q + std::size_t(q)] =
                            y < 0 || x < 0 ? k : in[(std::size_t(c) * l.H + std::size_t(y)) * l.W + std::size_t(x)];
                    }
            break;
        }
        default: {  // resize (resize_taps' comment in network_driver.h)
            const auto& in = operand(i, 0);
            const int P = l.P(), Q = l.Q();
            const auto ty = resize_taps(l, true), tx = resize_taps(l, false);
            const bool linear = l.resize_mode == ResizeMode::Linear;
            for (int c = 0; c < l.C; ++c) {
                const std::int8_t* ch = in.data() + std::size_t(c) * l.H * l.W;
                for (int p = 0; p < P; ++p) {
                    const ResizeTap& y = ty[std::size_t(p)];
                    for (int q = 0; q < Q; ++q) {
                        const ResizeTap& x = tx[std::size_t(q)];
                        std::int8_t& o = out[(std::size_t(c) * P + std::size_t(p)) * Q + std::size_t(q)];
                        if (!linear) {
                            o = ch[std::size_t(y.i0) * l.W + std::size_t(x.i0)];
                            continue;
                        }
                        auto at = [&](int r, int s) { return std::int32_t(ch[std::size_t(r) * l.W + std::size_t(s)]); };
                        const std::int32_t top = at(y.i0, x.i0) * (128 - x.w1) + at(y.i0, x.i1) * x.w1;
                        const std::int32_t bot = at(y.i1, x.i0) * (128 - x.w1) + at(y.i1, x.i1) * x.w1;
                        o = std::int8_t(std::clamp<std::int32_t>((top * (128 - y.w1) + bot * y.w1 + (1 << 13)) >> 14, -128, 127));
                    }
                }
            }
        }
    }
    m_carry_bytes += std::uint64_t(out.size());  // charged to the next program's host time
    m_prepared[i] = m_done[i] = true;
}

int NetworkDriver::parts(std::size_t i) const {
    const Layer& l = m_g.net.layers[i];
    if (is_host_layer(i)) return 0;
    if (l.kind == LayerKind::Pool) {
        const int band = pool_band(l);
        return band == 0 ? 1 : (l.P() + band - 1) / band;
    }
    if (l.kind != LayerKind::Conv || l.groups == 1) return 1;
    const int m = pack_groups(l, m_cfg.block());
    return (l.groups + m - 1) / m;
}

std::size_t NetworkDriver::programs_total() const {
    std::size_t t = 0;
    for (std::size_t i = 0; i < m_g.net.layers.size(); ++i) t += std::size_t(parts(i));
    return t;
}

std::vector<std::size_t> NetworkDriver::output_layers() const {
    std::vector<bool> used(m_g.net.layers.size(), false);
    for (const auto& in : m_g.inputs)
        for (int s : in)
            if (s >= 0) used[std::size_t(s)] = true;
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < used.size(); ++i)
        if (!used[i]) out.push_back(i);
    return out;
}

const std::vector<std::int8_t>& NetworkDriver::operand(std::size_t i, std::size_t k) const {
    const int s = m_g.inputs[i][k];
    if (s == NetGraph::kNetInput) return m_input;
    if (s == NetGraph::kGenerated) return m_data[i].generated[k];
    if (!m_done[std::size_t(s)]) throw SimulationError("VTA driver: layer " + m_g.net.layers[i].name + " runs before its input");
    return m_out[std::size_t(s)];
}

void NetworkDriver::prepare_layer(std::size_t i) {
    const Layer& l = m_g.net.layers[i];
    LayerData& d = m_data[i];
    d.generated.resize(m_g.inputs[i].size());
    for (std::size_t k = 0; k < m_g.inputs[i].size(); ++k)
        if (m_g.inputs[i][k] == NetGraph::kGenerated) d.generated[k] = gen_int8(layer_in_elems(l), mix(m_opt.seed, i, 100 + k), -128, 127);
    if (l.kind == LayerKind::Conv || l.kind == LayerKind::FullyConnected) {
        const bool fc = l.kind == LayerKind::FullyConnected;
        const std::size_t kd = fc ? std::size_t(l.C) : std::size_t(l.C / l.groups) * l.R * l.S;
        const std::size_t nw = std::size_t(l.K) * kd;
        if (d.weights.empty()) d.weights = gen_int8(nw, mix(m_opt.seed, i, 1), -127, 127);
        const double sd = std::max(1.0, std::sqrt(double(kd)) * std::max(1.0, rms(operand(i, 0))) * std::max(1.0, rms(d.weights)));
        const double s = 32.0 / sd;
        int n = int(std::ceil(std::log2(16.0 / s)));
        n = std::clamp(n, 0, 15);
        d.requant.shift = n;
        d.requant.mul = std::int32_t(std::clamp(std::lround(s * double(1 << n)), 1L, 32767L));
        d.requant.relu = l.relu;
        if (d.bias.empty()) {
            std::mt19937_64 g(mix(m_opt.seed, i, 2));
            const std::int64_t r = std::max<std::int64_t>(1, std::int64_t(sd / 2));
            d.bias.resize(std::size_t(l.K));
            for (auto& b : d.bias) b = std::int32_t(std::int64_t(g() % std::uint64_t(2 * r + 1)) - r);
        }
    }
    m_out[i].assign(layer_out_elems(l), 0);
    m_prepared[i] = true;
}

bool NetworkDriver::try_direct(const Layer& l, const LayerData& d, const CompileOptions& co, ProgramJob& job) {
    // Two virtual threads when a tile fits the halved buffers, else one; im2row when no tile fits.
    CompileOptions c = co;
    for (;;) {
        try {
            job.prog = compile_direct_conv(l, operand(job.layer, 0), d.weights, d.bias, d.requant, m_cfg, c);
            job.prog.name = l.name;
            return true;
        } catch (const InputError&) {
            if (!c.double_buffer) return false;
            c.double_buffer = false;
        }
    }
}

bool NetworkDriver::next(ProgramJob& job) {
    while (m_layer < m_g.net.layers.size() && is_host_layer(m_layer)) run_host_layer(m_layer++);
    if (m_layer >= m_g.net.layers.size()) return false;
    try {
        return next_program(job);
    } catch (const InputError& e) {
        // The compiler's messages ("matrix too wide: ...") name neither the workload nor the layer.
        const std::string what = e.what(), own = "layer " + m_g.net.layers[m_layer].name + ": ";
        if (what.rfind(m_g.source + ": ", 0) == 0) throw;
        throw InputError(m_g.source + ": " + own + (what.rfind(own, 0) == 0 ? what.substr(own.size()) : what));
    }
}

bool NetworkDriver::next_program(ProgramJob& job) {
    const std::size_t i = m_layer;
    const Layer& l = m_g.net.layers[i];
    if (!m_prepared[i]) prepare_layer(i);
    const LayerData& d = m_data[i];
    CompileOptions co;
    co.dram_base = m_opt.dram_base;
    co.double_buffer = m_opt.double_buffer;
    co.estimate = m_opt.estimate;
    Program p;
    bool direct = false;
    job.layer = i;
    job.part = m_part;
    job.parts = parts(i);
    job.ch0 = 0;
    job.row0 = 0;
    job.rows = 0;
    switch (l.kind) {
        case LayerKind::Conv:
            if (m_opt.lowering_of(i) != DriverOptions::ConvLowering::Im2row && direct_conv_supported(l) && try_direct(l, d, co, job)) {
                direct = true;
                if (m_opt.lowering_of(i) == DriverOptions::ConvLowering::Auto) {  // keep im2row if it is estimated faster
                    Program pi = lower_conv(l, operand(i, 0), d.weights, d.bias, d.requant, m_opt.strategy_of(i));
                    pi.name = l.name;
                    CompiledProgram ci = compile(pi, m_cfg, co);
                    if (estimate_cycles(ci, co.estimate).total < estimate_cycles(job.prog, co.estimate).total) job.prog = std::move(ci);
                }
                break;
            }
            {
                // A transposed convolution: the host's im2row reads the producer's output with z - 1
                // zeros between neighbours (the layer's H, W count them).
                std::vector<std::int8_t> inserted;
                if (l.zero_insert_h != 1 || l.zero_insert_w != 1) inserted = zero_inserted(l, operand(i, 0));
                const std::vector<std::int8_t>& in = inserted.empty() ? operand(i, 0) : inserted;
                if (l.groups == 1) {
                    p = lower_conv(l, in, d.weights, d.bias, d.requant, m_opt.strategy_of(i));
                } else {
                    const int m = pack_groups(l, m_cfg.block());
                    const int g0 = m_part * m, mm = std::min(m, l.groups - g0);
                    p = lower_group_pack(l, in, d.weights, d.bias, d.requant, g0, mm, m_opt.strategy_of(i));
                    job.ch0 = g0 * (l.K / l.groups);
                }
            }
            break;
        case LayerKind::FullyConnected: p = lower_conv(l, operand(i, 0), d.weights, d.bias, d.requant, m_opt.strategy_of(i)); break;
        case LayerKind::Pool:
            if (const int band = pool_band(l); band > 0) {
                const int p0 = m_part * band, p1 = std::min(l.P(), p0 + band);
                p = lower_pool_windows(l, operand(i, 0), p0, p1);
                job.row0 = std::size_t(p0) * std::size_t(l.Q());
                job.rows = std::size_t(p1 - p0) * std::size_t(l.Q());
            } else {
                p = l.pool_op == PoolOp::Max ? lower_maxpool(l, operand(i, 0)) : lower_avgpool(l, operand(i, 0));
            }
            break;
        case LayerKind::Eltwise: p = lower_add(l, operand(i, 0), operand(i, 1)); break;
        default: throw InputError("layer " + l.name + ": does not run on the VTA");
    }
    if (!direct) {
        p.name = l.name + (job.parts > 1 ? "#" + std::to_string(m_part) : "");
        job.prog = compile(p, m_cfg, co);
    }
    job.host_bytes = job.prog.image.size() + job.prog.stored_rows.size() * std::size_t(job.prog.out_cols) + m_carry_bytes;
    m_carry_bytes = 0;
    job.host_ns = m_opt.host_ns_per_program + m_opt.host_ns_per_byte * double(job.host_bytes);
    if (++m_part >= job.parts) {
        m_part = 0;
        ++m_layer;
    }
    return true;
}

void NetworkDriver::complete(const ProgramJob& job, const std::vector<std::int8_t>& rows) {
    const std::size_t i = job.layer;
    const Layer& l = m_g.net.layers[i];
    const bool fc = l.kind == LayerKind::FullyConnected;
    const std::size_t PQ = fc ? 1 : std::size_t(l.P()) * l.Q();
    const std::size_t n = job.rows == 0 ? PQ : job.rows;
    const std::size_t cols = std::size_t(job.prog.out_cols);
    if (rows.size() != n * cols || job.row0 + n > PQ)
        throw SimulationError("VTA driver: layer " + l.name + ": program stored " + std::to_string(rows.size()) + " bytes, expected " +
                              std::to_string(n * cols));
    std::vector<std::int8_t>& out = m_out[i];
    for (std::size_t r = 0; r < n; ++r)  // host reshaping [P*Q, channels] -> CHW
        for (std::size_t c = 0; c < cols; ++c) out[(std::size_t(job.ch0) + c) * PQ + job.row0 + r] = rows[r * cols + c];
    if (++m_parts_done[i] == job.parts) {
        if (l.act != Activation::None && !l.relu) {  // a fused leaky relu, sigmoid, ...: on the host, after the program(s)
            const auto t = activation_table(l);
            for (auto& v : out) v = t[std::size_t(v + 128)];
            m_carry_bytes += std::uint64_t(out.size());
        }
        m_done[i] = true;
    }
}

void run_network_functional(NetworkDriver& d, std::vector<ProgramJob>* jobs) {
    ProgramJob job;
    while (d.next(job)) {  // host layers run inside next()
        d.complete(job, run_functional(job.prog));
        if (jobs) {
            job.prog.image.clear();
            job.prog.image.shrink_to_fit();
            jobs->push_back(std::move(job));
        }
    }
}

}  // namespace vp::mapper::vta
