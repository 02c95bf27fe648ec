#pragma once
// Timing parameters of the VTA core: the simulated model (models/vta, VtaParams) and the
// compiler's cycle estimate read the same struct, so that the estimate never carries a copy of a
// hardware figure. Defaults follow the pynq target of tvm-vta pkg_config.py unless marked as an
// assumption.
#include <cstdint>

namespace vp::mapper::vta {

struct VtaTiming {
    static constexpr double kClockMhz = 100.0;          // MHz, pkg_config.py fpga_freq (pynq)
    static constexpr unsigned kDmaBusBits = 64;         // bits, 2^fpga_log_axi_bus_width (pynq: 6)
    static constexpr unsigned kDmaBurstBytes = 256;     // bytes per DMA transaction (assumption: AXI 32 beats x 64 b)
    static constexpr unsigned kDmaOutstanding = 8;      // transactions in flight per DMA port (assumption)
    static constexpr unsigned kCmdQueueDepth = 8;       // entries, HLS STREAM_IN_DEPTH
    static constexpr unsigned kTokenQueueDepth = 8;     // tokens, HLS hls::stream<bool> depth
    static constexpr unsigned kGemmCyclesPerUop = 1;    // cycles, HLS PIPELINE II=1
    static constexpr unsigned kAluCyclesPerUop = 2;     // cycles, HLS II=2 (one acc read per cycle)
    static constexpr unsigned kPipelineLatency = 4;     // cycles from first uop to last write (assumption: 4-stage TensorGemm)
    static constexpr unsigned kInsnOverhead = 1;        // cycles per instruction in each module (decode/issue, assumption)

    double clock_mhz = kClockMhz;
    unsigned dma_bus_bits = kDmaBusBits;
    unsigned dma_burst_bytes = kDmaBurstBytes;
    unsigned dma_outstanding = kDmaOutstanding;
    unsigned cmd_queue_depth = kCmdQueueDepth;
    unsigned token_queue_depth = kTokenQueueDepth;
    unsigned gemm_cycles_per_uop = kGemmCyclesPerUop;
    unsigned alu_cycles_per_uop = kAluCyclesPerUop;
    unsigned pipeline_latency = kPipelineLatency;
    unsigned insn_overhead = kInsnOverhead;

    double clock_period_ps() const { return 1e6 / clock_mhz; }
    unsigned dma_bus_bytes() const { return dma_bus_bits / 8; }
};

// Largest DMA transaction holding whole elements of `unit` bytes (one element if larger than a
// burst): how a DMA port cuts a row of a LOAD/STORE into transactions (model and estimate).
inline unsigned dma_chunk_bytes(unsigned burst_bytes, unsigned unit) {
    return burst_bytes >= unit ? burst_bytes / unit * unit : unit;
}

}  // namespace vp::mapper::vta
