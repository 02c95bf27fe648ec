#pragma once
// Parameters of the timed VTA core model (vta_isa.md §1, §5). Defaults follow the pynq
// target of tvm-vta pkg_config.py unless marked as an assumption.
#include <cstdint>
#include <string>

#include "mapper/vta/vta_config.h"
#include "mapper/vta/vta_timing.h"

namespace vp::vta {

// The timing fields (clock, DMA, queues, cycles per micro-op) are mapper::vta::VtaTiming, which
// the compiler's cycle estimate reads too (one source of the hardware figures).
struct VtaParams : mapper::vta::VtaTiming {
    static constexpr std::uint64_t kWatchdogCycles = 1000000;  // cycles without progress => deadlock

    mapper::vta::VtaConfig core;
    std::uint64_t watchdog_cycles = kWatchdogCycles;

    void validate(const std::string& key_prefix) const;
};

}  // namespace vp::vta
