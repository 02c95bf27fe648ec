#pragma once
// Parameters of the NMP multi-TLE NPU (Tensor Slicing and Optimization for Multicore NPUs) shared by the TSO mapper and the
// NMP model. Values the paper does not give are ASSUMPTIONS (marked below).
#include <cstdint>
#include <string>

#include "mapper/common/dram_figures.h"

namespace vp::mapper::tso {

// The ring between the TLEs (Tensor Slicing and Optimization for Multicore NPUs names a "ring network"
// between the TLEs and nothing of its parameters: every value below is an ASSUMPTION). It
// carries the partial sums of the IFM-channel slicing (TleSlicing::IFM_CH) only.
struct RingParams {
    int width_bytes = 16;   // link width = flit size [B/cycle], per direction (ASSUMPTION)
    int hop_cycles = 2;     // router + wire latency per hop [cycles] (ASSUMPTION)
    int packet_flits = 4;   // packet size [flits]; a message is cut into packets (ASSUMPTION)
    int buffer_flits = 16;  // input buffer per link = credits of the upstream link [flits] (ASSUMPTION)

    std::uint64_t flits(std::uint64_t bytes) const { return (bytes + std::uint64_t(width_bytes) - 1) / std::uint64_t(width_bytes); }
    // Throws vp::InputError("<prefix>.<field>: ...").
    void validate(const std::string& prefix) const;
};

// Route of a message on the bidirectional ring of n nodes: the shorter direction; at equal
// distance (n even, opposite node) clockwise from even sources, counter-clockwise from odd
// ones, so that the opposite-node traffic of an all-to-one reduction is spread over both
// directions. Returns the hop count; *cw = clockwise (node i -> i + 1).
inline int ring_route(int src, int dst, int n, bool* cw) {
    const int d = ((dst - src) % n + n) % n;
    const bool c = 2 * d < n || (2 * d == n && src % 2 == 0);
    if (cw) *cw = c;
    return c ? d : n - d;
}

// RISC-V control cost of a TLT per instruction class (T_SW of Eq. 6, which the paper leaves out:
// "usually less than 5 %"). nmp_conv2d issue is NmpParams::sw_cycles_per_instr (the constant of
// before). The three below default to 0, which keeps the timing of before; the values in the
// comments are what a RISC-V core would plausibly spend (ASSUMPTION, not from the paper).
struct ControlParams {
    // Programming one DMA transfer (source, destination, size, stride registers, start):
    // ~8 cycles. Paid by the controller before every transfer (load, store, ring send).
    int dma_issue_cycles = 0;
    // Waiting for a DMA completion (poll a status register, branch): ~4 cycles. Paid by a TLT
    // before its next nmp_conv2d for every transfer into / out of its memories since its last one.
    int sync_cycles = 0;
    // Loop bookkeeping per tile iteration (index update, compare, branch, address arithmetic):
    // ~4 cycles. Paid by a TLT with every nmp_conv2d.
    int loop_cycles = 0;

    bool is_default() const { return dma_issue_cycles == 0 && sync_cycles == 0 && loop_cycles == 0; }
    // Throws vp::InputError("<prefix>.<field>: ...").
    void validate(const std::string& prefix) const;
};

// The fabric from a TLE's DMA engine to its TLTs (Tensor Slicing and Optimization for Multicore
// NPUs: one DMA engine per TLE serving its 8 TLTs, IN tiles MULTICAST into their MB0; the paper
// gives no figures, so every value is an ASSUMPTION). One input port per TLT, each moving
// bytes_per_cycle; a multicast holds the ports of every target TLT at once, a W load or an OUT
// store the port of its TLT; requests are served in issue order (FIFO). Off (enabled false):
// the ideal fabric of before (a load is in the TLTs' memories when its last DRAM response
// arrives, no port time).
struct FabricParams {
    bool enabled = false;
    int bytes_per_cycle = 16;  // port width [B/cycle] (ASSUMPTION: a 128-bit SRAM write port)
    int latency_cycles = 4;    // pipeline latency from the DMA engine to a TLT memory [cycles] (ASSUMPTION)

    bool is_default() const { return !enabled && bytes_per_cycle == 16 && latency_cycles == 4; }
    // Cycles a port is held by a transfer of `bytes`: ceil(bytes / bytes_per_cycle).
    std::uint64_t cycles(std::uint64_t bytes) const {
        return (bytes + std::uint64_t(bytes_per_cycle) - 1) / std::uint64_t(bytes_per_cycle);
    }
    // Throws vp::InputError("<prefix>.<field>: ...").
    void validate(const std::string& prefix) const;
};

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
    RingParams ring;  // the ring between the TLEs (IFM-channel slicing only)
    ControlParams control;  // RISC-V control cost per instruction class
    FabricParams fabric;    // DMA engine -> TLT ports of each TLE (off: ideal)
    // MB0 and MB1 double-buffered: each holds two tiles of half its size, so the load of the
    // next IN / W tile overlaps the compute on the current one (ASSUMPTION: the paper says
    // nothing of it and describes TLTs idling while they wait for data, so false = the board).
    bool double_buffer = false;
    // The shared DRAM, filled from the simulated controller's parameters (no defaults here).
    DramFigures dram;

    // Throws vp::InputError("<prefix>.<field>: ...") on a bad value.
    void validate(const std::string& key_prefix) const;

    double cycle_s() const { return 1e-6 / clock_mhz; }
    // Capacity of one IN / W tile: the whole MB0 / MB1, half of it when double-buffered.
    int in_tile_bytes() const { return double_buffer ? mb0_bytes / 2 : mb0_bytes; }
    int w_tile_bytes() const { return double_buffer ? mb1_bytes / 2 : mb1_bytes; }
    // T_SW cycles of one nmp_conv2d on its TLT: issue + loop bookkeeping.
    int conv_sw_cycles() const { return sw_cycles_per_instr + control.loop_cycles; }
    int txn_bytes() const { return dma_txn_bytes ? dma_txn_bytes : burst_bytes; }
    // CAS and BW of Algorithm 14, from the DRAM figures: CL x tCK and the peak bandwidth.
    double cas_s() const { return dram.cas_ns() * 1e-9; }
    double dram_bw_bytes_per_s() const { return dram.peak_bw_bytes_per_s; }
};

}  // namespace vp::mapper::tso
