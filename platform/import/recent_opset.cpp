#include "platform/import/recent_opset.h"

#include <cmath>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "mapper/common/errors.h"
#include "platform/import/const_eval.h"

namespace vp::import {

namespace recent_opset_detail {

std::string recent_node_label(const onnx::NodeProto& n, int k) {
    return "node \"" + (n.name().empty() ? "#" + std::to_string(k) : n.name()) + "\" (" + n.op_type() + ")";
}

// The tensors a node input can be read from before shape inference: initializers and the
// outputs of Constant nodes (`value`, `value_int`, `value_ints`).
class Constants {
public:
    Constants(const onnx::GraphProto& g, const std::string& dir) : m_dir(dir) {
        for (const auto& t : g.initializer()) m_tensor[t.name()] = &t;
        for (const auto& n : g.node())
            if ((n.domain().empty() || n.domain() == "ai.onnx") && n.op_type() == "Constant" && n.output_size() == 1)
                m_constant[n.output(0)] = &n;
    }
    // The integer values of `name`, or false when it is not a constant. Throws vp::InputError
    // naming `what` for a constant of another type.
    bool ints(const std::string& name, const std::string& what, std::vector<std::int64_t>& out) const {
        const auto integers = [&](const onnx::TensorProto& t) {
            const TensorData d = read_tensor(t, m_dir, what);
            if (d.is_float() || !is_integer_type(d.type))
                throw InputError(what + ": input \"" + name + "\" holds " + type_name(d.type) + " values, expected integers");
            return d.i;
        };
        if (const auto it = m_tensor.find(name); it != m_tensor.end()) {
            out = integers(*it->second);
            return true;
        }
        const auto it = m_constant.find(name);
        if (it == m_constant.end()) return false;
        for (const auto& a : it->second->attribute()) {
            if (a.name() == "value" && a.has_t()) {
                out = integers(a.t());
                return true;
            }
            if (a.name() == "value_int") {
                out = {a.i()};
                return true;
            }
            if (a.name() == "value_ints") {
                out.assign(a.ints().begin(), a.ints().end());
                return true;
            }
        }
        return false;
    }

private:
    std::string m_dir;
    std::unordered_map<std::string, const onnx::TensorProto*> m_tensor;
    std::unordered_map<std::string, const onnx::NodeProto*> m_constant;
};

bool is_reduce_with_axes_input(const std::string& op) {
    static const std::unordered_set<std::string> ops{"ReduceMean", "ReduceMax",    "ReduceMin",       "ReduceProd",     "ReduceL1",
                                                     "ReduceL2",   "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"};
    return ops.count(op) > 0;
}

// Builds the nodes that replace a Gelu, with their constants as initializers.
class GeluExpansion {
public:
    GeluExpansion(onnx::GraphProto& g, std::string base) : m_g(g), m_base(std::move(base)) {}
    std::string scalar(const std::string& name, float v) {
        auto* t = m_g.add_initializer();
        t->set_name(m_base + name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        t->add_float_data(v);
        return t->name();
    }
    std::string node(const std::string& op, const std::string& a, const std::string& b, const std::string& out = "") {
        onnx::NodeProto n;
        n.set_op_type(op);
        n.set_name(m_base + op + std::to_string(++m_count));
        n.add_input(a);
        if (!b.empty()) n.add_input(b);
        n.add_output(out.empty() ? n.name() : out);
        m_nodes.push_back(n);
        return n.output(0);
    }
    std::vector<onnx::NodeProto> take() { return std::move(m_nodes); }

private:
    onnx::GraphProto& m_g;
    std::string m_base;
    int m_count = 0;
    std::vector<onnx::NodeProto> m_nodes;
};

// The prefix of the names a Gelu's nodes and constants get: the node's name and "/", unless a name
// of the graph (or of an earlier Gelu's expansion) already starts with it.
std::string gelu_prefix(const onnx::NodeProto& n, int k, std::set<std::string>& names) {
    const std::string stem = n.name().empty() ? "gelu" + std::to_string(k) : n.name();
    for (int attempt = 0;; ++attempt) {
        const std::string base = (attempt == 0 ? stem : stem + "_" + std::to_string(k) + "_" + std::to_string(attempt)) + "/";
        const auto it = names.lower_bound(base);  // the first name >= base: one starting with base, if any
        if (it == names.end() || it->compare(0, base.size(), base) != 0) {
            names.insert(base);
            return base;
        }
    }
}

std::vector<onnx::NodeProto> expand_gelu(onnx::GraphProto& g, const onnx::NodeProto& n, int k, const std::string& where,
                                         std::set<std::string>& names) {
    const auto* approx = find_attr(n, "approximate");
    const std::string mode = approx ? approx->s() : "none";
    if (mode != "none" && mode != "tanh")
        throw InputError(where + ": approximate \"" + mode + "\" (ONNX defines \"none\" and \"tanh\")");
    if (n.input_size() != 1 || n.output_size() != 1) throw InputError(where + ": expected one input and one output");
    GeluExpansion e(g, gelu_prefix(n, k, names));
    const std::string& x = n.input(0);
    std::string inner;
    if (mode == "none") {
        inner = e.node("Erf", e.node("Div", x, e.scalar("sqrt2", float(std::sqrt(2.0)))), "");
    } else {
        const std::string cube = e.node("Mul", e.node("Mul", x, x), x);
        const std::string sum = e.node("Add", x, e.node("Mul", cube, e.scalar("c", 0.044715f)));
        inner = e.node("Tanh", e.node("Mul", sum, e.scalar("sqrt_2_pi", float(std::sqrt(2.0 / M_PI)))), "");
    }
    // In the order PyTorch writes the exact form below opset 20: x (1 + inner), then times 0.5.
    e.node("Mul", e.node("Mul", x, e.node("Add", inner, e.scalar("one", 1.0f))), e.scalar("half", 0.5f), n.output(0));
    return e.take();
}

}  // namespace recent_opset_detail

int downgrade_to_opset17(LoadedModel& m) {
    using namespace recent_opset_detail;
    onnx::GraphProto& g = *m.model.mutable_graph();
    const Constants constants(g, m.dir);
    int changed = 0;
    std::vector<std::pair<int, std::vector<onnx::NodeProto>>> expanded;  // Gelu nodes by index
    std::set<std::string> names;  // of the graph's values and nodes (the Gelus' new names avoid them)
    for (const auto& t : g.initializer()) names.insert(t.name());
    for (const auto& v : g.input()) names.insert(v.name());
    for (const auto& x : g.node()) {
        names.insert(x.name());
        for (const auto& o : x.output()) names.insert(o);
    }
    for (int k = 0; k < g.node_size(); ++k) {
        onnx::NodeProto& n = *g.mutable_node(k);
        if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
        const std::string& op = n.op_type();
        const std::string where = m.path + ": " + recent_node_label(n, k) + " of opset " + std::to_string(m.opset);
        const int attrs_before = n.attribute_size(), inputs_before = n.input_size();
        const auto refuse = [&](const std::string& what) {
            throw InputError(where + ": " + what + " (opset 17, which the importer reads, cannot express it)");
        };
        const auto drop_if = [&](const char* name, auto is_default) {
            if (const auto* a = find_attr(n, name)) {
                if (!is_default(*a)) refuse(std::string("attribute ") + name);
                remove_attr(n, name);
            }
        };
        if (is_reduce_with_axes_input(op)) {
            const bool has_axes = n.input_size() > 1 && !n.input(1).empty();
            const auto* noop = find_attr(n, "noop_with_empty_axes");
            if (noop && noop->i() != 0 && !has_axes) refuse("noop_with_empty_axes = 1 without axes (an identity)");
            remove_attr(n, "noop_with_empty_axes");
            if (has_axes) {
                std::vector<std::int64_t> axes;
                if (!constants.ints(n.input(1), where, axes)) refuse("axes computed at run time (input \"" + n.input(1) + "\")");
                if (axes.empty() && noop && noop->i() != 0) refuse("noop_with_empty_axes = 1 with empty axes (an identity)");
                n.mutable_input()->DeleteSubrange(1, n.input_size() - 1);
                if (!axes.empty()) {
                    auto* a = n.add_attribute();
                    a->set_name("axes");
                    a->set_type(onnx::AttributeProto::INTS);
                    for (auto v : axes) a->add_ints(v);
                }
            }
        } else if (op == "Split") {
            remove_attr(n, "num_outputs");
        } else if (op == "Resize") {
            drop_if("antialias", [](const onnx::AttributeProto& a) { return a.i() == 0; });
            if (find_attr(n, "axes")) refuse("attribute axes");
            drop_if("keep_aspect_ratio_policy", [](const onnx::AttributeProto& a) { return a.s() == "stretch"; });
            if (const auto* c = find_attr(n, "coordinate_transformation_mode"); c && c->s() == "half_pixel_symmetric")
                refuse("coordinate_transformation_mode \"half_pixel_symmetric\"");
        } else if (op == "Pad") {
            if (n.input_size() > 3 && !n.input(3).empty()) refuse("input axes");
            if (n.input_size() > 3) n.mutable_input()->DeleteSubrange(3, n.input_size() - 3);
            if (const auto* mode = find_attr(n, "mode"); mode && mode->s() == "wrap") refuse("mode \"wrap\"");
        } else if (op == "AveragePool") {
            drop_if("dilations", [](const onnx::AttributeProto& a) {
                for (auto d : a.ints())
                    if (d != 1) return false;
                return true;
            });
        } else if (op == "Cast" || op == "CastLike") {
            remove_attr(n, "saturate");
        } else if (op == "QuantizeLinear" || op == "DequantizeLinear") {
            remove_attr(n, "saturate");
            drop_if("block_size", [](const onnx::AttributeProto& a) { return a.i() == 0; });
            if (const auto* dt = find_attr(n, "output_dtype")) {
                const auto type = dt->i();
                const bool zero_point = n.input_size() > 2 && !n.input(2).empty();
                if (type != 0 && !zero_point) {
                    if (type != onnx::TensorProto::UINT8 && type != onnx::TensorProto::INT8)
                        refuse("output_dtype " + std::string(type_name(int(type))) + " (opset 17 quantizes to int8 and uint8)");
                    auto* z = g.add_initializer();  // the zero point that gives opset 17 the output type
                    std::string zname = (n.name().empty() ? "quantize" + std::to_string(k) : n.name()) + "/zero_point";
                    while (names.count(zname)) zname += "_";
                    names.insert(zname);
                    z->set_name(zname);
                    z->set_data_type(int(type));
                    z->add_int32_data(0);
                    while (n.input_size() < 3) n.add_input("");
                    n.set_input(2, z->name());
                }
                remove_attr(n, "output_dtype");
            }
        } else if (op == "Gelu") {
            expanded.emplace_back(k, expand_gelu(g, n, k, where, names));
            continue;
        }
        if (n.attribute_size() != attrs_before || n.input_size() != inputs_before) ++changed;
    }
    if (!expanded.empty()) {  // each Gelu's nodes in its place (shape inference visits them in order)
        google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
        std::size_t next = 0;
        for (int k = 0; k < g.node_size(); ++k) {
            if (next < expanded.size() && expanded[next].first == k) {
                for (auto& e : expanded[next].second) *nodes.Add() = std::move(e);
                ++next;
                continue;
            }
            *nodes.Add() = std::move(*g.mutable_node(k));
        }
        g.mutable_node()->Swap(&nodes);
    }
    for (auto& op : *m.model.mutable_opset_import())
        if (op.domain().empty() || op.domain() == "ai.onnx") op.set_version(17);
    if (m.model.ir_version() > 8) m.model.set_ir_version(8);  // opset 17's IR version
    return changed + int(expanded.size());
}

}  // namespace vp::import
