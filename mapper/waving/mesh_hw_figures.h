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
    int link_cycles = 0;          // NoC cycles of a link (noc.link_latency; the NI's link to its router too)
    int dram_if_outstanding = 0;  // requests a DRAM interface block holds at a time (its cap)
    int inject_depth = 0;         // packets an NI queues before it back-pressures its core
    // A VC's stream of packets (used by `phased-engine` and `phased-pages`): g = max(router_stages - 2, 0) NoC
    // cycles before the next head follows a tail (its RC and VA), the part of g that the credit loop
    // R = 1 + link_latency + credit_delay does not cover, max(0, g - (buffer_depth - R)), per hop
    // on which a packet waits for a credit, and buffer_depth (flits per VC buffer).
    int packet_gap = 0;
    int credit_stall = 0;
    int buffer_depth = 0;

    bool valid() const { return dram.valid() && hop_cycles > 0 && dram_if_outstanding > 0; }
};

}  // namespace vp::mapper::waving
