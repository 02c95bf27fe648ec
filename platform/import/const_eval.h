#pragma once
// Evaluation of small all-constant nodes: the shape arithmetic exporters emit (Shape -> Gather ->
// Unsqueeze -> Concat -> Reshape, Slice, Div, Cast, ConstantOfShape, Range ...). Tensors of at
// most kMaxFoldElements elements; anything else is left to the converters.
#include <optional>
#include <vector>

#include <onnx/onnx_pb.h>

#include "platform/import/onnx_model.h"

namespace vp::import {

constexpr std::int64_t kMaxFoldElements = 1 << 16;

// The outputs of `node` from its constant inputs (nullptr = omitted optional input), or nothing
// when the operator is not evaluated here or an input is missing. Throws vp::InputError for
// inconsistent constants (e.g. a Gather index out of range), naming the node by `where`.
std::optional<std::vector<TensorData>> eval_const(const onnx::NodeProto& node, const std::vector<const TensorData*>& in,
                                                  int opset, const std::string& where);

// Attribute helpers shared with the converters.
const onnx::AttributeProto* find_attr(const onnx::NodeProto& n, const char* name);
std::int64_t attr_int(const onnx::NodeProto& n, const char* name, std::int64_t dflt);
float attr_float(const onnx::NodeProto& n, const char* name, float dflt);
std::string attr_string(const onnx::NodeProto& n, const char* name, const std::string& dflt);
std::vector<std::int64_t> attr_ints(const onnx::NodeProto& n, const char* name);

}  // namespace vp::import
