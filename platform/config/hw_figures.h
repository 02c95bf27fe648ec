#pragma once
// Hardware figures for the mappers, taken from the same parameter structs the models use.
#include "mapper/common/dram_figures.h"
#include "mapper/vta/pipeline_estimate.h"
#include "models/dram/dram_params.h"
#include "models/vta/vta_params.h"

namespace vp::config {

mapper::DramFigures dram_figures(const dram::DramParams& p);
// The VTA compiler's estimate: the simulated core's timing and the DRAM it is bound to.
mapper::vta::VtaFigures vta_figures(const vta::VtaParams& v, const dram::DramParams& d);

}  // namespace vp::config
