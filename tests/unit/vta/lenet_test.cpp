// LeNet-5 end to end on the VTA (im2row conv/FC + requantisation ALU sequence, ReLU, max-pool
// as ALU programs, host reshaping) against a direct int8 CHW reference (plain loops, no im2row).
#include <catch2/catch.hpp>

#include <random>

#include "mapper/vta/compiler.h"
#include "mapper/vta/conv_lowering.h"
#include "mapper/vta/executor.h"

using namespace vp::mapper;
using namespace vp::mapper::vta;

namespace {
Layer conv(const char* n, int C, int K, int H, int R, int pad = 0) {
    Layer l;
    l.name = n; l.kind = LayerKind::Conv; l.C = C; l.K = K; l.H = l.W = H; l.R = l.S = R;
    l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = pad;
    return l;
}
Layer pool(const char* n, int C, int H) {
    Layer l;
    l.name = n; l.kind = LayerKind::Pool; l.C = l.K = C; l.H = l.W = H; l.R = l.S = 2; l.stride_h = l.stride_w = 2;
    return l;
}
Layer fc(const char* n, int C, int K) {
    Layer l;
    l.name = n; l.kind = LayerKind::FullyConnected; l.C = C; l.K = K;
    return l;
}

// Direct reference: int32 accumulation, y = clamp(((acc*mul) + 2^(n-1)) >> n), wrap-around int32.
std::vector<std::int8_t> ref_conv(const Layer& l, const std::vector<std::int8_t>& in, const std::vector<std::int8_t>& w,
                                  const std::vector<std::int32_t>& b, const Requant& q) {
    const bool isfc = l.kind == LayerKind::FullyConnected;
    const int C = isfc ? l.C : l.C, H = isfc ? 1 : l.H, W = isfc ? 1 : l.W, R = isfc ? 1 : l.R, S = isfc ? 1 : l.S;
    const int P = isfc ? 1 : l.P(), Q = isfc ? 1 : l.Q();
    std::vector<std::int8_t> out(std::size_t(l.K) * P * Q);
    for (int k = 0; k < l.K; ++k)
        for (int p = 0; p < P; ++p)
            for (int x = 0; x < Q; ++x) {
                std::int32_t acc = b[std::size_t(k)];
                for (int c = 0; c < C; ++c)
                    for (int r = 0; r < R; ++r)
                        for (int s = 0; s < S; ++s) {
                            const int yy = p + r - (isfc ? 0 : l.pad_top), xx = x + s - (isfc ? 0 : l.pad_left);
                            if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
                            acc += std::int32_t(in[(std::size_t(c) * H + yy) * W + xx]) * w[((std::size_t(k) * C + c) * R + r) * S + s];
                        }
                std::int64_t v = std::int32_t(std::uint32_t(acc) * std::uint32_t(q.mul));
                if (q.shift) v = std::int32_t(std::uint32_t(v) + (1u << (q.shift - 1))) >> q.shift;
                v = std::max<std::int64_t>(q.relu ? 0 : -128, std::min<std::int64_t>(127, v));
                out[(std::size_t(k) * P + p) * Q + x] = std::int8_t(v);
            }
    return out;
}
std::vector<std::int8_t> ref_pool(const Layer& l, const std::vector<std::int8_t>& in) {
    std::vector<std::int8_t> out(std::size_t(l.C) * l.P() * l.Q());
    for (int c = 0; c < l.C; ++c)
        for (int p = 0; p < l.P(); ++p)
            for (int q = 0; q < l.Q(); ++q) {
                int m = -128;
                for (int r = 0; r < l.R; ++r)
                    for (int s = 0; s < l.S; ++s) m = std::max<int>(m, in[(std::size_t(c) * l.H + p * 2 + r) * l.W + q * 2 + s]);
                out[(std::size_t(c) * l.P() + p) * l.Q() + q] = std::int8_t(m);
            }
    return out;
}

std::vector<std::int8_t> run_vta(const Program& p, int rows, int cols) {
    const CompiledProgram cp = compile(p, VtaConfig{});
    return rows_to_chw(run_functional(cp), rows, cols);
}
}  // namespace

TEST_CASE("LeNet-5 end to end on the VTA equals the direct int8 reference", "[vta][network]") {
    std::mt19937_64 g(55);
    auto rnd8 = [&](std::size_t n) { std::vector<std::int8_t> v(n); for (auto& x : v) x = std::int8_t(int(g() % 256) - 128); return v; };
    auto rnd32 = [&](std::size_t n) { std::vector<std::int32_t> v(n); for (auto& x : v) x = std::int32_t(g() % 20001) - 10000; return v; };
    const Layer c1 = conv("conv1", 1, 6, 32, 5), p1 = pool("pool1", 6, 28), c2 = conv("conv2", 6, 16, 14, 5),
                p2 = pool("pool2", 16, 10), f1 = fc("fc1", 400, 120), f2 = fc("fc2", 120, 84), f3 = fc("fc3", 84, 10);
    const Requant q1{3, 10, true}, q2{5, 13, true}, q3{7, 14, true}, q4{9, 13, true}, q5{11, 12, false};
    std::vector<std::int8_t> x = rnd8(32 * 32), ref = x;
    int layers = 0;
    auto conv_step = [&](const Layer& l, const Requant& q) {
        const bool isfc = l.kind == LayerKind::FullyConnected;
        const int Kd = int(l.input_elems()) / (isfc ? 1 : l.H * l.W) * (isfc ? 1 : l.R * l.S);
        const auto w = rnd8(std::size_t(l.K) * Kd);
        const auto b = rnd32(std::size_t(l.K));
        const int PQ = isfc ? 1 : l.P() * l.Q();
        x = run_vta(lower_conv(l, x, w, b, q, 0), PQ, l.K);
        ref = ref_conv(l, ref, w, b, q);
        REQUIRE(x == ref);
        ++layers;
    };
    auto pool_step = [&](const Layer& l) {
        x = run_vta(lower_maxpool(l, x), l.P() * l.Q(), l.C);
        ref = ref_pool(l, ref);
        REQUIRE(x == ref);
        ++layers;
    };
    conv_step(c1, q1);
    pool_step(p1);
    conv_step(c2, q2);
    pool_step(p2);
    conv_step(f1, q3);
    conv_step(f2, q4);
    conv_step(f3, q5);
    CHECK(layers == 7);
    CHECK(x.size() == 10);
    int nonzero = 0;
    for (auto v : x) nonzero += v != 0;
    CHECK(nonzero > 0);  // the chain did not collapse to zeros
}
