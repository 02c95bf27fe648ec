#pragma once
// Evaluation of small all-constant nodes: the shape arithmetic exporters emit (Shape -> Gather ->
// Unsqueeze -> Concat -> Reshape, Slice, Div, Cast, ConstantOfShape, Range ...). Tensors of at
// most kMaxFoldElements elements; anything else is left to the converters.
#include <optional>
#include <string>
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

// The dims of a Reshape of a tensor of dims `in` to `shape` by ONNX's rules: a 0 copies the input's
// dimension at its index (unless allowzero), one -1 takes the count that is left. Throws
// vp::InputError, prefixed with `where` and ": " when not empty, for a dimension below -1, two -1, a 0
// past the input's rank, a -1 beside a zero dimension, a product beyond 2^62, and a shape whose
// element count is not the input's (the message gives both counts and both shapes).
std::vector<std::int64_t> reshape_dims(const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& shape,
                                       bool allowzero, const std::string& where);
// "[1, 8, 16, 16]": dims or a shape as written in messages.
std::string dims_list(const std::vector<std::int64_t>& d);

// Attribute helpers shared with the converters.
const onnx::AttributeProto* find_attr(const onnx::NodeProto& n, const char* name);
std::int64_t attr_int(const onnx::NodeProto& n, const char* name, std::int64_t dflt);
float attr_float(const onnx::NodeProto& n, const char* name, float dflt);
std::string attr_string(const onnx::NodeProto& n, const char* name, const std::string& dflt);
std::vector<std::int64_t> attr_ints(const onnx::NodeProto& n, const char* name);

}  // namespace vp::import
