#pragma once
// Parameters of the NMP multi-TLE NPU (Tensor Slicing and Optimization for Multicore NPUs) shared by the TSO mapper and the
// NMP model. Values the paper does not give are ASSUMPTIONS (marked below).
#include <string>

#include "mapper/common/dram_figures.h"

namespace vp::mapper::tso {

struct NmpParams {
    // Tensor Slicing and Optimization for Multicore NPUs: "#TLE = 4" and "a single DMA engine per TLE ... serve all 8 TLT cores".
    static constexpr int kDefaultTles = 4;
    static constexpr int kDefaultTltsPerTle = 8;
    // ASSUMPTION: 8 KiB each. MB0 = 8 KiB is the smallest power of two holding the paper's
    // worked-example IN tile 14x4x73 at 16 bit (8,176 B); MB1/MB2 taken equal to MB0.
    static constexpr int kDefaultMbBytes = 8 * 1024;
    // ASSUMPTION: 16 MAC/cycle at 375 MHz = 6 GMAC/s per TLT, i.e. 192 GMAC/s for 32 TLTs,
    // the paper's measured MAC roof (Fig. 11). The split into MAC/cycle and clock is ours.
    static constexpr int kDefaultMacsPerCycle = 16;
    static constexpr double kDefaultClockMhz = 375.0;
    // Seed: BURST "e.g. 128B" (reproduces the worked example's 70 bursts). The DMA engine
    // moves data in transactions of this size (the DRAM's own burst is a DramFigures figure).
    static constexpr int kDefaultBurstBytes = 128;
    // ASSUMPTION: 8 transactions in flight per DMA engine.
    static constexpr int kDefaultDmaOutstanding = 8;
    // ASSUMPTION: RISC-V cycles spent per nmp_conv2d instruction (T_SW of Eq. 6; seed: < 5 %).
    static constexpr int kDefaultSwCyclesPerInstr = 16;

    int n_tle = kDefaultTles;                 // TLE processors
    int n_tlt = kDefaultTltsPerTle;           // TLT cores per TLE
    int mb0_bytes = kDefaultMbBytes;          // IN tile SRAM per TLT [B]
    int mb1_bytes = kDefaultMbBytes;          // W tile SRAM per TLT [B]
    int mb2_bytes = kDefaultMbBytes;          // OUT tile SRAM per TLT [B]
    int macs_per_cycle = kDefaultMacsPerCycle;  // MAC unit width [MAC/cycle]
    double clock_mhz = kDefaultClockMhz;        // TLT clock [MHz]
    int burst_bytes = kDefaultBurstBytes;       // BURST of Algorithm 14 = DMA transaction [B]
    int sw_cycles_per_instr = kDefaultSwCyclesPerInstr;     // T_SW per nmp_conv2d [cycles]
    int dma_max_outstanding = kDefaultDmaOutstanding;       // transactions in flight per DMA engine
    // Largest DMA transaction [B]; 0 = burst_bytes (transactions = CalBurstCount bursts).
    int dma_txn_bytes = 0;
    // The shared DRAM, filled from the simulated controller's parameters (no defaults here).
    DramFigures dram;

    // Throws vp::InputError("<prefix>.<field>: ...") on a bad value.
    void validate(const std::string& key_prefix) const;

    double cycle_s() const { return 1e-6 / clock_mhz; }
    int txn_bytes() const { return dma_txn_bytes ? dma_txn_bytes : burst_bytes; }
    // CAS and BW of Algorithm 14, from the DRAM figures: CL x tCK and the peak bandwidth.
    double cas_s() const { return dram.cas_ns() * 1e-9; }
    double dram_bw_bytes_per_s() const { return dram.peak_bw_bytes_per_s; }
};

}  // namespace vp::mapper::tso
