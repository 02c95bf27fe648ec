#pragma once
// CalBurstCount of Tensor Slicing and Optimization for Multicore NPUs (Algorithm 14).
#include <cstdint>


namespace vp::mapper::tso {

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Bursts to move a rows x cols window of one row-major plane whose rows hold `plane_cols`
// elements. Tensor Slicing and Optimization for Multicore NPUs: a window spanning whole rows is one contiguous run
// (ceil(rows*cols*type/BURST) bursts: 4x73 at 2 B -> 5); otherwise every row is its own run
// (rows * ceil(cols*type/BURST)). Runs are assumed to start burst-aligned (ASSUMPTION).
// Bursts never span two planes (channels of IN, filters of W and OUT): the DMA moves one
// plane per descriptor (ASSUMPTION that reproduces the paper's per-channel count).
inline std::uint64_t plane_bursts(std::uint64_t rows, std::uint64_t cols, std::uint64_t plane_cols,
                                  std::uint64_t elem_bytes, std::uint64_t burst) {
    if (rows == 0 || cols == 0) return 0;
    if (cols == plane_cols) return ceil_div(rows * cols * elem_bytes, burst);
    return rows * ceil_div(cols * elem_bytes, burst);
}

}  // namespace vp::mapper::tso
