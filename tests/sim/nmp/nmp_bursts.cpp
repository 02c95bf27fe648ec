// Independent check of the DRAM burst counts the calibrated TSO model prices
// (mapper/tso/calibrated_model.h, tle_burst_counts): the DRAM controller splits every
// transaction it receives into bursts with its own code (models/dram) and counts each column
// command as a row hit, miss or conflict; the sum over the layers and TLEs of the mapper's
// per-TLE counts must equal that count exactly. The layers are the shapes the earlier model
// mispriced: a stride-2 depthwise conv on 112-B rows (the TLEs' IN tiles start mid-burst),
// a 1x1 conv on 56-B rows and a tiny 5x5 conv on 28-B rows (8 bit). Also checks that on the
// depthwise layer the TLEs differ (a TLE whose slice starts mid-row moves more bursts than
// TLE 0, whose slice starts at row 0), the case that made the first TLE a wrong critical one.
#include <cstdio>
#include <exception>

#include <systemc>

#include "mapper/tso/calibrated_model.h"
#include "tests/sim/nmp/nmp_rig.h"

using namespace sc_core;
using namespace vp::mapper;

namespace {

int check(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    return ok ? 0 : 1;
}

}  // namespace

int sc_main(int, char**) {
    int fails = 0;
    try {
        const nlohmann::json doc = {
            {"name", "nmp_bursts"},
            {"precision", 8},
            {"layers",
             {{{"name", "dw"}, {"type", "conv"}, {"C", 8}, {"K", 8}, {"H", 112}, {"W", 112}, {"R", 3}, {"S", 3},
               {"stride", 2}, {"pad", 1}, {"groups", 8}},
              {{"name", "pw"}, {"type", "conv"}, {"C", 16}, {"K", 32}, {"H", 56}, {"W", 56}, {"R", 1}, {"S", 1}},
              {{"name", "tiny"}, {"type", "conv"}, {"C", 2}, {"K", 6}, {"H", 28}, {"W", 28}, {"R", 5}, {"S", 5}}}}};
        const Network net = parse_network(doc, "nmp_bursts.json");
        const vp::nmp::NmpModelParams p = vp::test::default_nmp();
        tso::TsoOptions opt;
        const tso::TsoResult map = tso::run_tso(net, p.arch, opt);

        std::uint64_t mapper_bursts = 0;
        bool dw_differs = false;
        for (const auto& c : map.convs) {
            const auto n = tso::tle_burst_counts(c.conv, p.arch, c.best);
            std::printf("%-5s %s/%s bursts per TLE:", c.layer_name.c_str(), tso::to_string(c.best.slicing),
                        tso::to_string(c.best.schedule));
            for (std::size_t t = 0; t < n.size(); ++t) {
                std::printf(" %llu", (unsigned long long)n[t]);
                mapper_bursts += n[t];
                if (c.layer_name == "dw" && t > 0 && n[t] > n[0]) dw_differs = true;
            }
            std::printf("\n");
        }

        vp::test::NmpRig rig(p, map.convs);
        rig.run();
        auto& root = rig.root;
        auto& nmp = rig.nmp;
        const nlohmann::json st = root.to_json().at("dram");
        const std::uint64_t dram_bursts = st.at("row_hits").at("value").get<std::uint64_t>() +
                                          st.at("row_misses").at("value").get<std::uint64_t>() +
                                          st.at("row_conflicts").at("value").get<std::uint64_t>();
        std::printf("bursts: mapper %llu, DRAM %llu\n", (unsigned long long)mapper_bursts,
                    (unsigned long long)dram_bursts);
        fails += check(nmp.done(), "every layer finished");
        fails += check(mapper_bursts == dram_bursts, "sum of the mapper's per-TLE bursts == DRAM column commands");
        fails += check(dw_differs, "depthwise stride 2: a TLE starting mid-row moves more bursts than TLE 0");
    } catch (const std::exception& e) {
        std::printf("FAIL: exception: %s\n", e.what());
        return 1;
    }
    return fails ? 1 : 0;
}
