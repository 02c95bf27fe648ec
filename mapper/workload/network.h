#pragma once
// A network workload: an ordered list of layers and a data precision.
// File format: docs/workload-format.md.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/workload/layer.h"

namespace vp::mapper {

struct Network {
    std::string name;
    int precision_bits = 8;  // 8 or 16
    std::vector<Layer> layers;

    int bytes_per_elem() const { return precision_bits / 8; }
    std::uint64_t total_macs() const;
};

// Parses and validates a network JSON document. `source` names the file in errors.
// Throws vp::InputError naming the JSON pointer and what was expected.
Network parse_network(const nlohmann::json& doc, const std::string& source);

// Reads a JSON file; syntax errors are reported with line and column.
nlohmann::json read_json_file(const std::string& path);

// Loads and validates a network workload file.
Network load_network(const std::string& path);

}  // namespace vp::mapper
