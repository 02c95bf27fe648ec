#include "mapper/vta/conv_lowering.h"

#include "mapper/common/errors.h"

namespace vp::mapper::vta {

Matrix make_matrix(const std::string& name, int rows, int cols, MatrixSource s) {
    Matrix m;
    m.name = name;
    m.rows = rows;
    m.cols = cols;
    m.source = s;
    return m;
}

AluOpSpec alu_imm(AluOp op, std::int32_t v, std::int64_t count, std::int64_t dst, std::int64_t step) {
    AluOpSpec o;
    o.kind = AluOpSpec::Kind::Immediate;
    o.op = op;
    o.dst = dst;
    o.dst_step = step;
    o.count = count;
    o.imm = v;
    return o;
}

void append_requant(std::vector<AluOpSpec>& alu, const Requant& q, std::int64_t rows) {
    alu.push_back(alu_imm(AluOp::Mul, q.mul, rows));
    if (q.shift > 0) {
        alu.push_back(alu_imm(AluOp::Add, 1 << (q.shift - 1), rows));
        alu.push_back(alu_imm(AluOp::Shr, q.shift, rows));
    }
    alu.push_back(alu_imm(AluOp::Max, q.relu ? 0 : -128, rows));
    alu.push_back(alu_imm(AluOp::Min, 127, rows));
}

Program lower_conv(const Layer& l, const std::vector<std::int8_t>& in, const std::vector<std::int8_t>& w,
                   const std::vector<std::int32_t>& bias, const Requant& q, int strategy) {
    if (l.groups != 1) throw InputError("layer " + l.name + ": grouped convolution is not lowered to VTA (groups must be 1)");
    if (q.mul < -32768 || q.mul > 32767 || q.shift < 0 || q.shift > 15)
        throw InputError("layer " + l.name + ": requantisation multiplier must fit int16 and shift 0..15 (rounding term 2^(n-1) is an int16 immediate)");
    const bool fc = l.kind == LayerKind::FullyConnected;
    const int P = fc ? 1 : l.P(), Q = fc ? 1 : l.Q(), R = fc ? 1 : l.R, S = fc ? 1 : l.S;
    const int C = fc ? int(l.input_elems()) : l.C;
    const int H = fc ? 1 : l.H, W = fc ? 1 : l.W;
    const int Kd = C * R * S, M = P * Q;
    if (in.size() != std::size_t(C) * H * W || w.size() != std::size_t(l.K) * Kd || bias.size() != std::size_t(l.K))
        throw InputError("layer " + l.name + ": tensor sizes do not match the layer shape");
    Program p;
    p.name = "_" + l.name;
    p.source = l.name;
    p.matrices = {make_matrix("A", M, Kd, MatrixSource::Input), make_matrix("B", Kd, l.K, MatrixSource::File),
                  make_matrix("X", 1, l.K, MatrixSource::File), make_matrix("C", M, l.K, MatrixSource::Output)};
    p.a = 0; p.b = 1; p.x = 2; p.c = 3;
    Matrix &A = p.matrices[0], &B = p.matrices[1], &X = p.matrices[2];
    // im2row: row (p,q), column (c,r,s); zero padding done on the host, a dilated kernel's taps
    // dil apart in the input.
    const int dil_h = fc ? 1 : l.dilation_h, dil_w = fc ? 1 : l.dilation_w;
    A.data.assign(std::size_t(M) * Kd, 0);
    for (int pp = 0; pp < P; ++pp)
        for (int qq = 0; qq < Q; ++qq)
            for (int c = 0; c < C; ++c)
                for (int r = 0; r < R; ++r)
                    for (int s = 0; s < S; ++s) {
                        const int y = pp * (fc ? 1 : l.stride_h) + r * dil_h - (fc ? 0 : l.pad_top);
                        const int x = qq * (fc ? 1 : l.stride_w) + s * dil_w - (fc ? 0 : l.pad_left);
                        if (y < 0 || y >= H || x < 0 || x >= W) continue;
                        A.data[std::size_t(pp * Q + qq) * Kd + std::size_t((c * R + r) * S + s)] = in[(std::size_t(c) * H + y) * W + x];
                    }
    B.data.resize(std::size_t(Kd) * l.K);
    for (int k = 0; k < l.K; ++k)
        for (int j = 0; j < Kd; ++j) B.data[std::size_t(j) * l.K + k] = w[std::size_t(k) * Kd + j];
    X.data.assign(bias.begin(), bias.end());
    p.has_gemm = true;
    append_requant(p.alu, q, M);
    p.strategy = strategy;
    return p;
}

Program pool_program(const Layer& l, const std::vector<std::int8_t>& in, const char* kind) {
    if (l.stride_h < l.R || l.stride_w < l.S || l.pad_top || l.pad_left || l.pad_bottom || l.pad_right)
        throw InputError("layer " + l.name + ": " + kind + " on VTA needs non-overlapping windows without padding");
    const int C = l.C, HW = l.H * l.W;
    Program p;
    p.name = "_" + l.name;
    p.source = l.name;
    p.matrices = {make_matrix("X", HW, C, MatrixSource::Input), make_matrix("C", HW, C, MatrixSource::Output)};
    p.x = 0;
    p.c = 1;
    Matrix& X = p.matrices[0];
    X.data.resize(std::size_t(HW) * C);
    for (int c = 0; c < C; ++c)
        for (int i = 0; i < HW; ++i) X.data[std::size_t(i) * C + c] = in[std::size_t(c) * HW + i];
    return p;
}

Program lower_maxpool(const Layer& l, const std::vector<std::int8_t>& in) {
    Program p = pool_program(l, in, "max-pool");
    const int H = l.H, W = l.W, P = l.P(), Q = l.Q();
    for (int pp = 0; pp < P; ++pp)
        for (int qq = 0; qq < Q; ++qq) {
            const std::int64_t dst = std::int64_t(pp * l.stride_h) * W + qq * l.stride_w;
            for (int r = 0; r < l.R; ++r) {  // one MAX chain per window row (Compilation and Execution of an Embeddable YOLO-NAS on the VTA node_pool)
                AluOpSpec o;
                o.kind = AluOpSpec::Kind::VectorVector;
                o.op = AluOp::Max;
                o.dst = dst;
                o.dst_step = 0;
                o.src = dst + std::int64_t(r) * W + (r == 0 ? 1 : 0);
                o.src_step = 1;
                o.count = r == 0 ? l.S - 1 : l.S;
                if (o.count > 0) p.alu.push_back(o);
            }
            p.store_rows.push_back(RowRange{dst, 1, 1});
        }
    if (p.alu.empty()) p.alu.push_back(alu_imm(AluOp::Max, -32768, H * W));  // 1x1 window: identity
    return p;
}

std::vector<std::int8_t> rows_to_chw(const std::vector<std::int8_t>& rows, int n_rows, int n_cols) {
    std::vector<std::int8_t> out(rows.size());
    for (int r = 0; r < n_rows; ++r)
        for (int c = 0; c < n_cols; ++c) out[std::size_t(c) * n_rows + r] = rows[std::size_t(r) * n_cols + c];
    return out;
}

}  // namespace vp::mapper::vta
