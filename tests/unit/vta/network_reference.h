#pragma once
// Independent plain C++ reference of a whole int8 network on CHW tensors: direct convolution
// loops (grouped, dilated, transposed: zero-inserted input), fc, max/avg pooling (overlapping windows, max with padding), residual add,
// the host's concat / slice / pad / nearest and linear resize / relu / leaky relu / sigmoid / hard sigmoid / hard
// swish / tanh / erf / softplus / elu / softmax / batchnorm / layernorm / lrn and its eltwise mul and broadcast operands, with the requantisation arithmetic of
// Compilation and Execution of an Embeddable YOLO-NAS on the VTA (int32 wrap-around: acc*mul + 2^(n-1), arithmetic >> n, clamp). It shares no code
// with the lowering, the compiler, the executor or the models; it only reads the data the
// driver generated (weights, bias, requant constants, generated operands).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "mapper/vta/network_driver.h"

namespace net_ref {

using vp::mapper::Layer;
using vp::mapper::LayerKind;
using Tensor = std::vector<std::int8_t>;

// floor(num / d) for d > 0 (the host's arithmetic shifts, by division).
inline std::int64_t floor_div(std::int64_t num, std::int64_t d) { return num >= 0 ? num / d : -((-num + d - 1) / d); }
inline std::int32_t wrap(std::int64_t v) { return std::int32_t(std::uint32_t(std::uint64_t(v))); }
inline std::int8_t requant(std::int32_t acc, std::int32_t mul, int n, bool relu) {
    std::int32_t v = wrap(std::int64_t(acc) * mul);
    if (n > 0) v = wrap(std::int64_t(v) + (std::int64_t(1) << (n - 1))) >> n;
    return std::int8_t(std::min(127, std::max(relu ? 0 : -128, v)));
}

inline Tensor conv(const Layer& l, const Tensor& in, const vp::mapper::vta::LayerData& d) {
    const bool fc = l.kind == LayerKind::FullyConnected;
    const int C = l.C, K = l.K, H = fc ? 1 : l.H, W = fc ? 1 : l.W, R = fc ? 1 : l.R, S = fc ? 1 : l.S;
    const int P = fc ? 1 : l.P(), Q = fc ? 1 : l.Q(), G = fc ? 1 : l.groups, cg = C / G, kg = K / G;
    const int sh = fc ? 1 : l.stride_h, sw = fc ? 1 : l.stride_w, pt = fc ? 0 : l.pad_top, pl = fc ? 0 : l.pad_left;
    const int dh = fc ? 1 : l.dilation_h, dw = fc ? 1 : l.dilation_w;  // a dilated kernel's taps dh, dw apart
    // A transposed convolution reads its producer's output (h x w) with z - 1 zeros between
    // neighbours: position y of the H rows is a value when y % z == 0, else a zero.
    const int zh = fc ? 1 : l.zero_insert_h, zw = fc ? 1 : l.zero_insert_w, h = (H - 1) / zh + 1, w = (W - 1) / zw + 1;
    Tensor out(std::size_t(K) * P * Q);
    for (int k = 0; k < K; ++k) {
        const int g = k / kg;
        for (int p = 0; p < P; ++p)
            for (int q = 0; q < Q; ++q) {
                std::int64_t acc = d.bias[std::size_t(k)];
                for (int c = 0; c < cg; ++c)
                    for (int r = 0; r < R; ++r)
                        for (int s = 0; s < S; ++s) {
                            const int y = p * sh + r * dh - pt, x = q * sw + s * dw - pl;
                            if (y < 0 || y >= H || x < 0 || x >= W || y % zh != 0 || x % zw != 0) continue;
                            acc += std::int64_t(in[(std::size_t(g * cg + c) * h + y / zh) * w + x / zw]) *
                                   d.weights[((std::size_t(k) * cg + c) * R + r) * S + s];
                        }
                out[(std::size_t(k) * P + p) * Q + q] = requant(wrap(acc), d.requant.mul, d.requant.shift, d.requant.relu);
            }
    }
    return out;
}

// Max / average pooling; an average's divisor n is the window's size, or with padding the number of
// its positions inside the input (count_include_pad false) or inside the padded input (true), and
// the average round(2^14 / n) times the sum, plus 2^13, over 2^14 (floor).
inline Tensor pool(const Layer& l, const Tensor& in, bool avg) {
    const int P = l.P(), Q = l.Q();
    Tensor out(std::size_t(l.C) * P * Q);
    for (int c = 0; c < l.C; ++c)
        for (int p = 0; p < P; ++p)
            for (int q = 0; q < Q; ++q) {
                const int y0 = p * l.stride_h - l.pad_top, x0 = q * l.stride_w - l.pad_left;
                // the window clipped to the input, and to the padded input
                const int iy = std::min(y0 + l.R, l.H) - std::max(y0, 0), ix = std::min(x0 + l.S, l.W) - std::max(x0, 0);
                const int py = std::min(y0 + l.R, l.H + l.pad_bottom) - std::max(y0, -l.pad_top);
                const int px = std::min(x0 + l.S, l.W + l.pad_right) - std::max(x0, -l.pad_left);
                const bool padded = l.pad_top || l.pad_bottom || l.pad_left || l.pad_right;
                const int n = !padded ? l.R * l.S : l.count_include_pad ? py * px : std::max(0, iy) * std::max(0, ix);
                std::int64_t best = -1000, sum = 0;
                for (int r = 0; r < l.R; ++r)
                    for (int s = 0; s < l.S; ++s) {
                        const int y = y0 + r, x = x0 + s;
                        if (y < 0 || y >= l.H || x < 0 || x >= l.W) continue;  // padding: never the max, adds 0
                        const int v = in[(std::size_t(c) * l.H + y) * l.W + x];
                        best = std::max<std::int64_t>(best, v);
                        sum += v;
                    }
                const std::int64_t m = n > 0 ? (2 * 16384 + n) / (2 * n) : 0;  // round(2^14 / n), documented in layer_lowering.h
                std::int64_t v = avg ? floor_div(sum * m + 8192, 16384) : best;
                out[(std::size_t(c) * P + p) * Q + q] = std::int8_t(std::min<std::int64_t>(127, std::max<std::int64_t>(-128, v)));
            }
    return out;
}

// Eltwise add (the VTA's, or the host's with a broadcast operand) and mul (the host's: the
// product's 7 fraction bits rounded off, floor((a b + 64) / 128)), clamped to [0 with a fused relu,
// else -128; 127]. An operand of fewer elements is one scalar, one value per channel or one per
// position (the layer's C != H W).
inline Tensor eltwise(const Layer& l, const Tensor& a, const Tensor& b) {
    const std::size_t hw = std::size_t(l.H) * l.W;
    Tensor out(std::size_t(l.C) * hw);
    auto at = [&](const Tensor& t, std::size_t c, std::size_t pos) {
        if (t.size() == out.size()) return t[c * hw + pos];
        if (t.size() == 1) return t[0];
        return t.size() == std::size_t(l.C) ? t[c] : t[pos];
    };
    const bool mul = l.eltwise_op == vp::mapper::EltwiseOp::Mul;
    for (std::size_t c = 0; c < std::size_t(l.C); ++c)
        for (std::size_t pos = 0; pos < hw; ++pos) {
            const std::int64_t x = at(a, c, pos), y = at(b, c, pos);
            std::int64_t v = x + y;
            if (mul) {
                v = x * y + 64;
                v = v >= 0 ? v / 128 : -((-v + 127) / 128);
            }
            out[c * hw + pos] = std::int8_t(std::min<std::int64_t>(127, std::max<std::int64_t>(l.relu ? 0 : -128, v)));
        }
    return out;
}


// Host resize, per axis (ONNX Resize): the input coordinate of output index p (of `out`, from `in`)
// as an exact fraction n / d by the coordinate mode, without one p / f (integer factors).
struct Frac {
    std::int64_t n, d;
};
inline Frac resize_coord(const Layer& l, std::int64_t p, std::int64_t in, std::int64_t out) {
    using vp::mapper::ResizeCoord;
    switch (l.resize_coord) {
        case ResizeCoord::HalfPixel: return {(2 * p + 1) * in - out, 2 * out};  // (p + 1/2) in / out - 1/2
        case ResizeCoord::PytorchHalfPixel: return out > 1 ? Frac{(2 * p + 1) * in - out, 2 * out} : Frac{0, 1};
        case ResizeCoord::AlignCorners: return out > 1 ? Frac{p * (in - 1), out - 1} : Frac{0, 1};
        case ResizeCoord::Asymmetric: return {p * in, out};
        case ResizeCoord::TfHalfPixelForNn: return {(2 * p + 1) * in, 2 * out};
        default: return {p * in, out};
    }
}
// Nearest: the rounding of the coordinate, clamped to the input.
inline std::int64_t resize_nearest(const Layer& l, Frac x, std::int64_t in) {
    using vp::mapper::NearestRound;
    std::int64_t i = floor_div(x.n, x.d);  // floor (and without a rounding: integer factors)
    const std::int64_t twice = 2 * x.n + x.d;  // 2 (x + 1/2) d
    if (l.nearest_round == NearestRound::RoundPreferCeil) i = floor_div(twice, 2 * x.d);
    if (l.nearest_round == NearestRound::RoundPreferFloor) i = floor_div(twice, 2 * x.d) - (twice % (2 * x.d) == 0 ? 1 : 0);
    if (l.nearest_round == NearestRound::Ceil) i = floor_div(x.n + x.d - 1, x.d);
    return std::min(in - 1, std::max<std::int64_t>(0, i));
}
// Linear: the two taps and the weight of the second in 1/128 (nearest, halves up).
inline void resize_linear(Frac x, std::int64_t in, std::int64_t& i0, std::int64_t& i1, std::int64_t& w1) {
    const std::int64_t n = std::max<std::int64_t>(0, x.n), f = n / x.d, rem = 128 * (n - f * x.d);
    w1 = rem / x.d + (2 * (rem % x.d) >= x.d ? 1 : 0);
    i0 = std::min(f, in - 1);
    i1 = std::min(f + 1, in - 1);
}
inline std::int8_t resize_at(const Layer& l, const Tensor& t, int c, int p, int q) {
    const Frac y = resize_coord(l, p, l.H, l.P()), x = resize_coord(l, q, l.W, l.Q());
    auto at = [&](std::int64_t r, std::int64_t s) { return std::int64_t(t[(std::size_t(c) * l.H + std::size_t(r)) * l.W + std::size_t(s)]); };
    if (l.resize_mode == vp::mapper::ResizeMode::Nearest) {
        if (l.resize_coord == vp::mapper::ResizeCoord::Unknown || l.nearest_round == vp::mapper::NearestRound::Unknown)
            return std::int8_t(at(std::int64_t(p) * l.H / l.P(), std::int64_t(q) * l.W / l.Q()));  // integer factors
        return std::int8_t(at(resize_nearest(l, y, l.H), resize_nearest(l, x, l.W)));
    }
    std::int64_t y0, y1, wy, x0, x1, wx;
    resize_linear(y, l.H, y0, y1, wy);
    resize_linear(x, l.W, x0, x1, wx);
    std::int64_t sum = 0;
    for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx)
            sum += at(dy ? y1 : y0, dx ? x1 : x0) * (dy ? wy : 128 - wy) * (dx ? wx : 128 - wx);
    return std::int8_t(std::min<std::int64_t>(127, std::max<std::int64_t>(-128, floor_div(sum + 8192, 16384))));
}

