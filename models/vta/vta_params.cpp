#include "models/vta/vta_params.h"

#include "mapper/common/clock_range.h"
#include "mapper/common/errors.h"

namespace vp::vta {

void VtaParams::validate(const std::string& p) const {
    core.validate(p);
    auto req = [&](bool ok, const char* key, const char* what) {
        if (!ok) throw InputError(p + "." + key + ": " + what);
    };
    if (!clock_mhz_ok(clock_mhz, 10000)) throw InputError(p + ".clock_mhz: " + clock_mhz_expected(clock_mhz, 10000));
    req(dma_bus_bits >= 8 && dma_bus_bits <= 1024 && (dma_bus_bits & (dma_bus_bits - 1)) == 0, "dma_bus_bits",
        "expected a power of two in [8, 1024]");
    req(dma_burst_bytes >= 4 && dma_burst_bytes <= 4096, "dma_burst_bytes", "expected bytes in [4, 4096]");
    req(dma_outstanding >= 1 && dma_outstanding <= 64, "dma_outstanding", "expected an integer in [1, 64]");
    req(cmd_queue_depth >= 1 && cmd_queue_depth <= 1024, "cmd_queue_depth", "expected an integer in [1, 1024]");
    req(token_queue_depth >= 1 && token_queue_depth <= 255, "token_queue_depth", "expected an integer in [1, 255] (8-bit semaphore)");
    req(gemm_cycles_per_uop >= 1 && gemm_cycles_per_uop <= 64, "gemm_cycles_per_uop", "expected an integer in [1, 64]");
    req(alu_cycles_per_uop >= 1 && alu_cycles_per_uop <= 64, "alu_cycles_per_uop", "expected an integer in [1, 64]");
    req(pipeline_latency <= 1000, "pipeline_latency", "expected cycles in [0, 1000]");
    req(insn_overhead <= 1000, "insn_overhead", "expected cycles in [0, 1000]");
    req(watchdog_cycles >= 100, "watchdog_cycles", "expected at least 100 cycles");
}

}  // namespace vp::vta
