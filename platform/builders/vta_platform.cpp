#include "platform/builders/vta_platform.h"

#include <filesystem>
#include <iomanip>
#include <ostream>

#include "mapper/common/errors.h"
#include "mapper/common/json_text.h"
#include "mapper/vta/binary_program.h"
#include "mapper/vta/executor.h"
#include "models/common/invariant_check.h"
#include "platform/refine/child_runner.h"
#include "platform/run/vta_workload.h"

namespace vp::platform {

namespace mv = mapper::vta;

mv::DriverOptions VtaPlatform::driver_options(const config::PlatformSpec& spec) { return refine::vta_driver_options(spec); }

VtaPlatform::VtaPlatform(RunContext& ctx) : Platform(ctx.spec.sim.check_tlm), m_ctx(ctx), m_opt(driver_options(ctx.spec)) {
    const auto& spec = ctx.spec;
    const auto& wl = ctx.workload;
    spec.vta.validate("vta");
    const mv::EstimateParams est = m_opt.estimate;
    vta::VtaHost::Next next;
    vta::VtaHost::Complete complete;
    // run::check_run_inputs refused --refine with a program, and programs and networks that
    // vta_program, vta_graph or the network driver refuse.
    if (wl.kind == workload::WorkloadKind::VtaIr || wl.kind == workload::WorkloadKind::VtaBinary) {
        m_ir = true;
        m_ir_prog = run::vta_program(spec, wl, m_opt);
        next = [this](mv::ProgramJob& j) {
            if (m_ir_issued) return false;
            m_ir_issued = true;
            j.layer = 0;
            j.part = 0;
            j.parts = 1;
            j.prog = m_ir_prog;
            j.host_bytes = j.prog.image.size();
            j.host_ns = m_opt.host_ns_per_program + m_opt.host_ns_per_byte * double(j.host_bytes);
            return true;
        };
        complete = [this](const mv::ProgramJob&, const std::vector<std::int8_t>& rows) { m_ir_out = rows; };
        ctx.ctrl.add_total(1);
        ctx.ctrl.set_unit("programs");
    } else if (wl.kind == workload::WorkloadKind::Network) {
        mv::NetGraph g = run::vta_graph(wl);
        if (spec.mapper.refine > 0) {  // simulation in the loop: per-layer strategies
            m_refine = refine::refine_vta(g, m_opt, spec, refine::sibling_program("vp-run"));
            m_opt.layer_strategy = m_refine->strategy;
            m_opt.layer_lowering = m_refine->lowering;
        }
        m_driver = std::make_unique<mv::NetworkDriver>(std::move(g), spec.vta.core, m_opt);
        mv::NetworkDriver* d = m_driver.get();
        next = [this, d](mv::ProgramJob& j) {
            if (!d->next(j)) return false;
            if (d->programs_total() == 1) m_single_prog = j.prog;  // written as OUT/program/ like an IR program
            return true;
        };
        complete = [d](const mv::ProgramJob& j, const std::vector<std::int8_t>& r) { d->complete(j, r); };
        std::size_t with_programs = 0;  // host layers (concat, slice, ...) run between programs
        for (std::size_t i = 0; i < d->graph().net.layers.size(); ++i) with_programs += d->parts(i) > 0;
        ctx.ctrl.add_total(with_programs);
        m_layer_root = std::make_unique<stats::Group>(ctx.stats, "vta_layers");
        for (const auto& l : d->graph().net.layers) m_layer_stats.push_back(std::make_unique<LayerStats>(*m_layer_root, l.name));
        ctx.ctrl.set_unit("layers");
    } else {
        throw InputError(wl.path + ": the vta platform runs networks, VTA IR programs and binary VTA programs "
                         "(\"kind\": \"network\" | \"vta_ir\" | \"vta_binary\"); " +
                         spec.source + " selects platform: vta");
    }
    m_dram = std::make_unique<dram::DramController>("dram", spec.dram, ctx.stats, &ctx.tracer);
    m_core = std::make_unique<vta::VtaCore>("vta", spec.vta, ctx.stats, &ctx.ctrl, &ctx.tracer);
    for (auto* dma : {&m_core->fetch_dma, &m_core->load_dma, &m_core->compute_dma, &m_core->store_dma})
        m_tlm.bind(dma->socket, m_dram->socket, std::string("tlmcheck_") + dma->basename());
    m_host = std::make_unique<vta::VtaHost>("host", *m_core, m_dram->store(), &ctx.ctrl, std::move(next), std::move(complete), est);
}

VtaPlatform::~VtaPlatform() = default;

VtaPlatform::LayerStats::LayerStats(stats::Group& parent, const std::string& name)
    : name(name),
      group(parent, "layer[" + name + "]"),
      programs(group, "programs", "VTA programs run for the layer", "programs"),
      cycles(group, "cycles", "simulated core cycles, launch to FINISH, summed over the layer's programs", "cycles"),
      est_cycles(group, "est_cycles", "analytic cycle estimate (mapper/vta/cycle_estimate.h)", "cycles"),
      dram_bytes(group, "dram_bytes", "bytes moved by the four DMA ports", "bytes"),
      macs(group, "macs", "MACs executed by the GEMM unit (padding included)", "MACs"),
      host_ns(group, "host_ns", "host time charged by the driver's time model", "ns") {}

void VtaPlatform::finish() {
    m_dram->finish(m_ctx.ctrl.end_time());
    if (!m_driver) return;
    for (const auto& r : m_host->records()) {
        LayerStats& l = *m_layer_stats[r.layer];
        l.programs += 1;
        l.cycles += r.cycles;
        l.est_cycles += r.estimate.total;
        l.dram_bytes += r.dram_bytes;
        l.macs += r.macs;
        l.host_ns += std::uint64_t(r.host_ns + 0.5);
    }
}

void VtaPlatform::check_invariants() const {
    if (!m_host->input_error().empty()) throw InputError(m_host->input_error());
    if (!m_host->error().empty()) throw SimulationError(m_host->error());
    m_core->check();
    if (!m_host->finished() || !m_core->finished()) throw SimulationError("vta: the core did not finish every program");
    InvariantCheck chk;
    for (const auto* dma : {&m_core->fetch_dma, &m_core->load_dma, &m_core->compute_dma, &m_core->store_dma})
        chk.none_left("DMA transactions left in flight", dma->name(), dma->in_flight());
    chk.none_left("DRAM transactions left in flight", "dram", m_dram->in_flight());
    chk.equal("bytes served by the DRAM = bytes requested at the DRAM controller", "run", m_dram->bytes_requested(),
              m_dram->bytes_served());
    std::uint64_t sim_macs = 0, want_macs = 0;
    for (const auto& r : m_host->records()) {
        sim_macs += r.macs;
        want_macs += r.stats.macs;
    }
    // Untimed executor on the same inputs (a fresh driver with the same seed and options).
    std::uint64_t func_macs = 0;
    if (m_ir) {
        mv::ExecResult res;
        const auto want = mv::run_functional(m_ir_prog, {}, &res);
        func_macs = res.counters.gemm_uops * m_ir_prog.cfg.macs_per_gemm_uop();
        if (want != m_ir_out) throw SimulationError("vta: the timed output of " + m_ir_prog.name + " differs from the functional executor's");
    } else {
        mv::NetworkDriver f(m_driver->graph(), m_ctx.spec.vta.core, m_opt);
        std::vector<mv::ProgramJob> jobs;
        mv::run_network_functional(f, &jobs);
        for (const auto& j : jobs) func_macs += j.prog.stats.macs;
        for (std::size_t i = 0; i < m_driver->graph().net.layers.size(); ++i)
            if (f.output(i) != m_driver->output(i))
                throw SimulationError("vta: layer " + m_driver->graph().net.layers[i].name +
                                      ": the timed output differs from the functional executor's");
    }
    chk.equal("MACs simulated = MACs of the compiled programs", "run", want_macs, sim_macs);
    chk.equal("MACs simulated = MACs of the functional executor", "run", func_macs, sim_macs);
    chk.throw_if_broken();
}

std::vector<VtaPlatform::Output> VtaPlatform::outputs() const {
    std::vector<Output> out;
    if (m_ir) {
        out.push_back({m_ir_prog.name.empty() ? "C" : m_ir_prog.name,
                       {int(m_ir_prog.stored_rows.size()), m_ir_prog.out_cols}, m_ir_out});
        return out;
    }
    for (std::size_t i : m_driver->output_layers()) {
        const auto& l = m_driver->graph().net.layers[i];
        std::vector<int> shape = l.kind == mapper::LayerKind::FullyConnected ? std::vector<int>{l.K} : std::vector<int>{l.K, l.P(), l.Q()};
        out.push_back({l.name, shape, m_driver->output(i)});
    }
    return out;
}

std::vector<std::string> VtaPlatform::layer_names() const {
    std::vector<std::string> n;
    if (m_ir) n.push_back(m_ir_prog.name.empty() ? "program" : m_ir_prog.name);
    else
        for (const auto& l : m_driver->graph().net.layers) n.push_back(l.name);
    return n;
}

nlohmann::json VtaPlatform::layer_report() const {
    nlohmann::json a = nlohmann::json::array();
    const auto names = layer_names();
    std::vector<std::uint64_t> cyc(names.size(), 0), est(names.size(), 0), macs(names.size(), 0);
    for (const auto& r : m_host->records()) {
        const std::size_t i = m_ir ? 0 : r.layer;
        if (i >= names.size()) continue;
        cyc[i] += r.cycles;
        est[i] += r.estimate.total;
        macs[i] += r.macs;
    }
    for (std::size_t i = 0; i < names.size(); ++i)
        a.push_back({{"name", names[i]}, {"est_cycles", est[i]}, {"sim_cycles", cyc[i]}, {"cycle_clock", "vta"},
                     {"macs", macs[i]}});
    return a;
}

double VtaPlatform::peak_macs_per_s() const {
    const auto& v = m_ctx.spec.vta;
    return double(v.core.macs_per_gemm_uop()) / double(std::max<std::uint64_t>(v.gemm_cycles_per_uop, 1)) *
           1e12 / double(v.clock_period_ps());
}

void VtaPlatform::summary(std::ostream& os) const {
    std::uint64_t cycles = 0, macs = 0, uops = 0, est = 0, useful = 0;
    double host = 0;
    for (const auto& r : m_host->records()) {
        cycles += r.cycles;
        macs += r.macs;
        uops += r.gemm_uops;
        est += r.estimate.total;
        host += r.host_ns;
    }
    if (m_driver) useful = m_driver->graph().net.total_macs();
    auto j = m_ctx.stats.to_json()["dram"];
    const double rd = j["bytes_read"]["value"].get<double>(), wr = j["bytes_written"]["value"].get<double>();
    os << std::fixed << std::setprecision(3);
    os << "  VTA            " << m_host->records().size() << " programs, " << cycles << " core cycles ("
       << double(cycles) / m_ctx.spec.vta.clock_mhz << " us at " << m_ctx.spec.vta.clock_mhz << " MHz), estimate "
       << (cycles ? double(est) / double(cycles) : 0.0) << " x simulated\n";
    os << "  MACs           " << macs << " executed" << (useful ? ", " + std::to_string(useful) + " useful (network)" : "")
       << ", GEMM utilisation " << (cycles ? double(uops) / double(cycles) : 0.0) << " uops/cycle\n";
    os << "  DRAM           " << std::setprecision(0) << rd << " bytes read, " << wr << " bytes written\n";
    dram_timing_summary(os, m_ctx.stats);
    os << std::setprecision(3) << "  host           " << host / 1000.0 << " us (time model: " << m_opt.host_ns_per_byte
       << " ns/byte + " << m_opt.host_ns_per_program << " ns/program)\n";
    if (!m_driver) return;
    const refine::Trust tr = trust();
    os << std::setprecision(1) << "  trust          " << mv::to_string(m_opt.estimate.model) << " estimate"
       << calibration_note(m_ctx.spec)
       << ", |sim/est - 1| over "
       << tr.layers << " layers: median " << 100 * tr.median_abs_err << " %, worst " << tr.worst_text()
       << "; Spearman rho over " << tr.candidates
       << (m_refine && !m_refine->cand_sim.empty() ? " refinement candidates " : " layers ")
       << std::setprecision(3) << tr.rho_text() << "\n";
    if (m_refine) {
        std::size_t shapes = 0;
        for (std::size_t i = 0; i < m_refine->per_layer.size(); ++i)
            shapes += !m_refine->per_layer[i].is_null() && !m_refine->per_layer[i].contains("shared_with");
        os << "  refined        " << m_refine->k << " best strategies of " << shapes
           << " distinct conv/fc shapes simulated on their own (" << m_refine->cand_sim.size() << " simulations)\n";
    }
}

refine::Trust VtaPlatform::trust() const {
    std::vector<double> est, sim;
    std::vector<std::string> names;
    for (const auto& l : m_layer_stats)
        if (l->programs.value() > 0 && l->est_cycles.value() > 0) {
            est.push_back(double(l->est_cycles.value()));
            sim.push_back(double(l->cycles.value()));
            names.push_back(l->name);
        }
    // Spearman over the simulated candidates: the refinement's, else the layers themselves.
    if (m_refine && !m_refine->cand_sim.empty())
        return refine::trust_of(est, sim, m_refine->cand_est, m_refine->cand_sim, names);
    return refine::trust_of(est, sim, est, sim, names);
}

void VtaPlatform::write_outputs(const run::OutputDir& out) const {
    nlohmann::json progs = nlohmann::json::array();
    const auto& cfg = m_ctx.spec.vta.core;
    const double a_blk = double(cfg.block()) * cfg.inp_elem_bytes(), b_blk = cfg.wgt_elem_bytes(),
                 x_blk = double(cfg.block()) * cfg.acc_elem_bytes();
    for (const auto& r : m_host->records()) {
        const auto& s = r.stats;
        nlohmann::json p = {{"name", r.name},
                            {"layer", m_driver ? m_driver->graph().net.layers[r.layer].name : r.name},
                            {"part", r.part},
                            {"parts", r.parts},
                            {"strategy", r.strategy},
                            {"virtual_threads", r.virtual_threads},
                            {"partition", r.partition},
                            {"steps", s.steps},
                            {"block_loads", {{"A", double(s.inp_bytes) / a_blk}, {"B", double(s.wgt_bytes) / b_blk}, {"X", double(s.acc_bytes) / x_blk}}},
                            {"stores", s.store_insns},
                            {"dma_bytes", {{"inp", s.inp_bytes}, {"wgt", s.wgt_bytes}, {"acc", s.acc_bytes}, {"uop", s.uop_bytes}, {"out", s.out_bytes}}},
                            {"micro_ops", s.uops},
                            {"instructions", s.insns},
                            {"gemm_uops", s.gemm_uops},
                            {"alu_uops", s.alu_uops},
                            {"macs", r.macs},
                            {"dram_bytes", r.dram_bytes},
                            {"estimated_cycles", r.estimate.total},
                            {"simulated_cycles", r.cycles},
                            {"ratio", r.cycles ? double(r.estimate.total) / double(r.cycles) : 0.0},
                            {"host_ns", r.host_ns},
                            {"start_ns", r.start_ns},
                            {"end_ns", r.end_ns}};
        progs.push_back(p);
    }
    nlohmann::json doc = {{"platform", "vta"},
                          {"workload", m_ctx.workload.name},
                          {"mode", m_ir ? "vta_ir" : "network"},
                          {"double_buffer", m_opt.double_buffer},
                          {"conv_lowering", m_opt.conv_lowering == mv::DriverOptions::ConvLowering::Direct ? "direct"
                                            : m_opt.conv_lowering == mv::DriverOptions::ConvLowering::Auto ? "auto" : "im2row"},
                          {"strategy_option", m_opt.strategy == 0 ? nlohmann::json("auto") : nlohmann::json(m_opt.strategy)},
                          {"estimate_model", mv::to_string(m_opt.estimate.model)},
                          {"estimate_coefficients", {{"latency_scale", m_opt.estimate.coef.latency_scale},
                                                     {"bus_scale", m_opt.estimate.coef.bus_scale},
                                                     {"txn_cycles", m_opt.estimate.coef.txn_cycles},
                                                     {"insn_cycles", m_opt.estimate.coef.insn_cycles}}},
                          {"estimate_note", "ratio = estimated / simulated cycles (mapper/vta/cycle_estimate.h)"},
                          {"programs", progs}};
    if (m_driver) {
        nlohmann::json layers = nlohmann::json::array();
        const auto& g = m_driver->graph();
        for (std::size_t i = 0; i < g.net.layers.size(); ++i) {
            nlohmann::json in = nlohmann::json::array();
            for (int s : g.inputs[i]) in.push_back(s >= 0 ? g.net.layers[std::size_t(s)].name : s == mv::NetGraph::kNetInput ? "input" : "generated");
            nlohmann::json lj = {{"name", g.net.layers[i].name}, {"inputs", in}, {"programs", m_driver->parts(i)}};
            if (m_driver->parts(i) > 0) {
                lj["estimated_cycles"] = m_layer_stats[i]->est_cycles.value();
                lj["simulated_cycles"] = m_layer_stats[i]->cycles.value();
            }
            if (m_refine && !m_refine->per_layer[i].is_null()) lj["refine"] = m_refine->per_layer[i];
            if (g.net.layers[i].kind == mapper::LayerKind::Conv || g.net.layers[i].kind == mapper::LayerKind::FullyConnected)
                lj["requant"] = {{"mul", m_driver->data(i).requant.mul}, {"shift", m_driver->data(i).requant.shift},
                                 {"relu", m_driver->data(i).requant.relu}};
            layers.push_back(lj);
        }
        doc["layers"] = layers;
        doc["refine"] = m_refine ? m_refine->k : 0;
        doc["trust"] = trust().to_json();
    }
    out.write("mapping.json", json_output_text(doc, 2) + "\n");
    std::filesystem::create_directories(out.file("outputs"));
    nlohmann::json manifest = nlohmann::json::array();
    for (const auto& o : outputs()) {
        std::string file = o.name;
        for (char& c : file)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) c = '_';
        out.write("outputs/" + file + ".bin", std::string(reinterpret_cast<const char*>(o.data.data()), o.data.size()));
        manifest.push_back({{"name", o.name}, {"file", file + ".bin"}, {"shape", o.shape}, {"dtype", "int8"},
                            {"layout", o.shape.size() == 3 ? "CHW" : o.shape.size() == 2 ? "rows x cols" : "vector"}});
    }
    out.write("outputs/manifest.json", json_output_text(nlohmann::json{{"outputs", manifest}}, 2) + "\n");
    // The program in binary form (TVM VTA runtime layout), runnable again as a vta_binary workload.
    // A network of a single program (one conv layer, e.g.) writes it too.
    if (m_ir) mv::write_binary_program(m_ir_prog, out.file("program"));
    else if (m_single_prog) mv::write_binary_program(*m_single_prog, out.file("program"));
}

}  // namespace vp::platform
