#pragma once
// The result of compiling one VTA IR program: a DRAM image (data, micro-ops, encoded
// instructions) at a page-aligned base address, plus what is needed to read the output.
#include <cstdint>
#include <string>
#include <vector>

#include "mapper/vta/isa.h"
#include "mapper/vta/partition.h"
#include "mapper/vta/vta_config.h"

namespace vp::mapper::vta {

// One DRAM object (Compilation and Execution of an Embeddable YOLO-NAS on the VTA DRAM allocation: every object starts on a fresh 4 KiB page).
struct DramRegion {
    std::string name;        // "INP", "WGT", "ACC", "ACC_BIS", "OUT", "UOP", "INSN"
    std::uint64_t addr = 0;  // physical byte address
    std::uint64_t bytes = 0;
};

struct CompileStats {
    std::uint64_t steps = 0, insns = 0, uops = 0;  // as the paper's compiler's main() reports
    std::uint64_t gemm_uops = 0, alu_uops = 0;     // micro-op executions (fsim counters)
    std::uint64_t macs = 0;                        // gemm_uops * BATCH * BLOCK^2
    std::uint64_t inp_bytes = 0, wgt_bytes = 0, acc_bytes = 0, uop_bytes = 0, out_bytes = 0;  // DMA traffic
    std::uint64_t load_insns = 0, store_insns = 0, gemm_insns = 0, alu_insns = 0;
};

struct CompiledProgram {
    VtaConfig cfg;
    std::string name;
    std::uint64_t dram_base = 0;         // byte address of image[0]
    std::vector<std::uint8_t> image;     // every region, contiguous from dram_base
    std::vector<DramRegion> regions;
    std::uint64_t insn_addr = 0;         // byte address of the first instruction
    std::uint32_t insn_count = 0;
    std::vector<Insn> insns;             // decoded copy (reports, tests)
    Partition partition;
    int strategy = 1;                    // strategy used (1..4; "auto" resolved)
    int virtual_threads = 1;             // 2: INP/WGT halves alternate between steps (double buffering)
    CompileStats stats;                  // expected counts, checked against the simulation
    // Output matrix C in DRAM: int8 rows of `out_row_vectors` vectors of BLOCK, or with
    // `out_blocked` (direct convolution) column blocks: [out_row_vectors][out_rows][BLOCK].
    std::uint64_t out_addr = 0;
    int out_rows = 0, out_cols = 0, out_row_vectors = 0;
    bool out_blocked = false;
    std::string lowering;  // "" (VTA IR / im2row) or "direct <tiling>" (direct_conv.h)
    std::vector<std::int64_t> stored_rows;  // rows of C that STORE writes, in IR order
    std::uint64_t end_addr() const { return dram_base + image.size(); }

    // The stored rows (IR order) read from a DRAM image of the same layout, int8 flattened.
    std::vector<std::int8_t> extract_output(const std::uint8_t* dram_at_base) const;
};

}  // namespace vp::mapper::vta
