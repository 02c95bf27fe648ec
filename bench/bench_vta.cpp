// VTA benchmark / per-layer report: runs one network on the timed VTA model (host + core +
// DDR3-1600, default VtaParams) and prints the wall time, simulated MACs per wall second and
// optionally one CSV row per layer (cycles, estimated cycles of the calibrated model with its
// physical figures, DRAM bytes, MACs).
//   bench_vta NET.json [--strategy 1|2|3|4|auto] [--double-buffer] [--seed N] [--csv FILE] [--verify]
// NET.json: a network (read as a chain) or a "vta_network". --verify re-runs the network on the
// untimed executor and compares every layer (not timed). Measured, never asserted on.
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>

#include <systemc>

#include "mapper/vta/network_driver.h"
#include "models/common/sim_control.h"
#include "models/dram/dram_controller.h"
#include "models/vta/vta_core.h"
#include "models/vta/vta_host.h"
#include "platform/config/hw_figures.h"

using namespace vp::mapper::vta;

int sc_main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: bench_vta NET.json [--strategy 1..4|auto] [--double-buffer] [--seed N] [--csv FILE] [--verify]\n";
        return 2;
    }
    const std::string path = argv[1];
    DriverOptions o;
    std::string csv, strategy = "auto";
    bool verify = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--strategy" && i + 1 < argc) {
            strategy = argv[++i];
            o.strategy = strategy == "auto" ? 0 : std::atoi(strategy.c_str());
        } else if (a == "--double-buffer") {
            o.double_buffer = true;
        } else if (a == "--single-buffer") {
            o.double_buffer = false;
        } else if (a == "--seed" && i + 1 < argc) {
            o.seed = std::strtoull(argv[++i], nullptr, 10);
        } else if (a == "--csv" && i + 1 < argc) {
            csv = argv[++i];
        } else if (a == "--verify") {
            verify = true;
        } else {
            std::cerr << "bench_vta: unknown argument " << a << "\n";
            return 2;
        }
    }
    try {
        const auto doc = vp::mapper::read_json_file(path);
        const NetGraph g = doc.contains("kind") && doc["kind"] == "vta_network" ? parse_vta_network(doc, path)
                                                                                : chain_graph(vp::mapper::parse_network(doc, path), path);
        vp::stats::Registry reg;
        vp::SimControl ctrl;
        vp::vta::VtaParams p;
        vp::dram::DramController dram("dram", vp::dram::DramParams{}, reg);
        vp::vta::VtaCore core("vta", p, reg, &ctrl);
        for (auto* d : {&core.fetch_dma, &core.load_dma, &core.compute_dma, &core.store_dma}) d->socket.bind(dram.socket);
        // The calibrated (pipelined) estimate with the physical figures (coefficients 1, 1, 0, 0;
        // vp-run reads configs/calibration/vta-*.yaml instead).
        EstimateParams est;
        est.model = EstimateModel::Calibrated;
        est.hw = vp::config::vta_figures(p, vp::dram::DramParams{});
        o.estimate = est;
        NetworkDriver drv(g, p.core, o);
        vp::vta::VtaHost host("host", core, dram.store(), &ctrl, [&](ProgramJob& j) { return drv.next(j); },
                              [&](const ProgramJob& j, const std::vector<std::int8_t>& r) { drv.complete(j, r); }, est);
        const auto t0 = std::chrono::steady_clock::now();
        sc_core::sc_start();
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        core.check();
        if (!host.input_error().empty() || !host.error().empty()) throw std::runtime_error(host.input_error() + host.error());
        std::uint64_t macs = 0, cycles = 0, bytes = 0;
        struct Row { std::uint64_t programs = 0, cycles = 0, est = 0, bytes = 0, macs = 0; std::string strat; };
        std::vector<Row> rows(g.net.layers.size());
        for (const auto& r : host.records()) {
            macs += r.macs;
            cycles += r.cycles;
            bytes += r.dram_bytes;
            Row& w = rows[r.layer];
            ++w.programs;
            w.cycles += r.cycles;
            w.est += r.estimate.total;
            w.bytes += r.dram_bytes;
            w.macs += r.macs;
            const std::string s = std::to_string(r.strategy);
            if (w.strat.find(s) == std::string::npos) w.strat += (w.strat.empty() ? "" : "/") + s;
        }
        std::cout << g.net.name << " strategy " << strategy << (o.double_buffer ? " dbuf" : "") << ": " << host.records().size()
                  << " programs, " << cycles << " core cycles, " << macs << " MACs, " << bytes << " DMA bytes, sim "
                  << sc_core::sc_time_stamp().to_seconds() * 1e3 << " ms; wall " << wall << " s, " << double(macs) / wall / 1e6
                  << " M simulated MACs per wall second\n";
        if (!csv.empty()) {
            const bool fresh = !std::ifstream(csv).good();
            std::ofstream f(csv, std::ios::app);
            if (fresh) f << "network,layer,index,strategy_option,double_buffer,strategies_used,programs,sim_cycles,est_cycles,dram_bytes,macs\n";
            for (std::size_t i = 0; i < rows.size(); ++i)
                f << g.net.name << ',' << g.net.layers[i].name << ',' << i << ',' << strategy << ',' << (o.double_buffer ? 1 : 0) << ','
                  << rows[i].strat << ',' << rows[i].programs << ',' << rows[i].cycles << ',' << rows[i].est << ',' << rows[i].bytes
                  << ',' << rows[i].macs << '\n';
        }
        if (verify) {
            NetworkDriver f(g, p.core, o);
            run_network_functional(f);
            for (std::size_t i = 0; i < g.net.layers.size(); ++i)
                if (f.output(i) != drv.output(i)) {
                    std::cerr << "verify: layer " << g.net.layers[i].name << " differs from the functional executor\n";
                    return 3;
                }
            std::cout << "verify: every layer equals the functional executor\n";
        }
    } catch (const std::exception& e) {
        std::cerr << "bench_vta: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
