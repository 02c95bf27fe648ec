// vp-calibrate CONFIG.yaml [--out calibration.yaml] [--set key=value]... [--shapes N] [--seed S] [--jobs J]
// Fits the free coefficients of the TSO calibrated time model (mapper/tso/calibrated_model.h)
// to the NMP simulation: a designed set of single-layer simulations (synthetic conv shapes
// spread over channels, filters, map size, kernel, stride and precision, each with tilings
// from the whole candidate range; 2 in 10 shapes depthwise on large maps, 1 in 10 a small 1x1
// conv, 1 in 10 a tiny conv or fc layer: the estimate's best, lower-ranked ones and the best of
// every schedule), each simulated after a warm-up copy of itself (a network's layer starts
// after another, not from a cold DRAM), run as parallel child vp-run processes; least squares on the relative error
// est/sim - 1 (Gauss-Newton with Levenberg-Marquardt damping); prints the residuals; writes
// the calibration file (platform, dram and nmp sections it was made for, coefficients, fit).
// None of the workloads/ networks is in the design set, so they all measure accuracy on
// layers that the fit has not seen.
// Exit codes: 0 success, 1 internal error, 2 bad input, 3 a simulation failed.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>

#include <boost/program_options.hpp>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "mapper/tso/calibrated_model.h"
#include "mapper/tso/tso.h"
#include "platform/config/calibration.h"
#include "platform/config/number_text.h"
#include "platform/config/platform_spec.h"
#include "platform/refine/candidate_sim.h"
#include "platform/refine/child_runner.h"
#include "platform/refine/fit_report.h"
#include "platform/refine/mesh_calibrate.h"
#include "platform/refine/stored_samples.h"
#include "platform/refine/trust.h"
#include "platform/refine/tso_refine.h"
#include "platform/refine/vta_calibrate.h"
#include "vp_version.h"

namespace po = boost::program_options;
using namespace vp;
namespace tso = vp::mapper::tso;
using nlohmann::json;

namespace {

struct Sample {
    json layer;        // workload layer object
    int precision = 8;
    tso::ConvShape conv;
    tso::ChoiceCost choice;
    double sim = 0;    // simulated cycles
};

// A sample's key in the calibration file's fit.samples_simulated: shape name, precision and choice.
std::string sample_key(const Sample& s) {
    const auto& t = s.choice.tile;
    return s.layer["name"].get<std::string>() + "/" + std::to_string(s.precision) + "/" + to_string(s.choice.slicing) +
           "/" + to_string(s.choice.schedule) + "/" + std::to_string(t.t_m) + "," + std::to_string(t.t_n) + "," +
           std::to_string(t.t_r) + "," + std::to_string(t.t_c);
}

// Synthetic conv shapes spread over the space (deterministic for a seed).
std::vector<json> design_shapes(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::initializer_list<int> v) {
        return *(v.begin() + std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng));
    };
    std::vector<json> out;
    for (int i = 0; i < n; ++i) {
        // 6 in 10 dense convs, 2 depthwise (small to large maps, stride 1 or 2), 1 small 1x1
        // (DMA-bound, short transfers), 1 tiny layer (a few channels on a small map, or an fc
        // layer). The depthwise map sizes avoid 14, 28, 56 and 112 (MobileNetV2's) and those of
        // the 1x1 shapes occur in no network of workloads/, so neither can coincide with an
        // evaluation layer.
        const int kind = i % 10;
        int r = kind == 8 ? 1 : pick({1, 1, 3, 3, 3, 5, 7});
        int hw = pick({7, 13, 14, 17, 28, 35, 56, 73});
        int c = pick({3, 16, 24, 32, 64, 96, 128, 192, 256, 384});
        int k = pick({16, 32, 48, 64, 96, 128, 192, 256});
        int groups = 1;
        if (kind == 6 || kind == 7) {
            c = k = groups = pick({16, 32, 96, 144, 384});
            hw = pick({7, 13, 17, 35, 45, 60, 90, 120});
        } else if (kind == 8) {
            c = pick({8, 16, 24, 48});
            k = pick({8, 16, 32, 64});
            hw = pick({45, 60, 90});
        } else if (kind == 9) {
            if (i % 20 == 9) {  // a tiny conv (LeNet-like scale, other sizes)
                c = pick({2, 4, 8});
                k = pick({4, 10, 12});
                hw = pick({12, 20, 24, 36});
                r = pick({3, 5});
            } else {  // an fc layer as a 1x1 conv on a 1x1 map
                c = pick({100, 200, 300, 500, 700});
                k = pick({10, 32, 50, 64, 100});
                hw = 1;
                r = 1;
            }
        }
        const int stride = r > 1 && hw > 1 ? pick({1, 1, 2}) : hw > 1 ? pick({1, 1, 1, 2}) : 1;
        out.push_back({{"name", "cal" + std::to_string(i)}, {"type", "conv"}, {"C", c}, {"K", k}, {"H", hw},
                       {"W", hw}, {"R", r}, {"S", r}, {"stride", stride}, {"pad", r / 2}, {"groups", groups}});
    }
    return out;
}

