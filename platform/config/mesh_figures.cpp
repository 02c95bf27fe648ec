#include "platform/config/mesh_figures.h"

#include <algorithm>

#include "platform/config/hw_figures.h"

namespace vp::config {

unsigned dram_if_outstanding(const PlatformSpec& spec) {
    return std::max(spec.noc.dram_if_outstanding, unsigned(std::max(spec.core.dma_max_outstanding, 0)));
}

mapper::waving::MeshHwFigures mesh_figures(const PlatformSpec& spec) {
    mapper::waving::MeshHwFigures f;
    f.dram = dram_figures(spec.dram);
    f.hop_cycles = int(spec.noc.router_stages + spec.noc.link_latency);
    f.link_cycles = int(spec.noc.link_latency);
    f.dram_if_outstanding = int(dram_if_outstanding(spec));
    f.inject_depth = int(spec.noc.inject_depth);
    const int gap = std::max(int(spec.noc.router_stages) - 2, 0);
    const int loop = 1 + int(spec.noc.link_latency) + int(spec.noc.credit_delay);
    f.packet_gap = gap;
    f.credit_stall = std::max(0, gap - (int(spec.noc.buffer_depth) - loop));
    f.buffer_depth = int(spec.noc.buffer_depth);
    return f;
}

}  // namespace vp::config
