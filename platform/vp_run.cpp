// vp-run CONFIG.yaml WORKLOAD.json [--out DIR] [--set key=value]... [--trace] [--timeline] [--strict] [--quiet]
//        [--seed N] [--refine K] [--check | --check-inputs] [--allow-unused]
// Maps the workload onto the platform, simulates it and writes statistics (end of run and per
// epoch), the resolved configuration, the mapping report, a run report page, a timeline and
// waveforms into DIR. Nothing is written to DIR unless the whole run, summary included, succeeded.
// --check validates the inputs only; --check-inputs too, without the fit of the network in the DRAM and
// the memories (a property of the design point).
// Exit codes: 0 success, 1 internal error, 2 bad input, 3 simulation failure.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include <boost/program_options.hpp>
#include <omp.h>
#include <systemc>
#include <unistd.h>

#include "mapper/common/errors.h"
#include "mapper/common/json_text.h"
#include "platform/builders/platform.h"
#include "platform/config/number_text.h"
#include "platform/config/platform_spec.h"
#include "platform/report/report.h"
#include "platform/run/cli_args.h"
#include "platform/run/dram_fit.h"
#include "platform/run/fst.h"
#include "platform/run/input_check.h"
#include "platform/run/import_cli.h"
#include "platform/run/output_dir.h"
#include "platform/run/run_meta.h"
#include "platform/run/timeline.h"
#include "platform/run/timeseries.h"
#include "platform/workload/workload.h"
#include "vp_version.h"

namespace po = boost::program_options;
using namespace vp;

