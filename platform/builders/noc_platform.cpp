#include "platform/builders/noc_platform.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "mapper/common/errors.h"
#include "mapper/common/json_check.h"
#include "models/common/invariant_check.h"
#include "models/noc/noc_invariants.h"

namespace vp::platform {

NocPlatform::NocPlatform(RunContext& ctx) : m_ctx(ctx), m_noc(ctx.spec.noc), m_traffic(ctx.spec.traffic) {
    const auto& wl = ctx.workload;
    if (wl.kind != workload::WorkloadKind::NocTraffic)
        throw InputError(wl.path + ": the noc platform (" + ctx.spec.source +
                         ") runs synthetic traffic workloads (\"kind\": \"noc_traffic\")");
    // The workload's fields override the config's `traffic` section (--set traffic.* changes
    // what the workload leaves open).
    m_traffic = workload::noc_traffic(wl, ctx.spec.traffic, m_noc, ctx.spec.seed, ctx.spec.source);
    m_run = std::make_unique<noc::SyntheticRun>(m_noc, m_traffic, ctx.stats);
    const auto period_ps = std::uint64_t(1e6 / ctx.spec.mesh.noc_mhz + 0.5);
    m_trace = std::make_unique<noc::NocTrace>(ctx.tracer, "noc", const_cast<noc::Network&>(m_run->network()), period_ps);
}

void NocPlatform::run_untimed(const std::function<std::uint64_t(std::uint64_t)>& at_cycle) {
    if (at_cycle) {
        const double period = config::clock_periods_ps(m_ctx.spec).at("noc");
        const auto end_ps = [period](std::uint64_t c) { return std::uint64_t(double(c) * period + 0.5); };
        m_run->traffic().set_cycle_hook([&at_cycle, period, end_ps](std::uint64_t c) {
            const std::uint64_t want_ps = at_cycle(end_ps(c));
            const std::uint64_t poll = c + kUntimedPollCycles;
            if (double(want_ps) >= double(poll) * period) return poll;
            // The first cycle that ends at or after want_ps (the same rounding as end_ps).
            std::uint64_t n = std::uint64_t(double(want_ps) / period);
            while (n > c + 1 && end_ps(n - 1) >= want_ps) --n;
            while (end_ps(n) < want_ps) ++n;
            return std::max(n, c + 1);
        });
    }
    try {
        m_result = m_run->run();
    } catch (...) {  // stopped from the hook (an interrupt): the statistics so far
        m_result = m_run->stopped();
        throw;
    }
}

sc_core::sc_time NocPlatform::untimed_end() const {
    return sc_core::sc_time(double(m_result.cycles) * 1e6 / m_ctx.spec.mesh.noc_mhz, sc_core::SC_PS);
}

void NocPlatform::check_invariants() const {
    if (!m_result.drained)
        throw SimulationError("noc: measured packets still undelivered " + std::to_string(m_traffic.drain_max_cycles) +
                              " cycles after the measurement window (traffic.drain_max_cycles): the network is past "
                              "saturation or deadlocked");
    InvariantCheck chk;
    chk.equal("measured packets delivered = measured packets created", "run", m_result.measured_packets,
              m_result.measured_delivered);
    // With injection during the drain the run stops while traffic still flows: the census
    // laws hold, the network need not be empty.
    noc::check_network(m_run->network(), chk, !m_traffic.inject_while_draining);
    chk.throw_if_broken();
}

void NocPlatform::summary(std::ostream& os) const {
    const auto& r = m_result;
    os << std::fixed << std::setprecision(3);
    os << "  NoC            " << m_noc.width << "x" << m_noc.height << " mesh, " << m_noc.routing << " routing, "
       << m_noc.num_vcs << " VC x " << m_noc.buffer_depth << " flits, " << m_noc.router_stages << "-stage routers\n";
    os << "  traffic        " << m_traffic.pattern << ", " << m_traffic.packet_flits << "-flit packets, offered "
       << r.offered << " / accepted " << r.accepted << " flits/node/cycle\n";
    os << std::setprecision(1) << "  packet latency " << r.packet_latency_avg << " cycles mean, p50 "
       << r.packet_latency_p50 << ", p99 " << r.packet_latency_p99 << ", max " << r.packet_latency_max << "\n";
    os << "  net latency    " << r.network_latency_avg << " cycles mean (injection to ejection)\n";
    os << "  cycles         " << r.cycles << " (" << m_traffic.warmup_cycles << " warm-up, " << m_traffic.measure_cycles
       << " measured), " << r.measured_delivered << " measured packets delivered\n";
}

}  // namespace vp::platform
