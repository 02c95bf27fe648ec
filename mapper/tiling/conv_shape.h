#pragma once
// The convolution as the mesh mapper sees it (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Table I: per group, N_of ofmap channels, N_if ifmap
// channels, N_ox x N_oy ofmap, N_kx x N_ky kernel, stride s. Fully connected layers are
// 1x1 convolutions on a 1x1 map.
//
// ASSUMPTION (DRAM layout): activations live in DRAM already zero-padded, CHW order,
// padded_h x padded_w per channel ("padding is already included in the ifmap width
// T'_ix", Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect); weights are K x (C/groups) x R x S; the ofmap (and its partial
// sums) is K x P x Q. With a padded ifmap every ox slice of equal width moves the same
// number of words, which keeps the cost model closed-form.
#include <cstdint>
#include <string>

#include "mapper/workload/layer.h"

namespace vp::mapper::tiling {

// Dimensions of one single-core problem (a layer, or a slice of it: Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect Eq. 26).
struct SliceDims {
    int n_of = 1, n_if = 1, n_ox = 1, n_oy = 1;
    int kx = 1, ky = 1, sx = 1, sy = 1;
    // Dilation (taps dx, dy apart): the window spans wkx() x wky() ifmap elements; kx, ky count
    // the taps (weights, MACs). The ifmap rows and columns a tile loads are its windows' extent
    // (every row in it: the rows between one output row's taps are the next rows' taps).
    int dx = 1, dy = 1;

    int wkx() const { return (kx - 1) * dx + 1; }
    int wky() const { return (ky - 1) * dy + 1; }
    int n_ix() const { return (n_ox - 1) * sx + wkx(); }        // Eq. 26 (padding included)
    int k2() const { return kx * ky; }
    int new_rows_per_oy() const { return sy < wky() ? sy : wky(); }  // ifmap rows fetched per ofmap row
    int ifmap_rows() const { return wky() + (n_oy - 1) * new_rows_per_oy(); }  // rows loaded per ox tile
    int ifmap_buffer_rows() const { return wky() + new_rows_per_oy(); }  // ASSUMPTION: N_ky rows + prefetch
};

struct ConvShape {
    std::string name;
    int groups = 1;
    int C = 1, K = 1;          // whole-layer channels
    int n_of = 1, n_if = 1;    // per group: K/groups, C/groups
    int P = 1, Q = 1;          // ofmap height (N_oy) and width (N_ox)
    int kx = 1, ky = 1, sx = 1, sy = 1;
    int dx = 1, dy = 1;        // dilation (SliceDims)
    int padded_h = 1, padded_w = 1;

    int wkx() const { return (kx - 1) * dx + 1; }
    int wky() const { return (ky - 1) * dy + 1; }

    // Returns false (and leaves *out untouched) for layers without MACs (pool, eltwise).
    static bool from_layer(const Layer& layer, ConvShape* out);

    std::uint64_t macs() const {
        return std::uint64_t(groups) * n_of * n_if * std::uint64_t(kx) * ky * std::uint64_t(P) * Q;
    }
    // The single-core problem of a slice of n_of x n_ox ofmap (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect Eq. 26).
    SliceDims slice(int slice_of, int slice_ox) const {
        return SliceDims{slice_of, n_if, slice_ox, P, kx, ky, sx, sy, dx, dy};
    }
};

}  // namespace vp::mapper::tiling
