#include "models/noc/noc_invariants.h"

#include <string>

namespace vp::noc {

void check_network(const Network& net, InvariantCheck& chk, bool expect_empty) {
    const NetworkTotals& t = net.totals();
    const Network::Census k = net.census();
    const std::string scope = "noc";
    chk.equal("flits created = flits waiting at the source NIs + flits injected", scope, t.flits_created,
              k.flits_at_sources + t.term.flits_injected);
    chk.equal("flits injected = flits ejected + flits in routers, on links and in ejection queues", scope,
              t.term.flits_injected, t.term.flits_ejected + k.flits_in_routers + k.flits_on_links + k.flits_in_ejection);
    chk.equal("packets created = packets ejected + packets alive", scope, t.packets_created,
              t.term.packets_ejected + net.packets_alive());
    const NocParams& p = net.params();
    for (unsigned r = 0; r < net.num_nodes(); ++r) {
        const RouterCounters& c = net.router(r).counters();
        std::uint64_t in = 0, out = 0;
        for (unsigned q = 0; q < kNumPorts; ++q) {
            in += c.flits_in[q];
            out += c.flits_out[q];
        }
        chk.equal("flits received - flits sent = flits buffered",
                  "router[" + std::to_string(r % p.width) + "][" + std::to_string(r / p.width) + "]", in - out,
                  net.router(r).count_buffered());
    }
    if (expect_empty) {
        chk.none_left("packets left in the network", scope, net.packets_alive());
        chk.none_left("flits left at sources, in routers, on links or in ejection queues", scope,
                      k.flits_at_sources + k.flits_in_routers + k.flits_on_links + k.flits_in_ejection);
    }
}

}  // namespace vp::noc
