// MobileNetV2 at 224x224 (workloads/mobilenetv2.json read as a chain: depthwise layers run as
// packs of 16 channels with block-diagonal weights) end to end on the timed VTA model: every
// layer equals the untimed executor and the independent CHW reference bit for bit.
#include <chrono>

#include "net_system.h"

int sc_main(int, char**) {
    const std::string root = VP_SOURCE_DIR;
    vp::stats::Registry reg;
    vp::SimControl ctrl;
    const NetGraph g = chain_graph(vp::mapper::load_network(root + "/workloads/mobilenetv2.json"));
    System s("mobilenetv2", g, 5, reg, ctrl);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    try {
        s.core->check();
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    s.check("mobilenetv2");
    std::cout << "simulated " << sc_core::sc_time_stamp().to_seconds() * 1e3 << " ms in " << wall << " s wall\n";
    return g_fail == 0 ? 0 : 1;
}
