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
    // A router counter that sleeping routers account lazily (occupancy, credit stalls): read
    // through Network::router, which settles it to the network's cycle. Sampled and dumped like
    // a CounterRef.
    class SettledCounter final : public vp::stats::Stat {
    public:
        SettledCounter(vp::stats::Group& parent, std::string name, std::string desc, std::string unit,
                       const Network& net, unsigned router, const std::uint64_t* src);
        std::uint64_t value() const;
        nlohmann::json to_json() const override;
        void to_flat(std::vector<std::pair<std::string, double>>& out) const override;
        void sample(std::uint64_t, double* out) const override { out[0] = double(value()); }

    private:
        const Network& m_net;
        unsigned m_router;
        const std::uint64_t* m_src;
    };

    // Per-port and allocation counters are registered by address (sampled per epoch).
    struct RouterStats {
        RouterStats(vp::stats::Group& parent, const std::string& name, const Network& net, unsigned router);
        vp::stats::Group group;
        std::deque<vp::stats::CounterRef> flits_in, flits_out;
        std::deque<SettledCounter> credit_stall;
        std::deque<vp::stats::Scalar> link_util;
        vp::stats::CounterRef packets_routed, sa_conflicts;
        SettledCounter occupancy;
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
