#pragma once
// Which active core runs which block of slices. The waving order (the k cores nearest the DRAM
// interface, nearest first) gives the cores; the blocks of unequal work (a narrower last slice, or
// one slice more) may sit on any of them, and where they sit matters: the routers arbitrate round
// robin among their inputs, so a core whose route to the interface merges with many others gets a
// small share of it while the shared side is busy (docs/mesh.md, "Placement of unequal blocks").
#include <vector>

#include "mapper/waving/mesh_map_params.h"

namespace vp::mapper::waving {

// Each active core's share of its DRAM interface when every active core has requests queued:
// along its XY route (X first), every router gives each of its inputs with traffic to that
// interface an equal turn (the local port, one port per upstream neighbour), so the share is the
// product of 1 / (inputs with traffic) over the routers of the route, the interface's included.
std::vector<double> route_shares(const std::vector<MeshNode>& active, const std::vector<MeshNode>& dram_ifs);

// Fluid makespan of the active cores `nodes` (one DRAM interface `dram_if`, XY routes) when core
// i runs a job of `compute[i]` cycles that needs `shared[i]` cycles of the shared side (the
// interface and the DRAM behind it, one unit of service per cycle). A core alone is bound by its
// compute: it asks the shared side for shared / compute of its capacity. The capacity is split
// max-min fairly at every router among its inputs with demand, from the interface's router down
// the routes' tree (round robin gives an input what the others leave); a core served below its
// demand progresses at served / shared. Cores that finish leave; the result is the time the last
// one finishes. ASSUMPTION: every core starts at 0 and streams evenly over its job.
double fluid_makespan(const std::vector<MeshNode>& nodes, const MeshNode& dram_if, const std::vector<double>& compute,
                      const std::vector<double>& shared);

// The rank (index into the waving order's first k cores) of the core that runs each block. The
// waving order itself (block b on rank b) unless the blocks' compute differs and the fluid
// makespan of the blocks sorted onto the cores by route share (the most compute on the largest
// share; blocks of equal compute keep their waving order among the ranks they get) is at least
// 1 % shorter. `nodes` are the first k cores of the waving order; one DRAM interface only (with
// several, the waving order).
std::vector<int> place_blocks(const std::vector<MeshNode>& nodes, const std::vector<MeshNode>& dram_ifs,
                              const std::vector<double>& compute, const std::vector<double>& shared);

}  // namespace vp::mapper::waving
