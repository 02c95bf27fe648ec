#pragma once
// A network as the VTA driver runs it: the layers of a vp::mapper::Network plus, for each
// layer, where its operands come from. Two sources of graphs:
//  - chain_graph(): a plain network JSON (workloads/<net>.json). When its layers name their
//    producers ("inputs", e.g. an imported ONNX model) those are the graph (a one-producer eltwise
//    layer gets a generated second operand: a constant of the model). Otherwise it is read as a chain. Each layer
//    consumes the previous layer's output when the shapes chain (conv/pool/eltwise: C,H,W equal
//    to the previous K,P,Q; fc: element count equal); otherwise its input is generated from the
//    seed (kGenerated), e.g. a projection shortcut listed after the branch. An eltwise add takes
//    the previous output and a generated second operand.
//  - parse_vta_network(): the "vta_network" extension (docs in workloads/vta/README.md): the
//    network JSON with, per layer, "inputs": ["<layer name>" | "input", ...] (default: the
//    previous layer), optional "weights"/"bias" raw files; top-level "input_file".
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/workload/network.h"

namespace vp::mapper::vta {

struct NetGraph {
    static constexpr int kNetInput = -1;   // the network input tensor
    static constexpr int kGenerated = -2;  // a tensor generated from the seed (shape of the operand)
    Network net;
    std::vector<std::vector<int>> inputs;  // per layer: producer layer index or kNetInput / kGenerated
    std::vector<std::string> weight_files, bias_files;  // per layer, "" = generated from the seed
    // Per layer values given in memory (an imported model's weights); empty = none. Conv:
    // K x C/groups x R x S int8, fc: K x C; bias: K int32. They take precedence over the files.
    std::vector<std::vector<std::int8_t>> weight_values;
    std::vector<std::vector<std::int32_t>> bias_values;
    std::string input_file;                             // "" = generated from the seed
    std::string source;                                 // file name for messages
};

// Operand shapes (elements) of layer l: input tensor elements, output elements.
std::uint64_t layer_in_elems(const Layer& l);
std::uint64_t layer_out_elems(const Layer& l);

NetGraph chain_graph(const Network& net, const std::string& source = "");

// Parses a {"kind": "vta_network", ...} document. Throws vp::InputError with JSON pointers.
NetGraph parse_vta_network(const nlohmann::json& doc, const std::string& path);

}  // namespace vp::mapper::vta