// Host layers: concat and strided slice along C, H or W, pad, resize.
// DepthToSpace and SpaceToDepth as ONNX defines them: a reshape to six dimensions (batch dropped
// here: five), a transpose, a reshape back. Each element of the source, indexed in the reshaped
// source, is written at its index in the transposed layout.
//   DepthToSpace DCR: [b, b, C', H, W] -> [C', H, b, W, b];  CRD: [C', b, b, H, W] -> [C', H, b, W, b]
//   SpaceToDepth:     [C, H', b, W', b] -> [b, b, C, H', W']
inline Tensor space_depth(const Layer& l, const Tensor& in) {
    const int b = l.block;
    Tensor out(in.size());
    if (l.kind == LayerKind::DepthToSpace) {
        const int Co = l.C / (b * b), H = l.H, W = l.W;
        std::size_t src = 0;
        for (int a0 = 0; a0 < (l.crd ? Co : b); ++a0)
            for (int a1 = 0; a1 < b; ++a1)
                for (int a2 = 0; a2 < (l.crd ? b : Co); ++a2)
                    for (int h = 0; h < H; ++h)
                        for (int w = 0; w < W; ++w, ++src) {
                            const int c = l.crd ? a0 : a2, i = l.crd ? a1 : a0, j = l.crd ? a2 : a1;
                            out[(((std::size_t(c) * H + h) * b + i) * W + w) * b + j] = in[src];
                        }
    } else {
        const int C = l.C, Hs = l.H / b, Ws = l.W / b;
        std::size_t src = 0;
        for (int c = 0; c < C; ++c)
            for (int h = 0; h < Hs; ++h)
                for (int i = 0; i < b; ++i)
                    for (int w = 0; w < Ws; ++w)
                        for (int j = 0; j < b; ++j, ++src) out[(((std::size_t(i) * b + j) * C + c) * Hs + h) * Ws + w] = in[src];
    }
    return out;
}

