#pragma once
// Each active core's share of its DRAM interface when the routers arbitrate round robin among
// their inputs, and the weighted processor-sharing factor built on those shares (the phased
// model's default sharing; docs/mesh.md, "The models", item 2b).
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

}  // namespace vp::mapper::waving
