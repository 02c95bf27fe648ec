#pragma once
// Parameters of the mesh processing core (the ASIP of Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect) as far as the
// mapper and the core model need them. Every default is an ASSUMPTION: the
// paper does not publish P_ox, P_of, SRAM size, word width or clocks.
#include <cstdint>
#include <string>

namespace vp::mapper::tiling {

struct AsipParams {
    // vALU unrolling: P_ox ofmap columns x P_of ofmap channels MACs per cycle.
    static constexpr int kDefaultPox = 16;                     // ASSUMPTION (not published)
    static constexpr int kDefaultPof = 8;                      // ASSUMPTION (16 x 8 = 128 MAC/cycle)
    static constexpr std::int64_t kDefaultSramBytes = 256 * 1024;  // bytes, ASSUMPTION
    static constexpr int kDefaultWordBits = 16;                // bits, RELATED (ConvAix is 16-bit)
    static constexpr int kDefaultDmaSetupCycles = 2;           // core cycles per DMA descriptor, ASSUMPTION
    static constexpr int kDefaultDmaMaxOutstanding = 16;       // packets in flight per core, ASSUMPTION
    static constexpr double kDefaultCoreMhz = 500.0;           // MHz, ASSUMPTION

    int p_ox = kDefaultPox;
    int p_of = kDefaultPof;
    std::int64_t sram_bytes = kDefaultSramBytes;
    // Banked dual-port SRAM; Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect: bank count = P_ox, BW_sram = 2 * banks words/cycle.
    // 0 means "equal to p_ox" (the paper's configuration).
    int sram_banks = 0;
    int word_bits = kDefaultWordBits;  // one activation / weight / partial sum per word
    int dma_setup_cycles = kDefaultDmaSetupCycles;        // used by the core model only
    int dma_max_outstanding = kDefaultDmaMaxOutstanding;  // used by the core model only
    double core_mhz = kDefaultCoreMhz;

    int banks() const { return sram_banks > 0 ? sram_banks : p_ox; }
    int word_bytes() const { return word_bits / 8; }
    std::int64_t sram_words() const { return sram_bytes / word_bytes(); }
    // Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, text after Eq. 11: BW_sram = 2 * P_ox words per cycle (banked dual-port).
    int bw_sram_words() const { return 2 * banks(); }

    // Throws vp::InputError("<prefix>.<field>: ...") on a bad value.
    void validate(const std::string& prefix) const;
};

}  // namespace vp::mapper::tiling
