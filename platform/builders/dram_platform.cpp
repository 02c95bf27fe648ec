#include "platform/builders/dram_platform.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "mapper/common/errors.h"

namespace vp::platform {

DramPlatform::DramPlatform(RunContext& ctx) : Platform(ctx.spec.sim.check_tlm), m_ctx(ctx), m_streams(ctx.stats, "tgen") {
    const auto& spec = ctx.spec;
    const auto kind = ctx.workload.kind;
    if (kind != workload::WorkloadKind::Traffic && kind != workload::WorkloadKind::DramTrace)
        throw InputError(ctx.workload.path +
                         ": the dram platform runs traffic workloads (\"kind\": \"traffic\") and DRAM traces "
                         "(\"kind\": \"dram_trace\"); " +
                         spec.source + " selects platform: dram");
    // The streams and the trace were checked against the DRAM by run::check_run_inputs.
    m_dram = std::make_unique<dram::DramController>("dram", spec.dram, ctx.stats, &ctx.tracer);
    if (kind == workload::WorkloadKind::DramTrace) {
        m_player = std::make_unique<tgen::TracePlayer>("trace", ctx.workload.dram_trace, ctx.checked.dram_trace_requests,
                                                       spec.dram.tck_ps, ctx.pool, ctx.ctrl, ctx.stats, &ctx.tracer);
        m_tlm.bind(m_player->socket, m_dram->socket, "tlmcheck_trace");
    }
    const auto& streams = ctx.workload.streams;
    for (std::size_t i = 0; i < streams.size(); ++i) {
        tgen::TrafficParams s = streams[i];
        // Bytes that another stream may write are left out of this stream's data check.
        std::string writers;
        for (std::size_t j = 0; j < streams.size(); ++j) {
            const tgen::TrafficParams& o = streams[j];
            if (j == i || o.read_fraction >= 1.0) continue;  // a stream that only reads writes nothing
            const std::uint64_t lo = std::max(s.base, o.base), hi = std::min(s.base + s.range, o.base + o.range);
            if (lo >= hi) continue;
            s.foreign_writes.emplace_back(lo, hi);
            writers += (writers.empty() ? "" : ", ") + o.name;
        }
        if (s.verify && !writers.empty())
            m_unchecked.push_back(s.name + " (inside the ranges of " + writers + ", which write)");
        // The run seed (config "seed" or --seed) perturbs every stream's own seed.
        s.seed = s.seed * 0x9E3779B97F4A7C15ull ^ (spec.seed + 0xBF58476D1CE4E5B9ull);
        // Module and statistics names are prefixed, so no stream name can clash with the
        // controller's ("dram") or with another module.
        m_gens.push_back(std::make_unique<tgen::TrafficGenerator>(("tgen_" + s.name).c_str(), s, ctx.pool, ctx.ctrl,
                                                                  m_streams, &ctx.tracer));
        m_tlm.bind(m_gens.back()->socket, m_dram->socket, "tlmcheck_tgen_" + s.name);
    }
}

void DramPlatform::finish() { m_dram->finish(m_ctx.ctrl.end_time()); }

void DramPlatform::check_invariants() const {
    std::uint64_t requested = 0;
    for (const auto& g : m_gens) {
        if (g->outstanding() != 0) throw SimulationError(std::string(g->name()) + ": transactions left in flight");
        if (g->mismatches() != 0)
            throw SimulationError(std::string(g->name()) + ": " + std::to_string(g->mismatches()) +
                                  " read bytes differ from the data written");
        requested += g->bytes_requested();
    }
    if (m_player) {
        if (m_player->outstanding() != 0) throw SimulationError("trace: transactions left in flight");
        if (m_player->mismatches() != 0)
            throw SimulationError("trace: " + std::to_string(m_player->mismatches()) +
                                  " read bytes differ from the data the trace wrote");
        requested += m_player->bytes_requested();
    }
    if (m_dram->in_flight() != 0) throw SimulationError("dram: transactions left in flight at the end");
    if (m_dram->bytes_served() != requested || m_dram->bytes_requested() != requested)
        throw SimulationError("dram: bytes served (" + std::to_string(m_dram->bytes_served()) +
                              ") differ from bytes requested (" + std::to_string(requested) + ")");
}

void DramPlatform::summary(std::ostream& os) const {
    auto j = m_ctx.stats.to_json()["dram"];
    auto v = [&](const char* k) { return j[k]["value"].get<double>(); };
    double bursts = v("row_hits") + v("row_misses") + v("row_conflicts");
    os << std::fixed << std::setprecision(2);
    os << "  DRAM " << m_ctx.spec.dram.preset << ", " << dram::to_string(m_ctx.spec.dram.scheduler) << ", "
       << dram::to_string(m_ctx.spec.dram.page_policy) << " page, " << m_ctx.spec.dram.address_mapping << "\n";
    os << "  transactions   " << std::setprecision(0) << v("reads") << " reads, " << v("writes") << " writes\n";
    os << std::setprecision(2) << "  bandwidth      " << v("bandwidth") << " GB/s of " << v("peak_bandwidth")
       << " GB/s peak (" << 100.0 * v("bus_utilisation") << " % data bus busy)\n";
    os << "  row buffer     " << 100.0 * (bursts > 0 ? v("row_hits") / bursts : 0) << " % hits, "
       << 100.0 * (bursts > 0 ? v("row_misses") / bursts : 0) << " % misses, "
       << 100.0 * (bursts > 0 ? v("row_conflicts") / bursts : 0) << " % conflicts\n";
    dram_timing_summary(os, m_ctx.stats);
    for (const auto& u : m_unchecked) os << "  data check     " << u << ": read bytes there not checked\n";
    os << "  latency        " << j["latency"]["mean"].get<double>() << " ns mean, "
       << j["latency"]["p99"].get<double>() << " ns p99, " << j["latency"]["max"].get<double>() << " ns max\n";
    os << "  refreshes      " << std::setprecision(0) << v("refreshes") << "\n";
}

}  // namespace vp::platform
