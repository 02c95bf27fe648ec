#pragma once
// One synthetic-traffic experiment with its statistics, for vp-run's NoC-only mode:
// builds the network, runs warm-up / measurement / drain and fills the stats under
// `parent` (NocStats plus a "synthetic" group with the measurement-window figures).
// Plain C++: no SystemC kernel is needed for synthetic traffic.
#include <memory>

#include "models/common/stats.h"
#include "models/noc/noc_stats.h"
#include "models/noc/synthetic_traffic.h"

namespace vp::noc {

class SyntheticRun {
public:
    // Validates both parameter sets (key prefixes "noc" and "traffic").
    SyntheticRun(const NocParams& noc, const TrafficParams& traffic, vp::stats::Group& parent);
    TrafficResult run();
    // After run() was stopped from the traffic's cycle hook (an exception, vp-run's interrupt):
    // the statistics of the cycles stepped so far (the measurement window's figures stay 0).
    TrafficResult stopped();
    const Network& network() const { return *m_net; }
    SyntheticTraffic& traffic() { return m_traffic; }

private:
    std::unique_ptr<Network> m_net;
    SyntheticTraffic m_traffic;
    NocStats m_stats;
    vp::stats::Group m_group;
    vp::stats::Scalar m_offered, m_accepted;
    vp::stats::Counter m_drained;
};

}  // namespace vp::noc
