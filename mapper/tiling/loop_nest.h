#pragma once
// The tiled loop nest of the ASIP convolution (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Algorithm 2, written ONCE and used by two clients:
//   * the mapper's cost functions (exact packet / flit counts, checked against the
//     closed-form counts of tiling_cost.h), and
//   * the SystemC core model (models/asip), which replays the operations in time.
// Operations are produced lazily (pull: next(), or push: for_each()); nothing is
// materialised. Loop order, per SliceRun (see tiling.h):
//
//   for of tile (T'_of)                                   outer ("red")
//     for if tile (T'_if)
//       LoadFilter  [of tile x if tile x N_ky x N_kx]      wait   (N_dram_init)
//       for ox tile (T'_ox; tiles restart at slice boundaries: stitching)
//         LoadIfmap rows 0..N_ky-1 of the tile            wait   (N_dram_init)
//         LoadPsum  row 0              (if tile > 0)      wait   (N_dram_init)
//         for oy in 0..N_oy-1                             inner ("blue")
//           LoadPsum  row oy+1         (if tile > 0)      async  (N_dram_par)
//           LoadIfmap the min(s, N_ky) new rows of oy+1   async  (N_dram_par)
//           Compute   row oy: MACs on P_ox x P_of lanes (+ psum prefetch from SRAM)
//           Store     row oy (StorePsum, or StoreOfmap for the last if tile)
//                                                     async, but wait for the last row (drain)
// ASSUMPTION: the paper's four waited-for lines are taken to be filter load, first ifmap
// rows, first psum row and the drain of the last ofmap row; its three overlapped lines
// psum prefetch, next ifmap rows and row write-back.
//
// Replay contract for a core model:
//   * a DMA op moves n_segs segments of seg_bytes each, the i-th at dram_addr + i*seg_stride
//     (the segmentation into NoC packets is the packet format's business, see
//     waving/packet_format.h);
//   * wait == true: issue, then block until the op completed (load data arrived / store acked);
//   * wait == false loads: issue and continue; they must have completed before the Compute op
//     of row oy+1 starts (they are the prefetch for it). wait == false stores: issue and
//     continue; they must have completed before the next wait == true op completes
//     (triple buffering: the write-back buffer is free again when the next row is done).
//   * Compute: busy for comp_cycles + pfetch_cycles core cycles; counts macs, SRAM words.
#include <cstdint>

#include "mapper/tiling/asip_params.h"
#include "mapper/tiling/conv_shape.h"
#include "mapper/tiling/tiling.h"

namespace vp::mapper::tiling {

enum class OpKind : std::uint8_t { LoadFilter, LoadIfmap, LoadPsum, Compute, StorePsum, StoreOfmap };

const char* to_string(OpKind k);

struct Op {
    OpKind kind = OpKind::Compute;
    bool wait = false;              // DMA: true = counted in N_dram_init, false = N_dram_par
    std::uint32_t n_segs = 0;       // DMA: number of contiguous segments
    std::uint64_t seg_bytes = 0;    // DMA: bytes per segment
    std::uint64_t seg_stride = 0;   // DMA: byte distance between segment starts
    std::uint64_t dram_addr = 0;    // DMA: byte address of the first segment
    std::uint64_t macs = 0;         // Compute: useful MACs of this row
    std::uint64_t comp_cycles = 0;  // Compute: vALU cycles, ceil(tof/P_of)*ceil(tox/P_ox)*tif*N_kx*N_ky
    std::uint64_t pfetch_cycles = 0;  // Compute: psum prefetch from SRAM, ceil(tof*tox / BW_sram)
    std::uint64_t sram_reads = 0;   // words read from SRAM (compute operands, DMA store source)
    std::uint64_t sram_writes = 0;  // words written to SRAM (results, DMA load target)
    // Position (for tracing): tile origin in the layer (group-local channels, global ox) and row.
    int of_begin = 0, if_begin = 0, ox_begin = 0, oy = -1;
    int n_of = 0, n_if = 0, n_ox = 0;

    bool is_dma() const { return kind != OpKind::Compute; }
    bool is_load() const { return kind == OpKind::LoadFilter || kind == OpKind::LoadIfmap || kind == OpKind::LoadPsum; }
    bool is_store() const { return kind == OpKind::StorePsum || kind == OpKind::StoreOfmap; }
    std::uint64_t bytes() const { return std::uint64_t(n_segs) * seg_bytes; }
};

class LoopNest {
public:
    // `run` must lie inside `shape` (checked: throws std::invalid_argument) and `t` must
    // have 1 <= t_of, 1 <= t_if, 1 <= t_ox (larger values than the run are clamped).
    LoopNest(const ConvShape& shape, const SliceRun& run, const Tiling& t, const AsipParams& asip,
             const DramLayout& layout = DramLayout{});

    // Produces the next operation; false when the run is complete.
    bool next(Op& op);
    // Starts again from the first operation.
    void reset();

    template <class F>
    void for_each(F&& f) {
        Op op;
        while (next(op)) f(op);
    }

private:
    enum class Phase : std::uint8_t { Filter, InitIfmap, InitPsum, PfPsum, PfIfmap, Compute, Store, Done };

    void start_of_tile(int of0);
    void start_if_tile(int if0);
    void start_ox_tile(int chunk0, int ox0);
    bool advance_ox_tile();
    void set_dma(Op& op, OpKind kind, bool wait, std::uint64_t addr, std::uint64_t seg_bytes, std::uint32_t n_segs,
                 std::uint64_t stride) const;
    void make_ifmap_row(Op& op, int iy, bool wait) const;
    void make_out_row(Op& op, OpKind kind, int oy, bool wait) const;

    // Layer / run constants.
    ConvShape m_shape;
    SliceRun m_run;
    Tiling m_t;
    DramLayout m_layout;
    int m_p_ox, m_p_of, m_bw_sram, m_wb;
    int m_new_rows;
    // Loop state.
    Phase m_phase = Phase::Filter;
    int m_of0 = 0, m_tof = 0, m_if0 = 0, m_tif = 0;
    int m_chunk0 = 0, m_ox0 = 0, m_tox = 0;
    int m_oy = 0, m_sub = 0;
};

}  // namespace vp::mapper::tiling