// A pad layer's source coordinate along an axis of n for coordinate i of the unpadded frame (-1:
// the constant): reflect bounces off the first and last element until inside, edge clamps.
inline int pad_at(int i, int n, vp::mapper::PadMode m) {
    if (i >= 0 && i < n) return i;
    if (m == vp::mapper::PadMode::Constant) return -1;
    if (m == vp::mapper::PadMode::Edge) return std::min(n - 1, std::max(0, i));
    if (n == 1) return 0;
    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
    return i;
}

inline Tensor host(const Layer& l, const std::vector<const Tensor*>& in) {
    const int P = l.P(), Q = l.Q();
    Tensor out(std::size_t(l.K) * P * Q, 0);
    std::size_t o = 0;
    for (int c = 0; c < l.K; ++c)
        for (int p = 0; p < P; ++p)
            for (int q = 0; q < Q; ++q, ++o) {
                if (l.kind == LayerKind::Concat) {  // the producer that holds channel c (row p, column q), in its own C' x H' x W'
                    const int ax = l.data_axis == vp::mapper::SoftmaxAxis::H ? 1 : l.data_axis == vp::mapper::SoftmaxAxis::W ? 2 : 0;
                    int coord[3] = {c, p, q}, base = 0;
                    for (const Tensor* t : in) {
                        int dims[3] = {l.C, l.H, l.W};
                        dims[ax] = int(t->size() / (std::size_t(dims[(ax + 1) % 3]) * dims[(ax + 2) % 3]));
                        if (coord[ax] < base + dims[ax]) {
                            int local[3] = {c, p, q};
                            local[ax] -= base;
                            out[o] = (*t)[(std::size_t(local[0]) * dims[1] + local[1]) * dims[2] + local[2]];
                            break;
                        }
                        base += dims[ax];
                    }
                } else if (l.kind == LayerKind::Slice) {  // position i along the axis is offset + i step of the input
                    const int ax = l.data_axis == vp::mapper::SoftmaxAxis::H ? 1 : l.data_axis == vp::mapper::SoftmaxAxis::W ? 2 : 0;
                    int src[3] = {c, p, q};
                    src[ax] = l.offset + src[ax] * l.slice_step;
                    out[o] = (*in[0])[(std::size_t(src[0]) * l.H + src[1]) * l.W + src[2]];
                } else if (l.kind == LayerKind::Pad) {
                    const int y = pad_at(p - l.pad_top, l.H, l.pad_mode), x = pad_at(q - l.pad_left, l.W, l.pad_mode);
                    const double k = std::min(127.0, std::max(-128.0, std::round(16.0 * l.pad_value)));
                    out[o] = y < 0 || x < 0 ? std::int8_t(k) : (*in[0])[(std::size_t(c) * l.H + y) * l.W + x];
                } else {  // Resize: nearest or linear
                    out[o] = resize_at(l, *in[0], c, p, q);
                }
            }
    return out;
}

