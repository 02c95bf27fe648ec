#pragma once
// Synthetic traffic for validating the NoC against published simulators: Bernoulli
// injection of fixed-size packets at a rate in flits/node/cycle, a destination pattern,
// a warm-up window, a measurement window (packets created in it are measured) and a
// drain phase that waits for the measured packets (BookSim2's methodology).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/noc/network.h"
#include "models/noc/traffic_params.h"
#include "models/noc/traffic_pattern.h"

namespace vp::noc {

struct TrafficResult {
    double offered = 0;          // flits created in the window / (nodes * cycles)
    double accepted = 0;         // flits ejected in the window / (nodes * cycles)
    std::uint64_t measured_packets = 0, measured_delivered = 0;
    double packet_latency_avg = 0, network_latency_avg = 0;
    std::uint64_t packet_latency_p50 = 0, packet_latency_p99 = 0, packet_latency_max = 0;
    std::uint64_t network_latency_p50 = 0, network_latency_p99 = 0, network_latency_max = 0;
    bool drained = false;        // every measured packet delivered within drain_max_cycles
    std::uint64_t cycles = 0;    // cycles simulated in total
};

class SyntheticTraffic : public PacketSink {
public:
    static constexpr std::uint64_t kNever = ~std::uint64_t(0);  // geometric injection: no next packet
    SyntheticTraffic(Network& net, const TrafficParams& p);

    // Creates this cycle's packets (call before Network::step()).
    void inject();
    // Geometric injection: the number of cycles without a packet before the next one, for a
    // uniform u in [0, 1) and a packet probability p per cycle in (0, 1): floor(log(1 - u) /
    // log(1 - p)), so that P(gap = k) = (1 - p)^k p.
    static std::uint64_t geometric_gap(double u, double p);
    // Runs warm-up, measurement and drain; returns the measured figures.
    TrafficResult run();

    // Optional observer (epoch statistics, stop signals), called with the cycle count after the
    // first simulated cycle; it returns the cycle count after which it is to be called next.
    void set_cycle_hook(std::function<std::uint64_t(std::uint64_t)> f) {
        m_hook = std::move(f);
        m_hook_at = 0;
    }

    // Optional exactly-once check: counts deliveries per packet serial.
    void track_deliveries(bool on) { m_track = on; }
    const std::vector<std::uint8_t>& deliveries() const { return m_delivered; }

    void deliver(unsigned node, std::uint32_t id, const PacketInfo& info, std::uint64_t c) override;

private:
    Network& m_net;
    TrafficParams m_p;
    PatternFn m_pattern;
    PatternContext m_ctx;
    PatternRng m_rng;  // the sequence of std::mt19937_64 (models/common/mt19937_64.h)
    double m_packet_prob;
    // unit_random(rng) >= m_packet_prob  <=>  (rng() >> 11) >= m_no_packet_from (exact: the 53-bit
    // integer scaled by 2^-53 compared with p is the integer compared with ceil(p * 2^53)).
    std::uint64_t m_no_packet_from;
    // Geometric injection: per node the cycle (count of inject() calls) of its next packet.
    bool m_geometric = false;
    std::uint64_t m_cycle = 0, m_next_any = 0;
    std::vector<std::uint64_t> m_next;
    std::uint64_t draw_gap();
    // A packet from node s to the pattern's destination (none when the pattern skips s).
    void send_from(unsigned s);
    bool m_track = false;
    std::vector<std::uint8_t> m_delivered;
    std::function<std::uint64_t(std::uint64_t)> m_hook;
    std::uint64_t m_hook_at = 0;
    void call_hook() {
        if (m_hook && m_net.cycle() >= m_hook_at) m_hook_at = m_hook(m_net.cycle());
    }
};

}  // namespace vp::noc