namespace {

// SIGINT and SIGTERM while the simulation runs: the loop stops between two slices and the
// outputs so far are written to DIR.partial; then the process dies by that signal as it would
// have (vp-sweep and shells see the signal). A second signal kills at once (SA_RESETHAND). A
// signal the parent set to be ignored (a background job of a script ignores SIGINT) stays ignored.
volatile std::sig_atomic_t g_stop_signal = 0;
void on_stop_signal(int s) { g_stop_signal = s; }
struct Interrupted {};
class StopSignals {
public:
    StopSignals() {
        struct sigaction sa {};
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        for (int i = 0; i < 2; ++i) {
            ::sigaction(kSignals[i], nullptr, &m_old[i]);
            m_set[i] = m_old[i].sa_handler != SIG_IGN;
            if (m_set[i]) ::sigaction(kSignals[i], &sa, nullptr);
        }
    }
    ~StopSignals() {
        for (int i = 0; i < 2; ++i)
            if (m_set[i]) ::sigaction(kSignals[i], &m_old[i], nullptr);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    static constexpr int kSignals[2] = {SIGINT, SIGTERM};
    struct sigaction m_old[2] {};
    bool m_set[2] = {false, false};
};

struct Options {
    std::string config, workload, out = "vp-out";
    std::vector<std::string> sets;
    bool trace = false, timeline = false, strict = false, quiet = false, has_seed = false, check = false, check_inputs = false,
         allow_unused = false, has_out = false;
    std::uint64_t seed = 0;
    std::string seed_text;
    run::ImportCli onnx;
};


const char* kUsage =
    "usage: vp-run CONFIG.yaml WORKLOAD.json|MODEL.onnx [--out DIR] [--set key.path=value]... [--trace] [--timeline]\n"
    "              [--strict] [--quiet] [--seed N] [--refine K] [--check | --check-inputs] [--allow-unused]\n";

// Returns -1 to continue, or an exit code.
int parse_cli(int argc, char** argv, Options& o) {
    po::options_description desc("options");
    desc.add_options()("help,h", "print this help and exit")("version", "print the version and exit")(
        "out,o", po::value<std::string>(&o.out), "output folder (default: vp-out)")(
        "set,s", po::value<std::vector<std::string>>(&o.sets)->composing(),
        "override a configuration value, e.g. --set dram.scheduler=fcfs (repeatable)")(
        "trace", po::bool_switch(&o.trace), "write OUT/trace.vcd and OUT/trace.gtkw")(
        "timeline", po::bool_switch(&o.timeline), "write OUT/timeline.json (Perfetto / chrome://tracing)")(
        "strict", po::bool_switch(&o.strict), "treat warnings (a trace filter that matches nothing) as errors (exit 2)")(
        "quiet,q", po::bool_switch(&o.quiet), "no progress line and no summary")(
        "seed", po::value<std::string>(&o.seed_text), "random seed 0..18446744073709551615 (overrides the config's seed)")(
        "check", po::bool_switch(&o.check),
        "validate CONFIG, the --set overrides and WORKLOAD, print one line and exit without simulating")(
        "check-inputs", po::bool_switch(&o.check_inputs),
        "as --check, but a network that does not fit the platform's memories (the DRAM, the TLTs, a "
        "core's SRAM) is not an error (vp-sweep's check of its points: such a design point runs and is "
        "recorded as failed)")(
        "allow-unused", po::bool_switch(&o.allow_unused),
        "accept --set of keys the chosen platform does not read (they only land in config.yaml)")(
        "refine", po::value<std::string>(), "simulate the K best mapping candidates of every distinct layer shape on their own "
                                    "and keep the fastest (= --set mapper.refine=K)");
    o.onnx.add_to(desc);
    po::variables_map vm;
    if (!run::parse_cli_args(argc, argv, desc, o.config, o.workload, vm, "vp-run", kUsage)) return 2;
    if (vm.count("help")) {
        std::cout << kUsage << "\nSimulates a CNN workload (or DRAM traffic) on a platform described in YAML.\n\n"
                  << desc << "\nOutputs in DIR: stats.json, stats.csv, config.yaml, run.json, timeseries.csv +\n"
                  << "timeseries.columns.json (epoch statistics, stats.epoch), report.html, mapping.json and layers.json\n"
                  << "(when a mapper runs), timeline.json (with --timeline), trace.vcd + trace.gtkw (with --trace).\n"
                  << "Exit codes: 0 success, 1 internal error, 2 bad input, 3 simulation failure.\n";
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "vp-run " << VP_VERSION << " (" << sc_core::sc_version() << ")\n";
        return 0;
    }
    if (o.config.empty() || o.workload.empty()) {
        std::cerr << "vp-run: error: CONFIG and WORKLOAD are required\n" << kUsage;
        return 2;
    }
    try {
        o.onnx.check_applies(vm, o.workload);
    } catch (const InputError& e) {
        std::cerr << "vp-run: error: " << e.what() << "\n";
        return 2;
    }
    o.has_seed = vm.count("seed") > 0;
    o.has_out = vm.count("out") > 0;
    // Parsed here, not by program_options, which reads "-1" as 2^64-1.
    if (o.has_seed && config::parse_uint_text(o.seed_text, UINT64_MAX, o.seed) != config::NumberText::Ok) {
        std::cerr << "vp-run: error: --seed: expected an integer 0.." << UINT64_MAX << ", found \""
                  << o.seed_text << "\"\n";
        return 2;
    }
    if (vm.count("refine") && !run::parse_refine_arg(vm["refine"].as<std::string>(), "vp-run", o.sets)) return 2;
    return -1;
}

std::string csv_escape(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

class Progress {
public:
    Progress(bool enabled, double period_s) : m_enabled(enabled), m_period(period_s) {}
    // The simulated time the mapper estimates for the whole run (Platform::estimated_time_ps; 0:
    // none, as on the VTA, the DRAM and the NoC alone): the line then also says how far the run is
    // through it and how long the rest takes at the speed so far.
    void set_estimate_ps(double ps) { m_est_ps = ps; }
    void maybe_print(const SimControl& ctrl, bool force = false) {
        if (!m_enabled) return;
        double wall = elapsed();
        if (!force && wall - m_last < m_period) return;
        m_last = wall;
        const double sim_s = sc_core::sc_time_stamp().to_seconds();
        char eta[96] = "";
        if (!force && m_est_ps > 0 && sim_s > 0) {  // the last line (force) reports the end, no forecast
            const double f = sim_s * 1e12 / m_est_ps;
            const double left = wall * (1.0 - f) / f;
            if (f < 1.0 && left < 10)
                std::snprintf(eta, sizeof eta, " | %.0f %% of the estimated time, ~%.1f s left", 100.0 * f, left);
            else if (f < 1.0 && left < 600)
                std::snprintf(eta, sizeof eta, " | %.0f %% of the estimated time, ~%.0f s left", 100.0 * f, left);
            else if (f < 1.0)
                std::snprintf(eta, sizeof eta, " | %.0f %% of the estimated time, ~%.0f min left", 100.0 * f, left / 60.0);
            else
                std::snprintf(eta, sizeof eta, " | past the estimated time");
        }
        char line[256];
        const int n = std::snprintf(line, sizeof line, "[vp-run] sim %.3f us | %llu/%llu %s | wall %.1f s%s", sim_s * 1e6,
                                    static_cast<unsigned long long>(ctrl.done()), static_cast<unsigned long long>(ctrl.total()),
                                    ctrl.unit().c_str(), wall, eta);
        const int len = std::max(0, std::min(n, int(sizeof line) - 1));
        // Blanks over what is left of a longer previous line.
        std::fprintf(stderr, "\r%s%*s", line, std::max(0, m_last_len - len), "");
        m_last_len = len;
        m_printed = true;
    }
    void end() {
        if (m_printed) std::fprintf(stderr, "\n");
    }
    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }
    // CPU time of the process over the same span (all threads): on a shared machine, a measure
    // of the simulation's own cost that other jobs do not inflate.
    double cpu_elapsed() const { return double(std::clock() - m_cpu_start) / CLOCKS_PER_SEC; }

private:
    bool m_enabled;
    double m_period;
    double m_last = 0;
    double m_est_ps = 0;
    int m_last_len = 0;
    bool m_printed = false;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    std::clock_t m_cpu_start = std::clock();
};

std::uint64_t to_ps(const sc_core::sc_time& t) { return t.value() / sc_core::sc_time(1, sc_core::SC_PS).value(); }

// stats.epoch resolved against the platform's clocks: (epoch in ps, adaptive). The configuration
// was checked: a clock the platform has, an epoch no shorter than its fastest clock's period.
std::pair<std::uint64_t, bool> resolve_epoch(const config::PlatformSpec& spec) {
    const stats::EpochSpec e = stats::parse_epoch(spec.stats.epoch, "stats.epoch");
    switch (e.mode) {
    case stats::EpochSpec::Mode::Off: return {0, false};
    case stats::EpochSpec::Mode::Auto: return {stats::EpochSampler::kAutoStartPs, true};
    case stats::EpochSpec::Mode::Time: return {std::uint64_t(std::llround(e.value)), false};
    case stats::EpochSpec::Mode::Cycles: {
        const double period = config::clock_periods_ps(spec).at(e.clock);
        return {std::max<std::uint64_t>(1, std::uint64_t(std::llround(e.value * period))), false};
    }
    }
    return {0, false};
}

// Files and folders of the output folder, for the summary's outputs line.
std::string list_outputs(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().filename() != run::OutputDir::kOwnerFile)  // removed by the commit
            names.push_back(e.path().filename().string() + (e.is_directory() ? "/" : ""));
    // The usual reading order first, the rest alphabetically.
    static const char* kOrder[] = {"report.html", "stats.json", "stats.csv", "config.yaml", "run.json",
                                   "mapping.json", "layers.json", "timeseries.csv", "timeseries.columns.json",
                                   "timeline.json", "trace.vcd", "trace.fst", "trace.gtkw"};
    auto rank = [](const std::string& n) {
        for (std::size_t i = 0; i < std::size(kOrder); ++i)
            if (n == kOrder[i]) return int(i);
        return int(std::size(kOrder));
    };
    std::sort(names.begin(), names.end(),
              [&](const std::string& a, const std::string& b) { return std::make_pair(rank(a), a) < std::make_pair(rank(b), b); });
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// A run that failed or was interrupted: the caller has written the statistics, the time series
// and the trace up to where it stopped; here the trace's GTKWave file and run.json (with the
// state and the error), committed to DIR.partial. Returns 3, or dies by the stop signal.
int finish_partial(const Options& o, const config::PlatformSpec& spec, run::OutputDir& out, trace::Tracer& tracer,
                   const stats::EpochSampler& sampler, const SimControl& ctrl, nlohmann::json runinfo,
                   const std::string& failure, int stop_signal, double sim_ns) {
    std::string where, files;
    try {
        if (spec.trace.enabled)
            tracer.write_gtkw(out.file("trace.gtkw"), "trace.vcd", sampler.layer_ends().empty() ? 0 : sampler.layer_ends()[0]);
        else
            std::remove(out.file("trace.vcd").c_str());
        // report.html too: vp-report may add one (DIR.partial then stays replaceable).
        runinfo["outputs"] = out.listing({run::OutputDir::kManifestFile, "report.html"});
        out.write(run::OutputDir::kManifestFile, json_output_text(runinfo, 2) + "\n");
        files = list_outputs(out.temp_path());
        where = out.commit_partial();
    } catch (const std::exception& e) {
        out.discard();
        std::cerr << "vp-run: warning: the outputs so far were not kept: " << e.what() << "\n";
    }
    std::cerr << "\nvp-run: " << (stop_signal ? "" : "simulation failed: ") << failure << "\n";
    if (!where.empty()) {
        std::ostringstream m;
        m << std::fixed << std::setprecision(3) << "vp-run: partial outputs to " << sim_ns / 1000.0 << " us simulated";
        if (ctrl.total()) m << " (" << ctrl.done() << " of " << ctrl.total() << " " << ctrl.unit() << " done)";
        m << " in " << where << "/ (" << files << "); " << o.out << "/ is not written\n";
        std::cerr << m.str();
    }
    if (stop_signal) {
        std::signal(stop_signal, SIG_DFL);
        std::raise(stop_signal);
    }
    return 3;
}

int run_main(const Options& o) {
    config::PlatformSpec spec = config::load_platform(run::find_data_file(o.config), o.sets, o.allow_unused);
    if (o.has_seed) spec.seed = o.seed;
    if (o.trace) spec.trace.enabled = true;
    if (o.timeline) spec.stats.timeline = true;
    workload::Workload wl = workload::load_workload(run::find_data_file(o.workload),
                                                        o.onnx.options(spec.kind == config::PlatformKind::Vta));
    // Everything the run would refuse before it maps or simulates: --check stops after it.
    const run::CheckedInputs checked = run::check_run_inputs(spec, wl, o.sets, o.allow_unused);
    // Never a folder that holds an input: replacing it would delete the input.
    std::vector<std::string> inputs{run::find_data_file(o.config), wl.path};
    if (wl.kind == workload::WorkloadKind::DramTrace) inputs.push_back(wl.dram_trace.path);
    if (o.check || o.check_inputs) {
        // The --out the run would refuse, when one is given (vp-sweep checks its points without).
        if (o.has_out) run::OutputDir::check(o.out, inputs);
        // A layer the memories cannot hold, as the mapper would find it (after the --out, as in the run).
        if (!o.check_inputs) run::check_mapping_fits(spec, wl);
        if (!o.quiet)
            std::cout << "vp-run: inputs ok: " << config::to_string(spec.kind) << " platform \"" << spec.source
                      << "\", workload \"" << wl.name << "\", config_hash "
                      << run::hex64(run::fnv1a64(config::to_yaml(spec))) << "\n";
        return 0;
    }
    // The tensors against the DRAM, before a mapping that could take minutes for nothing (the
    // mappers make the other checks of check_mapping_fits themselves).
    run::check_tensors_fit_dram(spec, wl);
    omp_set_num_threads(int(spec.sim.threads));
    if (wl.imported && !o.quiet) std::cout << wl.import_summary;

    run::OutputDir out(o.out, inputs);
    if (!o.quiet)
        for (const std::string& d : out.removed_stale())
            std::cerr << "vp-run: removed " << d << " (left by a run that no longer exists)\n";
    const std::string resolved = config::to_yaml(spec);
    out.write("config.yaml", resolved);
    // A relative dram.record_trace is written into the output folder, with the other outputs.
    if (!spec.dram.record_trace.empty() && spec.dram.record_trace[0] != '/')
        spec.dram.record_trace = out.file(spec.dram.record_trace);
    if (wl.imported) out.write("workload.json", wl.workload_text);  // the imported network: reproduces the run

    stats::Registry registry;
    trace::Tracer tracer(spec.trace);
    SimControl ctrl("sim_control");
    PayloadPool pool;
    platform::RunContext ctx{spec, wl, checked, registry, tracer, ctrl, pool};
    Progress progress(!o.quiet && ::isatty(2), spec.sim.progress_s);

    std::unique_ptr<platform::Platform> plat = platform::build_platform(ctx);
    progress.set_estimate_ps(plat->estimated_time_ps());
    // A trace filter that keeps nothing is a mistake worth a word (an error under --strict).
    if (spec.trace.enabled) {
        std::string msg;
        for (const auto& p : tracer.unmatched_patterns()) msg += (msg.empty() ? "" : ", ") + ("\"" + p + "\"");
        if (!msg.empty()) {
            msg = spec.source + ": trace.signals: " + msg + " matched no signal of the " + config::to_string(spec.kind) +
                  " platform" + (tracer.signal_count() == 0 ? " (the trace would be empty)" : "");
            if (o.strict) throw InputError(msg);
            std::cerr << "vp-run: warning: " << msg << "\n";
        }
    }
    tracer.open(out.file("trace.vcd"));

    // Epoch statistics: the sampler reads the registry at epoch boundaries and layer ends.
    const auto [epoch_ps, adaptive] = resolve_epoch(spec);
    if (epoch_ps > 0 && !adaptive) {
        // A fixed epoch much shorter than the run: every interval is sampled and written.
        const double intervals = plat->estimated_time_ps() / double(epoch_ps);
        if (intervals > 1e6) {
            std::ostringstream w;
            w << std::fixed << std::setprecision(3) << spec.source << ": stats.epoch: \"" << spec.stats.epoch
              << "\" over the " << plat->estimated_time_ps() * 1e-9 << " ms of simulated time that the mapper estimates is about "
              << std::setprecision(1) << intervals * 1e-6 << " M epoch intervals: timeseries.csv grows with them and the run slows down "
              << "(stats.epoch: auto keeps at most 512 intervals)";
            std::cerr << "vp-run: warning: " << w.str() << "\n";
        }
    }
    stats::EpochSampler sampler(registry, epoch_ps, adaptive);
    sampler.set_layers(plat->layer_names());
    if (spec.stats.timeline)
        registry.for_each_stat_mut([](stats::Stat& s) {
            if (auto* st = dynamic_cast<stats::StateTime*>(&s)) st->record(true);
        });
    run::TimelineCounters tl_counters;
    std::unique_ptr<run::TimeseriesCsv> ts_stream;
    if (epoch_ps > 0 && !adaptive) {  // fixed epoch: rows are written while the run goes on
        ts_stream = std::make_unique<run::TimeseriesCsv>(out.file("timeseries.csv"));
        sampler.set_writer([&](const stats::Interval& iv) {
            ts_stream->write(sampler, iv);
            if (spec.stats.timeline) tl_counters.add(sampler, iv);
        });
    }
    sampler.begin();
    if (!sampler.layer_names().empty())
        ctrl.set_done_listener([&sampler] { sampler.layer_end(to_ps(sc_core::sc_time_stamp())); });

    sc_core::sc_time end_time;
    // A simulation failure (deadlock, broken invariant, time limit) or an interrupt: the outputs so
    // far are written to DIR.partial, not DIR.
    std::string failure;
    int stop_signal = 0;
    // Runs the simulation (the kernel's loop or an untimed run) with the stop signals caught; a
    // simulation failure or an interrupt is recorded instead of thrown.
    auto simulate = [&](const std::function<void()>& run) {
        StopSignals signals;
        try {
            run();
        } catch (const SimulationError& e) {
            failure = e.what();
        } catch (const Interrupted&) {
            stop_signal = g_stop_signal;
            failure = std::string("interrupted by ") + (stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
        }
    };
    if (plat->needs_kernel()) {
        const sc_core::sc_time slice(10, sc_core::SC_US);
        const double max_s = spec.sim.max_time_ms * 1e-3;
        const std::uint64_t ps_unit = sc_core::sc_time(1, sc_core::SC_PS).value();
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        if (ctrl.active() == 0) throw InputError(o.workload + ": the workload gives the platform nothing to run");
        simulate([&] {
            while (sc_core::sc_get_status() != sc_core::SC_STOPPED) {
                if (!sc_core::sc_pending_activity())
                    throw SimulationError("the simulation has no pending activity but " + std::to_string(ctrl.active()) +
                                          " initiator(s) have not finished (deadlock)");
                // Run to the next epoch boundary or the end of the slice, whichever comes first.
                const std::uint64_t now = to_ps(sc_core::sc_time_stamp());
                const std::uint64_t boundary = sampler.next_boundary();
                std::uint64_t step = to_ps(slice);
                if (boundary > now && boundary - now < step) step = boundary - now;
                sc_core::sc_start(sc_core::sc_time::from_value(step * ps_unit));
                if (sc_core::sc_get_status() != sc_core::SC_STOPPED && to_ps(sc_core::sc_time_stamp()) == boundary)
                    sampler.sample(boundary);
                progress.maybe_print(ctrl);
                if (g_stop_signal) throw Interrupted{};
                if (max_s > 0 && sc_core::sc_time_stamp().to_seconds() > max_s)
                    throw SimulationError("simulated time exceeded sim.max_time_ms = " +
                                          std::to_string(spec.sim.max_time_ms));
            }
            progress.maybe_print(ctrl, true);
        });
        // Initiators that did not finish (the failures above, or a model that stopped the kernel
        // on a deadlock, which check_invariants reports): the outputs end now.
        if (!failure.empty() || ctrl.active() > 0) ctrl.set_end_time(sc_core::sc_time_stamp());
        end_time = ctrl.end_time();
    } else {
        // The noc platform's synthetic runs: called at each epoch boundary and at least every
        // Platform::kUntimedPollCycles NoC cycles, for the stop signals; the watchdog's deadlock
        // is a SimulationError.
        const std::function<std::uint64_t(std::uint64_t)> at_cycle = [&sampler](std::uint64_t now_ps) {
            if (g_stop_signal) throw Interrupted{};
            if (now_ps >= sampler.next_boundary()) sampler.sample(now_ps);
            return sampler.next_boundary();
        };
        simulate([&] { plat->run_untimed(at_cycle); });
        end_time = plat->untimed_end();
    }
    progress.end();
    const double wall = progress.elapsed();
    const double cpu = progress.cpu_elapsed();
    const std::uint64_t end_ps = to_ps(end_time);
    try {
        plat->finish();  // its consistency checks throw once the statistics are closed
    } catch (const SimulationError& e) {
        if (failure.empty()) failure = e.what();
    }
    registry.close(end_ps);
    sampler.finish(end_ps);
    tracer.close(end_ps);
    if (failure.empty()) {
        try {
            plat->check_invariants();
            plat->check_tlm_quiescent();
        } catch (const SimulationError& e) {
            failure = e.what();
        }
    }

    // Statistics: nested JSON with run metadata, and one flat CSV row for sweeps.
    const std::uint64_t cfg_hash = run::fnv1a64(resolved);
    const std::uint64_t wl_hash = run::fnv1a64(wl.doc.dump());
    const double sim_ns = end_time.to_seconds() * 1e9;
    nlohmann::json meta = {{"version", VP_VERSION},
                           {"platform", config::to_string(spec.kind)},
                           {"config", spec.source},
                           {"config_hash", run::hex64(cfg_hash)},
                           {"workload", wl.path},
                           {"workload_name", wl.name},
                           {"workload_hash", run::hex64(wl_hash)},
                           {"seed", spec.seed},
                           {"sim_time_ns", sim_ns},
                           {"delta_cycles", sc_core::sc_delta_count()}};
    if (!failure.empty()) {  // partial outputs say so (a complete run's meta is as it was)
        meta["state"] = stop_signal ? "interrupted" : "failed";
        meta["error"] = failure;
        // Work booked past the stop (the NMP TLTs' MACs) counts up to the stop, as in the epochs.
        registry.for_each_stat_mut([end_ps](stats::Stat& s) {
            if (auto* sc = dynamic_cast<stats::ScheduledCounter*>(&s)) sc->stop_at(end_ps);
        });
    }
    nlohmann::json doc = {{"meta", meta}, {"stats", registry.to_json()}};
    out.write("stats.json", json_output_text(doc, 2) + "\n");
    auto flat = registry.flat();
    std::ostringstream hdr, row;
    hdr << "platform,workload,config_hash,seed,sim_time_ns";
    row << config::to_string(spec.kind) << ',' << csv_escape(wl.name) << ',' << run::hex64(cfg_hash) << ','
        << spec.seed << ',' << stats::format_number(sim_ns);
    for (const auto& [k, v] : flat) {
        hdr << ',' << csv_escape(k);
        row << ',' << stats::format_number(v);
    }
    out.write("stats.csv", hdr.str() + "\n" + row.str() + "\n");
    nlohmann::json runinfo = {{"wall_time_s", wall},
                              {"cpu_time_s", cpu},
                              {"sim_time_ns", sim_ns},
                              {"delta_cycles", sc_core::sc_delta_count()},
                              {"sim_speed_ns_per_wall_s", wall > 0 ? sim_ns / wall : 0.0},
                              {"trace_signals", tracer.signal_count()},
                              {"epoch_intervals", sampler.intervals_closed()}};
    if (!failure.empty()) {
        runinfo["state"] = meta["state"];
        runinfo["error"] = failure;
    }

    // Epoch statistics and their dictionary.
    std::map<std::string, double> clocks = config::clock_periods_ps(spec);
    if (ts_stream) {
        ts_stream->close();
    } else {
        run::TimeseriesCsv csv(out.file("timeseries.csv"));
        for (const auto& iv : sampler.intervals()) {
            csv.write(sampler, iv);
            if (spec.stats.timeline) tl_counters.add(sampler, iv);
        }
        csv.close();
    }
    out.write("timeseries.columns.json",
              json_output_text(run::timeseries_dictionary(sampler, spec.stats.epoch, clocks, end_ps), 2) + "\n");
    if (!failure.empty()) return finish_partial(o, spec, out, tracer, sampler, ctrl, runinfo, failure, stop_signal, sim_ns);
    // Per-layer figures of mapped platforms, with each layer's interval.
    std::vector<run::TimelineLayer> layers;
    nlohmann::json lr = plat->layer_report();
    if (lr.is_array()) {
        std::uint64_t t = 0;
        for (std::size_t i = 0; i < lr.size(); ++i) {
            const std::uint64_t e = i < sampler.layer_ends().size() ? sampler.layer_ends()[i] : end_ps;
            lr[i]["begin_ns"] = double(t) * 1e-3;
            lr[i]["end_ns"] = double(e) * 1e-3;
            layers.push_back({lr[i]["name"].get<std::string>(), t, e});
            t = e;
        }
        nlohmann::json cj = nlohmann::json::object();
        for (const auto& [k, v] : clocks) cj[k] = v;
        const nlohmann::json layers_doc{{"platform", config::to_string(spec.kind)},
                                        {"workload", wl.name},
                                        {"peak_macs_per_s", plat->peak_macs_per_s()},
                                        {"clocks_ps", cj},
                                        {"node_roles", plat->node_roles()},
                                        {"layers", lr}};
        out.write("layers.json", json_output_text(layers_doc, 2) + "\n");
    }
    if (spec.stats.timeline)
        run::write_timeline(out.file("timeline.json"), registry, layers, tl_counters,
                            clocks.count("dram") ? clocks["dram"] : 0.0, end_ps,
                            std::string("vp-run ") + config::to_string(spec.kind) + " " + wl.name);
    if (spec.trace.enabled) tracer.write_gtkw(out.file("trace.gtkw"), "trace.vcd", sampler.layer_ends().empty() ? 0 : sampler.layer_ends()[0]);
    else std::remove(out.file("trace.vcd").c_str());
    plat->write_outputs(out);
    if (spec.trace.enabled && spec.trace.format == trace::TraceFormat::Fst) run::convert_trace_to_fst(out.temp_path());
    // What this run wrote: a later run may replace the folder only if it holds nothing else.
    runinfo["outputs"] = out.listing({run::OutputDir::kManifestFile, "report.html"});
    out.write(run::OutputDir::kManifestFile, json_output_text(runinfo, 2) + "\n");

    // The summary and the report are made before anything is committed: a failure in either
    // leaves no output folder that looks complete.
    std::ostringstream summary;
    if (!o.quiet) {
        summary << "vp-run " << VP_VERSION << ": " << config::to_string(spec.kind) << " platform \"" << spec.source
                << "\", workload \"" << wl.name << "\"\n";
        summary << std::fixed << std::setprecision(3) << "  simulated time " << sim_ns / 1000.0 << " us in " << wall
                << " s wall\n";
        plat->summary(summary);
        if (plat->tlm_checks().enabled())
            summary << "  TLM-2.0 check  " << plat->tlm_checks().transactions() << " transactions on "
                    << plat->tlm_checks().size() << " AT bindings, no protocol violation\n";
    }
    report::write_report(out.temp_path());
    const std::string files = list_outputs(out.temp_path());
    out.commit();
    if (!o.quiet) std::cout << summary.str() << "  outputs        " << o.out << "/ (" << files << ")\n";
    return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
    using namespace sc_core;
    sc_report_handler::set_actions(SC_ERROR, SC_DISPLAY | SC_THROW);
    sc_report_handler::set_actions(SC_FATAL, SC_DISPLAY | SC_THROW);
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    Options o;
    int rc = parse_cli(argc, argv, o);
    if (rc >= 0) return rc;
    try {
        sc_set_time_resolution(1, SC_PS);
        return run_main(o);
    } catch (const InputError& e) {
        std::cerr << "vp-run: error: " << e.what() << "\n";
        return 2;
    } catch (const SimulationError& e) {
        std::cerr << "\nvp-run: simulation failed: " << e.what() << "\n";
        return 3;
    } catch (const sc_report& e) {
        if (std::strcmp(e.get_msg_type(), vp::tlmcheck::kMsgType) == 0) {  // sim.check_tlm found a violation
            std::cerr << "\nvp-run: simulation failed: TLM-2.0 base protocol violation: " << e.get_msg() << "\n";
            return 3;
        }
        std::cerr << "\nvp-run: internal error: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "\nvp-run: internal error: " << e.what() << "\n";
        return 1;
    }
}

// Our own entry point, so that the SystemC banner can be switched off before the
// kernel prints it (outputs stay clean for scripts).
int main(int argc, char** argv) {
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
