#pragma once
// DRAM presets as data: one row per device/speed grade, with the source of its numbers.
// DramParams::from_preset copies a row; a new preset is a new row.
#include <cstdint>
#include <string>
#include <vector>

#include "models/dram/dram_params.h"

namespace vp::dram {

struct DramPreset {
    const char* name;      // the YAML value of dram.preset
    const char* standard;  // rule set of timing_table.cpp
    const char* source;    // where the numbers come from
    std::uint64_t tck_ps;
    unsigned bus_width_bits, burst_length, bank_groups, banks_per_group;
    std::uint64_t rows, columns;
    DramTiming t;
};

const DramPreset* find_preset(const std::string& name);
std::vector<std::string> preset_names();

}  // namespace vp::dram
