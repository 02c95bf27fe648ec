#include "mapper/vta/cycle_estimate.h"

#include <algorithm>

namespace vp::mapper::vta {

CycleEstimate estimate_cycles(const CompiledProgram& p, const EstimateParams& e) {
    CycleEstimate c;
    const VtaConfig& cfg = p.cfg;
    auto dma = [&](const Insn& in, std::uint64_t eb) {
        const std::uint64_t bytes = std::uint64_t(in.x_size) * in.y_size * eb;
        return bytes ? e.insn_overhead + e.dma_latency + (bytes + e.bus_bytes - 1) / e.bus_bytes : e.insn_overhead;
    };
    for (const Insn& in : p.insns) {
        const std::uint64_t uops = std::uint64_t(in.iter_out) * in.iter_in * (in.uop_end - in.uop_bgn);
        switch (in.opcode) {
            case Opcode::Load:
                if (in.mem_type == MemId::Inp) c.load += dma(in, std::uint64_t(cfg.inp_elem_bytes()));
                else if (in.mem_type == MemId::Wgt) c.load += dma(in, std::uint64_t(cfg.wgt_elem_bytes()));
                else if (in.mem_type == MemId::Acc) c.compute += dma(in, std::uint64_t(cfg.acc_elem_bytes()));
                else c.compute += dma(in, VtaConfig::kUopBytes);
                break;
            case Opcode::Store: c.store += dma(in, std::uint64_t(cfg.out_elem_bytes())); break;
            case Opcode::Gemm: c.compute += e.insn_overhead + uops * e.gemm_cycles_per_uop + (uops ? e.pipeline_latency : 0); break;
            case Opcode::Alu: c.compute += e.insn_overhead + uops * e.alu_cycles_per_uop + (uops ? e.pipeline_latency : 0); break;
            case Opcode::Finish: break;
        }
    }
    c.total = e.double_buffer ? std::max({c.load, c.compute, c.store}) : c.load + c.compute + c.store;
    return c;
}

}  // namespace vp::mapper::vta
