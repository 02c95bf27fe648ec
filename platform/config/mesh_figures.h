#pragma once
// Hardware figures of the mesh mapper (MeshHwFigures), taken from the parameter structs the
// mesh models are built with: the DRAM preset (dram), the NoC (noc) and the core's DMA limit.
#include "mapper/waving/mesh_hw_figures.h"
#include "platform/config/platform_spec.h"

namespace vp::config {

// Requests the DRAM interface block holds at a time: noc.dram_if_outstanding, raised to
// core.dma_max_outstanding when that is larger. The builder and the mapper both use this.
unsigned dram_if_outstanding(const PlatformSpec& spec);

mapper::waving::MeshHwFigures mesh_figures(const PlatformSpec& spec);

}  // namespace vp::config