mapper::Layer to_layer(const json& j) {
    mapper::Layer l;
    l.name = j["name"];
    l.kind = mapper::LayerKind::Conv;
    l.C = j["C"];
    l.K = j["K"];
    l.H = j["H"];
    l.W = j["W"];
    l.R = j["R"];
    l.S = j["S"];
    l.stride_h = l.stride_w = j["stride"];
    l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = j["pad"];
    l.groups = j["groups"];
    return l;
}

double estimate(const Sample& s, const tso::NmpParams& hw, const tso::TsoCoefficients& c) {
    const tso::CalibratedModel m(c);
    tso::ChoiceCost ch = s.choice;
    ch.times = m.screen(ch.counts, hw);
    return m.replay(s.conv, hw, ch).total_cycles;
}

std::vector<double> residuals(const std::vector<Sample>& ss, const tso::NmpParams& hw, const tso::TsoCoefficients& c) {
    std::vector<double> r;
    for (const auto& s : ss) r.push_back(estimate(s, hw, c) / s.sim - 1.0);
    return r;
}

double* coef(tso::TsoCoefficients& c, int i) {
    switch (i) {
    case 0: return &c.latency_scale;
    case 1: return &c.bus_scale;
    case 2: return &c.contention;
    case 3: return &c.txn_ns;
    case 4: return &c.compute_scale;
    case 5: return &c.sync;
    case 6: return &c.turnaround_ns;
    case 7: return &c.lockstep_transfers;
    default: return &c.queue_scale;
    }
}
constexpr int kCoefs = 9;
const char* kCoefNames[kCoefs] = {"latency_scale", "bus_scale",     "contention",         "txn_ns",     "compute_scale",
                                  "sync",          "turnaround_ns", "lockstep_transfers", "queue_scale"};

double sumsq(const std::vector<double>& r) {
    double s = 0;
    for (double x : r) s += x * x;
    return s;
}

// Solves (A + lambda diag A) x = b (small dense system, Gaussian elimination).
std::vector<double> solve(std::vector<std::vector<double>> A, std::vector<double> b, double lambda) {
    const int n = int(b.size());
    for (int i = 0; i < n; ++i) A[i][i] *= 1 + lambda, A[i][i] += 1e-12;
    for (int i = 0; i < n; ++i) {
        int p = i;
        for (int k = i + 1; k < n; ++k)
            if (std::fabs(A[k][i]) > std::fabs(A[p][i])) p = k;
        std::swap(A[i], A[p]);
        std::swap(b[i], b[p]);
        for (int k = i + 1; k < n; ++k) {
            const double f = A[k][i] / A[i][i];
            for (int j = i; j < n; ++j) A[k][j] -= f * A[i][j];
            b[k] -= f * b[i];
        }
    }
    std::vector<double> x(std::size_t(n), 0);
    for (int i = n - 1; i >= 0; --i) {
        double s = b[i];
        for (int j = i + 1; j < n; ++j) s -= A[i][j] * x[j];
        x[i] = s / A[i][i];
    }
    return x;
}

