#pragma once
// mapping.json content and a readable table of a TSO result.
#include <ostream>

#include <nlohmann/json.hpp>

#include "mapper/tso/tso.h"

namespace vp::mapper::tso {

nlohmann::json to_json(const NmpParams& hw);
nlohmann::json to_json(const ConvMapping& m);
// {"mapper": "tso", "network", "precision_bits", "dram_model", "fixed_slicing",
//  "fixed_schedule", "threads", "nmp": {...}, "convs": [...], "skipped": [...], "totals": {...}}
nlohmann::json to_json(const TsoResult& r);

void print_table(std::ostream& os, const TsoResult& r);

}  // namespace vp::mapper::tso
