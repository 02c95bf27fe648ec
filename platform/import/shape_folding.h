#pragma once
// ONNX shape inference (libonnx, strict mode, data propagation) alternated with the folding of
// all-constant nodes (Constant, Shape of a static tensor, and the shape arithmetic of
// const_eval.h) into initializers, until nothing more folds. Afterwards every activation
// tensor of a CNN has a static shape in the graph's value_info.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <onnx/onnx_pb.h>

#include "platform/import/onnx_model.h"

namespace vp::import {

// Returns the number of nodes folded. Throws vp::InputError (shape inference errors name the node).
std::size_t infer_and_fold(LoadedModel& m);

// The static dims of a tensor type, or nothing when a dimension is symbolic or unknown.
std::optional<std::vector<std::int64_t>> static_dims(const onnx::TypeProto& t);

// name -> type of every typed tensor of the graph (inputs, value_info, outputs).
std::unordered_map<std::string, const onnx::TypeProto*> tensor_types(const onnx::GraphProto& g);

}  // namespace vp::import
