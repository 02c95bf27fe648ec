// The pruned TSO search against the unpruned brute force on real layers (shapes from
// workloads/shapes) and on every distinct conv of workloads/inception_v3.json and
// workloads/resnet50.json, burst and noburst, seed-default NMP. Long: minutes.
// Not a SystemC scenario; sc_main only because the test executables link the platform.
#include <chrono>
#include <cstdio>
#include <set>
#include <string>

#include <systemc>

#include "mapper/tso/tso.h"
#include "platform/config/hw_figures.h"

using namespace vp::mapper;
using namespace vp::mapper::tso;

namespace {

struct Shape {
    const char* name;
    int C, K, H, W, R, S, stride, pad_h, pad_w, groups;
};

// name,C,K,H,W,R,S,stride,pad,groups rows of the CSVs.
const Shape kShapes[] = {
    {"inception_v3/conv2_3x3_s1", 32, 32, 149, 149, 3, 3, 1, 0, 0, 1},
    {"inception_v3/conv5_3x3 (seed worked example)", 80, 192, 73, 73, 3, 3, 1, 0, 0, 1},
    {"inception_v3/mixed_6b 1x7", 128, 128, 17, 17, 1, 7, 1, 0, 3, 1},
    {"inception_v3/mixed_7c 3x1", 384, 384, 8, 8, 3, 1, 1, 1, 0, 1},
    {"resnet50/res5a_branch2b", 512, 512, 7, 7, 3, 3, 1, 1, 1, 1},
    {"resnet50/res5a_branch2c", 512, 2048, 7, 7, 1, 1, 1, 0, 0, 1},
    {"resnet50/res2a_branch2b", 64, 64, 56, 56, 3, 3, 1, 1, 1, 1},
    {"mobilenetv2/dw 3x3 s2", 144, 144, 56, 56, 3, 3, 2, 1, 1, 144},
    {"squeezenet/fire2_expand3x3", 16, 64, 55, 55, 3, 3, 1, 1, 1, 1},
    {"yolov3/conv_small 3x3", 256, 512, 13, 13, 3, 3, 1, 1, 1, 1},
};

}  // namespace

int sc_main(int, char**) {
    int fails = 0;
    NmpParams hw;
    hw.dram = vp::config::dram_figures(vp::dram::DramParams::from_preset("ddr3-1600", "dram"));
    for (const Shape& s : kShapes) {
        Layer l;
        l.name = s.name;
        l.C = s.C;
        l.K = s.K;
        l.H = s.H;
        l.W = s.W;
        l.R = s.R;
        l.S = s.S;
        l.stride_h = l.stride_w = s.stride;
        l.pad_top = l.pad_bottom = s.pad_h;
        l.pad_left = l.pad_right = s.pad_w;
        l.groups = s.groups;
        const ConvShape c = make_conv_shape(l, 2);
        for (const char* dm : {"burst", "noburst"}) {
            TsoOptions opt;
            opt.model = make_time_model(dm, {});
            const auto t0 = std::chrono::steady_clock::now();
            const ConvMapping fast = map_conv(c, hw, opt);
            const auto t1 = std::chrono::steady_clock::now();
            const ConvMapping brute = map_conv_brute_force(c, hw, opt);
            const auto t2 = std::chrono::steady_clock::now();
            bool ok = fast.best.times.total_s == brute.best.times.total_s;
            for (int p = 0; p < 3; ++p)
                for (int q = 0; q < 3; ++q) ok = ok && fast.candidates_s[p][q] == brute.candidates_s[p][q];
            std::printf("%s: %-45s %-7s best %.3f us (%s/%s T_M %d T_N %d T_R %d T_C %d)  pruned %.3f s, brute %.1f s\n",
                        ok ? "PASS" : "FAIL", s.name, dm, fast.best.times.total_s * 1e6,
                        to_string(fast.best.slicing), to_string(fast.best.schedule), fast.best.tile.t_m,
                        fast.best.tile.t_n, fast.best.tile.t_r, fast.best.tile.t_c,
                        std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
            std::fflush(stdout);
            fails += !ok;
        }
    }
    for (const char* wl : {"inception_v3", "resnet50"}) {
        const Network net = load_network(std::string(VP_SOURCE_DIR) + "/workloads/" + wl + ".json");
        std::set<std::string> seen;
        int n = 0, bad = 0;
        double t_fast = 0, t_brute = 0;
        for (const Layer& l : net.layers) {
            if (!is_tso_layer(l) || !seen.insert(l.shape_key()).second) continue;
            const ConvShape c = make_conv_shape(l, net.bytes_per_elem());
            for (const char* dm : {"burst", "noburst"}) {
                TsoOptions opt;
                opt.model = make_time_model(dm, {});
                const auto t0 = std::chrono::steady_clock::now();
                const ConvMapping fast = map_conv(c, hw, opt);
                const auto t1 = std::chrono::steady_clock::now();
                const ConvMapping brute = map_conv_brute_force(c, hw, opt);
                const auto t2 = std::chrono::steady_clock::now();
                t_fast += std::chrono::duration<double>(t1 - t0).count();
                t_brute += std::chrono::duration<double>(t2 - t1).count();
                ++n;
                if (fast.best.times.total_s != brute.best.times.total_s) {
                    ++bad;
                    std::printf("FAIL: %s/%s %s: pruned %.6g s, brute force %.6g s\n", wl, l.name.c_str(),
                                dm, fast.best.times.total_s, brute.best.times.total_s);
                }
            }
        }
        std::printf("%s: %s: %d (distinct conv, DRAM model) cases equal to brute force; pruned %.2f s, brute %.1f s\n",
                    bad ? "FAIL" : "PASS", wl, n - bad, t_fast, t_brute);
        fails += bad;
    }
    return fails ? 1 : 0;
}
