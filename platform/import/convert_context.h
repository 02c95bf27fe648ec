#pragma once
// State of the walk that turns ONNX nodes into layers (one converter per operator family:
// convert_conv.cpp, convert_dense.cpp, convert_pool.cpp, convert_misc.cpp). Every tensor name
// maps to a Value: an activation produced by a layer (or the network input), a constant
// (initializer or folded), or a side value (quantisation scales and zero points computed at run
// time) that no layer consumes as data.
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <onnx/onnx_pb.h>

#include "mapper/workload/network.h"
#include "platform/import/onnx_import.h"
#include "platform/import/onnx_model.h"

namespace vp::import {

// Thrown by a converter for a node it does not model; the walk lists every such node.
class Unsupported : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class ValueKind { Activation, Constant, Side };

struct Value {
    ValueKind kind = ValueKind::Activation;
    int producer = mapper::Layer::kNetInput;  // activations: layer index or kNetInput
    std::vector<std::int64_t> dims;           // static shape (full, batch included)
    int type = 0;                             // element type (onnx::TensorProto::DataType)
    const onnx::TensorProto* init = nullptr;  // constants: the initializer holding the values
    bool computed = false;                    // constants: derived by a node not evaluated here
    int pad[4] = {0, 0, 0, 0};                // a zero Pad folded into the consuming conv: top, left, bottom, right
};

// What a conv / fc layer needs besides its shape to produce its int8 weights (weights.cpp).
struct WeightSource {
    const onnx::TensorProto* weight = nullptr;      // float or integer weights
    const onnx::TensorProto* weight_zp = nullptr;   // integer weights: zero point(s)
    const onnx::TensorProto* bias = nullptr;        // int32 bias of QLinearConv
    bool weight_computed = false;                   // the weights come from an un-evaluated computation
    enum class Layout { KCRS, CKRS /*ConvTranspose*/, KC /*Gemm transB*/, CK /*MatMul, Gemm*/ } layout = Layout::KCRS;
    std::vector<const onnx::NodeProto*> batchnorms;  // folded BatchNormalization nodes, in order
};

struct LayerInfo {
    std::string out;              // the tensor the layer writes (the last fused node's output)
    std::string node_label;       // the node it came from, for messages
    bool integer_output = false;  // ConvInteger / MatMulInteger: a dequantisation scale may follow
    WeightSource w;
};

struct Ctx {
    LoadedModel& m;
    const ImportOptions& opt;
    std::unordered_map<std::string, Value> values;
    std::unordered_map<std::string, int> uses;  // consumers per tensor (a graph output counts as one)
    std::unordered_map<std::string, std::vector<std::pair<int, int>>> readers;  // tensor -> (node, input index)
    std::unordered_map<std::string, const onnx::TypeProto*> types;
    std::unordered_map<std::string, const onnx::TensorProto*> inits;
    mapper::Network net;
    std::vector<LayerInfo> info;  // parallel to net.layers
    std::set<std::string> names;
    ImportStats stats;
    // Nodes converted as part of a pattern matched at an earlier node (the decomposed LayerNorm):
    // the conversion loop passes over them.
    std::unordered_set<int> absorbed;
    int quant_bits = 0;  // widest quantized tensor type seen (0: float model)
    std::int64_t batch = 1;

    Ctx(LoadedModel& model, const ImportOptions& o) : m(model), opt(o) {}

