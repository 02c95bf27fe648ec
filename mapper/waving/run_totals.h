#pragma once
// What one core does for a slice run, accumulated by traversing the loop nest
// (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect: "traversing the loop structure from Algorithm 2 and building an exact
// list of all packets" -- here counted on the fly, never stored).
#include <cstdint>

#include "mapper/tiling/loop_nest.h"
#include "mapper/waving/packet_format_ops.h"

namespace vp::mapper::waving {

struct RunTotals {
    std::uint64_t comp_cycles = 0, pfetch_cycles = 0;  // C_comp + C_pfetch (cycles without DRAM, Eq. 24)
    std::uint64_t macs = 0;
    std::uint64_t sram_reads = 0, sram_writes = 0;      // words
    std::uint64_t dram_init_bytes = 0, dram_par_bytes = 0;
    std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
    std::uint64_t filter_bytes = 0;
    FlitCount noc;            // all packets of the run
    FlitCount noc_filters;    // of which filter loads

    std::uint64_t compute_cycles() const { return comp_cycles + pfetch_cycles; }
    std::uint64_t dram_bytes() const { return dram_init_bytes + dram_par_bytes; }
    RunTotals& operator+=(const RunTotals& o);
};

// Adds one op of the loop nest to the totals (measure_run's step, shared with profile_run).
void add_op(RunTotals& r, const tiling::Op& op, const PacketFormat& fmt);

RunTotals measure_run(const tiling::ConvShape& shape, const tiling::SliceRun& run, const tiling::Tiling& t,
                      const tiling::AsipParams& asip, const PacketFormat& fmt);

// Single-core cycle estimate of a core's work with DRAM (Eqs. 12-18 applied to the totals).
double cycles_with_dram(const RunTotals& r, double bw_dram_words, int word_bytes);

}  // namespace vp::mapper::waving
