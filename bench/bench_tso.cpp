// Wall time of the TSO mapper ("Tensor Slicing and Optimization for Multicore NPUs", Algorithm 19) serially and with 2 OpenMP threads.
// Usage: bench_tso WORKLOAD.json [WORKLOAD.json ...]
// Measured, never asserted: performance figures come from bench/, never from tests.
#include <chrono>
#include <cstdio>
#include <exception>

#include "mapper/tso/tso.h"
#include "mapper/workload/network.h"
#include "platform/config/hw_figures.h"

namespace {

vp::mapper::tso::NmpParams seed_hw() {
    vp::mapper::tso::NmpParams hw;
    hw.dram = vp::config::dram_figures(vp::dram::DramParams::from_preset("ddr3-1600", "dram"));
    return hw;
}

double time_tso(const vp::mapper::Network& net, int threads, double& est_ms) {
    vp::mapper::tso::TsoOptions opt;
    opt.threads = threads;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = vp::mapper::tso::run_tso(net, seed_hw(), opt);
    const auto t1 = std::chrono::steady_clock::now();
    est_ms = r.total_s() * 1e3;
    return std::chrono::duration<double>(t1 - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s WORKLOAD.json [...]\n", argv[0]);
        return 2;
    }
    try {
        std::printf("%-20s %6s %8s %10s %10s %8s %12s\n", "network", "convs", "unique", "serial_s", "2thr_s",
                    "speedup", "estimate_ms");
        for (int i = 1; i < argc; ++i) {
            const auto net = vp::mapper::load_network(argv[i]);
            int convs = 0;
            for (const auto& l : net.layers) convs += vp::mapper::tso::is_tso_layer(l);
            double est1 = 0, est2 = 0;
            const double s1 = time_tso(net, 1, est1);
            const double s2 = time_tso(net, 2, est2);
            const auto r = vp::mapper::tso::run_tso(net, seed_hw(), {});
            std::printf("%-20s %6d %8d %10.3f %10.3f %8.2f %12.3f\n", net.name.c_str(), convs, r.unique_shapes, s1, s2,
                        s1 / s2, est1);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
    return 0;
}
