#pragma once
// The hardware figures the mesh mapper's time model needs, as plain numbers: the DRAM of the
// simulation (DramFigures, from the DRAM preset + overrides) and the NoC's per-hop latency and
// the DRAM interface's request limit (from the noc section). platform/config fills them from
// the same parameter structs the models are built with (one source; the mapper never includes
// models/). All zero = not filled (unit tests of the paper model need none of them).
#include "mapper/common/dram_figures.h"

namespace vp::mapper::waving {

struct MeshHwFigures {
    DramFigures dram;
    int hop_cycles = 0;           // NoC cycles per router hop: router pipeline stages + link latency
    int dram_if_outstanding = 0;  // requests a DRAM interface block holds at a time (its cap)
    int inject_depth = 0;         // packets an NI queues before it back-pressures its core

    bool valid() const { return dram.valid() && hop_cycles > 0 && dram_if_outstanding > 0; }
};

}  // namespace vp::mapper::waving
