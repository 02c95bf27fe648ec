#pragma once
// Lowerings of the layers conv_lowering.h does not cover (same conventions: host tensors are
// int8 CHW, programs are VTA IR Programs, outputs come back as [rows, channels]):
//  - grouped / depthwise conv: per-group lowering, `m` consecutive groups packed into one
//    program with a block-diagonal weight matrix. Columns of A are ordered (r, s, group, c) so
//    that for depthwise (C/g = K/g = 1) and m = BLOCK each 16x16 weight block is one (r, s)
//    tap: a diagonal block (16 useful MACs of the 256 a GEMM micro-op does).
//  - average pooling: ALU ADD chains (like max-pool) then avg = (sum * m + 2^13) >> 14 with
//    m = round(2^14 / (R*S)), clamped to int8 (assumption: the usual fixed-point reciprocal).
//  - residual add: ADD_ACC of two int8 tensors widened to int32, clamp (ReLU: lower clamp 0);
//    both operands are assumed to share one quantisation scale.
#include <cstdint>
#include <vector>

#include "mapper/vta/conv_lowering.h"
#include "mapper/vta/ir_program.h"
#include "mapper/workload/layer.h"

namespace vp::mapper::vta {

// Groups [g0, g0 + m) of a grouped conv. weights: K x (C/groups) x R x S; bias: K.
// Output C = [P*Q, m*K/groups] (output channels g0*K/groups ...).
Program lower_group_pack(const Layer& l, const std::vector<std::int8_t>& input, const std::vector<std::int8_t>& weights,
                         const std::vector<std::int32_t>& bias, const Requant& q, int g0, int m, int strategy);

// Fixed-point reciprocal of average pooling.
constexpr int kAvgShift = 14;
inline std::int32_t avg_multiplier(int window) { return std::int32_t((2 * (1 << kAvgShift) + window) / (2 * window)); }

// Average pool (non-overlapping windows, no padding). Stores the window top-left rows.
Program lower_avgpool(const Layer& l, const std::vector<std::int8_t>& input);

// Pooling whose windows overlap (stride < kernel) or reach into padding: the host gathers every
// window's R*S taps into consecutive rows (X = [P*Q*R*S, C], like im2row), padded taps holding
// -128 so that they never win a max; one MAX (or ADD) chain per window reduces its rows into the
// window's first row, which is stored. Average pooling then scales as lower_avgpool; with padding
// it is rejected (the divisor of a window that reaches into the padding is not modelled).
// Output rows [p0, p1) only (p1 = -1: all): a band, so that large maps fit the accumulator.
bool pool_needs_gather(const Layer& l);
Program lower_pool_windows(const Layer& l, const std::vector<std::int8_t>& input, int p0 = 0, int p1 = -1);

// a + b (both C x H x W int8), clamp to [relu ? 0 : -128, 127].
Program lower_add(const Layer& l, const std::vector<std::int8_t>& a, const std::vector<std::int8_t>& b);

}  // namespace vp::mapper::vta
