#include "platform/builders/noc_platform.h"

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
    JsonCheck j(wl.doc, wl.path);
    j.allow_only({"kind", "name", "description", "rate", "pattern", "packet_flits", "hotspot_fraction", "hotspot_node",
                  "warmup_cycles", "measure_cycles", "drain_max_cycles", "inject_while_draining"});
    auto& t = m_traffic;
    if (j.has("rate")) t.rate = j.at("rate").as_number(0.0, 1.0);
    if (j.has("pattern")) t.pattern = j.at("pattern").as_string();
    t.packet_flits = std::uint32_t(j.get_int("packet_flits", 1, 65535, t.packet_flits));
    if (j.has("hotspot_fraction")) t.hotspot_fraction = j.at("hotspot_fraction").as_number(0.0, 1.0);
    t.hotspot_node = std::uint32_t(j.get_int("hotspot_node", 0, 1 << 20, t.hotspot_node));
    t.warmup_cycles = std::uint64_t(j.get_int("warmup_cycles", 0, std::int64_t(1) << 40, std::int64_t(t.warmup_cycles)));
    t.measure_cycles = std::uint64_t(j.get_int("measure_cycles", 1, std::int64_t(1) << 40, std::int64_t(t.measure_cycles)));
    t.drain_max_cycles =
        std::uint64_t(j.get_int("drain_max_cycles", 0, std::int64_t(1) << 40, std::int64_t(t.drain_max_cycles)));
    if (j.has("inject_while_draining")) t.inject_while_draining = j.at("inject_while_draining").as_bool();
    t.seed = ctx.spec.seed;
    try {
        t.validate("traffic", m_noc);
    } catch (const InputError& e) {
        throw InputError(wl.path + " (merged with " + ctx.spec.source + "): " + e.what());
    }
    m_run = std::make_unique<noc::SyntheticRun>(m_noc, m_traffic, ctx.stats);
    const auto period_ps = std::uint64_t(1e6 / ctx.spec.mesh.noc_mhz + 0.5);
    m_trace = std::make_unique<noc::NocTrace>(ctx.tracer, "noc", const_cast<noc::Network&>(m_run->network()), period_ps);
}

void NocPlatform::run_untimed(const std::function<void(std::uint64_t)>& at_cycle) {
    if (at_cycle) {
        const double period = clock_period_ps("noc");
        m_run->traffic().set_cycle_hook([&at_cycle, period](std::uint64_t c) {
            at_cycle(std::uint64_t(double(c) * period + 0.5));
        });
    }
    m_result = m_run->run();
}

double NocPlatform::clock_period_ps(const std::string& clock) const {
    return clock == "noc" ? 1e6 / m_ctx.spec.mesh.noc_mhz : 0.0;
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
