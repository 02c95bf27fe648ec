#include "models/noc/traffic_params.h"

#include "mapper/common/errors.h"
#include "models/noc/traffic_pattern.h"

namespace vp::noc {

void TrafficParams::validate(const std::string& p, const NocParams& noc) const {
    auto fail = [&](const char* field, const std::string& what) { throw vp::InputError(p + "." + field + ": " + what); };
    if (!(rate >= 0.0 && rate <= 1.0)) fail("rate", "expected a load in [0, 1] flits/node/cycle");
    if (!find_pattern(pattern)) fail("pattern", "unknown pattern '" + pattern + "'; known: " + known_patterns());
    if (pattern == "transpose" && noc.width != noc.height) fail("pattern", "transpose needs a square mesh");
    if (packet_flits < 1 || packet_flits > 65535) fail("packet_flits", "expected an integer in [1, 65535]");
    if (!(hotspot_fraction >= 0.0 && hotspot_fraction <= 1.0)) fail("hotspot_fraction", "expected a value in [0, 1]");
    if (hotspot_node >= noc.num_nodes()) fail("hotspot_node", "expected a node index below " + std::to_string(noc.num_nodes()));
    if (measure_cycles < 1) fail("measure_cycles", "expected at least 1 cycle");
    if (injection != "bernoulli" && injection != "geometric")
        fail("injection", "expected bernoulli or geometric, got '" + injection + "'");
}

}  // namespace vp::noc
