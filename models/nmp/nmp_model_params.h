#pragma once
// Parameters of the NMP model (Tensor Slicing and Optimization for Multicore NPUs): the architecture shared with the TSO mapper
// plus what only the timed model needs. No SystemC here (vp_model_base).
#include <cstdint>
#include <string>

#include "mapper/tso/nmp_params.h"

namespace vp::nmp {

struct NmpModelParams {
    // TLEs, TLTs, MBs, MAC unit, burst, DMA limits (dma_max_outstanding, dma_txn_bytes).
    mapper::tso::NmpParams arch;
    std::uint64_t dram_base = 0;  // first byte of the tensors in DRAM [B]

    unsigned txn_bytes() const { return unsigned(arch.txn_bytes()); }
    unsigned max_outstanding() const { return unsigned(arch.dma_max_outstanding); }
    // Throws vp::InputError("<prefix>.<field>: ...").
    void validate(const std::string& key_prefix) const;
};

}  // namespace vp::nmp
