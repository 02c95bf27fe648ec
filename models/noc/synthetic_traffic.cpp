#include "models/noc/synthetic_traffic.h"

#include <algorithm>
#include <cmath>

#include "mapper/common/errors.h"

namespace vp::noc {

SyntheticTraffic::SyntheticTraffic(Network& net, const TrafficParams& p)
    : m_net(net), m_p(p), m_pattern(find_pattern(p.pattern)), m_rng(p.seed),
      m_packet_prob(p.rate / double(p.packet_flits)),
      m_no_packet_from(m_packet_prob >= 1.0 ? (std::uint64_t(1) << 53)
                       : m_packet_prob <= 0.0 ? 0
                                              : std::uint64_t(std::ceil(m_packet_prob * 0x1.0p53))) {
    p.validate("traffic", net.params());
    m_ctx.width = net.params().width;
    m_ctx.height = net.params().height;
    m_ctx.hotspot_fraction = p.hotspot_fraction;
    m_ctx.hotspot_node = p.hotspot_node;
    m_net.set_sink(this);
    m_geometric = p.injection == "geometric";
    if (m_geometric) {
        m_next.resize(m_net.num_nodes());
        for (auto& c : m_next) c = draw_gap();
        m_next_any = m_next.empty() ? kNever : *std::min_element(m_next.begin(), m_next.end());
    }
}

std::uint64_t SyntheticTraffic::geometric_gap(double u, double p) {
    if (p >= 1.0) return 0;
    if (p <= 0.0) return kNever;
    const double g = std::floor(std::log1p(-u) / std::log1p(-p));
    return g >= double(kNever / 2) ? kNever / 2 : std::uint64_t(g);
}

std::uint64_t SyntheticTraffic::draw_gap() {
    return geometric_gap(double(m_rng() >> 11) * 0x1.0p-53, m_packet_prob);
}

void SyntheticTraffic::inject() {
    const unsigned n = m_net.num_nodes();
    if (m_geometric) {
        const std::uint64_t now = m_cycle++;
        if (now < m_next_any) return;
        std::uint64_t next_any = kNever;
        for (unsigned s = 0; s < n; ++s) {
            if (m_next[s] == now) {
                send_from(s);
                m_next[s] = now + 1 + draw_gap();
            }
            next_any = std::min(next_any, m_next[s]);
        }
        m_next_any = next_any;
        return;
    }
    // Node s sends when unit_random(m_rng) < m_packet_prob, i.e. (m_rng() >> 11) < m_no_packet_from,
    // i.e. m_rng() < m_no_packet_from * 2^11 (exact; p >= 1: every draw is below 2^53). The draws
    // of the nodes that do not send are skipped in one search (the destination draws of the
    // senders come from the same generator in between, as before).
    if (m_no_packet_from >= (std::uint64_t(1) << 53)) {
        for (unsigned s = 0; s < n; ++s) {
            m_rng();
            send_from(s);
        }
        return;
    }
    const std::uint64_t bound = m_no_packet_from << 11;
    for (unsigned s = 0; s < n; ++s) {
        s += m_rng.skip_not_below(bound, n - s);  // the next sender, or n
        if (s < n) send_from(s);
    }
}

void SyntheticTraffic::send_from(unsigned s) {
    const unsigned d = m_pattern(s, m_ctx, m_rng);
    if (d == kNoPacket) return;
    m_net.send(s, d, PacketType::kSynthetic, (m_p.packet_flits - 1) * m_net.params().flit_bytes(), 0, 0, nullptr,
               m_p.packet_flits);
}

void SyntheticTraffic::deliver(unsigned, std::uint32_t, const PacketInfo& info, std::uint64_t) {
    if (!m_track) return;
    if (info.serial >= m_delivered.size()) m_delivered.resize(info.serial + 1 + info.serial / 2, 0);
    ++m_delivered[info.serial];
}

TrafficResult SyntheticTraffic::run() {
    TrafficResult r;
    const unsigned n = m_net.num_nodes();
    for (std::uint64_t i = 0; i < m_p.warmup_cycles; ++i) {
        inject();
        m_net.step();
        call_hook();
    }
    const std::uint64_t ej0 = m_net.totals().term.flits_ejected;
    m_net.set_measuring(true);
    for (std::uint64_t i = 0; i < m_p.measure_cycles; ++i) {
        inject();
        m_net.step();
        call_hook();
    }
    m_net.set_measuring(false);
    const std::uint64_t ej1 = m_net.totals().term.flits_ejected;
    const NetworkTotals& t = m_net.totals();
    for (std::uint64_t i = 0; i < m_p.drain_max_cycles; ++i) {
        if (m_p.inject_while_draining ? t.measured_delivered == t.measured_created : m_net.idle()) break;
        if (m_p.inject_while_draining) inject();
        m_net.step();
        call_hook();
    }
    r.drained = m_p.inject_while_draining ? t.measured_delivered == t.measured_created : m_net.idle();
    const double denom = double(n) * double(m_p.measure_cycles);
    r.offered = double(t.measured_flits_created) / denom;
    r.accepted = double(ej1 - ej0) / denom;
    r.measured_packets = t.measured_created;
    r.measured_delivered = t.measured_delivered;
    const LatencyStats& pl = m_net.packet_latency();
    const LatencyStats& nl = m_net.network_latency();
    r.packet_latency_avg = pl.mean();
    r.packet_latency_p50 = pl.percentile(50);
    r.packet_latency_p99 = pl.percentile(99);
    r.packet_latency_max = pl.max();
    r.network_latency_avg = nl.mean();
    r.network_latency_p50 = nl.percentile(50);
    r.network_latency_p99 = nl.percentile(99);
    r.network_latency_max = nl.max();
    r.cycles = m_net.cycle();
    return r;
}

}  // namespace vp::noc
