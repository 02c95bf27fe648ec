#pragma once
// Each active core's share of its DRAM interface when the routers arbitrate round robin among
// their inputs, the completion times of generalised processor sharing on those shares, and the
// share of each core's tail that they imply (`phased-routes`; docs/mesh.md, "The models", item 3).
#include <vector>

#include "mapper/waving/mesh_map_params.h"

namespace vp::mapper::waving {

// phi_i of every core in `active` (positions; each talks to its nearest interface of
// `dram_ifs`): along the core's XY route (X first, the mapper's hop count) every router,
// the interface's own included, gives each of its inputs that carries traffic of an active
// core an equal turn (the local port for cores on that router, one port per upstream
// neighbour), so phi_i is the product of 1 / (inputs with traffic) along the route. The shares
// of the cores of one interface add up to 1. ASSUMPTION: every active core has requests
// queued (lockstep loading), and the routing is XY as in configs/mesh-*.yaml.
std::vector<double> route_shares(const std::vector<MeshNode>& active, const std::vector<MeshNode>& dram_ifs);

// CoreContext::sharing of every core under generalised processor sharing with a common start
// and weights phi (renormalised among the cores still served as cores drop out): core i is done
// at virtual time w_i / phi_i, when the server has done sum_j min(w_j, phi_j w_i / phi_i) (the
// jobs done earlier in full, the others as far as they got), so its factor is that sum / w_i
// (1 for a core without work). With equal weights this is sharing_by_work.
std::vector<double> sharing_by_share(const std::vector<double>& work, const std::vector<double>& phi);

// CoreContext::tail of every core: with the cores' work w on the shared side served by
// generalised processor sharing with weights phi and a common start, core i's waited-for work
// is done at T_i = sharing_by_share(w, phi)_i w_i and the first core's at T_1 = min_j T_j; from
// T_1 on some core runs its rows while i still waits, so the share of i's wait that others'
// row traffic can overlap is 1 - T_1 / T_i (0 for the first core, and for every core when the
// shares and the work are equal; 0 for a core without work).
std::vector<double> tail_by_share(const std::vector<double>& work, const std::vector<double>& phi);

}  // namespace vp::mapper::waving
