// Convolution without host im2row on the timed VTA model: ResNet-20 with residual adds (two
// virtual threads and single buffering) and a chain of odd shapes (stride 2, padding 0-3,
// kernels 1-7, channels not a multiple of 16, a depthwise layer on its im2row fallback), each
// core behind its own DDR3 controller: every layer equals the untimed executor and the
// independent CHW reference bit for bit, the simulated MACs equal the compiler's.
#include <chrono>

#include "net_system.h"

using vp::mapper::Layer;

namespace {
Layer conv(const char* n, int C, int K, int H, int R, int stride, int pad, int groups = 1) {
    Layer l;
    l.name = n; l.kind = vp::mapper::LayerKind::Conv; l.C = C; l.K = K; l.H = l.W = H; l.R = l.S = R;
    l.stride_h = l.stride_w = stride;
    l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = pad;
    l.groups = groups;
    l.relu = true;
    return l;
}
}  // namespace

int sc_main(int, char**) {
    using L = DriverOptions::ConvLowering;
    const std::string root = VP_SOURCE_DIR;
    vp::stats::Registry reg;
    vp::SimControl ctrl;
    const std::string rp = root + "/workloads/vta/resnet20_full.json";
    const NetGraph resnet = parse_vta_network(vp::mapper::read_json_file(rp), rp);
    vp::mapper::Network odd;
    odd.name = "odd";
    odd.layers = {conv("k7s2p3", 3, 20, 23, 7, 2, 3), conv("k5p2", 20, 33, 12, 5, 1, 2), conv("dw", 33, 33, 12, 3, 2, 1, 33),
                  conv("k1", 33, 17, 6, 1, 1, 0), conv("k3p0", 17, 40, 6, 3, 1, 0)};
    const NetGraph oddg = chain_graph(odd);
    System a("resnet_direct", resnet, 22, reg, ctrl, true, L::Direct);
    System b("resnet_direct_sb", resnet, 22, reg, ctrl, false, L::Direct);
    System c("odd_direct", oddg, 3, reg, ctrl, true, L::Direct);
    System d("odd_direct_sb", oddg, 3, reg, ctrl, false, L::Direct);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    try {
        for (System* s : {&a, &b, &c, &d}) s->core->check();
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    a.check("resnet20 direct");
    b.check("resnet20 direct single-buffered");
    c.check("odd shapes direct");
    d.check("odd shapes direct single-buffered");
    int direct = 0;
    for (const auto& r : a.host->records()) direct += r.partition.rfind("direct", 0) == 0;
    EXPECT(direct == 21);
    std::cout << "simulated " << sc_core::sc_time_stamp().to_seconds() * 1e3 << " ms in " << wall << " s wall\n";
    return g_fail == 0 ? 0 : 1;
}
