// Convolution without host im2row on the networks: ResNet-20 (conv list), MobileNetV2
// (depthwise layers on their im2row fallback) and YOLOv3-tiny through the driver on the
// untimed executor in every mode (im2row / direct x two virtual threads / single buffering):
// every layer equals the independent CHW reference bit for bit. MobileNetV2 in direct mode also
// runs on the timed core (equal to the executor and the reference). Prints per network and
// mode the DMA bytes and GEMM micro-ops of the programs.
#include <chrono>

#include "net_system.h"

int sc_main(int, char**) {
    using L = DriverOptions::ConvLowering;
    const std::string root = VP_SOURCE_DIR;
    for (const char* name : {"resnet20", "mobilenetv2", "yolov3_tiny"}) {
        const NetGraph g = chain_graph(vp::mapper::load_network(root + "/workloads/" + name + ".json"));
        for (L low : {L::Im2row, L::Direct})
            for (bool dbuf : {true, false}) {
                DriverOptions o;
                o.seed = 5;
                o.double_buffer = dbuf;
                o.conv_lowering = low;
                NetworkDriver d(g, VtaConfig{}, o);
                std::vector<ProgramJob> jobs;
                run_network_functional(d, &jobs);
                const auto ref = net_ref::run(d);
                int bad = 0;
                for (std::size_t i = 0; i < ref.size(); ++i)
                    if (d.output(i) != ref[i]) {
                        ++bad;
                        std::cerr << name << ": layer " << g.net.layers[i].name << " differs\n";
                    }
                EXPECT(bad == 0);
                std::uint64_t dma = 0, uops = 0;
                int direct = 0;
                for (const auto& j : jobs) {
                    const auto& s = j.prog.stats;
                    dma += s.inp_bytes + s.wgt_bytes + s.acc_bytes + s.uop_bytes + s.out_bytes;
                    uops += s.gemm_uops;
                    direct += j.prog.lowering.rfind("direct", 0) == 0;
                }
                if (low == L::Direct) EXPECT(direct > 0);
                std::cout << name << " " << (low == L::Direct ? "direct" : "im2row") << (dbuf ? " vt" : " single") << ": "
                          << jobs.size() << " programs (" << direct << " direct), DMA bytes " << dma << ", GEMM micro-ops " << uops
                          << ", " << bad << " layer mismatches\n";
            }
    }
    vp::stats::Registry reg;
    vp::SimControl ctrl;
    const NetGraph g = chain_graph(vp::mapper::load_network(root + "/workloads/mobilenetv2.json"));
    System s("mobilenetv2_direct", g, 5, reg, ctrl, true, L::Direct);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    try {
        s.core->check();
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    s.check("mobilenetv2 direct");
    std::cout << "simulated " << sc_core::sc_time_stamp().to_seconds() * 1e3 << " ms in " << wall << " s wall\n";
    return g_fail == 0 ? 0 : 1;
}