// Levenberg-Marquardt on the relative residuals; coefficients kept in their valid ranges.
tso::TsoCoefficients fit(const std::vector<Sample>& ss, const tso::NmpParams& hw, tso::TsoCoefficients c) {
    double lambda = 1e-2;
    std::vector<double> r = residuals(ss, hw, c);
    double cost = sumsq(r);
    for (int it = 0; it < 40; ++it) {
        std::vector<std::vector<double>> J(ss.size(), std::vector<double>(kCoefs));
        for (int k = 0; k < kCoefs; ++k) {
            tso::TsoCoefficients d = c;
            const double h = std::max(1e-4, 1e-4 * std::fabs(*coef(c, k)));
            *coef(d, k) += h;
            const auto rd = residuals(ss, hw, d);
            for (std::size_t i = 0; i < ss.size(); ++i) J[i][std::size_t(k)] = (rd[i] - r[i]) / h;
        }
        std::vector<std::vector<double>> A(kCoefs, std::vector<double>(kCoefs, 0));
        std::vector<double> g(kCoefs, 0);
        for (std::size_t i = 0; i < ss.size(); ++i)
            for (int a = 0; a < kCoefs; ++a) {
                g[std::size_t(a)] -= J[i][std::size_t(a)] * r[i];
                for (int b = 0; b < kCoefs; ++b) A[std::size_t(a)][std::size_t(b)] += J[i][std::size_t(a)] * J[i][std::size_t(b)];
            }
        bool improved = false;
        for (int tries = 0; tries < 8 && !improved; ++tries) {
            const auto step = solve(A, g, lambda);
            tso::TsoCoefficients n = c;
            for (int k = 0; k < kCoefs; ++k) *coef(n, k) += step[std::size_t(k)];
            n.latency_scale = std::clamp(n.latency_scale, 0.0, 20.0);
            n.bus_scale = std::clamp(n.bus_scale, 0.1, 20.0);
            n.contention = std::clamp(n.contention, 0.0, 20.0);
            n.txn_ns = std::clamp(n.txn_ns, -100.0, 100.0);
            n.compute_scale = std::clamp(n.compute_scale, 0.1, 10.0);
            n.sync = std::clamp(n.sync, 0.0, 1.0);
            n.turnaround_ns = std::clamp(n.turnaround_ns, 0.0, 1000.0);
            n.lockstep_transfers = std::clamp(n.lockstep_transfers, 0.0, 1000.0);
            n.queue_scale = std::clamp(n.queue_scale, 0.0, 20.0);
            const auto rn = residuals(ss, hw, n);
            if (sumsq(rn) < cost) {
                c = n;
                r = rn;
                const double old = cost;
                cost = sumsq(rn);
                lambda = std::max(1e-6, lambda / 3);
                improved = true;
                if (old - cost < 1e-10 * old) return c;
            } else {
                lambda *= 4;
            }
        }
        if (!improved) break;
    }
    return c;
}


