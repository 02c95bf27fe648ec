#pragma once
// What one ASIP core runs for one layer: the mapper's slice runs with their single-core
// tilings (waving::CoreWork) and the layer's tensors in DRAM. Filled by the platform
// builder from the mapping; the core replays it with the mapper's loop nest.
#include <cstdint>
#include <vector>

#include "mapper/tiling/conv_shape.h"
#include "mapper/tiling/tiling.h"

namespace vp::asip {

struct CoreLayerWork {
    unsigned layer = 0;                       // position in the master's layer sequence
    const mapper::tiling::ConvShape* shape = nullptr;  // owned by the mapping (outlives the run)
    mapper::tiling::DramLayout layout;
    std::vector<mapper::tiling::SliceRun> runs;
    std::vector<mapper::tiling::Tiling> tilings;
};

// Per-layer counts of one core (summed by the platform for the per-layer statistics).
struct CoreLayerCounts {
    std::uint64_t macs = 0, lane_cycles = 0;  // useful MACs, P_ox x P_of lanes x vALU cycles
    std::uint64_t comp_cycles = 0, pfetch_cycles = 0, setup_cycles = 0, stall_cycles = 0;
    std::uint64_t sram_reads = 0, sram_writes = 0;
    std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0, transfers = 0;
    std::uint64_t cycles = 0;                 // start sync received -> done sync sent
};

}  // namespace vp::asip
