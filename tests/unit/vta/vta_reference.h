#pragma once
// Independent plain C++ reference of the VTA IR semantics (Compilation and Execution of an Embeddable YOLO-NAS on the VTA §3-4, vta_isa.md §3,
// Application-Level Validation of Accelerator Designs Using a Formal Software/Hardware Interface ILA datapath functions). Works on whole matrices, row by row; shares no code with
// the compiler, the executor or the SystemC model (only the parsed Program data struct).
// int8 inputs/weights, int32 wrap-around accumulation, STORE keeps the low 8 bits.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "mapper/vta/ir_program.h"

namespace vta_ref {

using vp::mapper::vta::AluOp;
using vp::mapper::vta::AluOpSpec;
using vp::mapper::vta::Program;
using vp::mapper::vta::RowRange;

inline std::int32_t wrap_add(std::int32_t a, std::int32_t b) { return std::int32_t(std::uint32_t(a) + std::uint32_t(b)); }
inline std::int32_t wrap_mul(std::int32_t a, std::int32_t b) { return std::int32_t(std::uint32_t(a) * std::uint32_t(b)); }

// fsim: y >= 0 -> arithmetic x >> y, y < 0 -> x << -y; shift distance saturated at 31
// (assumption for |y| > 31, where fsim is undefined).
inline std::int32_t shr(std::int32_t x, std::int32_t y) {
    if (y >= 0) {
        const int s = y > 31 ? 31 : int(y);
        return x >= 0 ? std::int32_t(std::uint32_t(x) >> s) : std::int32_t(~(~std::uint32_t(x) >> s));
    }
    const std::int64_t n = -std::int64_t(y);
    const int s = n > 31 ? 31 : int(n);
    return std::int32_t(std::uint32_t(x) << s);
}

inline std::int32_t alu(AluOp op, std::int32_t a, std::int32_t b) {
    switch (op) {
        case AluOp::Min: return a < b ? a : b;
        case AluOp::Max: return a > b ? a : b;
        case AluOp::Add: return wrap_add(a, b);
        case AluOp::Shr: return shr(a, b);
        case AluOp::Mul: return wrap_mul(a, b);
    }
    return 0;
}

inline std::vector<bool> listed(const std::vector<RowRange>& rr, int rows) {
    std::vector<bool> v(std::size_t(rows), rr.empty());
    for (const auto& r : rr)
        for (std::int64_t i = 0; i < r.count; ++i) v[std::size_t(r.row(i))] = true;
    return v;
}

// Returns the stored rows of C (in STORE order), cols int8 values each, flattened.
inline std::vector<std::int8_t> run(const Program& p) {
    const int R = p.C().rows, N = p.C().cols;
    std::vector<std::int32_t> C(std::size_t(R) * N, 0);
    auto c = [&](std::int64_t r, int j) -> std::int32_t& { return C[std::size_t(r) * N + j]; };
    if (p.x >= 0 && !p.has_add_acc()) {
        const auto keep = listed(p.x_rows, p.X().rows);
        for (int r = 0; r < R; ++r) {
            const int xr = p.X().rows == 1 ? 0 : r;
            if (!keep[std::size_t(xr)]) continue;
            for (int j = 0; j < N; ++j) c(r, j) = p.X().at(xr, j);
        }
    }
    if (p.has_gemm) {
        const auto a_keep = listed(p.a_rows, p.A().rows);
        if (p.gemm_scalar) {
            for (int r = 0; r < R; ++r)
                if (a_keep[std::size_t(r)])
                    for (int j = 0; j < N; ++j) c(r, j) = wrap_add(c(r, j), p.A().at(r, j) * p.scalar);
        } else {
            const auto b_keep = listed(p.b_rows, p.B().rows);
            const int K = p.A().cols;
            for (int r = 0; r < R; ++r) {
                if (!a_keep[std::size_t(r)]) continue;
                for (int j = 0; j < N; ++j) {
                    std::int32_t s = 0;
                    for (int k = 0; k < K; ++k)
                        if (b_keep[std::size_t(k)]) s = wrap_add(s, p.A().at(r, k) * p.B().at(k, j));
                    c(r, j) = wrap_add(c(r, j), s);
                }
            }
        }
    }
    for (const AluOpSpec& o : p.alu) {
        if (o.kind == AluOpSpec::Kind::AddAcc) {
            for (int r = 0; r < R; ++r)
                for (int j = 0; j < N; ++j) c(r, j) = wrap_add(p.X().at(r, j), p.Y().at(r, j));
            continue;
        }
        for (std::int64_t i = 0; i < o.count; ++i)
            for (int j = 0; j < N; ++j) {
                const std::int32_t b = o.kind == AluOpSpec::Kind::Immediate ? o.imm : c(o.src_row(i), j);
                c(o.dst_row(i), j) = alu(o.op, c(o.dst_row(i), j), b);
            }
    }
    std::vector<std::int8_t> out;
    std::vector<std::int64_t> rows;
    if (p.store_rows.empty())
        for (int r = 0; r < R; ++r) rows.push_back(r);
    else
        for (const auto& rr : p.store_rows)
            for (std::int64_t i = 0; i < rr.count; ++i) rows.push_back(rr.row(i));
    for (std::int64_t r : rows)
        for (int j = 0; j < N; ++j) out.push_back(std::int8_t(std::uint8_t(std::uint32_t(c(r, j)) & 0xFF)));
    return out;
}

}  // namespace vta_ref
