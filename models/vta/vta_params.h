#pragma once
// Parameters of the timed VTA core model (vta_isa.md §1, §5). Defaults follow the pynq
// target of tvm-vta pkg_config.py unless marked as an assumption.
#include <cstdint>
#include <string>

#include "mapper/vta/vta_config.h"

namespace vp::vta {

struct VtaParams {
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
    static constexpr std::uint64_t kWatchdogCycles = 1000000;  // cycles without progress => deadlock

    mapper::vta::VtaConfig core;
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
    std::uint64_t watchdog_cycles = kWatchdogCycles;

    void validate(const std::string& key_prefix) const;
    double clock_period_ps() const { return 1e6 / clock_mhz; }
};

}  // namespace vp::vta
