#include "models/noc/noc_stats.h"

#include <string>

namespace vp::noc {

using vp::stats::Counter;
using vp::stats::Scalar;

NocStats::SettledCounter::SettledCounter(vp::stats::Group& parent, std::string name, std::string desc,
                                         std::string unit, const Network& net, unsigned router,
                                         const std::uint64_t* src)
    : Stat(parent, std::move(name), std::move(desc), std::move(unit)), m_net(net), m_router(router), m_src(src) {
    set_sampled();
}

std::uint64_t NocStats::SettledCounter::value() const {
    m_net.router(m_router);  // settles the router's lazily accounted cycles
    return *m_src;
}

nlohmann::json NocStats::SettledCounter::to_json() const {
    return {{"desc", desc()}, {"unit", unit()}, {"value", value()}};
}

void NocStats::SettledCounter::to_flat(std::vector<std::pair<std::string, double>>& out) const {
    out.emplace_back("", double(value()));
}

NocStats::RouterStats::RouterStats(vp::stats::Group& parent, const std::string& name, const Network& net,
                                   unsigned router)
    : group(parent, name),
      packets_routed(group, "packets_routed", "head flits that won VC allocation", "packets",
                     &net.router(router).counters().packets_routed),
      sa_conflicts(group, "sa_conflicts", "switch arbitrations with more than one requesting input", "events",
                   &net.router(router).counters().sa_conflicts),
      occupancy(group, "occupancy_flit_cycles", "flits buffered in all input VCs, summed over cycles", "flit cycles",
                net, router, &net.router(router).counters().occupancy_sum),
      occupancy_avg(group, "occupancy_avg", "average flits buffered in all input VCs", "flits"),
      occupancy_max(group, "occupancy_max", "maximum flits buffered in all input VCs", "flits") {
    const RouterCounters& c = net.router(router).counters();
    for (unsigned p = 0; p < kNumPorts; ++p) {
        const std::string pn = port_name(p);
        flits_in.emplace_back(group, "flits_in_" + pn, "flits received on input port " + pn, "flits", &c.flits_in[p]);
        flits_out.emplace_back(group, "flits_out_" + pn, "flits sent on output port " + pn, "flits", &c.flits_out[p]);
        credit_stall.emplace_back(group, "credit_stall_" + pn,
                                  "cycles a switch-ready flit waited for a credit of output " + pn, "cycles", net,
                                  router, &c.credit_stall[p]);
        link_util.emplace_back(group, "link_util_" + pn, "flits sent on output " + pn + " per cycle", "flits/cycle");
    }
}

NocStats::NocStats(vp::stats::Group& g, const Network& net, double bw, std::size_t nb)
    : m_net(net),
      m_cycles(g, "cycles", "NoC cycles simulated", "cycles"),
      m_packets_created(g, "packets_created", "packets queued at source NIs", "packets"),
      m_flits_created(g, "flits_created", "flits of the packets queued at source NIs", "flits"),
      m_packets_injected(g, "packets_injected", "packets whose head left the source NI", "packets"),
      m_flits_injected(g, "flits_injected", "flits that left source NIs", "flits"),
      m_packets_ejected(g, "packets_ejected", "packets whose tail was drained at the destination NI", "packets"),
      m_flits_ejected(g, "flits_ejected", "flits drained at destination NIs", "flits"),
      m_measured_packets(g, "measured_packets", "packets created while measuring", "packets"),
      m_measured_delivered(g, "measured_delivered", "measured packets delivered", "packets"),
      m_offered(g, "offered_load", "flits created per node per cycle", "flits/node/cycle"),
      m_accepted(g, "accepted_throughput", "flits ejected per node per cycle", "flits/node/cycle"),
      m_pl_avg(g, "packet_latency_avg", "creation to tail ejection, measured packets", "cycles"),
      m_pl_p50(g, "packet_latency_p50", "median packet latency", "cycles"),
      m_pl_p99(g, "packet_latency_p99", "99th percentile packet latency", "cycles"),
      m_pl_max(g, "packet_latency_max", "maximum packet latency", "cycles"),
      m_nl_avg(g, "network_latency_avg", "head injection to tail ejection, measured packets", "cycles"),
      m_nl_p50(g, "network_latency_p50", "median network latency", "cycles"),
      m_nl_p99(g, "network_latency_p99", "99th percentile network latency", "cycles"),
      m_nl_max(g, "network_latency_max", "maximum network latency", "cycles"),
      m_pl_hist(g, "packet_latency_hist", "packet latency distribution", "cycles", bw, nb),
      m_nl_hist(g, "network_latency_hist", "network latency distribution", "cycles", bw, nb),
      m_types(g, "packet_types") {
    for (unsigned t = 0; t < kNumPacketTypes; ++t)
        m_type_packets.emplace_back(m_types, packet_type_name(PacketType(t)),
                                    std::string("packets of type ") + packet_type_name(PacketType(t)) + " created",
                                    "packets");
    const NocParams& p = net.params();
    for (unsigned i = 0; i < p.num_nodes(); ++i)
        m_routers.emplace_back(g, "router[" + std::to_string(i % p.width) + "][" + std::to_string(i / p.width) + "]",
                               net, i);
}

void NocStats::update() {
    const NetworkTotals& t = m_net.totals();
    const double cycles = double(m_net.cycle());
    const double nodes = double(m_net.num_nodes());
    m_cycles.set(m_net.cycle());
    m_packets_created.set(t.packets_created);
    m_flits_created.set(t.flits_created);
    m_packets_injected.set(t.term.packets_injected);
    m_flits_injected.set(t.term.flits_injected);
    m_packets_ejected.set(t.term.packets_ejected);
    m_flits_ejected.set(t.term.flits_ejected);
    m_measured_packets.set(t.measured_created);
    m_measured_delivered.set(t.measured_delivered);
    for (unsigned k = 0; k < kNumPacketTypes; ++k) m_type_packets[k].set(t.packets_by_type[k]);
    m_offered.set(cycles > 0 ? double(t.flits_created) / nodes / cycles : 0.0);
    m_accepted.set(cycles > 0 ? double(t.term.flits_ejected) / nodes / cycles : 0.0);
    const LatencyStats& pl = m_net.packet_latency();
    const LatencyStats& nl = m_net.network_latency();
    m_pl_avg.set(pl.mean());
    m_pl_p50.set(double(pl.percentile(50)));
    m_pl_p99.set(double(pl.percentile(99)));
    m_pl_max.set(double(pl.max()));
    m_nl_avg.set(nl.mean());
    m_nl_p50.set(double(nl.percentile(50)));
    m_nl_p99.set(double(nl.percentile(99)));
    m_nl_max.set(double(nl.max()));
    // Histograms are filled once (update() is meant to be called once, before the dump).
    if (m_pl_hist.count() == 0) {
        pl.for_each([this](std::uint64_t v, std::uint64_t n) { m_pl_hist.sample(double(v), n); });
        nl.for_each([this](std::uint64_t v, std::uint64_t n) { m_nl_hist.sample(double(v), n); });
    }
    for (unsigned i = 0; i < m_routers.size(); ++i) {
        const RouterCounters& c = m_net.router(i).counters();
        RouterStats& r = m_routers[i];
        for (unsigned p = 0; p < kNumPorts; ++p) r.link_util[p].set(cycles > 0 ? double(c.flits_out[p]) / cycles : 0.0);
        r.occupancy_avg.set(cycles > 0 ? double(c.occupancy_sum) / cycles : 0.0);
        r.occupancy_max.set(c.occupancy_max);
    }
}

}  // namespace vp::noc
