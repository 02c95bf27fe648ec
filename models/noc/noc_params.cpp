#include "models/noc/noc_params.h"

#include "mapper/common/errors.h"
#include "models/noc/routing.h"

namespace vp::noc {

namespace {
void require(bool ok, const std::string& prefix, const char* field, const std::string& what) {
    if (!ok) throw vp::InputError(prefix + "." + field + ": " + what);
}
}  // namespace

void NocParams::validate(const std::string& p) const {
    require(width >= 1 && width <= 256, p, "width", "expected an integer in [1, 256]");
    require(height >= 1 && height <= 256, p, "height", "expected an integer in [1, 256]");
    require(width * height >= 1 && width * height <= 65535, p, "width", "width x height must be at most 65535 nodes");
    require(buffer_depth >= 1 && buffer_depth <= 1024, p, "buffer_depth", "expected an integer in [1, 1024] (flits per VC)");
    require(num_vcs >= 1 && num_vcs <= 12, p, "num_vcs", "expected an integer in [1, 12]");
    require(flit_width_bits >= 8 && flit_width_bits % 8 == 0 && flit_width_bits <= 4096, p, "flit_width_bits",
            "expected a multiple of 8 in [8, 4096]");
    require(header_flits <= 16, p, "header_flits", "expected an integer in [0, 16]");
    require(router_stages >= 1 && router_stages <= 64, p, "router_stages", "expected an integer in [1, 64]");
    require(link_latency >= 1 && link_latency <= 1024, p, "link_latency", "expected an integer in [1, 1024] (cycles)");
    require(credit_delay >= 1 && credit_delay <= 1024, p, "credit_delay", "expected an integer in [1, 1024] (cycles)");
    require(eject_depth >= 1 && eject_depth <= 65536, p, "eject_depth", "expected an integer in [1, 65536] (flits)");
    require(inject_depth >= 1 && inject_depth <= 65536, p, "inject_depth", "expected an integer in [1, 65536] (packets)");
    require(arbitration == "round_robin", p, "arbitration", "unknown arbitration '" + arbitration + "'; known: round_robin");
    require(stepping == "active" || stepping == "all", p, "stepping",
            "unknown stepping '" + stepping + "'; known: active, all");
    if (!find_routing(routing))
        throw vp::InputError(p + ".routing: unknown routing '" + routing + "'; known: " + known_routings());
}

}  // namespace vp::noc
