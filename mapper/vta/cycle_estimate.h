#pragma once
// Cycle estimates of one compiled VTA program (reported next to the simulated cycles so that
// the user can judge the model, and used by STRATEGY "auto" to rank the strategies). Two
// models, chosen by name (vta_compiler.estimate_model):
//  * "calibrated" (pipeline_estimate.h): a replay of the instruction stream through fetch,
//    the three modules and their token queues, DMA transactions timed from the DRAM preset and
//    the VTA's DMA figures, with coefficients fitted by vp-calibrate.
//  * "serial" (the first estimate, kept to reproduce earlier results): module busy times from
//    the instruction stream,
//      load   = sum over INP/WGT loads of (overhead + latency + ceil(bytes / bus_bytes))
//      compute= sum over GEMM/ALU of (overhead + uops * cycles_per_uop + pipeline latency)
//               + ACC/UOP loads like the load module
//      store  = sum over stores of (overhead + latency + ceil(bytes / bus_bytes))
//    single buffering serialises load -> compute -> store of each step, so the estimate is
//    load + compute + store; with two virtual threads (CompiledProgram::virtual_threads) the largest of the three.
#include <cstdint>
#include <string>

#include "mapper/vta/compiled_program.h"
#include "mapper/vta/pipeline_estimate.h"

namespace vp::mapper::vta {

enum class EstimateModel { Serial, Calibrated };
const char* to_string(EstimateModel m);
// "calibrated" | "serial"; vp::InputError naming `key` and the known names otherwise.
EstimateModel parse_estimate_model(const std::string& name, const std::string& key);

struct EstimateParams {
    static constexpr unsigned kSerialDmaLatency = 10;  // serial model: cycles to first data (assumption of that model)
    // The mapper-level default is the serial model, which needs no DRAM figures; platform/
    // selects the model named in the YAML and fills `hw` from the simulated core and DRAM.
    EstimateModel model = EstimateModel::Serial;
    VtaFigures hw;
    VtaCoefficients coef;
    unsigned dma_latency = kSerialDmaLatency;
};

struct CycleEstimate {
    std::uint64_t load = 0, compute = 0, store = 0, total = 0;
};

CycleEstimate estimate_cycles(const CompiledProgram& p, const EstimateParams& e);

}  // namespace vp::mapper::vta
