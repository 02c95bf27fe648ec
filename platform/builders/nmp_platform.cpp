#include "platform/builders/nmp_platform.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "mapper/common/errors.h"
#include "mapper/common/json_text.h"
#include "mapper/tso/tso_report.h"
#include "models/common/invariant_check.h"
#include "platform/refine/child_runner.h"

namespace vp::platform {

namespace {

// GTKWave save file for the NMP: one group per TLE (its DMA in-flight count, then the state of
// each TLT) after the DRAM and top-level groups. Built from the VCD header, so that it lists
// exactly the signals that the trace filter kept.
std::string nmp_gtkw(const std::string& vcd_path, const std::string& header) {
    std::ifstream in(vcd_path);
    std::vector<std::string> scopes;
    std::vector<std::pair<std::string, std::string>> sigs;  // (group, gtkwave name)
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string tok, kind, id, name, width;
        ls >> tok;
        if (tok == "$enddefinitions") break;
        if (tok == "$scope") {
            ls >> kind >> name;
            scopes.push_back(name);
        } else if (tok == "$upscope") {
            if (!scopes.empty()) scopes.pop_back();
        } else if (tok == "$var") {
            ls >> kind >> width >> id >> name;
            std::string full;
            for (const auto& sc : scopes) full += sc + ".";
            full += name;
            if (width != "1") full += "[" + std::to_string(std::stoi(width) - 1) + ":0]";
            std::string group = scopes.empty() ? "top" : scopes[0];
            if (scopes.size() >= 2 && scopes[0] == "nmp" && scopes[1].rfind("tle[", 0) == 0)
                group = "nmp." + scopes[1];
            sigs.emplace_back(group, full);
        }
    }
    // Group order: dram, nmp, then the TLEs by number (the VCD sorts tle_10 before tle_2).
    auto rank = [](const std::string& g) -> std::pair<int, std::string> {
        if (g.rfind("nmp.tle[", 0) == 0) return {2 + std::stoi(g.substr(8)), g};
        return {g == "nmp" ? 1 : 0, g};
    };
    std::stable_sort(sigs.begin(), sigs.end(),
                     [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
    std::string out = header;
    out += "@200\n-TLT state: 0 idle, 1 load (DMA into MB0/MB1), 2 compute, 3 store (DMA from MB2)\n";
    std::string cur;
    for (const auto& [g, name] : sigs) {
        if (g != cur) {
            if (!cur.empty()) out += "@1000200\n-" + cur + "\n";
            out += "@800200\n-" + g + "\n";
            cur = g;
        }
        out += (name.back() == ']' ? "@24\n" : "@28\n") + name + "\n";  // decimal / binary
    }
    if (!cur.empty()) out += "@1000200\n-" + cur + "\n";
    return out;
}

}  // namespace

NmpPlatform::NmpPlatform(RunContext& ctx) : Platform(ctx.spec.sim.check_tlm), m_ctx(ctx) {
    const auto& spec = ctx.spec;
    const auto& wl = ctx.workload;
    if (wl.kind != workload::WorkloadKind::Network)
        throw InputError(wl.path + ": the nmp platform (" + spec.source + ") runs network workloads");
    try {  // the network has a conv or fc layer (run::check_run_inputs)
        auto opt = spec.tso.options(spec.sim.threads);
        opt.keep_candidates = std::max(1, spec.mapper.refine);
        m_map = mapper::tso::run_tso(wl.network, spec.nmp.arch, opt);
    } catch (const InputError& e) {  // layer errors carry a JSON pointer: name the file too
        const std::string m = e.what();
        if (m.rfind("at /layers/", 0) == 0) throw InputError(wl.path + ": " + m);
        throw;
    }
    if (spec.mapper.refine > 0) m_refine = refine::refine_tso(m_map, wl, spec, refine::sibling_program("vp-run"));
    for (const auto& l : wl.network.layers)
        if (l.kind == mapper::LayerKind::Conv || l.kind == mapper::LayerKind::FullyConnected)
            m_workload_macs += l.macs();
    m_dram = std::make_unique<dram::DramController>("dram", spec.dram, ctx.stats, &ctx.tracer);
    m_nmp = std::make_unique<nmp::NmpSystem>("nmp", spec.nmp, m_map.convs, ctx.pool, ctx.ctrl, ctx.stats, &ctx.tracer);
    for (int t = 0; t < m_nmp->n_tle(); ++t)
        m_tlm.bind(m_nmp->socket(t), m_dram->socket, "tlmcheck_tle" + std::to_string(t) + "_dma");
}

void NmpPlatform::finish() {
    m_dram->finish(m_ctx.ctrl.end_time());
    m_nmp->finish();
}

void NmpPlatform::check_invariants() const {
    InvariantCheck chk;
    const std::string run = "run";
    chk.equal("every layer finished (1 = yes)", run, 1, m_nmp->done() ? 1 : 0);
    chk.equal("MACs simulated = MACs of the workload", run, m_workload_macs, m_nmp->macs());
    chk.equal("MACs of the mapped layers = MACs of the workload", run, m_workload_macs, m_nmp->expected_macs());
    chk.equal("bytes requested at the DRAM controller = bytes requested by the DMA engines", run,
              m_nmp->dram_bytes_requested(), m_dram->bytes_requested());
    chk.equal("bytes served by the DRAM = bytes requested at the DRAM controller", run, m_dram->bytes_requested(),
              m_dram->bytes_served());
    chk.none_left("DRAM transactions left in flight", "dram", m_dram->in_flight());
    chk.throw_if_broken();
}

std::vector<std::string> NmpPlatform::layer_names() const {
    std::vector<std::string> n;
    for (const auto& c : m_map.convs) n.push_back(c.layer_name);
    return n;
}

double NmpPlatform::estimated_time_ps() const { return m_map.total_s() * 1e12; }

nlohmann::json NmpPlatform::layer_report() const {
    nlohmann::json a = nlohmann::json::array();
    for (std::size_t i = 0; i < m_map.convs.size(); ++i)
        a.push_back({{"name", m_map.convs[i].layer_name},
                     {"est_cycles", m_map.convs[i].best.times.total_cycles},
                     {"sim_cycles", layer_sim_cycles(i)},
                     {"cycle_clock", "core"},
                     {"macs", m_map.convs[i].conv.macs()}});
    return a;
}

double NmpPlatform::peak_macs_per_s() const {
    const auto& hw = m_ctx.spec.nmp.arch;
    return double(hw.n_tle) * hw.n_tlt * hw.macs_per_cycle * hw.clock_mhz * 1e6;
}

double NmpPlatform::layer_sim_cycles(std::size_t i) const {
    return (m_nmp->layer_end()[i] - m_nmp->layer_start()[i]).to_seconds() / m_ctx.spec.nmp.arch.cycle_s();
}

refine::Trust NmpPlatform::trust() const {
    std::vector<double> est, sim;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < m_map.convs.size(); ++i) {
        est.push_back(m_map.convs[i].best.times.total_cycles);
        sim.push_back(layer_sim_cycles(i));
        names.push_back(m_map.convs[i].layer_name);
    }
    // Spearman over the simulated candidates: the refinement's, else the layers themselves.
    if (m_refine) return refine::trust_of(est, sim, m_refine->cand_est, m_refine->cand_sim, names);
    return refine::trust_of(est, sim, est, sim, names);
}

void NmpPlatform::summary(std::ostream& os) const {
    const auto& hw = m_ctx.spec.nmp.arch;
    const double sim_s = m_ctx.ctrl.end_time().to_seconds();
    const double est_s = m_map.total_s();
    const refine::Trust tr = trust();
    const double roof = double(hw.n_tle) * hw.n_tlt * hw.macs_per_cycle * hw.clock_mhz * 1e6;
    auto j = m_ctx.stats.to_json()["dram"];
    os << std::fixed << std::setprecision(2);
    os << "  NMP            " << hw.n_tle << " TLE x " << hw.n_tlt << " TLT, " << m_map.convs.size() << " layers ("
       << m_map.unique_shapes << " distinct), TSO, time model " << mapper::tso::model_of(m_map.options)->name()
       << calibration_note(m_ctx.spec) << "\n";
    os << "  MACs           " << m_nmp->macs() << " (" << std::setprecision(1)
       << double(m_nmp->macs()) / sim_s * 1e-9 << " GMAC/s of " << roof * 1e-9 << " GMAC/s roof)\n";
    os << std::setprecision(3) << "  time           " << sim_s * 1e3 << " ms simulated, " << est_s * 1e3
       << " ms estimated (TSO)\n";
    os << std::setprecision(1) << "  trust          |sim/est - 1| over " << tr.layers << " layers: median "
       << 100 * tr.median_abs_err << " %, worst " << tr.worst_text() << "; Spearman rho over "
       << tr.candidates << (m_refine ? " refinement candidates " : " layers ") << std::setprecision(3)
       << tr.rho_text() << "\n";
    if (m_refine)
        os << "  refined        " << m_refine->k
           << " candidates per layer, each simulated after the predecessor layer's pick; whole network: refined "
           << std::setprecision(0) << m_refine->network.value("refined_cycles", 0.0) << " vs unrefined "
           << m_refine->network.value("unrefined_cycles", 0.0) << " cycles, kept "
           << m_refine->network.value("kept", std::string("?")) << "\n";
    os << std::setprecision(2) << "  DRAM           " << (j["bytes_read"]["value"].get<double>() +
                                                          j["bytes_written"]["value"].get<double>()) * 1e-6
       << " MB, " << j["bandwidth"]["value"].get<double>() << " GB/s, row hit rate "
       << 100.0 * j["row_hit_rate"]["value"].get<double>() << " %\n";
    dram_timing_summary(os, m_ctx.stats);
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
    if (m_refine) {
        for (std::size_t i = 0; i < m_map.convs.size(); ++i) j["convs"][i]["refine"] = m_refine->per_conv[i];
        j["refine"] = m_refine->k;
        j["refine_network"] = m_refine->network;
    }
    j["trust"] = trust().to_json();
    out.write("mapping.json", json_output_text(j, 2) + "\n");
    // Replaces the generic per-module grouping (one group per TLT) by one group per TLE.
    if (m_ctx.spec.trace.enabled) {
        const std::uint64_t ps = sc_core::sc_time(1, sc_core::SC_PS).value();
        const auto [a, b] = m_ctx.tracer.view(m_nmp->layer_end().empty() ? 0 : m_nmp->layer_end()[0].value() / ps);
        out.write("trace.gtkw", nmp_gtkw(out.file("trace.vcd"), trace::Tracer::gtkw_header("trace.vcd", a, b)));
    }
}

}  // namespace vp::platform
