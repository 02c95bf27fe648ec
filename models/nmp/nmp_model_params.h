#pragma once
// Parameters of the NMP model (seed 000): the architecture shared with the TSO mapper
// plus what only the timed model needs. No SystemC here (vp_model_base).
#include <cstdint>
#include <string>

#include "mapper/tso/nmp_params.h"

namespace vp::nmp {

struct NmpModelParams {
    // ASSUMPTION: 8 transactions in flight per DMA engine.
    static constexpr unsigned kDefaultDmaOutstanding = 8;

    mapper::tso::NmpParams arch;                            // TLEs, TLTs, MBs, MAC unit, burst
    unsigned dma_max_outstanding = kDefaultDmaOutstanding;  // per TLE DMA engine [transactions]
    // Largest TLM transaction of a DMA engine [B]; 0 = arch.burst_bytes, so that the number
    // of transactions equals the mapper's CalBurstCount.
    unsigned dma_txn_bytes = 0;
    std::uint64_t dram_base = 0;  // first byte of the tensors in DRAM [B]

    unsigned txn_bytes() const { return dma_txn_bytes ? dma_txn_bytes : unsigned(arch.burst_bytes); }
    // Throws vp::InputError("<prefix>.<field>: ...").
    void validate(const std::string& key_prefix) const;
};

}  // namespace vp::nmp
