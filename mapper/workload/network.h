#pragma once
// A network workload: an ordered list of layers (each with its producers when the workload
// gives them), a data precision and a batch size. File format: docs/workload-format.md.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/workload/layer.h"

namespace vp::mapper {

struct Network {
    std::string name;
    int precision_bits = 8;  // 8 or 16
    int batch = 1;           // inferences; expand_batch() turns a batch into a sequence of copies
    std::vector<Layer> layers;

    int bytes_per_elem() const { return precision_bits / 8; }
    std::uint64_t total_macs() const;
    // True when every layer names its producers (an explicit graph, e.g. an imported model).
    bool has_graph() const;
};

// Parses and validates a network JSON document. `source` names the file in errors.
// Throws vp::InputError naming the JSON pointer and what was expected.
Network parse_network(const nlohmann::json& doc, const std::string& source);

// The JSON document of a network (the inverse of parse_network), members in the documented
// order: what vp-import writes.
nlohmann::ordered_json network_to_json(const Network& net);

// The document as text with one layer per line (the layout of the files under workloads/).
std::string network_json_text(const nlohmann::ordered_json& doc);

// A batch of N inferences as N copies of the layer list, one after the other (names suffixed
// "@b<i>" for i >= 1, producers renamed within each copy); batch 1 returns the network as is.
// The mappers process one inference at a time, so this is how they run a batch.
Network expand_batch(const Network& net);

// Reads a JSON file; syntax errors are reported with line and column.
nlohmann::json read_json_file(const std::string& path);

// Loads and validates a network workload file.
Network load_network(const std::string& path);

}  // namespace vp::mapper