int run(const std::string& config, const std::vector<std::string>& sets, const std::string& out, int n_shapes,
        std::uint64_t seed, unsigned jobs, const std::string& refit, const std::string& row_conflicts) {
    const auto t0 = std::chrono::steady_clock::now();
    // The configuration's own calibration files are not read: this run writes one, possibly for
    // a DRAM preset that has none yet (its samples are simulated with fixed choices, and the
    // fits start from the models' default coefficients).
    config::PlatformSpec spec = config::load_platform_uncalibrated(config, sets);
    // No --shapes: the size of the design the committed calibration files were fitted on, so
    // that the default run reproduces their sample set (nmp 80, mesh 56, vta 40).
    if (n_shapes == 0)
        n_shapes = spec.kind == config::PlatformKind::Nmp ? 80 : spec.kind == config::PlatformKind::Mesh ? 56 : 40;
    if (!row_conflicts.empty() && spec.kind != config::PlatformKind::Mesh)
        throw InputError("--row-conflicts: mesh platforms only");
    if (spec.kind == config::PlatformKind::Vta) {
        if (!refit.empty()) throw InputError("--refit: the vta calibration does not store its samples (nmp and mesh do)");
        return refine::calibrate_vta(spec, out, n_shapes, seed, jobs);
    }
    if (spec.kind == config::PlatformKind::Mesh) {  // the mesh time model (platform/refine/mesh_calibrate.h)
        refine::MeshCalibrateOptions mo;
        mo.out = out;
        mo.shapes = n_shapes;
        mo.seed = seed;
        mo.jobs = jobs;
        mo.refit = refit;
        mo.row_conflicts = row_conflicts;
        return refine::mesh_calibrate(spec, mo);
    }
    if (spec.kind != config::PlatformKind::Nmp)
        throw InputError(config +
                         ": vp-calibrate fits the time models of the nmp and mesh platforms and the VTA compiler "
                         "estimate (platform: " + config::to_string(spec.kind) + ")");
    const tso::NmpParams& hw = spec.nmp.arch;
    // The design: every shape at 8 and 16 bit, up to four choices each.
    std::vector<Sample> ss;
    std::vector<refine::CandidateJob> cj;
    const auto shapes = design_shapes(n_shapes, seed);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const int prec = (i + i / 10 + i / 20) % 2 ? 16 : 8;  // every kind of shape at both precisions
        const tso::ConvShape conv = tso::make_conv_shape(to_layer(shapes[i]), prec / 8);
        tso::TsoOptions opt;
        // The design ranks the tilings with the uncalibrated physical model (default
        // coefficients), not with the calibration the configuration includes: the sample set,
        // and so a calibration from scratch, is then a function of the shapes and the seed only.
        opt.model = tso::make_time_model("calibrated", tso::TsoCoefficients{});
        opt.keep_candidates = 8;
        opt.replay_pair_bests = false;  // the design as it was sampled: the shortlist's replays
        std::vector<tso::ChoiceCost> picks;
        auto add = [&](const tso::ChoiceCost& c) {
            for (const auto& p : picks)
                if (tso::same_choice(p, c)) return;
            picks.push_back(c);
        };
        try {
            const auto m = tso::map_conv(conv, hw, opt);
            add(m.ranked.front());
            add(m.ranked.back());
            for (tso::TltSchedule q : tso::kAllSchedules) {
                tso::TsoOptions o = opt;
                o.keep_candidates = 1;
                o.fixed_schedule = q;
                const auto f = tso::map_conv(conv, hw, o);
                if (!f.fallback) add(f.best);
            }
        } catch (const InputError&) {
            continue;  // no tile fits this shape on this platform
        }
        if (picks.size() > 4) picks.resize(4);
        for (const auto& p : picks) {
            Sample s;
            s.layer = shapes[i];
            s.precision = prec;
            s.conv = conv;
            s.choice = p;
            ss.push_back(s);
            // The sample runs after a warm-up copy of itself (same choice), as every layer but
            // the first of a network runs after another: the DRAM's open rows, the refresh
            // phase and the TLEs' skew at the layer start are those of a network, not of a
            // cold DRAM at time 0. Only the second copy's cycles are fitted.
            json warm = shapes[i], meas = shapes[i];
            warm["name"] = "warmup";
            meas["name"] = "sample";
            cj.push_back({{{"name", "calibration"}, {"precision", prec}, {"layers", json::array({warm, meas})}},
                          refine::tso_choice_sets(p)});
        }
    }
    refine::SimSetup setup;
    setup.vp_run = refine::sibling_program("vp-run");
    setup.stat_path = "nmp.layer[sample].cycles";
    setup.parallel = jobs;
    setup.tag = "calibrate";
    config::PlatformSpec child = spec;
    child.tso.dram_model = "calibrated";
    // --refit: samples stored in the earlier file keep their simulated cycles; the rest run.
    const YAML::Node machine = config::calibration_key(spec);
    const refine::StoredSamples stored = refine::read_stored_samples(
        refit, "samples_simulated", "a calibration file written by this vp-calibrate?", seed, &machine);
    // After the --refit file was read (one that cannot be used stops before this line, as on mesh).
    std::cout << "vp-calibrate " << VP_VERSION << ": " << ss.size() << " single-layer simulations, each after a warm-up copy of itself (" << shapes.size()
              << " synthetic shapes, 8/16 bit), " << jobs << " at a time\n";
    std::vector<std::string> keys, fingerprints;
    for (const Sample& s : ss) {
        keys.push_back(sample_key(s));
        fingerprints.push_back(refine::shape_fingerprint(s.layer.dump()));
    }
    std::vector<double> cycles;
    const std::vector<std::size_t> run_index = refine::split_stored(keys, fingerprints, stored, cycles);
    std::vector<refine::CandidateJob> to_run;
    for (std::size_t i = 0; i < ss.size(); ++i) ss[i].sim = cycles[i];
    for (std::size_t i : run_index) to_run.push_back(cj[i]);
    const auto res = refine::simulate_candidates(child, setup, to_run);
    for (std::size_t r = 0; r < run_index.size(); ++r) {
        const std::size_t i = run_index[r];
        if (!res[r].ok) throw SimulationError("calibration layer " + ss[i].layer.dump() + ": " + res[r].error);
        ss[i].sim = res[r].value;
    }
    const tso::TsoCoefficients before = tso::TsoCoefficients{};
    // The fit starts from the physical figures with the two terms that default to off switched
    // on (at 0 their derivatives vanish): lockstep over the first 4 transfers, the FCFS queue.
    tso::TsoCoefficients start = before;
    start.lockstep_transfers = 4.0;
    start.queue_scale = 1.0;
    const tso::TsoCoefficients after = fit(ss, hw, start);
    const auto r0 = residuals(ss, hw, before), r1 = residuals(ss, hw, after);
    std::printf("%-6s %4s %-8s %-3s %15s %12s %9s %9s  %s\n", "shape", "bits", "slicing", "sch", "tile M,N,R,C",
                "sim cycles", "err0 %", "err %", "C,K,HxW,RxS/stride,groups");
    std::vector<double> est1, sim;
    for (std::size_t i = 0; i < ss.size(); ++i) {
        const auto& s = ss[i];
        char tile[64];
        std::snprintf(tile, sizeof tile, "%d,%d,%d,%d", s.choice.tile.t_m, s.choice.tile.t_n, s.choice.tile.t_r,
                      s.choice.tile.t_c);
        const json& l = s.layer;
        const std::string shape = std::to_string(l["C"].get<int>()) + "," + std::to_string(l["K"].get<int>()) + "," +
                                  std::to_string(l["H"].get<int>()) + "x" + std::to_string(l["W"].get<int>()) + "," +
                                  std::to_string(l["R"].get<int>()) + "x" + std::to_string(l["S"].get<int>()) + "/" +
                                  std::to_string(l["stride"].get<int>()) + "," + std::to_string(l["groups"].get<int>());
        std::printf("%-6s %4d %-8s %-3s %15s %12.0f %9.2f %9.2f  %s\n", l["name"].get<std::string>().c_str(),
                    s.precision, to_string(s.choice.slicing), to_string(s.choice.schedule), tile, s.sim, 100 * r0[i],
                    100 * r1[i], shape.c_str());
        est1.push_back(estimate(s, hw, after));
        sim.push_back(s.sim);
    }
    const refine::FitStats s0 = refine::abs_stats(r0), s1 = refine::abs_stats(r1);
    const double rho = refine::spearman(est1, sim);
    std::printf("fit over %zu samples: |est/sim - 1| median %.2f %% -> %.2f %%, mean %.2f %% -> %.2f %%, worst %.2f %% "
                "-> %.2f %%; Spearman rho %.4f\n",
                ss.size(), 100 * s0.median, 100 * s1.median, 100 * s0.mean, 100 * s1.mean, 100 * s0.worst,
                100 * s1.worst, rho);
    std::printf("coefficients:");
    tso::TsoCoefficients a = after;
    for (int k = 0; k < kCoefs; ++k) std::printf(" %s=%.5g", kCoefNames[k], *coef(a, k));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("\nwall %.1f s\n", wall);
    YAML::Node f = refine::fit_node(ss.size(), n_shapes, seed, s0, s1, rho);
    YAML::Node stored_list(YAML::NodeType::Sequence);  // what --refit reads back
    for (const auto& s : ss) {
        YAML::Node n;
        n["key"] = sample_key(s);
        n["sim"] = s.sim;
        n["shape"] = refine::shape_fingerprint(s.layer.dump());  // --refit checks it is still this design's layer
        stored_list.push_back(n);
    }
    f["samples_simulated"] = stored_list;
    refine::write_calibration_file(out, config::calibration_yaml(spec, after, f), "tso.calibration");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string config, out = "calibration.yaml", refit, row_conflicts;
    std::vector<std::string> sets;
    int shapes = 0;  // 0: the platform's default (run())
    std::uint64_t seed = 1;
    std::string seed_text, jobs_text;
    unsigned jobs = 0;
    const char* usage =
        "usage: vp-calibrate CONFIG.yaml [--out calibration.yaml] [--set key=value]... [--shapes N] [--seed S] [--jobs J]\n";
    po::options_description desc("options");
    desc.add_options()("help,h", "print this help and exit")("version", "print the version and exit")("out,o", po::value<std::string>(&out),
                                                             "calibration file to write (default: calibration.yaml)")(
        "set,s", po::value<std::vector<std::string>>(&sets)->composing(), "override a configuration value (repeatable)")(
        "shapes", po::value<int>(&shapes), "synthetic conv shapes in the design, each 1-4 tilings (default: nmp 80, mesh 56, vta 40, the committed calibrations' designs)")(
        "seed", po::value<std::string>(&seed_text), "seed of the design, 0..18446744073709551615 (default 1)")(
        "jobs,j", po::value<std::string>(&jobs_text), "child simulations at a time (default and maximum: the cores)")(
        "refit", po::value<std::string>(&refit),
        "nmp, mesh: reuse the simulated cycles stored in an earlier calibration file (same --seed), simulate only the samples it lacks (a larger --shapes), fit again")(
        "row-conflicts", po::value<std::string>(&row_conflicts),
        "mesh: also write a CSV of each sample's DRAM row conflicts predicted from its cores' addresses (lockstep_row_conflicts; a measurement aid, docs/mesh.md)");
    po::options_description hidden;
    hidden.add_options()("config", po::value<std::string>(&config));
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("config", 1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "vp-calibrate: error: " << e.what() << "\n" << usage;
        return 2;
    }
    if (vm.count("help")) {
        std::cout << usage
                  << "\nFits the calibrated time model of the configuration's platform (nmp: TSO, mesh: the mesh mapper,\n"
                     "vta: the compiler's estimate) to single-layer simulations.\n\n"
                  << desc;
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "vp-calibrate " << VP_VERSION << "\n";
        return 0;
    }
    if (config.empty()) {
        std::cerr << "vp-calibrate: error: CONFIG is required\n" << usage;
        return 2;
    }
    // Strict decimal numbers (a negative seed is not wrapped around).
    if (!seed_text.empty() && config::parse_uint_text(seed_text, UINT64_MAX, seed) != config::NumberText::Ok) {
        std::cerr << "vp-calibrate: error: --seed: expected an integer 0.." << UINT64_MAX << ", found \"" << seed_text
                  << "\"\n";
        return 2;
    }
    std::uint64_t j = 0;
    if (!jobs_text.empty()) {
        // At least one child at a time (vp-sweep --jobs refuses 0 too); more than the cores are capped to the cores.
        if (config::parse_uint_text(jobs_text, 1024, j) != config::NumberText::Ok || j < 1) {
            std::cerr << "vp-calibrate: error: --jobs: expected an integer 1..1024 (omitted: the cores), found \"" << jobs_text << "\"\n";
            return 2;
        }
        jobs = unsigned(j);
    }
    if (vm.count("shapes") && (shapes < 1 || shapes > 1000)) {
        std::cerr << "vp-calibrate: error: --shapes: expected 1..1000\n";
        return 2;
    }
    try {
        // Before the simulations, not after them. --out may be the --refit file: a refit
        // rewrites a calibration file in place (docs/mesh.md).
        out = output_file_target(out, "--out", {config});
        if (!row_conflicts.empty()) row_conflicts = output_file_target(row_conflicts, "--row-conflicts", {config, refit, out});
        return run(config, sets, out, shapes, seed, refine::parallel_limit(jobs), refit, row_conflicts);
    } catch (const InputError& e) {
        std::cerr << "vp-calibrate: error: " << e.what() << "\n";
        return 2;
    } catch (const SimulationError& e) {
        std::cerr << "vp-calibrate: simulation failed: " << e.what() << "\n";
        return 3;
    } catch (const std::exception& e) {
        std::cerr << "vp-calibrate: internal error: " << e.what() << "\n";
        return 1;
    }
}