// Host leaky relu: x >= 0 stays; else floor((x m + 2^14) / 2^15), m = round(alpha 2^15), clamped.
inline std::int8_t leaky(std::int8_t x, double alpha) {
    if (x >= 0) return x;
    const std::int64_t m = std::int64_t(std::llround(alpha * 32768.0));
    const std::int64_t q = floor_div(std::int64_t(x) * m + 16384, 32768);
    return std::int8_t(std::min<std::int64_t>(127, std::max<std::int64_t>(-128, q)));
}
// Host sigmoid: v read as v / 16, the result as g / 128: round(128 sigmoid(v / 16)), clamped to [0, 127].
inline std::int8_t sigmoid(std::int8_t v) {
    const long g = std::lround(128.0 / (1.0 + std::exp(-double(v) / 16.0)));
    return std::int8_t(std::min(127L, std::max(0L, g)));
}
// Host hard sigmoid: alpha (v / 16) + beta with the multipliers rounded to 2^-18 and 2^-22 and the
// sum to 2^-15, i.e. floor((v round(alpha 2^18) + round(beta 2^22) + 2^14) / 2^15), clamped to [lo, hi].
inline std::int64_t hard_gate(std::int8_t v, double alpha, double beta, std::int64_t lo, std::int64_t hi) {
    const std::int64_t a = std::llround(alpha * 262144.0), b = std::llround(beta * 4194304.0);
    return std::min(hi, std::max(lo, floor_div(std::int64_t(v) * a + b + 16384, 32768)));
}
// Host hard swish: v times the hard sigmoid (1/6, 1/2) gate in [0, 128], with 7 fraction bits rounded off.
inline std::int8_t hard_swish(std::int8_t v) {
    const std::int64_t g = hard_gate(v, 1.0 / 6.0, 0.5, 0, 128);
    return std::int8_t(std::min<std::int64_t>(127, std::max<std::int64_t>(-128, floor_div(std::int64_t(v) * g + 64, 128))));
}
// Host tanh, erf, softplus, elu on v / 16: tanh's and erf's results as gates g / 128, the others as activations v / 16,
// each the nearest integer (halves away from zero), clamped to [-128, 127].
inline std::int8_t clamp_round(double x) { return std::int8_t(std::min(127.0, std::max(-128.0, std::round(x)))); }
inline std::int8_t tanh_ref(std::int8_t v) {
    const double x = double(v) / 16.0;
    return clamp_round(128.0 * (std::exp(2.0 * x) - 1.0) / (std::exp(2.0 * x) + 1.0));
}
inline std::int8_t softplus_ref(std::int8_t v) {  // log(1 + e^x) = max(x, 0) + log(1 + e^-|x|)
    const double x = double(v) / 16.0;
    return clamp_round(16.0 * (std::max(x, 0.0) + std::log(1.0 + std::exp(-std::abs(x)))));
}
// Host clip: the value v / 16 clipped to [min, max] and rounded back to 1/16.
inline std::int8_t clip_ref(std::int8_t v, double lo, double hi) { return clamp_round(16.0 * std::min(std::max(v / 16.0, lo), hi)); }
inline std::int8_t erf_ref(std::int8_t v) { return clamp_round(128.0 * std::erf(double(v) / 16.0)); }
inline std::int8_t elu_ref(std::int8_t v, double alpha) { return v >= 0 ? v : clamp_round(16.0 * alpha * (std::exp(double(v) / 16.0) - 1.0)); }

