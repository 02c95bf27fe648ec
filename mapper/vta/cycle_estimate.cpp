#include "mapper/vta/cycle_estimate.h"

#include <algorithm>
#include <cmath>

#include "mapper/common/errors.h"

namespace vp::mapper::vta {

const char* to_string(EstimateModel m) { return m == EstimateModel::Serial ? "serial" : "calibrated"; }

EstimateModel parse_estimate_model(const std::string& name, const std::string& key) {
    if (name == "calibrated") return EstimateModel::Calibrated;
    if (name == "serial") return EstimateModel::Serial;
    throw InputError(key + ": unknown estimate model \"" + name + "\" (known: calibrated, serial)");
}

namespace {

CycleEstimate serial_estimate(const CompiledProgram& p, const EstimateParams& e) {
    CycleEstimate c;
    const VtaConfig& cfg = p.cfg;
    const VtaTiming& v = e.hw.vta;
    const std::uint64_t bus = v.dma_bus_bytes();
    auto dma = [&](const Insn& in, std::uint64_t eb) {
        const std::uint64_t bytes = std::uint64_t(in.x_size) * in.y_size * eb;
        return (bytes ? v.insn_overhead + e.dma_latency + (bytes + bus - 1) / bus : v.insn_overhead) + load_pad_elems(in);
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
            case Opcode::Gemm: c.compute += v.insn_overhead + uops * v.gemm_cycles_per_uop + (uops ? v.pipeline_latency : 0); break;
            case Opcode::Alu: c.compute += v.insn_overhead + uops * v.alu_cycles_per_uop + (uops ? v.pipeline_latency : 0); break;
            case Opcode::Finish: break;
        }
    }
    c.total = p.virtual_threads > 1 ? std::max({c.load, c.compute, c.store}) : c.load + c.compute + c.store;
    return c;
}

}  // namespace

CycleEstimate estimate_cycles(const CompiledProgram& p, const EstimateParams& e) {
    if (e.model == EstimateModel::Serial) return serial_estimate(p, e);
    const PipelineTimes t = pipelined_estimate(p, e.hw, e.coef);
    auto r = [](double x) { return std::uint64_t(std::llround(std::max(0.0, x))); };
    return CycleEstimate{r(t.load), r(t.compute), r(t.store), r(t.total)};
}

}  // namespace vp::mapper::vta
