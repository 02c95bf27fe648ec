// Wall time of the ONNX import (parse, shape inference and folding, conversion): median of
// several runs per model. Usage: bench_import [RUNS] MODEL.onnx [MODEL.onnx ...]
// Measured, never asserted: performance figures come from bench/, never from tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "platform/import/onnx_import.h"

int main(int argc, char** argv) {
    int first = 1, runs = 7;
    if (argc > 1 && std::string(argv[1]).find(".onnx") == std::string::npos) {
        runs = std::max(1, std::atoi(argv[1]));
        first = 2;
    }
    if (argc <= first) {
        std::fprintf(stderr, "usage: %s [RUNS] MODEL.onnx [...]\n", argv[0]);
        return 2;
    }
    try {
        std::printf("%-28s %6s %7s %10s %10s %10s\n", "model", "nodes", "layers", "median_ms", "min_ms", "max_ms");
        for (int i = first; i < argc; ++i) {
            std::vector<double> ms;
            std::size_t nodes = 0, layers = 0;
            for (int r = 0; r < runs; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                const auto res = vp::import::import_onnx(argv[i], {});
                const auto t1 = std::chrono::steady_clock::now();
                ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                nodes = res.stats.nodes;
                layers = res.net.layers.size();
            }
            std::sort(ms.begin(), ms.end());
            std::printf("%-28s %6zu %7zu %10.2f %10.2f %10.2f\n", argv[i], nodes, layers, ms[ms.size() / 2], ms.front(), ms.back());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_import: %s\n", e.what());
        return 1;
    }
    return 0;
}
