#include "platform/import/legacy_opset.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

#include "mapper/common/errors.h"
#include "platform/import/const_eval.h"
#include "platform/import/graph_order.h"

namespace vp::import {

namespace {

onnx::AttributeProto* add_ints(onnx::NodeProto& n, const std::string& name, const std::vector<std::int64_t>& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (auto x : v) a->add_ints(x);
    return a;
}

bool is_legacy_broadcast_op(const std::string& op) {
    static const std::unordered_set<std::string> ops{"Add", "Sub", "Mul", "Div", "Pow", "And",
                                                      "Or",  "Xor", "Equal", "Greater", "Less"};
    return ops.count(op) > 0;
}

// Ranks of the tensors, propagated in topological order (-1: unknown). Only needed to place a
// legacy `axis` broadcast operand; an unknown rank is an error only there.
class Ranks {
public:
    explicit Ranks(const onnx::GraphProto& g) {
        for (const auto& v : g.input())
            if (v.type().has_tensor_type() && v.type().tensor_type().has_shape())
                m_rank[v.name()] = v.type().tensor_type().shape().dim_size();
        for (const auto& t : g.initializer()) add_init(t);
    }
    int of(const std::string& name) const {
        const auto it = m_rank.find(name);
        return it == m_rank.end() ? -1 : it->second;
    }
    // After the node's upgrade (opset-7 semantics).
    void propagate(const onnx::NodeProto& n) {
        const std::string& op = n.op_type();
        const int r0 = n.input_size() > 0 ? of(n.input(0)) : -1;
        auto ints = [&](const char* name) -> int {
            const auto* a = find_attr(n, name);
            return a ? a->ints_size() : -1;
        };
        auto int_attr = [&](const char* name, std::int64_t dflt) {
            const auto* a = find_attr(n, name);
            return a ? a->i() : dflt;
        };
        int r = -1;
        if (op == "Constant") {
            const auto* a = find_attr(n, "value");
            if (a && a->has_t()) r = a->t().dims_size();
        } else if (op == "Gemm" || op == "Flatten") {
            r = 2;
        } else if (op == "MatMul") {
            const int r1 = n.input_size() > 1 ? of(n.input(1)) : -1;
            if (r0 >= 2 && r1 >= 2) r = std::max(r0, r1);
            else if (r0 >= 0 && r1 >= 0) r = std::max(r0, r1) - 1;
        } else if (op == "Reshape") {
            if (n.input_size() > 1) {
                const auto it = m_inits.find(n.input(1));
                if (it != m_inits.end() && it->second->dims_size() == 1) r = int(it->second->dims(0));
            }
        } else if (op == "Squeeze") {
            const int k = ints("axes");
            if (r0 >= 0 && k >= 0) r = r0 - k;
        } else if (op == "Unsqueeze") {
            const int k = ints("axes");
            if (r0 >= 0 && k >= 0) r = r0 + k;
        } else if (op.rfind("Reduce", 0) == 0 || op == "ArgMax" || op == "ArgMin") {
            const int k = op.rfind("Arg", 0) == 0 ? 1 : ints("axes");
            if (int_attr("keepdims", 1)) r = r0;
            else if (r0 >= 0) r = k < 0 ? 0 : r0 - k;
        } else if (op == "Shape") {
            r = 1;
        } else if (op == "Size") {
            r = 0;
        } else if (op == "Gather") {
            const int r1 = n.input_size() > 1 ? of(n.input(1)) : -1;
            if (r0 >= 0 && r1 >= 0) r = r0 + r1 - 1;
        } else if (is_legacy_broadcast_op(op) || op == "Sum" || op == "Max" || op == "Min" || op == "Mean" ||
                   op == "PRelu") {
            for (const auto& in : n.input()) {
                const int ri = of(in);
                if (ri < 0) {
                    r = -1;
                    break;
                }
                r = std::max(r, ri);
            }
        } else {
            // Convolutions, pools, normalisations, activations, Concat, Split, Slice, Pad, Tile,
            // Transpose, Cast, Upsample, Dropout, Softmax, ...: the first input's rank.
            r = r0;
        }
        for (const auto& o : n.output())
            if (!o.empty()) m_rank[o] = r;
    }
    void set(const std::string& name, int r) { m_rank[name] = r; }
    void add_init(const onnx::TensorProto& t) {
        m_rank[t.name()] = t.dims_size();
        m_inits[t.name()] = &t;  // RepeatedPtrField elements do not move when the field grows
    }

private:
    std::unordered_map<std::string, int> m_rank;
    std::unordered_map<std::string, const onnx::TensorProto*> m_inits;
};

}  // namespace

int upgrade_to_opset7(LoadedModel& m) {
    onnx::GraphProto& g = *m.model.mutable_graph();
    const std::vector<int> order = topo_order(g, m.path);
    Ranks ranks(g);
    std::unordered_set<std::string> names;
    for (const auto& v : g.input()) names.insert(v.name());
    for (const auto& t : g.initializer()) names.insert(t.name());
    for (const auto& n : g.node())
        for (const auto& o : n.output()) names.insert(o);
    auto fresh = [&](const std::string& base) {
        std::string s = base;
        for (int k = 1; names.count(s); ++k) s = base + "_" + std::to_string(k);
        names.insert(s);
        return s;
    };
    std::vector<std::pair<int, onnx::NodeProto>> added;  // Unsqueeze nodes of legacy broadcasts, by reader
    int changed = 0;
    for (int k : order) {
        onnx::NodeProto& n = *g.mutable_node(k);
        const bool default_domain = n.domain().empty() || n.domain() == "ai.onnx";
        if (!default_domain) {
            ranks.propagate(n);
            continue;
        }
        const std::string where = m.path + ": " + node_label(n, k);
        const std::string& op = n.op_type();
        bool touched = remove_attr(n, "consumed_inputs");
        if (is_legacy_broadcast_op(op)) {
            const auto* b = find_attr(n, "broadcast");
            const auto* ax = find_attr(n, "axis");
            if (b && b->i() != 0 && ax && n.input_size() == 2) {
                // B aligned at `axis` of A: B gets rank(A) - axis - rank(B) trailing 1-dims.
                const int ra = ranks.of(n.input(0)), rb = ranks.of(n.input(1));
                if (ra < 0 || rb < 0)
                    throw InputError(where + ": a legacy broadcast with axis " + std::to_string(ax->i()) +
                                     " on a tensor of unknown rank (\"" + (ra < 0 ? n.input(0) : n.input(1)) +
                                     "\"); give the graph inputs' shapes or convert the model to opset 7");
                const std::int64_t axis = ax->i() < 0 ? ax->i() + ra : ax->i();
                const std::int64_t trailing = std::int64_t(ra) - axis - rb;
                if (axis < 0 || trailing < 0)
                    throw InputError(where + ": broadcast axis " + std::to_string(ax->i()) + " does not fit operand \"" +
                                     n.input(1) + "\" (rank " + std::to_string(rb) + ") into \"" + n.input(0) +
                                     "\" (rank " + std::to_string(ra) + ")");
                if (trailing > 0) {
                    onnx::NodeProto u;
                    u.set_op_type("Unsqueeze");
                    const std::string out = fresh(n.input(1) + "_aligned");
                    u.set_name(fresh((n.name().empty() ? op : n.name()) + "_broadcast_axis"));
                    u.add_input(n.input(1));
                    u.add_output(out);
                    std::vector<std::int64_t> axes;
                    for (std::int64_t i = 0; i < trailing; ++i) axes.push_back(rb + i);
                    add_ints(u, "axes", axes);
                    ranks.set(out, rb + int(trailing));
                    n.set_input(1, out);
                    added.emplace_back(k, u);
                }
            }
            touched = remove_attr(n, "broadcast") || touched;
            touched = remove_attr(n, "axis") || touched;
        } else if (op == "Gemm") {
            touched = remove_attr(n, "broadcast") || touched;
        } else if (op == "BatchNormalization" || op == "Dropout") {
            touched = remove_attr(n, "is_test") || touched;
        } else if (op == "Reshape") {
            if (const auto* s = find_attr(n, "shape")) {
                if (n.input_size() > 1 && !n.input(1).empty())
                    throw InputError(where + ": both a shape attribute and a shape input");
                onnx::TensorProto* t = g.add_initializer();
                t->set_name(fresh((n.name().empty() ? n.output(0) : n.name()) + "_shape"));
                t->set_data_type(onnx::TensorProto::INT64);
                t->add_dims(s->ints_size());
                for (auto v : s->ints()) t->add_int64_data(v);
                if (n.input_size() < 2) n.add_input(t->name());
                else n.set_input(1, t->name());
                remove_attr(n, "shape");
                touched = true;
                ranks.add_init(*t);
            }
        } else if (op == "Concat") {
            if (!find_attr(n, "axis")) {
                auto* a = n.add_attribute();
                a->set_name("axis");
                a->set_type(onnx::AttributeProto::INT);
                a->set_i(1);
                touched = true;
            }
        } else if (op == "Pad") {
            for (auto& a : *n.mutable_attribute())
                if (a.name() == "paddings") {
                    a.set_name("pads");
                    touched = true;
                }
        } else if (op == "Upsample") {
            const auto* h = find_attr(n, "height_scale");
            const auto* w = find_attr(n, "width_scale");
            if (h || w) {
                if (find_attr(n, "scales")) throw InputError(where + ": both scales and height_scale / width_scale");
                const float hs = h ? h->f() : 1.0f, ws = w ? w->f() : 1.0f;
                auto* a = n.add_attribute();
                a->set_name("scales");
                a->set_type(onnx::AttributeProto::FLOATS);
                for (float v : {1.0f, 1.0f, hs, ws}) a->add_floats(v);
                remove_attr(n, "height_scale");
                remove_attr(n, "width_scale");
                touched = true;
            }
            if (const auto* mode = find_attr(n, "mode")) {
                // Opset 1 names the modes NN / BILINEAR.
                std::string s = mode->s();
                std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
                if (s == "nn") s = "nearest";
                if (s == "bilinear") s = "linear";
                if (s != mode->s()) {
                    for (auto& a : *n.mutable_attribute())
                        if (a.name() == "mode") a.set_s(s);
                    touched = true;
                }
            }
        } else if (op == "Cast") {
            for (auto& a : *n.mutable_attribute())
                if (a.name() == "to" && a.has_s()) {  // opsets 1-5 name the type; 6 on give its number
                    onnx::TensorProto::DataType t;
                    std::string s = a.s();
                    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return char(std::toupper(ch)); });
                    if (!onnx::TensorProto::DataType_Parse(s, &t))
                        throw InputError(where + ": unknown type name \"" + a.s() + "\" in `to`");
                    a.clear_s();
                    a.set_type(onnx::AttributeProto::INT);
                    a.set_i(t);
                    touched = true;
                }
        } else if (op == "Split") {
            if (n.input_size() > 1 && !n.input(1).empty()) {
                const onnx::TensorProto* s = nullptr;
                for (const auto& t : g.initializer())
                    if (t.name() == n.input(1)) s = &t;
                if (!s) throw InputError(where + ": the split sizes are a computed tensor (opset 1); convert the model to opset 7");
                const TensorData d = read_tensor(*s, m.dir, where);
                std::vector<std::int64_t> v;
                for (std::size_t i = 0; i < d.size(); ++i) v.push_back(d.int_at(i));
                remove_attr(n, "split");
                add_ints(n, "split", v);
                n.mutable_input()->DeleteSubrange(1, n.input_size() - 1);
                touched = true;
            }
        }
        ranks.propagate(n);
        changed += touched ? 1 : 0;
    }
    if (!added.empty()) {
        // Each Unsqueeze goes right before its reader (shape inference visits the nodes in order).
        std::stable_sort(added.begin(), added.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
        std::size_t next = 0;
        for (int k = 0; k < g.node_size(); ++k) {
            for (; next < added.size() && added[next].first == k; ++next) *nodes.Add() = std::move(added[next].second);
            *nodes.Add() = std::move(*g.mutable_node(k));
        }
        g.mutable_node()->Swap(&nodes);
    }
    for (auto& op : *m.model.mutable_opset_import())
        if (op.domain().empty() || op.domain() == "ai.onnx") op.set_version(7);
    // Opset 7 needs IR version 3 at least (older files may declare 1 or 2).
    if (m.model.ir_version() < 3) m.model.set_ir_version(3);
    return changed + int(added.size());
}

}  // namespace vp::import
