#pragma once
// Lowering of network layers to VTA IR programs (Compilation and Execution of an Embeddable YOLO-NAS on the VTA Listing 21):
// conv/FC by im2row (A = [P*Q, C*R*S], B = [C*R*S, K], X = bias [1, K], C = [P*Q, K]) followed by
// the int8 requantisation ALU sequence (MUL_IMM, ADD_IMM 2^(n-1), SHR_IMM n, MAX_IMM, MIN_IMM),
// ReLU folded into the lower clamp, max-pool as an ALU-only MAX program. Tensors on the host
// are int8 CHW; host reshaping turns the [P*Q, K] result back into KPQ.
#include <cstdint>
#include <vector>

#include "mapper/vta/ir_program.h"
#include "mapper/workload/layer.h"

namespace vp::mapper::vta {

struct Requant {
    std::int32_t mul = 1;  // int16 immediate
    int shift = 0;         // 0..15; 0 = no rounding add
    bool relu = false;     // lower clamp 0 instead of -128
};

// Building blocks shared by the lowerings.
Matrix make_matrix(const std::string& name, int rows, int cols, MatrixSource s);
// An ALU immediate op on `count` ACC rows from `dst` in steps of `step`.
AluOpSpec alu_imm(AluOp op, std::int32_t v, std::int64_t count, std::int64_t dst = 0, std::int64_t step = 1);
// The common part of the pooling programs: checks for non-overlapping windows without padding
// (`kind` names the pooling in the error) and lays the CHW input out as X = [H*W, C] rows
// (int8 widened to int32) with an output matrix C of the same shape.
Program pool_program(const Layer& l, const std::vector<std::int8_t>& input, const char* kind);
// Requantisation of the first `rows` rows (Compilation and Execution of an Embeddable YOLO-NAS on the VTA QLinearConv sequence): multiply, add the
// rounding half, shift right, clamp to int8 (lower bound 0 with ReLU).
void append_requant(std::vector<AluOpSpec>& alu, const Requant& q, std::int64_t rows);

// Conv (groups = 1) or fully-connected layer. input: C*H*W int8 (CHW); weights: K*C*R*S int8;
// bias: K int32. Throws vp::InputError for unsupported shapes (grouped conv).
Program lower_conv(const Layer& l, const std::vector<std::int8_t>& input, const std::vector<std::int8_t>& weights,
                   const std::vector<std::int32_t>& bias, const Requant& q, int strategy);

// Max-pool (non-overlapping windows: stride >= kernel, no padding) as an ALU-only program on
// X = [H*W, C] (int8 widened to int32); stores the window top-left rows, in output order.
Program lower_maxpool(const Layer& l, const std::vector<std::int8_t>& input);

// Host reshaping: rows x cols (row-major, e.g. [P*Q, K]) -> cols x rows (KPQ / CHW).
std::vector<std::int8_t> rows_to_chw(const std::vector<std::int8_t>& rows, int n_rows, int n_cols);

}  // namespace vp::mapper::vta
