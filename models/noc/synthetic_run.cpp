#include "models/noc/synthetic_run.h"

namespace vp::noc {

namespace {
std::unique_ptr<Network> make_network(const NocParams& p) {
    p.validate("noc");
    return std::make_unique<Network>(p);
}
}  // namespace

SyntheticRun::SyntheticRun(const NocParams& noc, const TrafficParams& traffic, vp::stats::Group& parent)
    : m_net(make_network(noc)), m_traffic(*m_net, traffic), m_stats(parent, *m_net), m_group(parent, "synthetic"),
      m_offered(m_group, "offered_load", "flits created per node per cycle in the measurement window", "flits/node/cycle"),
      m_accepted(m_group, "accepted_throughput", "flits ejected per node per cycle in the measurement window",
                 "flits/node/cycle"),
      m_drained(m_group, "drained", "1 if every measured packet was delivered within drain_max_cycles", "bool") {}

TrafficResult SyntheticRun::run() {
    const TrafficResult r = m_traffic.run();
    m_stats.update();
    m_offered.set(r.offered);
    m_accepted.set(r.accepted);
    m_drained.set(r.drained ? 1 : 0);
    return r;
}

TrafficResult SyntheticRun::stopped() {
    m_stats.update();
    TrafficResult r;
    r.cycles = m_net->cycle();
    r.measured_packets = m_net->totals().measured_created;
    r.measured_delivered = m_net->totals().measured_delivered;
    return r;
}

}  // namespace vp::noc
