#include "platform/builders/nmp_platform.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <vector>

#include "mapper/common/errors.h"
#include "mapper/tso/tso_report.h"

namespace vp::platform {

NmpPlatform::NmpPlatform(RunContext& ctx) : m_ctx(ctx) {
    const auto& spec = ctx.spec;
    const auto& wl = ctx.workload;
    if (wl.kind != workload::WorkloadKind::Network)
        throw InputError(wl.path + ": the nmp platform (" + spec.source + ") runs network workloads");
    m_map = mapper::tso::run_tso(wl.network, spec.nmp.arch, spec.tso.options(spec.sim.threads));
    if (m_map.convs.empty())
        throw InputError(wl.path + ": the network has no conv or fc layer for the NMP to run");
    for (const auto& l : wl.network.layers)
        if (l.kind == mapper::LayerKind::Conv || l.kind == mapper::LayerKind::FullyConnected)
            m_workload_macs += l.macs();
    m_dram = std::make_unique<dram::DramController>("dram", spec.dram, ctx.stats, &ctx.tracer);
    m_nmp = std::make_unique<nmp::NmpSystem>("nmp", spec.nmp, m_map.convs, ctx.pool, ctx.ctrl, ctx.stats);
    for (int t = 0; t < m_nmp->n_tle(); ++t) m_nmp->socket(t).bind(m_dram->socket);
}

void NmpPlatform::finish() {
    m_dram->finish(m_ctx.ctrl.end_time());
    m_nmp->finish();
}

void NmpPlatform::check_invariants() const {
    if (!m_nmp->done()) throw SimulationError("nmp: not every layer finished");
    if (m_nmp->macs() != m_workload_macs)
        throw SimulationError("nmp: simulated MACs " + std::to_string(m_nmp->macs()) + " differ from the workload's " +
                              std::to_string(m_workload_macs));
    if (m_dram->in_flight() != 0) throw SimulationError("dram: transactions left in flight at the end");
    if (m_dram->bytes_served() != m_dram->bytes_requested() || m_dram->bytes_requested() != m_nmp->dram_bytes_requested())
        throw SimulationError("dram: bytes served (" + std::to_string(m_dram->bytes_served()) +
                              ") differ from bytes requested by the DMA engines (" +
                              std::to_string(m_nmp->dram_bytes_requested()) + ")");
}

double NmpPlatform::layer_sim_cycles(std::size_t i) const {
    return (m_nmp->layer_end()[i] - m_nmp->layer_start()[i]).to_seconds() / m_ctx.spec.nmp.arch.cycle_s();
}

void NmpPlatform::summary(std::ostream& os) const {
    const auto& hw = m_ctx.spec.nmp.arch;
    const double sim_s = m_ctx.ctrl.end_time().to_seconds();
    const double est_s = m_map.total_s();
    std::vector<double> ratios;
    for (std::size_t i = 0; i < m_map.convs.size(); ++i)
        ratios.push_back(layer_sim_cycles(i) / m_map.convs[i].best.times.total_cycles);
    std::sort(ratios.begin(), ratios.end());
    const double roof = double(hw.n_tle) * hw.n_tlt * hw.macs_per_cycle * hw.clock_mhz * 1e6;
    auto j = m_ctx.stats.to_json()["dram"];
    os << std::fixed << std::setprecision(2);
    os << "  NMP            " << hw.n_tle << " TLE x " << hw.n_tlt << " TLT, " << m_map.convs.size() << " layers ("
       << m_map.unique_shapes << " distinct), TSO-" << mapper::tso::to_string(m_map.options.dram_model) << "\n";
    os << "  MACs           " << m_nmp->macs() << " (" << std::setprecision(1)
       << double(m_nmp->macs()) / sim_s * 1e-9 << " GMAC/s of " << roof * 1e-9 << " GMAC/s roof)\n";
    os << std::setprecision(3) << "  time           " << sim_s * 1e3 << " ms simulated, " << est_s * 1e3
       << " ms estimated (TSO); simulated/estimated per layer: median " << ratios[ratios.size() / 2] << ", range "
       << ratios.front() << " .. " << ratios.back() << "\n";
    os << std::setprecision(2) << "  DRAM           " << (j["bytes_read"]["value"].get<double>() +
                                                          j["bytes_written"]["value"].get<double>()) * 1e-6
       << " MB, " << j["bandwidth"]["value"].get<double>() << " GB/s, row hit rate "
       << 100.0 * j["row_hit_rate"]["value"].get<double>() << " %\n";
}

void NmpPlatform::write_outputs(const run::OutputDir& out) const {
    nlohmann::json j = mapper::tso::to_json(m_map);
    // The simulated figures next to the estimate: how far the cost model can be trusted.
    nlohmann::json sim = nlohmann::json::array();
    for (std::size_t i = 0; i < m_map.convs.size(); ++i) {
        double est = m_map.convs[i].best.times.total_cycles, got = layer_sim_cycles(i);
        sim.push_back({{"layer", m_map.convs[i].layer_name},
                       {"estimated_cycles", est},
                       {"simulated_cycles", got},
                       {"simulated_over_estimated", est > 0 ? got / est : 0.0}});
    }
    j["simulation"] = sim;
    out.write("mapping.json", j.dump(2) + "\n");
}

}  // namespace vp::platform
