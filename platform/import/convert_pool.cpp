// MaxPool, AveragePool (ceil_mode as extra end padding), GlobalAveragePool, GlobalMaxPool and
// ReduceMean over the spatial axes (a global average pool).
#include <algorithm>

#include "mapper/common/errors.h"
#include "platform/import/const_eval.h"
#include "platform/import/convert_context.h"

namespace vp::import {

using mapper::Layer;
using mapper::LayerKind;
using mapper::PoolOp;

namespace {

void pool_layer(Ctx& c, const onnx::NodeProto& n, int index, Layer l) {
    if (!c.is_act(n, 0)) throw Unsupported("the pooled input is not an activation");
    l.kind = LayerKind::Pool;
    l.K = l.C;
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

void windowed(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label, PoolOp op) {
    if (op == PoolOp::Max && n.output_size() > 1 && !n.output(1).empty() && c.uses[n.output(1)] > 0)
        throw Unsupported("the Indices output of MaxPool is used");
    const auto xd = c.dims_of(n.input(0), label);
    if (xd.size() != 4 && xd.size() != 3) throw Unsupported(std::to_string(int(xd.size()) - 2) + "-D pooling (1-D and 2-D are modelled)");
    const std::size_t r = xd.size() - 2;
    const auto k = attr_ints(n, "kernel_shape");
    if (k.size() != r) throw InputError(c.m.path + ": " + label + ": kernel_shape needs " + std::to_string(r) + " values");
    auto strides = attr_ints(n, "strides");
    if (strides.empty()) strides.assign(r, 1);
    auto dil = attr_ints(n, "dilations");
    for (auto d : dil)
        if (d != 1) throw Unsupported("dilated pooling windows are not modelled");
    if (strides.size() != r) throw InputError(c.m.path + ": " + label + ": strides needs " + std::to_string(r) + " values");
    for (std::size_t a = 0; a < r; ++a)
        if (k[a] < 1 || k[a] > 1024 || strides[a] < 1 || strides[a] > 1024)
            throw InputError(c.m.path + ": " + label + ": kernel or stride out of range 1..1024");
    const std::vector<std::int64_t> in(xd.begin() + 2, xd.end());
    std::vector<std::int64_t> pb, pe;
    resolve_pads(n, in, k, strides, pb, pe, label);
    const Value& x = c.in(n, 0);
    if (x.pad[0] || x.pad[1] || x.pad[2] || x.pad[3]) throw Unsupported("a Pad folded before a pooling layer");
    check_window_fits(c.m.path, label, in, k, {}, pb, pe);  // before the output's shape, which is unknown then
    const auto yd = c.dims_of(n.output(0), label);
    Layer l;
    l.pool_op = op;
    l.C = int(xd[1]);
    l.H = int(in[0]);
    l.W = r == 2 ? int(in[1]) : 1;
    l.R = int(k[0]);
    l.S = r == 2 ? int(k[1]) : 1;
    l.stride_h = int(strides[0]);
    l.stride_w = r == 2 ? int(strides[1]) : 1;
    l.pad_top = int(pb[0]);
    l.pad_bottom = int(pe[0]);
    l.pad_left = r == 2 ? int(pb[1]) : 0;
    l.pad_right = r == 2 ? int(pe[1]) : 0;
    // ceil_mode (and exporters' equivalent rounding): the extra window of ONNX's output size as
    // extra end padding, so that the floor formula of the layer model gives the same size.
    bool ceil_extended = false;
    if (yd.size() == xd.size()) {
        const std::int64_t want_p = yd[2], want_q = r == 2 ? yd[3] : 1;
        ceil_extended = want_p > l.P() || want_q > l.Q();
        if (want_p > l.P()) l.pad_bottom += int((want_p - 1) * l.stride_h + l.R - l.H - l.pad_top - l.pad_bottom);
        if (want_q > l.Q()) l.pad_right += int((want_q - 1) * l.stride_w + l.S - l.W - l.pad_left - l.pad_right);
        if (l.P() != want_p || l.Q() != want_q || yd[1] != l.C)
            throw InputError(c.m.path + ": " + label + ": ONNX shape inference gives " + std::to_string(want_p) + "x" +
                             std::to_string(want_q) + ", the pooling window gives " + std::to_string(l.P()) + "x" + std::to_string(l.Q()));
    }
    if (l.R > l.H + l.pad_top + l.pad_bottom || l.S > l.W + l.pad_left + l.pad_right)
        throw InputError(c.m.path + ": " + label + ": pooling window larger than the padded input");
    // An average pool's divisor rule, for the VTA host: count_include_pad 0 (positions in the input
    // only) holds whatever the padding; 1 counts the declared pads but not the extra windows of
    // ceil_mode, which the layer folds into its end padding: not recorded then.
    if (op == PoolOp::Avg && (l.pad_top || l.pad_bottom || l.pad_left || l.pad_right)) {
        l.count_include_pad = attr_int(n, "count_include_pad", 0) != 0;
        l.has_count_include_pad = !(l.count_include_pad && ceil_extended);
        if (!l.has_count_include_pad) l.count_include_pad = false;
    }
    pool_layer(c, n, index, l);
}

void global(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label, PoolOp op) {
    const auto xd = c.dims_of(n.input(0), label);
    if (xd.size() != 4 && xd.size() != 3) throw Unsupported("global pooling of a rank-" + std::to_string(xd.size()) + " tensor");
    Layer l;
    l.pool_op = op;
    l.C = int(xd[1]);
    l.H = l.R = l.stride_h = int(xd[2]);
    l.W = l.S = l.stride_w = xd.size() == 4 ? int(xd[3]) : 1;
    if (xd[1] < 1 || xd[2] < 1 || xd[2] > 32768 || (xd.size() == 4 && (xd[3] < 1 || xd[3] > 32768)))
        throw InputError(c.m.path + ": " + label + ": dimensions out of range");
    pool_layer(c, n, index, l);
}

void max_pool(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { windowed(c, n, i, label, PoolOp::Max); }
void avg_pool(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { windowed(c, n, i, label, PoolOp::Avg); }
void global_avg(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { global(c, n, i, label, PoolOp::Avg); }
void global_max(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { global(c, n, i, label, PoolOp::Max); }

// ReduceMean over exactly the spatial axes of an NCHW (or NCL) tensor: a global average pool; or
// the first node of a decomposed LayerNorm.
void reduce_mean(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    const auto xd = c.dims_of(n.input(0), label);
    const auto axes = reduce_axes(c, n, xd.size(), label);
    const auto rank = std::int64_t(xd.size());
    const std::vector<std::int64_t> spatial = rank == 4 ? std::vector<std::int64_t>{2, 3} : std::vector<std::int64_t>{2};
    if ((rank == 4 || rank == 3) && axes == spatial) return global(c, n, i, label, PoolOp::Avg);
    if (decomposed_layer_norm(c, n, i, label, axes)) return;
    throw Unsupported("ReduceMean over these axes (modelled: over the spatial axes, a global average pool; over the "
                      "trailing axes, the first node of the LayerNorm decomposition ReduceMean, Sub, Pow, ReduceMean, "
                      "Add, Sqrt, Div)");
}

}  // namespace

std::vector<std::int64_t> reduce_axes(Ctx& c, const onnx::NodeProto& n, std::size_t rank, const std::string& label) {
    auto axes = attr_ints(n, "axes");
    if (axes.empty() && n.input_size() > 1 && c.has_input(n, 1)) {  // opset 18 form
        const TensorData a = c.const_values(n, 1, label);
        axes.assign(a.i.begin(), a.i.end());
    }
    if (axes.empty())  // no axes: every axis (noop_with_empty_axes is opset 18's and not read)
        for (std::size_t k = 0; k < rank; ++k) axes.push_back(std::int64_t(k));
    for (auto& a : axes) a = a < 0 ? a + std::int64_t(rank) : a;
    std::sort(axes.begin(), axes.end());
    return axes;
}

void register_pool(std::unordered_map<std::string, Converter>& r) {
    r["MaxPool"] = max_pool;
    r["AveragePool"] = avg_pool;
    r["GlobalAveragePool"] = global_avg;
    r["GlobalMaxPool"] = global_max;
    r["ReduceMean"] = reduce_mean;
}

}  // namespace vp::import