// Host LRN (ONNX LRN) on v / 16: v / (bias + alpha / size * square_sum)^beta with square_sum over the
// channels c - floor((size - 1) / 2) .. c + ceil((size - 1) / 2) in the tensor, summed directly per element.
inline Tensor lrn(const Layer& l, const Tensor& in) {
    Tensor out(in.size());
    const std::size_t hw = std::size_t(l.H) * l.W;
    const int lo = (l.lrn_size - 1) / 2, hi = l.lrn_size / 2;  // ceil((size - 1) / 2) = floor(size / 2)
    for (int c = 0; c < l.C; ++c)
        for (std::size_t j = 0; j < hw; ++j) {
            double sq = 0;
            for (int k = std::max(0, c - lo); k <= std::min(l.C - 1, c + hi); ++k) {
                const double x = double(in[std::size_t(k) * hw + j]) / 16.0;
                sq += x * x;
            }
            const double x = double(in[std::size_t(c) * hw + j]) / 16.0;
            out[std::size_t(c) * hw + j] = clamp_round(16.0 * x / std::pow(l.lrn_bias + l.alpha / l.lrn_size * sq, l.beta));
        }
    return out;
}

// Host softmax on v / 16, the result a probability g / 128 (rounded, clamped to [0, 127]): for element
// (c, y, x), the group is every element that agrees with it on the coordinates the axis does not span.
inline Tensor softmax(const Layer& l, const Tensor& in) {
    using vp::mapper::SoftmaxAxis;
    const SoftmaxAxis a = l.softmax_axis;
    const bool sc = a == SoftmaxAxis::C || a == SoftmaxAxis::CHW, sh = a == SoftmaxAxis::H || a == SoftmaxAxis::HW || a == SoftmaxAxis::CHW,
               sw = a != SoftmaxAxis::C && a != SoftmaxAxis::H;
    auto at = [&](int c, int y, int x) { return int(in[(std::size_t(c) * l.H + y) * l.W + x]); };
    Tensor out(in.size());
    for (int c = 0; c < l.C; ++c)
        for (int y = 0; y < l.H; ++y)
            for (int x = 0; x < l.W; ++x) {
                int m = -128;
                for (int c2 = 0; c2 < l.C; ++c2)
                    for (int y2 = 0; y2 < l.H; ++y2)
                        for (int x2 = 0; x2 < l.W; ++x2)
                            if ((sc || c2 == c) && (sh || y2 == y) && (sw || x2 == x)) m = std::max(m, at(c2, y2, x2));
                double sum = 0;
                for (int c2 = 0; c2 < l.C; ++c2)
                    for (int y2 = 0; y2 < l.H; ++y2)
                        for (int x2 = 0; x2 < l.W; ++x2)
                            if ((sc || c2 == c) && (sh || y2 == y) && (sw || x2 == x)) sum += std::exp((at(c2, y2, x2) - m) / 16.0);
                const double g = std::round(128.0 * std::exp((at(c, y, x) - m) / 16.0) / sum);
                out[(std::size_t(c) * l.H + y) * l.W + x] = std::int8_t(std::min(127.0, std::max(0.0, g)));
            }
    return out;
}

