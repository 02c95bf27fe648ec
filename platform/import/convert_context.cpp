#include "platform/import/convert_context.h"

#include "mapper/common/errors.h"
#include "platform/import/const_eval.h"
#include "platform/import/shape_folding.h"

namespace vp::import {

using mapper::Layer;
using mapper::LayerKind;

const Value& Ctx::in(const onnx::NodeProto& n, int k) const {
    if (!has_input(n, k)) throw Unsupported("input " + std::to_string(k) + " is missing");
    auto it = values.find(n.input(k));
    if (it == values.end()) throw Unsupported("input \"" + n.input(k) + "\" has no value");
    return it->second;
}

bool Ctx::is_act(const onnx::NodeProto& n, int k) const {
    return has_input(n, k) && in(n, k).kind == ValueKind::Activation;
}

bool Ctx::is_const(const onnx::NodeProto& n, int k) const {
    return has_input(n, k) && in(n, k).kind == ValueKind::Constant;
}

std::vector<std::int64_t> Ctx::dims_of(const std::string& tensor, const std::string& label) const {
    auto it = types.find(tensor);
    if (it != types.end())
        if (auto d = static_dims(*it->second)) return *d;
    auto v = values.find(tensor);
    if (v != values.end() && v->second.kind == ValueKind::Constant && !v->second.dims.empty()) return v->second.dims;
    if (auto i = inits.find(tensor); i != inits.end()) return {i->second->dims().begin(), i->second->dims().end()};
    // Every input of the model has a static shape by now (onnx_import.cpp refuses the others).
    throw InputError(m.path + ": " + label + ": the shape of \"" + tensor +
                     "\" is unknown after shape inference (ONNX could not infer it from the static input shapes)");
}

int Ctx::type_of(const std::string& tensor) const {
    auto it = types.find(tensor);
    if (it != types.end() && it->second->has_tensor_type()) return it->second->tensor_type().elem_type();
    if (auto i = inits.find(tensor); i != inits.end()) return i->second->data_type();
    auto v = values.find(tensor);
    return v != values.end() ? v->second.type : 0;
}

void Ctx::chw(const std::vector<std::int64_t>& dims, int& C, int& H, int& W, const std::string& label, bool merge) const {
    std::vector<std::int64_t> d = dims;
    if (!d.empty() && d[0] == batch && d.size() > 1) d.erase(d.begin());
    else if (d.size() == 1 && d[0] == batch) d.clear();
    if (d.size() > 3 && !merge) throw Unsupported("a tensor of rank " + std::to_string(dims.size()) + " (only N, NC, NCL and NCHW are modelled)");
    while (d.size() > 3) {  // merge: the leading axes into C
        for (auto x : d)
            if (x < 1 || x > (std::int64_t(1) << 24))
                throw InputError(m.path + ": " + label + ": tensor dimension " + std::to_string(x) + " out of range 1..2^24");
        d[1] *= d[0];
        d.erase(d.begin());
    }
    std::int64_t v[3] = {1, 1, 1};
    for (std::size_t k = 0; k < d.size(); ++k) v[k] = d[k];
    for (auto x : v)
        if (x < 1 || x > (std::int64_t(1) << 24))
            throw InputError(m.path + ": " + label + ": tensor dimension " + std::to_string(x) + " out of range 1..2^24");
    C = int(v[0]);
    H = int(v[1]);
    W = int(v[2]);
}

TensorData Ctx::const_values(const onnx::NodeProto& n, int k, const std::string& label) const {
    const Value& v = in(n, k);
    if (v.kind != ValueKind::Constant || !v.init || v.computed)
        throw Unsupported("input " + std::to_string(k) + " (\"" + n.input(k) + "\") must be a constant");
    if (is_external(*v.init) && external_file(*v.init, m.dir).empty()) throw Unsupported("input without data");
    return read_tensor(*v.init, m.dir, m.path + ": " + label);
}

int Ctx::add_layer(Layer l, const onnx::NodeProto& n, int node_index, const std::string& out, const std::string& name_hint) {
    std::string base = !name_hint.empty() ? name_hint
                       : !n.name().empty() ? n.name()
                       : !out.empty()      ? out
                                           : n.op_type() + "_" + std::to_string(node_index);
    if (base == "input") base = "input_layer";
    std::string name = base;
    for (int k = 2; !names.insert(name).second; ++k) name = base + "_" + std::to_string(k);
    l.name = name;
    const int idx = int(net.layers.size());
    net.layers.push_back(std::move(l));
    LayerInfo li;
    li.out = out;
    li.node_label = n.op_type() + " \"" + n.name() + "\"";
    info.push_back(li);
    Value v;
    v.kind = ValueKind::Activation;
    v.producer = idx;
    auto it = types.find(out);
    if (it != types.end()) {
        if (auto d = static_dims(*it->second)) v.dims = *d;
        if (it->second->has_tensor_type()) v.type = it->second->tensor_type().elem_type();
    }
    values[out] = v;
    return idx;
}

void Ctx::alias(const std::string& out, const Value& v) {
    Value a = v;
    auto it = types.find(out);
    if (it != types.end()) {
        if (auto d = static_dims(*it->second)) a.dims = *d;
        if (it->second->has_tensor_type() && it->second->tensor_type().elem_type() != 0) a.type = it->second->tensor_type().elem_type();
    }
    for (int& p : a.pad) p = 0;
    values[out] = a;
}

void Ctx::fuse_into(int layer, const std::string& out) {
    Value v;
    v.kind = ValueKind::Activation;
    v.producer = layer;
    alias(out, v);
    info[std::size_t(layer)].out = out;
}

int Ctx::fusable(const std::string& tensor, std::initializer_list<LayerKind> kinds, bool with_act) const {
    auto v = values.find(tensor);
    if (v == values.end() || v->second.kind != ValueKind::Activation || v->second.producer < 0) return -1;
    const int p = v->second.producer;
    auto u = uses.find(tensor);
    if (u == uses.end() || u->second != 1) return -1;
    if (info[std::size_t(p)].out != tensor) return -1;
    const Layer& l = net.layers[std::size_t(p)];
    if (l.act != mapper::Activation::None && !with_act) return -1;
    for (LayerKind k : kinds)
        if (l.kind == k) return p;
    return -1;
}

void Ctx::note_quant_type(int type) {
    if (type_bits(type) > 0 && !is_float_type(type) && type_bits(type) <= 16) quant_bits = std::max(quant_bits, type_bits(type));
}

Converter find_converter(const std::string& op_type) {
    static const std::unordered_map<std::string, Converter> table = [] {
        std::unordered_map<std::string, Converter> r;
        register_conv(r);
        register_dense(r);
        register_pool(r);
        register_misc(r);
        return r;
    }();
    auto it = table.find(op_type);
    return it == table.end() ? nullptr : it->second;
}

void check_window_fits(const std::string& path, const std::string& label, const std::vector<std::int64_t>& in,
                       const std::vector<std::int64_t>& k, const std::vector<std::int64_t>& dil,
                       const std::vector<std::int64_t>& begin, const std::vector<std::int64_t>& end) {
    const std::size_t r = in.size();
    for (std::size_t a = 0; a < r; ++a) {
        const std::int64_t d = a < dil.size() ? dil[a] : 1, window = (k[a] - 1) * d + 1, padded = in[a] + begin[a] + end[a];
        if (window <= padded) continue;
        const std::string axis = r == 1 ? "length" : a == 0 ? "height" : "width";
        throw InputError(path + ": " + label + ": kernel " + axis + " " + std::to_string(k[a]) +
                         (d != 1 ? " (window " + std::to_string(window) + " with dilation " + std::to_string(d) + ")" : "") +
                         " exceeds the padded input " + axis + " " + std::to_string(padded) + " (" + std::to_string(in[a]) +
                         " + pads " + std::to_string(begin[a]) + " and " + std::to_string(end[a]) + ")");
    }
}

void resolve_pads(const onnx::NodeProto& n, const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& k,
                  const std::vector<std::int64_t>& s, std::vector<std::int64_t>& begin, std::vector<std::int64_t>& end,
                  const std::string& label) {
    const std::size_t r = in.size();
    begin.assign(r, 0);
    end.assign(r, 0);
    const std::string ap = attr_string(n, "auto_pad", "NOTSET");
    if (ap == "NOTSET") {
        const auto pads = attr_ints(n, "pads");
        if (pads.empty()) return;
        if (pads.size() != 2 * r) throw Unsupported("\"pads\" has " + std::to_string(pads.size()) + " values, expected " + std::to_string(2 * r));
        for (std::size_t a = 0; a < r; ++a) {
            begin[a] = pads[a];
            end[a] = pads[a + r];
            if (begin[a] < 0 || end[a] < 0) throw Unsupported("negative padding");
        }
    } else if (ap == "SAME_UPPER" || ap == "SAME_LOWER") {
        // Output ceil(in / s); total padding (out - 1) * s + k - in, the odd unit at the end
        // (SAME_UPPER) or at the beginning (SAME_LOWER).
        for (std::size_t a = 0; a < r; ++a) {
            const std::int64_t out = (in[a] + s[a] - 1) / s[a];
            const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * s[a] + k[a] - in[a]);
            const std::int64_t small = total / 2, big = total - small;
            begin[a] = ap == "SAME_UPPER" ? small : big;
            end[a] = ap == "SAME_UPPER" ? big : small;
        }
    } else if (ap != "VALID") {
        throw Unsupported("auto_pad \"" + ap + "\" is not an ONNX value (" + label + ")");
    }
}

}  // namespace vp::import
