#pragma once
// What one DMA transfer of the TSO tile sequence moves, and how the DMA engine cuts it into
// transactions. Shared by the NMP model (which issues the transactions) and the cost model
// (which prices them), so that both see the same access pattern.
//
// DRAM placement of one layer (ASSUMPTION: row-major tensors at 4-KiB-aligned addresses from
// `base`, IN [g][C][H][W], then W [g][K][C][R][S], then OUT [g][K][P][Q]; every layer reuses
// the same region).
#include <algorithm>
#include <cstdint>

#include "mapper/tso/conv_shape.h"
#include "mapper/tso/tile_walker.h"

namespace vp::mapper::tso {

// A box of a tensor: `planes` planes of `rows` rows of `row_bytes` bytes.
struct Box {
    std::uint64_t addr = 0;  // first byte
    std::uint64_t planes = 0, plane_stride = 0;
    std::uint64_t rows = 0, row_stride = 0;
    std::uint64_t row_bytes = 0;
    std::uint64_t bytes() const { return planes * rows * row_bytes; }
};

struct LayerAddresses {
    std::uint64_t in = 0, w = 0, out = 0;
};

constexpr std::uint64_t kTensorAlign = 4096;  // tensors start on 4 KiB boundaries

// The bytes of a layer's IN, W and OUT tensors, in an unsigned type T: std::uint64_t for the
// layout, a wider one where a layer not yet known to fit the DRAM is sized (platform/run/dram_fit).
template <class T>
struct TensorBytes {
    T in = 0, w = 0, out = 0;
};
template <class T>
TensorBytes<T> tensor_bytes(const ConvShape& c) {
    const T eb = T(c.elem_bytes), g = T(c.groups);
    return {g * T(c.N) * T(c.H) * T(c.W) * eb, g * T(c.M) * T(c.N) * T(c.R) * T(c.S) * eb,
            g * T(c.M) * T(c.P) * T(c.Q) * eb};
}
template <class T>
T align_tensor(T v) {
    return (v + T(kTensorAlign) - 1) / T(kTensorAlign) * T(kTensorAlign);
}

inline LayerAddresses layer_addresses(const ConvShape& c, std::uint64_t base) {
    const TensorBytes<std::uint64_t> b = tensor_bytes<std::uint64_t>(c);
    LayerAddresses a;
    a.in = base;
    a.w = a.in + align_tensor(b.in);
    a.out = a.w + align_tensor(b.w);
    return a;
}

// The box a LoadIn / LoadW / StoreOut operation moves (Compute: an empty box).
inline Box op_box(const TileOp& op, const ConvShape& c, const LayerAddresses& a) {
    const std::uint64_t eb = std::uint64_t(c.elem_bytes), rs = std::uint64_t(c.R) * std::uint64_t(c.S);
    const std::uint64_t N = std::uint64_t(c.N), M = std::uint64_t(c.M), g = std::uint64_t(op.group);
    const std::uint64_t H = std::uint64_t(c.H), W = std::uint64_t(c.W), P = std::uint64_t(c.P),
                        Q = std::uint64_t(c.Q);
    Box b;
    switch (op.kind) {
    case OpKind::LoadIn:
        b.addr = a.in + (((g * N + std::uint64_t(op.c0)) * H + std::uint64_t(op.h0)) * W + std::uint64_t(op.w0)) * eb;
        b.planes = std::uint64_t(op.cn);
        b.plane_stride = H * W * eb;
        b.rows = std::uint64_t(op.hn);
        b.row_stride = W * eb;
        b.row_bytes = std::uint64_t(op.wn) * eb;
        break;
    case OpKind::LoadW:
        b.addr = a.w + ((g * M + std::uint64_t(op.m0)) * N + std::uint64_t(op.c0)) * rs * eb;
        b.planes = std::uint64_t(op.mn);
        b.plane_stride = N * rs * eb;
        b.rows = 1;
        b.row_bytes = b.row_stride = std::uint64_t(op.cn) * rs * eb;
        break;
    case OpKind::StoreOut:
        b.addr = a.out + (((g * M + std::uint64_t(op.m0)) * P + std::uint64_t(op.r0)) * Q + std::uint64_t(op.q0)) * eb;
        b.planes = std::uint64_t(op.mn);
        b.plane_stride = P * Q * eb;
        b.rows = std::uint64_t(op.rn);
        b.row_stride = Q * eb;
        b.row_bytes = std::uint64_t(op.qn) * eb;
        break;
    case OpKind::Compute: break;
    }
    return b;
}

// The DMA engine's cut of a box (the paper's plane rule): whole-row windows are one contiguous run
// per plane, other windows one run per row. Calls fn(addr, bytes) per run in issue order.
template <class Fn>
void for_each_run(const Box& b, Fn&& fn) {
    const bool merged = b.row_bytes == b.row_stride || b.rows == 1;
    const std::uint64_t runs = merged ? 1 : b.rows;
    const std::uint64_t run_bytes = merged ? b.rows * b.row_bytes : b.row_bytes;
    for (std::uint64_t p = 0; p < b.planes; ++p)
        for (std::uint64_t r = 0; r < runs; ++r) fn(b.addr + p * b.plane_stride + r * b.row_stride, run_bytes);
}

// Each run of for_each_run cut into transactions of at most `txn_bytes`. Calls fn(addr, len) per
// transaction in issue order.
template <class Fn>
void for_each_txn(const Box& b, std::uint64_t txn_bytes, Fn&& fn) {
    for_each_run(b, [&](std::uint64_t start, std::uint64_t run_bytes) {
        for (std::uint64_t off = 0; off < run_bytes; off += txn_bytes)
            fn(start + off, std::min<std::uint64_t>(txn_bytes, run_bytes - off));
    });
}

}  // namespace vp::mapper::tso
