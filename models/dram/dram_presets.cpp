#include "models/dram/dram_presets.h"

namespace vp::dram {

namespace {

// Field order of DramTiming:
//   CL, CWL, tRCD, tRP, tRAS, tRC, tCCD_S, tCCD_L, tRRD_S, tRRD_L, tFAW, tWR, tWTR_S, tWTR_L, tRTP, tRTRS, tRFC, tREFI
constexpr DramPreset kPresets[] = {
    {"ddr3-1600", "ddr3",
     "DRAMSys MICRON_1Gb_DDR3-1600_8bit_G (= Ramulator 2 DDR3_1600J + DDR3_1Gb_x8), 8 x8 devices per rank",
     1250, 64, 8, 1, 8, 16384, 1024,
     DramTiming{10, 8, 10, 10, 28, 38, 4, 4, 5, 5, 24, 12, 6, 6, 6, 1, 88, 6240}},
    {"ddr4-2400", "ddr4",
     "Ramulator 2 DDR4_2400R + DDR4_4Gb_x8 (16-16-16), 4 bank groups x 4 banks, tRFC1 260 ns",
     833, 64, 8, 4, 4, 32768, 1024,
     DramTiming{16, 12, 16, 16, 39, 55, 4, 6, 4, 6, 26, 18, 3, 9, 9, 1, 312, 9360}},
};

}  // namespace

const DramPreset* find_preset(const std::string& name) {
    for (const auto& p : kPresets)
        if (name == p.name) return &p;
    return nullptr;
}

std::vector<std::string> preset_names() {
    std::vector<std::string> n;
    for (const auto& p : kPresets) n.emplace_back(p.name);
    return n;
}

}  // namespace vp::dram