// Host layernorm: for element (c, y, x), the group is every element that agrees with it on the
// coordinates the axis does not span (as softmax's); with the group's n, sum S and sum of squares Q,
// t = round(16 (n v - S) / sqrt(n Q - S^2 + 256 eps n^2)) clamped to int8, then per channel
// floor((t scale_c + 64) / 128) + bias_c clamped to int8 (the driver's generated scale and bias).
inline Tensor layernorm(const Layer& l, const Tensor& in, const vp::mapper::vta::LayerData& d) {
    using vp::mapper::SoftmaxAxis;
    const SoftmaxAxis a = l.norm_axis;
    const bool sc = a == SoftmaxAxis::C || a == SoftmaxAxis::CHW, sh = a == SoftmaxAxis::H || a == SoftmaxAxis::HW || a == SoftmaxAxis::CHW,
               sw = a != SoftmaxAxis::C && a != SoftmaxAxis::H;
    auto at = [&](int c, int y, int x) { return std::int64_t(in[(std::size_t(c) * l.H + y) * l.W + x]); };
    Tensor out(in.size());
    for (int c = 0; c < l.C; ++c)
        for (int y = 0; y < l.H; ++y)
            for (int x = 0; x < l.W; ++x) {
                std::int64_t n = 0, S = 0, Q = 0;
                for (int c2 = 0; c2 < l.C; ++c2)
                    for (int y2 = 0; y2 < l.H; ++y2)
                        for (int x2 = 0; x2 < l.W; ++x2)
                            if ((sc || c2 == c) && (sh || y2 == y) && (sw || x2 == x)) {
                                ++n;
                                S += at(c2, y2, x2);
                                Q += at(c2, y2, x2) * at(c2, y2, x2);
                            }
                const double den = std::sqrt(double(n * Q - S * S) + 256.0 * l.norm_eps * double(n) * double(n));
                const double t = std::min(127.0, std::max(-128.0, std::round(16.0 * double(n * at(c, y, x) - S) / den)));
                const std::int64_t q = floor_div(std::int64_t(t) * d.scale[std::size_t(c)] + 64, 128) + d.bias[std::size_t(c)];
                out[(std::size_t(c) * l.H + y) * l.W + x] = std::int8_t(std::min<std::int64_t>(127, std::max<std::int64_t>(-128, q)));
            }
    return out;
}

