#pragma once
// mapping.json content and a readable table of a mesh mapping (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect).
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "mapper/waving/layer_mapping.h"

namespace vp::mapper::waving {

nlohmann::json to_json(const LayerMapping& m);
// {"mapper":"tiling+waving","network","objective","mode","cores","layers":[...],"totals":{...}}
nlohmann::json to_json(const NetworkMapping& n);

// One row per layer: T, tiling, k, estimated cycles, flits, DRAM bytes, energy.
void print_table(std::ostream& os, const NetworkMapping& n);
// One line (ending in a newline) naming the layers picked among near ties
// (LayerMapping::near_tie), or "" when none.
std::string near_tie_text(const NetworkMapping& n);

}  // namespace vp::mapper::waving