    // The node's k-th input (must exist), its value.
    const Value& in(const onnx::NodeProto& n, int k) const;
    bool has_input(const onnx::NodeProto& n, int k) const { return k < n.input_size() && !n.input(k).empty(); }
    bool is_act(const onnx::NodeProto& n, int k) const;
    bool is_const(const onnx::NodeProto& n, int k) const;
    // Static dims of any tensor (throws vp::InputError naming the tensor when unknown).
    std::vector<std::int64_t> dims_of(const std::string& tensor, const std::string& label) const;
    int type_of(const std::string& tensor) const;
    // Per-sample C, H, W of a tensor shape (batch dimension dropped; rank <= 4). With `merge`, for
    // element-wise work and data movement that only needs the element order (eltwise, activation,
    // concat, split, slice), a higher rank too: the leading per-sample axes are merged into C (a
    // YOLOv5 head's [N, 3, H, W, 85] is C = 3 H, H = W, W = 85).
    void chw(const std::vector<std::int64_t>& dims, int& C, int& H, int& W, const std::string& label, bool merge = false) const;
    // Small constant values of input k (Unsupported when not a readable constant).
    TensorData const_values(const onnx::NodeProto& n, int k, const std::string& label) const;

    // Appends a layer made from node n writing `out`; names it after the node (or `name`).
    // Returns its index.
    int add_layer(mapper::Layer l, const onnx::NodeProto& n, int node_index, const std::string& out,
                  const std::string& name = "");
    // `out` carries the same data as `v` (layout-only and removed nodes).
    void alias(const std::string& out, const Value& v);
    // `out` is the output of an element-wise node fused into (or transparent for) the layer that
    // produced `in`: later element-wise nodes may fuse too.
    void fuse_into(int layer, const std::string& out);
    // Producer of an activation input (layer index or kNetInput).
    int producer(const onnx::NodeProto& n, int k) const { return in(n, k).producer; }
    // Can a node consuming `tensor` fuse into the layer producing it? (only consumer, not a graph
    // output, the layer's latest output, of one of `kinds`, no activation fused yet unless
    // `with_act`).
    int fusable(const std::string& tensor, std::initializer_list<mapper::LayerKind> kinds, bool with_act = false) const;
    // Records the precision of a quantized tensor type.
    void note_quant_type(int type);
};

// Converter of one operator family.
using Converter = void (*)(Ctx&, const onnx::NodeProto&, int node_index, const std::string& label);

// The converter for an operator of the default domain, or nullptr.
Converter find_converter(const std::string& op_type);

// Registration of each family (convert_*.cpp).
void register_conv(std::unordered_map<std::string, Converter>& r);
void register_dense(std::unordered_map<std::string, Converter>& r);
void register_pool(std::unordered_map<std::string, Converter>& r);
void register_misc(std::unordered_map<std::string, Converter>& r);

// The axes of a ReduceMean node (attribute, or the opset-18 input), non-negative and sorted.
std::vector<std::int64_t> reduce_axes(Ctx& c, const onnx::NodeProto& n, std::size_t rank, const std::string& label);
// The LayerNorm that exporters write below opset 17 as ReduceMean, Sub, Pow, ReduceMean, Add,
// Sqrt and Div, matched from its first ReduceMean `n` (over `axes`): on a match, adds the
// layernorm layer writing the Div's output, marks the other nodes absorbed and returns true.
bool decomposed_layer_norm(Ctx& c, const onnx::NodeProto& n, int node_index, const std::string& label,
                           const std::vector<std::int64_t>& axes);

// Window geometry shared by conv and pool: pads from "pads"/"auto_pad" for an input of size
// `in` with effective kernel `k` and stride `s` (ONNX Conv/MaxPool semantics), as begin/end.
void resolve_pads(const onnx::NodeProto& n, const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& k,
                  const std::vector<std::int64_t>& s, std::vector<std::int64_t>& begin, std::vector<std::int64_t>& end,
                  const std::string& label);

// Throws InputError "PATH: LABEL: kernel height 7 exceeds the padded input height 4 (...)" when
// the window of kernel `k` with dilations `dil` (empty: 1) is larger than the input `in` padded
// by `begin` and `end` along an axis (ONNX shape inference then leaves the output shapeless).
void check_window_fits(const std::string& path, const std::string& label, const std::vector<std::int64_t>& in,
                       const std::vector<std::int64_t>& k, const std::vector<std::int64_t>& dil,
                       const std::vector<std::int64_t>& begin, const std::vector<std::int64_t>& end);

}  // namespace vp::import