// The activation the host applies (an act layer, or fused after a conv / fc / eltwise without relu).
inline std::int8_t host_act(const Layer& l, std::int8_t v) {
    using vp::mapper::Activation;
    switch (l.act) {
        case Activation::Relu:
        case Activation::Relu6: return v < 0 ? std::int8_t(0) : v;
        case Activation::LeakyRelu: return leaky(v, l.alpha);
        case Activation::Sigmoid: return sigmoid(v);
        case Activation::HardSigmoid: return std::int8_t(hard_gate(v, l.alpha, l.beta, 0, 127));
        case Activation::HardSwish: return hard_swish(v);
        case Activation::Tanh: return tanh_ref(v);
        case Activation::Erf: return erf_ref(v);
        case Activation::Clip: return clip_ref(v, l.clip_lo, l.clip_hi);
        case Activation::Softplus: return softplus_ref(v);
        case Activation::Elu: return elu_ref(v, l.alpha);
        default: return v;
    }
}
inline Tensor leaky_all(const Layer& l, Tensor t) {
    if (!l.relu)
        for (auto& v : t) v = host_act(l, v);
    return t;
}

// Host relu / relu6 (the lower clamp at 0) and batchnorm: per channel c, floor((x scale_c + 64) /
// 128) + bias_c, clamped to [0 with a fused relu, else -128; 127] (the driver's generated scale and bias).
inline Tensor act_bn(const Layer& l, const Tensor& in, const vp::mapper::vta::LayerData& d) {
    if (l.kind == LayerKind::Activation && l.act == vp::mapper::Activation::Softmax) return softmax(l, in);
    Tensor out(in.size());
    const std::size_t hw = std::size_t(l.H) * l.W;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (l.kind == LayerKind::Activation) {
            out[i] = host_act(l, in[i]);
            continue;
        }
        const std::size_t c = i / hw;
        const std::int64_t q = floor_div(std::int64_t(in[i]) * d.scale[c] + 64, 128);
        out[i] = std::int8_t(std::min<std::int64_t>(127, std::max<std::int64_t>(l.relu ? 0 : -128, q + d.bias[c])));
    }
    return out;
}

// Every layer's output, computed from the reference's own earlier outputs.
inline std::vector<Tensor> run(const vp::mapper::vta::NetworkDriver& d) {
    const auto& g = d.graph();
    std::vector<Tensor> out(g.net.layers.size());
    for (std::size_t i = 0; i < g.net.layers.size(); ++i) {
        const Layer& l = g.net.layers[i];
        const auto& ld = d.data(i);
        auto opnd = [&](std::size_t k) -> const Tensor& {
            const int s = g.inputs[i][k];
            return s >= 0 ? out[std::size_t(s)] : s == vp::mapper::vta::NetGraph::kNetInput ? d.input() : ld.generated[k];
        };
        switch (l.kind) {
            case LayerKind::Conv:
            case LayerKind::FullyConnected: out[i] = leaky_all(l, conv(l, opnd(0), ld)); break;
            case LayerKind::Pool: out[i] = pool(l, opnd(0), l.pool_op == vp::mapper::PoolOp::Avg); break;
            case LayerKind::Eltwise: out[i] = leaky_all(l, eltwise(l, opnd(0), opnd(1))); break;
            case LayerKind::Concat:
            case LayerKind::Slice:
            case LayerKind::Pad:
            case LayerKind::Resize: {
                std::vector<const Tensor*> in;
                for (std::size_t k = 0; k < g.inputs[i].size(); ++k) in.push_back(&opnd(k));
                out[i] = host(l, in);
                break;
            }
            case LayerKind::Activation:
            case LayerKind::BatchNorm: out[i] = act_bn(l, opnd(0), ld); break;
            case LayerKind::Lrn: out[i] = lrn(l, opnd(0)); break;
            case LayerKind::LayerNorm: out[i] = layernorm(l, opnd(0), ld); break;
            case LayerKind::DepthToSpace:
            case LayerKind::SpaceToDepth: out[i] = space_depth(l, opnd(0)); break;
            default: break;  // the driver rejects the other kinds
        }
    }
    return out;
}

}  // namespace net_ref
