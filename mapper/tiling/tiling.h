#pragma once
// Small value types shared by the loop nest, the cost model and the mappers.
#include <cstdint>

namespace vp::mapper::tiling {

// Single-core tiling parameters (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect: T'_of, T'_if, T'_ix; T'_ox follows).
// We parameterise by T'_ox: T'_ix = (T'_ox - 1) * s + N_kx, which is the paper's
// T'_ox = (T'_ix - N_kx)/s + 1 restricted to integral T'_ox (other T'_ix waste columns).
struct Tiling {
    int t_of = 1, t_if = 1, t_ox = 1;
    int t_ix(int sx, int wkx) const { return (t_ox - 1) * sx + wkx; }  // wkx: the window's width (SliceDims::wkx)
    bool operator==(const Tiling& o) const { return t_of == o.t_of && t_if == o.t_if && t_ox == o.t_ox; }
    bool operator!=(const Tiling& o) const { return !(*this == o); }
};

// A run of ox-adjacent slices processed by one core with one tiling: ofmap channels
// [of_begin, of_end) of group `group`, ofmap columns [ox_begin, ox_end). Slice
// boundaries lie every `ox_chunk` columns from ox_begin; ox tiles restart at each
// boundary, so a run of m slices ("stitched", Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect Section VI) does exactly the
// work of the m slices except that each filter tile is loaded once for the whole run.
struct SliceRun {
    int group = 0;
    int of_begin = 0, of_end = 1;
    int ox_begin = 0, ox_end = 1;
    int ox_chunk = 1;
};

// Byte addresses of the layer's tensors in DRAM (layouts: see conv_shape.h).
struct DramLayout {
    std::uint64_t ifmap_base = 0;
    std::uint64_t weight_base = 0;
    std::uint64_t ofmap_base = 0;
};

}  // namespace vp::mapper::tiling
