#pragma once
// Closed-form single-core cost of a tiling (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Eqs. 1-19. The counts equal, exactly, the sums over
// the operations of LoopNest (tests/unit/tiling checks this); they are closed-form so
// that the optimiser can evaluate a tiling in O(1).
#include <cstdint>

#include "mapper/tiling/asip_params.h"
#include "mapper/tiling/conv_shape.h"
#include "mapper/tiling/tiling.h"

namespace vp::mapper::tiling {

// Platform numbers the single-core cost needs.
struct CostContext {
    int p_ox = 1, p_of = 1;
    int bw_sram = 2;               // words per core cycle (2 * banks)
    double bw_dram = 1.0;          // words per core cycle (Eq. 13)
    std::int64_t sram_words = 0;   // capacity (Eq. 19)
};

// Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect Eq. 13: BW_dram = (flit width / word width) * (f_NoC / f_core) words per core cycle.
double dram_words_per_core_cycle(int flit_bits, int word_bits, double noc_mhz, double core_mhz);

CostContext make_cost_context(const AsipParams& asip, int flit_bits, double noc_mhz);

struct TilingCost {
    bool fits = false;                  // Eq. 19 holds
    std::int64_t sram_words_used = 0;   // Eq. 19 left-hand side
    std::uint64_t s_of = 0, s_if = 0, s_ox = 0;  // tile counts S'_x (Eqs. 1-4)
    // DRAM words by tensor and by class (N_dram_init: waited for; N_dram_par: overlapped).
    std::uint64_t filter_words = 0, ifmap_words = 0, psum_load_words = 0, store_words = 0;
    std::uint64_t n_dram_init = 0, n_dram_par = 0;
    std::uint64_t macs = 0;
    std::uint64_t c_comp = 0;      // Eq. 9: vALU cycles with P_ox x P_of lane under-use
    std::uint64_t c_pfetch = 0;    // Eq. 11: psum prefetch from SRAM at BW_sram
    double c_dram_par = 0.0;       // Eq. 12: N_dram_par / BW_dram
    double c_outer_loop = 0.0;     // Eq. 14/15: N_dram_init / BW_dram
    double c_inner_loop = 0.0;     // Eq. 16/17: max(C_comp + C_pfetch, C_dram_par)
    double c_total = 0.0;          // Eq. 18

    std::uint64_t n_dram() const { return n_dram_init + n_dram_par; }
    std::uint64_t c_compute() const { return c_comp + c_pfetch; }  // inner loop without DRAM
};

// Eq. 19: T'_if (T'_of N_kx N_ky + R_buf T'_ix) + 3 T'_of T'_ox  (R_buf = N_ky + min(s, N_ky)).
std::int64_t sram_words_needed(const SliceDims& d, const Tiling& t);

// Largest T'_if <= N_if for which Eq. 19 holds with the given T'_of, T'_ox; 0 if none.
int max_t_if(const SliceDims& d, int t_of, int t_ox, std::int64_t sram_words);

// Cost of tiling t (tile sizes larger than the dimension are clamped to it).
TilingCost evaluate_tiling(const SliceDims& d, const Tiling& t, const CostContext& ctx);

}  // namespace vp::mapper::tiling
