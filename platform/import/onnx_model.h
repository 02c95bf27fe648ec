#pragma once
// Reading an ONNX file with the ONNX project's protobuf classes: parse, opset range, external
// data references (which must stay inside the model's folder) and tensor values.
#include <cstdint>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace vp::import {

// Opsets of the default domain the importer reads natively (libonnx 1.12 knows up to 17); models
// of opsets kMinLegacyOpset..kMinOpset-1 are first rewritten into opset kMinOpset (legacy_opset.h),
// models of opsets kMaxOpset+1..kMaxRecentOpset into opset kMaxOpset (recent_opset.h).
constexpr int kMinLegacyOpset = 1;
constexpr int kMinOpset = 7;
constexpr int kMaxOpset = 17;
constexpr int kMaxRecentOpset = 22;

struct LoadedModel {
    onnx::ModelProto model;
    std::string path;  // as given, for messages
    std::string dir;   // folder of the model: external data is resolved against it
    int opset = 0;     // of the default domain (kMinOpset after a legacy model's upgrade)
    int source_opset = 0;  // as the file declares it
};

// Throws vp::InputError: unreadable, truncated or non-ONNX file, opset out of range, external
// data outside the model's folder.
LoadedModel load_model(const std::string& path);

// Values of a (small or weight) tensor, widened: floats as double, integers as int64.
struct TensorData {
    std::vector<std::int64_t> dims;
    int type = 0;  // onnx::TensorProto::DataType
    std::vector<double> f;
    std::vector<std::int64_t> i;
    bool is_float() const;
    std::size_t size() const { return is_float() ? f.size() : i.size(); }
    double at(std::size_t k) const { return is_float() ? f[k] : double(i[k]); }
    std::int64_t int_at(std::size_t k) const { return is_float() ? std::int64_t(f[k]) : i[k]; }
};

bool is_float_type(int t);
bool is_integer_type(int t);  // integer and bool element types
int type_bits(int t);         // element width; 0 for unknown / string
const char* type_name(int t);

// Element count of dims (throws vp::InputError for negative or overflowing dims).
std::int64_t element_count(const std::vector<std::int64_t>& dims, const std::string& what);

bool is_external(const onnx::TensorProto& t);
// The external data file of `t` (resolved path), "" when inline.
std::string external_file(const onnx::TensorProto& t, const std::string& dir);

// Reads the values of `t`, inline or external. Throws vp::InputError naming `what` (the node
// or initializer that needs the values) when the data file is missing or too short.
TensorData read_tensor(const onnx::TensorProto& t, const std::string& dir, const std::string& what);

// Removes the attribute `name` of a node (false when absent; find_attr in const_eval.h finds it).
bool remove_attr(onnx::NodeProto& n, const std::string& name);

// An initializer holding `d` under `name` (folded constants).
onnx::TensorProto make_tensor(const std::string& name, const TensorData& d);

}  // namespace vp::import
