#include "mapper/vta/layer_lowering.h"

#include "mapper/common/errors.h"

namespace vp::mapper::vta {

namespace {
// [H*W, C] int32 rows from an int8 CHW tensor.
void to_rows(const std::vector<std::int8_t>& in, int C, int HW, Matrix& X) {
    X.data.resize(std::size_t(HW) * C);
    for (int c = 0; c < C; ++c)
        for (int i = 0; i < HW; ++i) X.data[std::size_t(i) * C + c] = in[std::size_t(c) * HW + i];
}
}  // namespace

Program lower_group_pack(const Layer& l, const std::vector<std::int8_t>& in, const std::vector<std::int8_t>& w,
                         const std::vector<std::int32_t>& bias, const Requant& q, int g0, int m, int strategy) {
    if (l.kind != LayerKind::Conv || l.groups < 1 || g0 < 0 || m < 1 || g0 + m > l.groups)
        throw InputError("layer " + l.name + ": bad group pack");
    if (q.mul < -32768 || q.mul > 32767 || q.shift < 0 || q.shift > 15)
        throw InputError("layer " + l.name + ": requantisation multiplier must fit int16 and shift 0..15");
    const int cg = l.C / l.groups, kg = l.K / l.groups, R = l.R, S = l.S, H = l.H, W = l.W, P = l.P(), Q = l.Q();
    const int Kd = R * S * m * cg, M = P * Q, N = m * kg;
    if (in.size() != std::size_t(l.C) * H * W || w.size() != std::size_t(l.K) * cg * R * S || bias.size() != std::size_t(l.K))
        throw InputError("layer " + l.name + ": tensor sizes do not match the layer shape");
    Program p;
    p.name = "_" + l.name + "_g" + std::to_string(g0);
    p.source = l.name;
    p.matrices = {make_matrix("A", M, Kd, MatrixSource::Input), make_matrix("B", Kd, N, MatrixSource::File),
                  make_matrix("X", 1, N, MatrixSource::File), make_matrix("C", M, N, MatrixSource::Output)};
    p.a = 0; p.b = 1; p.x = 2; p.c = 3;
    Matrix &A = p.matrices[0], &B = p.matrices[1], &X = p.matrices[2];
    auto col = [&](int r, int s, int gl, int c) { return ((r * S + s) * m + gl) * cg + c; };
    A.data.assign(std::size_t(M) * Kd, 0);
    for (int pp = 0; pp < P; ++pp)
        for (int qq = 0; qq < Q; ++qq)
            for (int r = 0; r < R; ++r) {
                const int y = pp * l.stride_h + r * l.dilation_h - l.pad_top;
                if (y < 0 || y >= H) continue;
                for (int s = 0; s < S; ++s) {
                    const int x = qq * l.stride_w + s * l.dilation_w - l.pad_left;
                    if (x < 0 || x >= W) continue;
                    std::int32_t* row = &A.data[std::size_t(pp * Q + qq) * Kd];
                    for (int gl = 0; gl < m; ++gl)
                        for (int c = 0; c < cg; ++c)
                            row[col(r, s, gl, c)] = in[(std::size_t((g0 + gl) * cg + c) * H + y) * W + x];
                }
            }
    B.data.assign(std::size_t(Kd) * N, 0);  // block diagonal: group gl's rows feed only its columns
    for (int gl = 0; gl < m; ++gl)
        for (int k = 0; k < kg; ++k)
            for (int c = 0; c < cg; ++c)
                for (int r = 0; r < R; ++r)
                    for (int s = 0; s < S; ++s)
                        B.data[std::size_t(col(r, s, gl, c)) * N + std::size_t(gl * kg + k)] =
                            w[((std::size_t((g0 + gl) * kg + k) * cg + c) * R + r) * S + s];
    X.data.assign(bias.begin() + std::ptrdiff_t(g0) * kg, bias.begin() + std::ptrdiff_t(g0 + m) * kg);
    p.has_gemm = true;
    append_requant(p.alu, q, M);
    p.strategy = strategy;
    return p;
}

Program lower_avgpool(const Layer& l, const std::vector<std::int8_t>& in) {
    Program p = pool_program(l, in, "average pooling");
    const int W = l.W, P = l.P(), Q = l.Q();
    for (int pp = 0; pp < P; ++pp)
        for (int qq = 0; qq < Q; ++qq) {
            const std::int64_t dst = std::int64_t(pp * l.stride_h) * W + qq * l.stride_w;
            for (int r = 0; r < l.R; ++r) {  // sum chain per window row into the top-left row
                AluOpSpec o;
                o.kind = AluOpSpec::Kind::VectorVector;
                o.op = AluOp::Add;
                o.dst = dst;
                o.dst_step = 0;
                o.src = dst + std::int64_t(r) * W + (r == 0 ? 1 : 0);
                o.src_step = 1;
                o.count = r == 0 ? l.S - 1 : l.S;
                if (o.count > 0) p.alu.push_back(o);
            }
            p.store_rows.push_back(RowRange{dst, 1, 1});
        }
    // Scaling on the window rows only: one immediate op per output row (dst step = stride_w).
    const std::int32_t mul = avg_multiplier(l.R * l.S);
    for (auto [op, v] : {std::pair{AluOp::Mul, mul}, std::pair{AluOp::Add, std::int32_t(1 << (kAvgShift - 1))},
                         std::pair{AluOp::Shr, std::int32_t(kAvgShift)}, std::pair{AluOp::Max, std::int32_t(-128)},
                         std::pair{AluOp::Min, std::int32_t(127)}})
        for (int pp = 0; pp < P; ++pp) p.alu.push_back(alu_imm(op, v, Q, std::int64_t(pp * l.stride_h) * W, l.stride_w));
    return p;
}

bool pool_needs_gather(const Layer& l) {
    return l.stride_h < l.R || l.stride_w < l.S || l.pad_top || l.pad_bottom || l.pad_left || l.pad_right;
}

Program lower_pool_windows(const Layer& l, const std::vector<std::int8_t>& in, int p0, int p1) {
    const bool avg = l.pool_op == PoolOp::Avg;
    if (avg && (l.pad_top || l.pad_bottom || l.pad_left || l.pad_right))
        throw InputError("layer " + l.name + ": average pooling with padding does not run on the VTA (the divisor of a "
                         "window reaching into the padding is not modelled)");
    const int C = l.C, H = l.H, W = l.W, Q = l.Q(), RS = l.R * l.S;
    if (p1 < 0) p1 = l.P();
    if (p0 < 0 || p0 >= p1 || p1 > l.P()) throw InputError("layer " + l.name + ": bad pooling band");
    const int P = p1 - p0;
    if (in.size() != std::size_t(C) * H * W) throw InputError("layer " + l.name + ": pool input does not match C x H x W");
    const std::int64_t rows = std::int64_t(P) * Q * RS;
    if (rows > (std::int64_t(1) << 30)) throw InputError("layer " + l.name + ": pooling window gather too large");
    Program p;
    p.name = "_" + l.name + (p0 > 0 || p1 < l.P() ? "_r" + std::to_string(p0) : "");
    p.source = l.name;
    p.matrices = {make_matrix("X", int(rows), C, MatrixSource::Input), make_matrix("C", int(rows), C, MatrixSource::Output)};
    p.x = 0;
    p.c = 1;
    Matrix& X = p.matrices[0];
    X.data.assign(std::size_t(rows) * C, -128);  // padded taps never win the max
    for (int pp = 0; pp < P; ++pp)
        for (int qq = 0; qq < Q; ++qq)
            for (int r = 0; r < l.R; ++r) {
                const int y = (p0 + pp) * l.stride_h + r - l.pad_top;
                if (y < 0 || y >= H) continue;
                for (int s = 0; s < l.S; ++s) {
                    const int x = qq * l.stride_w + s - l.pad_left;
                    if (x < 0 || x >= W) continue;
                    std::int32_t* row = &X.data[(std::size_t(pp * Q + qq) * RS + std::size_t(r * l.S + s)) * C];
                    for (int c = 0; c < C; ++c) row[c] = in[(std::size_t(c) * H + y) * W + x];
                }
            }
    for (std::int64_t w = 0; w < std::int64_t(P) * Q; ++w) {
        if (RS > 1) {
            AluOpSpec o;
            o.kind = AluOpSpec::Kind::VectorVector;
            o.op = avg ? AluOp::Add : AluOp::Max;
            o.dst = w * RS;
            o.dst_step = 0;
            o.src = w * RS + 1;
            o.src_step = 1;
            o.count = RS - 1;
            p.alu.push_back(o);
        }
        p.store_rows.push_back(RowRange{w * RS, 1, 1});
    }
    if (avg) {
        const std::int32_t mul = avg_multiplier(RS);
        for (auto [op, v] : {std::pair{AluOp::Mul, mul}, std::pair{AluOp::Add, std::int32_t(1 << (kAvgShift - 1))},
                             std::pair{AluOp::Shr, std::int32_t(kAvgShift)}, std::pair{AluOp::Max, std::int32_t(-128)},
                             std::pair{AluOp::Min, std::int32_t(127)}})
            p.alu.push_back(alu_imm(op, v, std::int64_t(P) * Q, 0, RS));
    } else if (p.alu.empty()) {
        p.alu.push_back(alu_imm(AluOp::Max, -32768, rows));  // 1x1 window: identity
    }
    return p;
}

Program lower_add(const Layer& l, const std::vector<std::int8_t>& a, const std::vector<std::int8_t>& b) {
    const int C = l.C, HW = l.H * l.W;
    if (a.size() != std::size_t(C) * HW || b.size() != a.size())
        throw InputError("layer " + l.name + ": eltwise operands do not match C x H x W");
    Program p;
    p.name = "_" + l.name;
    p.source = l.name;
    p.matrices = {make_matrix("X", HW, C, MatrixSource::Input), make_matrix("Y", HW, C, MatrixSource::Input),
                  make_matrix("C", HW, C, MatrixSource::Output)};
    p.x = 0; p.y = 1; p.c = 2;
    to_rows(a, C, HW, p.matrices[0]);
    to_rows(b, C, HW, p.matrices[1]);
    AluOpSpec add;
    add.kind = AluOpSpec::Kind::AddAcc;
    add.op = AluOp::Add;
    add.dst = 0;
    add.dst_step = 1;
    add.count = HW;
    p.alu.push_back(add);
    p.alu.push_back(alu_imm(AluOp::Max, l.relu ? 0 : -128, HW));
    p.alu.push_back(alu_imm(AluOp::Min, 127, HW));
    return p;
}

}  // namespace vp::mapper::vta
