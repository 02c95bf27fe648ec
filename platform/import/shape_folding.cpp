#include "platform/import/shape_folding.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>
#include <onnx/defs/tensor_proto_util.h>
#include <onnx/shape_inference/implementation.h>

#include "mapper/common/errors.h"
#include "platform/import/const_eval.h"
#include "platform/import/graph_order.h"

namespace vp::import {

namespace {

constexpr int kMaxRounds = 32;             // folding rounds; each round folds at least one node
constexpr std::int64_t kMaxConstRead = 1024;  // elements of an initializer read for folding

// The weight input of the convolutions whose ONNX shape inference (convPoolShapeInference,
// convTransposeShapeInference) takes the kernel's spatial dims from the weight and indexes the
// input's dims with them without checking the ranks: an input of lower rank than the weight
// reads past the input's shape (a crash in libonnx 1.12, found by fuzzing). -1: not such an op.
int conv_weight_input(const std::string& op, const std::string& domain) {
    if (!domain.empty() && domain != "ai.onnx") return -1;
    if (op == "Conv" || op == "ConvInteger" || op == "ConvTranspose") return 1;
    if (op == "QLinearConv") return 3;
    return -1;
}

// Attributes that ONNX's shape inference divides by (convPoolShapeInference divides by the
// strides; DepthToSpace and SpaceToDepth by the block size) or that must be positive for the
// arithmetic around them to mean anything (dilations, kernel_shape). libonnx 1.12 does not check
// them: a stride of 0 is an integer division by zero (SIGFPE, found by fuzzing).
constexpr const char* kPositiveAttrs[] = {"strides", "dilations", "kernel_shape", "blocksize"};

bool has_positive_attr(const onnx::OpSchema& s) {
    for (const char* a : kPositiveAttrs)
        if (s.attributes().count(a)) return true;
    return false;
}

void check_positive_attrs(onnx::InferenceContext& ctx, const std::string& op) {
    for (const char* name : kPositiveAttrs) {
        const onnx::AttributeProto* a = ctx.getAttribute(name);
        if (!a) continue;
        if (a->type() == onnx::AttributeProto::INT && a->i() < 1)
            fail_shape_inference(op, ": attribute ", name, " is ", a->i(), ", expected a positive integer");
        for (const std::int64_t v : a->ints())
            if (v < 1) fail_shape_inference(op, ": attribute ", name, " holds ", v, ", expected positive integers");
    }
}

// LayerNormalization's shape inference (libonnx 1.12) takes the axis as given and reads the input's
// dims from it: an axis outside [-rank, rank) reads past the shape (a crash, found by fuzzing), and
// so does the default axis -1 on an input of rank 0 (found by fuzzing too).
bool axis_within_rank(const std::string& op, const std::string& domain) {
    return (domain.empty() || domain == "ai.onnx") && op == "LayerNormalization";
}

void check_axis(onnx::InferenceContext& ctx, const std::string& op) {
    if (!onnx::hasInputShape(ctx, 0)) return;
    const onnx::AttributeProto* a = ctx.getAttribute("axis");
    const std::int64_t axis = a ? a->i() : -1;  // ONNX's default
    const std::int64_t r = ctx.getInputType(0)->tensor_type().shape().dim_size();
    if (r == 0) fail_shape_inference(op, ": the input has rank 0 (a scalar); it normalizes over axes of a tensor of rank 1 or more");
    if (axis < -r || axis >= r)
        fail_shape_inference(op, ": attribute axis is ", axis, ", outside [-", r, ", ", r - 1, "] for an input of rank ", r);
}

// Reshape's shape inference (libonnx 1.12) checks a -1 and the 0 entries, but a shape without -1
// keeps its dims whatever the input's element count: 2048 elements reshaped to [7, 13] passed. When
// the input's shape and the shape's values are known, reshape_dims checks every rule (const_eval.h).
bool is_reshape(const std::string& op, const std::string& domain) {
    return (domain.empty() || domain == "ai.onnx") && op == "Reshape";
}

// The graph shape inference is running on (run_shape_inference), for naming nodes: ONNX's messages
// name a node by its name only, and exporters leave many unnamed.
thread_local const onnx::GraphProto* t_graph = nullptr;

// "node \"#3\" (Reshape): " for the Reshape nodes whose shape input is the tensor `t` (an
// initializer or a Constant node's value of t_graph), "" when none is found.
std::string reshape_nodes_of(const onnx::TensorProto* t) {
    if (!t_graph) return "";
    std::string name;
    for (const auto& i : t_graph->initializer())
        if (&i == t) name = i.name();
    for (const auto& n : t_graph->node())
        for (const auto& a : n.attribute())
            if (n.op_type() == "Constant" && n.output_size() == 1 && a.has_t() && &a.t() == t) name = n.output(0);
    std::string out;
    for (int k = 0; !name.empty() && k < t_graph->node_size(); ++k) {
        const onnx::NodeProto& n = t_graph->node(k);
        if (n.op_type() == "Reshape" && n.input_size() > 1 && n.input(1) == name)
            out += (out.empty() ? "" : ", ") + node_label(n, k);
    }
    return out.empty() ? "" : out + ": ";
}

void check_reshape(onnx::InferenceContext& ctx) {
    if (ctx.getNumInputs() < 2 || !onnx::hasInputShape(ctx, 0)) return;
    const onnx::TensorProto* t = ctx.getInputData(1);
    if (!t || is_external(*t) || t->data_type() != onnx::TensorProto::INT64) return;
    std::vector<std::int64_t> in;
    for (const auto& d : ctx.getInputType(0)->tensor_type().shape().dim()) {
        if (!d.has_dim_value()) return;
        in.push_back(d.dim_value());
    }
    const onnx::AttributeProto* a = ctx.getAttribute("allowzero");
    try {
        reshape_dims(in, onnx::ParseData<std::int64_t>(t), a && a->i() != 0, "");
    } catch (const InputError& e) {
        fail_shape_inference(reshape_nodes_of(t), e.what());
    }
}

// The standard schemas, with the inference of the ops above preceded by the checks that ONNX's
// own inference leaves out: the positive attributes, for the convolutions a rank check (input
// and weight of equal rank, at least 3), and Reshape's element count. A failed check fails shape
// inference like ONNX's own checks.
class CheckedSchemas final : public onnx::ISchemaRegistry {
public:
    const onnx::OpSchema* GetSchema(const std::string& key, const int max_version,
                                    const std::string& domain) const override {
        const onnx::OpSchema* s = onnx::OpSchemaRegistry::Instance()->GetSchema(key, max_version, domain);
        if (!s) return s;
        const int w = conv_weight_input(key, domain);
        const bool positive = has_positive_attr(*s);
        const bool axis = axis_within_rank(key, domain);
        const bool reshape = is_reshape(key, domain);
        if (w < 0 && !positive && !axis && !reshape) return s;
        const std::lock_guard<std::mutex> lock(m_mutex);
        auto& copy = m_checked[key + "/" + domain + "/" + std::to_string(s->SinceVersion())];
        if (!copy) {
            copy = std::make_unique<onnx::OpSchema>(*s);
            const onnx::InferenceFunction inner = s->GetTypeAndShapeInferenceFunction();
            copy->TypeAndShapeInferenceFunction([inner, w, positive, axis, reshape, key](onnx::InferenceContext& ctx) {
                if (positive) check_positive_attrs(ctx, key);
                if (axis) check_axis(ctx, key);
                if (reshape) check_reshape(ctx);
                if (w >= 0 && onnx::hasInputShape(ctx, 0) && onnx::hasInputShape(ctx, std::size_t(w))) {
                    const int xr = ctx.getInputType(0)->tensor_type().shape().dim_size();
                    const int wr = ctx.getInputType(std::size_t(w))->tensor_type().shape().dim_size();
                    if (xr != wr || xr < 3)
                        fail_shape_inference(key, ": the input has rank ", xr, " and the weight rank ", wr,
                                             " (expected equal ranks of at least 3: N, C and the spatial dims)");
                }
                if (inner) inner(ctx);
            });
        }
        return copy.get();
    }

private:
    mutable std::mutex m_mutex;
    mutable std::map<std::string, std::unique_ptr<onnx::OpSchema>> m_checked;
};

void run_shape_inference(LoadedModel& m) {
    // check_type off: exporters emit harmless type mismatches; strict mode: node-level errors throw.
    const onnx::ShapeInferenceOptions opts(false, 1, true);
    static CheckedSchemas schemas;
    t_graph = &m.model.graph();
    try {
        onnx::shape_inference::InferShapes(m.model, &schemas, opts);
    } catch (const std::exception& e) {
        t_graph = nullptr;
        throw InputError(m.path + ": ONNX shape inference failed: " + std::string(e.what()));
    }
    t_graph = nullptr;
}

std::optional<TensorData> constant_attr(const onnx::NodeProto& n, const std::string& where) {
    TensorData d;
    if (const auto* a = find_attr(n, "value_float")) {
        d.type = onnx::TensorProto::FLOAT;
        d.f = {a->f()};
    } else if (const auto* b = find_attr(n, "value_floats")) {
        d.type = onnx::TensorProto::FLOAT;
        d.f.assign(b->floats().begin(), b->floats().end());
        d.dims = {std::int64_t(d.f.size())};
    } else if (const auto* c = find_attr(n, "value_int")) {
        d.type = onnx::TensorProto::INT64;
        d.i = {c->i()};
    } else if (const auto* e = find_attr(n, "value_ints")) {
        d.type = onnx::TensorProto::INT64;
        d.i.assign(e->ints().begin(), e->ints().end());
        d.dims = {std::int64_t(d.i.size())};
    } else {
        (void)where;
        return std::nullopt;
    }
    return d;
}

}  // namespace

std::optional<std::vector<std::int64_t>> static_dims(const onnx::TypeProto& t) {
    if (!t.has_tensor_type() || !t.tensor_type().has_shape()) return std::nullopt;
    std::vector<std::int64_t> d;
    for (const auto& dim : t.tensor_type().shape().dim()) {
        if (!dim.has_dim_value() || dim.dim_value() < 0) return std::nullopt;
        d.push_back(dim.dim_value());
    }
    return d;
}

std::unordered_map<std::string, const onnx::TypeProto*> tensor_types(const onnx::GraphProto& g) {
    std::unordered_map<std::string, const onnx::TypeProto*> t;
    for (const auto& v : g.input()) t[v.name()] = &v.type();
    for (const auto& v : g.value_info()) t[v.name()] = &v.type();
    for (const auto& v : g.output()) t[v.name()] = &v.type();
    return t;
}

std::size_t infer_and_fold(LoadedModel& m) {
    std::size_t folded = 0;
    onnx::GraphProto& g = *m.model.mutable_graph();
    for (int round = 0; round < kMaxRounds; ++round) {
        run_shape_inference(m);
        const auto types = tensor_types(g);
        // Constants whose values are readable here (inline, small).
        std::unordered_map<std::string, TensorData> consts;
        for (const auto& t : g.initializer()) {
            if (is_external(t)) continue;
            std::vector<std::int64_t> dims(t.dims().begin(), t.dims().end());
            std::int64_t n = 1;
            bool small = true;
            for (auto d : dims) {
                if (d < 0 || (d > 0 && n > kMaxFoldElements / d)) small = false;
                else n *= d;
            }
            // Shape arithmetic reads small constants; weights are never decoded here.
            if (!small || n > kMaxConstRead || type_bits(t.data_type()) == 0) continue;
            consts.emplace(t.name(), read_tensor(t, m.dir, m.path + ": initializer"));
        }
        const std::vector<int> order = topo_order(g, m.path);
        std::vector<bool> remove(std::size_t(g.node_size()), false);
        std::vector<onnx::TensorProto> added;
        bool changed = false;
        for (int k : order) {
            const onnx::NodeProto& n = g.node(k);
            const std::string where = m.path + ": " + node_label(n, k);
            const bool default_domain = n.domain().empty() || n.domain() == "ai.onnx";
            if (!default_domain) continue;
            std::optional<std::vector<TensorData>> out;
            if (n.op_type() == "Constant" && n.output_size() == 1) {
                if (const auto* a = find_attr(n, "value"); a && a->has_t()) {
                    onnx::TensorProto t = a->t();
                    t.set_name(n.output(0));
                    if (!is_external(t) && t.data_type() != onnx::TensorProto::STRING) {
                        std::int64_t cnt = 1;
                        for (auto d : t.dims()) cnt *= std::max<std::int64_t>(d, 0);
                        if (cnt <= kMaxFoldElements) consts[n.output(0)] = read_tensor(t, m.dir, where);
                    }
                    added.push_back(std::move(t));
                    remove[std::size_t(k)] = changed = true;
                    ++folded;
                    continue;
                }
                if (auto d = constant_attr(n, where)) out = std::vector<TensorData>{*d};
                else continue;
            } else if ((n.op_type() == "Shape" || n.op_type() == "Size") && n.input_size() == 1) {
                auto it = types.find(n.input(0));
                if (it == types.end()) continue;
                auto dims = static_dims(*it->second);
                if (!dims) continue;
                TensorData d;
                d.type = onnx::TensorProto::INT64;
                if (n.op_type() == "Size") {
                    d.i = {element_count(*dims, where)};
                } else {
                    auto r = std::int64_t(dims->size());
                    std::int64_t s = attr_int(n, "start", 0), e = attr_int(n, "end", r);
                    if (s < 0) s += r;
                    if (e < 0) e += r;
                    s = std::clamp<std::int64_t>(s, 0, r);
                    e = std::clamp<std::int64_t>(e, s, r);
                    d.i.assign(dims->begin() + s, dims->begin() + e);
                    d.dims = {e - s};
                }
                out = std::vector<TensorData>{d};
            } else {
                std::vector<const TensorData*> in;
                bool all = n.input_size() > 0;
                for (const auto& name : n.input()) {
                    if (name.empty()) {
                        in.push_back(nullptr);
                        continue;
                    }
                    auto it = consts.find(name);
                    if (it == consts.end()) {
                        all = false;
                        break;
                    }
                    in.push_back(&it->second);
                }
                if (!all) continue;
                out = eval_const(n, in, m.opset, where);
            }
            if (!out || int(out->size()) != n.output_size()) continue;
            for (int o = 0; o < n.output_size(); ++o) {
                added.push_back(make_tensor(n.output(o), (*out)[std::size_t(o)]));
                consts[n.output(o)] = std::move((*out)[std::size_t(o)]);
            }
            remove[std::size_t(k)] = changed = true;
            ++folded;
        }
        if (!changed) return folded;
        google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
        for (int k = 0; k < g.node_size(); ++k)
            if (!remove[std::size_t(k)]) *kept.Add() = g.node(k);
        g.mutable_node()->Swap(&kept);
        for (auto& t : added) *g.add_initializer() = std::move(t);
    }
    run_shape_inference(m);
    return folded;
}

}  // namespace vp::import
