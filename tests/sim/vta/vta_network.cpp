// LeNet-5 and ResNet-20 (with residual adds) end to end on the timed VTA model (three cores,
// each behind its own DDR3 controller, driven by the SystemC host; ResNet-20 compiled with two
// virtual threads, the default, and with single buffering): every layer output must
// equal the untimed executor's and the independent CHW reference bit for bit, the simulated
// MACs must equal the compiler's, and the DRAM must end with nothing in flight.
#include <chrono>

#include "net_system.h"


int sc_main(int, char**) {
    const std::string root = VP_SOURCE_DIR;
    vp::stats::Registry reg;
    vp::SimControl ctrl;
    const NetGraph lenet = chain_graph(vp::mapper::load_network(root + "/workloads/lenet5_full.json"));
    const std::string rp = root + "/workloads/vta/resnet20_full.json";
    const NetGraph resnet = parse_vta_network(vp::mapper::read_json_file(rp), rp);
    System a("lenet", lenet, 21, reg, ctrl);
    System b("resnet", resnet, 22, reg, ctrl);
    System c("resnet_sb", resnet, 22, reg, ctrl, false);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    try {
        a.core->check();
        b.core->check();
        c.core->check();
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    a.check("lenet5");
    b.check("resnet20");
    c.check("resnet20 single-buffered");
    std::cout << "simulated " << sc_core::sc_time_stamp().to_seconds() * 1e3 << " ms in " << wall << " s wall\n";
    return g_fail == 0 ? 0 : 1;
}
