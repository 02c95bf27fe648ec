#pragma once
// ONNX import: a model file -> the mapper's Network (layers with their producers), built on the
// ONNX project's own protobuf classes, checker and shape inference (libonnx). This header is
// the importer's whole interface and includes nothing from libonnx, so that only the importer
// library depends on it. Operators, folding and fusion rules: docs/onnx-import.md.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/workload/network.h"

namespace vp::import {

struct ImportOptions {
    std::map<std::string, std::vector<std::int64_t>> input_shapes;  // --input-shape NAME=1x3x224x224
    int batch = 0;                // --batch N: dimension 0 of every input (0: the model's)
    int precision = 0;            // --precision 8|16 for float models (0: 8, or the quantized types)
    bool allow_unsupported = false;  // skip unsupported nodes (listed) instead of failing
    bool need_values = false;     // the platform computes values: weights must be readable
};

// A node the importer did not turn into a layer (with --allow-unsupported).
struct SkippedNode {
    std::string name, op_type, reason;
    bool follows_skipped = false;  // not unsupported itself: its input's shape is unknown after a skipped node
};

// Weights of one conv / fc layer as the int8 platforms use them (empty when not available).
struct LayerValues {
    std::vector<std::int8_t> weights;  // conv: K x C/groups x R x S; fc: K x C
    std::vector<std::int32_t> bias;    // K, only when the model gives an integer bias
};

struct ImportStats {
    int opset = 0;                 // as the file declares it
    int upgraded_nodes = -1;       // opsets 1-6: nodes rewritten into their opset-7 form, 18-22: into their
                                   // opset-17 form (-1: read as the file declares)
    int read_as_opset = 0;         // 7 or 17 when upgraded_nodes >= 0
    std::string producer;
    std::size_t nodes = 0;
    std::size_t folded = 0;        // shape-subgraph nodes evaluated to constants
    std::size_t fused_bn = 0, fused_act = 0, fused_bias = 0, fused_pad = 0;
    std::size_t layout = 0;        // Flatten / Reshape / Transpose / Identity / Dropout / (De)Quantize ... removed
    bool quantized = false;        // quantized operators or tensor types: precision from the types
    bool values_present = false;   // the weights' values were readable
    std::vector<std::string> data_inputs;  // "NAME DIMS" of each graph input that is not an initializer
};

struct ImportResult {
    std::string source;               // the model path
    mapper::Network net;              // per-sample layers, net.batch set
    std::vector<SkippedNode> skipped;
    std::vector<LayerValues> values;  // per layer (need_values and the model has them)
    ImportStats stats;

    // The workload document: the network plus "source" and the skipped nodes.
    nlohmann::ordered_json workload_json() const;
    // A few lines for the terminal: what was imported, folded, fused and skipped.
    std::string summary() const;
};

// Imports `path`. Throws vp::InputError (exit 2) for a bad file or unsupported content: the
// message names the file and the node (name and op type); unsupported operators are all listed.
ImportResult import_onnx(const std::string& path, const ImportOptions& opt);

// "NAME=1x3x224x224" -> (NAME, dims). Throws vp::InputError.
std::pair<std::string, std::vector<std::int64_t>> parse_input_shape(const std::string& arg);
// Every --input-shape argument -> the shapes by input name. Throws vp::InputError for a bad one and
// for an input given twice (one of the two would be dropped without a word).
std::map<std::string, std::vector<std::int64_t>> parse_input_shapes(const std::vector<std::string>& args);

// True when the path names an ONNX model (extension .onnx, any case).
bool is_onnx_path(const std::string& path);

}  // namespace vp::import
