#pragma once
// Hardware figures for the mappers, taken from the same parameter structs the models use.
#include "mapper/common/dram_figures.h"
#include "models/dram/dram_params.h"

namespace vp::config {

mapper::DramFigures dram_figures(const dram::DramParams& p);

}  // namespace vp::config
