#pragma once
// Statistics of the NoC in the shared registry (models/common/stats.h). The network
// counts in plain arrays during the run; update() copies them into the declared stats
// (call it once before dumping). Names: <parent>.packets_injected, ...,
// <parent>.router[x][y].flits_out_east, ...
#include <deque>
#include <memory>

#include "models/common/stats.h"
#include "models/noc/network.h"

namespace vp::noc {

class NocStats {
public:
    NocStats(vp::stats::Group& parent, const Network& net, double latency_bucket_width = 1.0,
             std::size_t latency_buckets = 512);
    void update();

private:
    // Per-port and allocation counters are registered by address (sampled per epoch).
    struct RouterStats {
        RouterStats(vp::stats::Group& parent, const std::string& name, const RouterCounters& c);
        vp::stats::Group group;
        std::deque<vp::stats::CounterRef> flits_in, flits_out, credit_stall;
        std::deque<vp::stats::Scalar> link_util;
        vp::stats::CounterRef packets_routed, sa_conflicts, occupancy;
        vp::stats::Scalar occupancy_avg;
        vp::stats::Counter occupancy_max;
    };

    const Network& m_net;
    vp::stats::Counter m_cycles, m_packets_created, m_flits_created, m_packets_injected, m_flits_injected,
        m_packets_ejected, m_flits_ejected, m_measured_packets, m_measured_delivered;
    vp::stats::Scalar m_offered, m_accepted;
    vp::stats::Scalar m_pl_avg, m_pl_p50, m_pl_p99, m_pl_max, m_nl_avg, m_nl_p50, m_nl_p99, m_nl_max;
    vp::stats::Histogram m_pl_hist, m_nl_hist;
    vp::stats::Group m_types;                    // <parent>.packet_types.<type>
    std::deque<vp::stats::Counter> m_type_packets;
    std::deque<RouterStats> m_routers;
};

}  // namespace vp::noc
