// Mesh mapper benchmark (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect): maps a network workload with the tiling + waving
// mapper and prints the mapping table and the wall time. Measured, never asserted.
//   bench_tiling <workload.json> [min-comp|min-dram] [waving|all-cores|whole-layer] [mesh_w mesh_h]
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "mapper/common/errors.h"
#include "mapper/waving/mapping_report.h"
#include "mapper/waving/waving_mapper.h"
#include "mapper/workload/network.h"

int main(int argc, char** argv) {
    using namespace vp::mapper;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s <workload.json> [min-comp|min-dram] [waving|all-cores|whole-layer] [mesh_w mesh_h]\n",
                     argv[0]);
        return 2;
    }
    try {
        const Network net = load_network(argv[1]);
        waving::MapperOptions opt;
        if (argc > 2) opt.objective = tiling::parse_objective(argv[2], "argv[2]");
        if (argc > 3) {
            const std::string mode = argv[3];
            opt.mode = mode == "all-cores"     ? waving::MapMode::AllCores
                       : mode == "whole-layer" ? waving::MapMode::WholeLayer
                                               : waving::MapMode::Waving;
        }
        tiling::AsipParams asip;
        waving::MeshMapParams mesh;
        if (argc > 5) {
            mesh.width = std::stoi(argv[4]);
            mesh.height = std::stoi(argv[5]);
        }
        waving::EnergyParams energy;
        const auto t0 = std::chrono::steady_clock::now();
        const waving::NetworkMapping m = waving::map_network(net, asip, mesh, energy, opt);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        waving::print_table(std::cout, m);
        std::uint64_t sets = 0, evals = 0;
        for (const auto& l : m.layers) {
            sets += l.slice_sets;
            evals += l.tilings_evaluated;
        }
        std::printf("mapping wall time: %.3f s (%zu layers, %llu slice sets, %llu tiling evaluations)\n", secs,
                    m.layers.size(), (unsigned long long)sets, (unsigned long long)evals);
        return 0;
    } catch (const vp::InputError& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "internal error: %s\n", e.what());
        return 1;
    }
}
