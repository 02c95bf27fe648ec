// Element-wise (Add, Sum, Sub, Mul, Div), Concat, Split, Slice, Resize / Upsample, the
// layout-only operators, BatchNormalization, LayerNormalization, the activations, Pad and the
// quantisation nodes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <utility>

#include "mapper/common/errors.h"
#include "platform/import/const_eval.h"
#include "platform/import/convert_context.h"

namespace vp::import {

using mapper::Activation;
using mapper::Layer;
using mapper::LayerKind;

namespace {

std::int64_t norm_axis(std::int64_t axis, std::size_t rank) { return axis < 0 ? axis + std::int64_t(rank) : axis; }

// Layer with C, H, W of the (per-sample) tensor `t` (`merge`: Ctx::chw's).
Layer shaped(Ctx& c, LayerKind kind, const std::string& t, const std::string& label, bool merge = false) {
    Layer l;
    l.kind = kind;
    c.chw(c.dims_of(t, label), l.C, l.H, l.W, label, merge);
    l.K = l.C;
    return l;
}

// The axis of the layer's C x H x W (Ctx::chw with merge) that axis `axis` of a tensor of dims `d`
// is: the last per-sample axis W, the one before H (of three or more), the first C; an axis merged
// into C is C when the axes before it are all 1 (its positions are then whole runs of channels),
// with `inner` the product of the merged axes after it (1 otherwise). Unknown: the batch axis, or a
// merged axis with a longer axis before it.
mapper::SoftmaxAxis layer_axis(const Ctx& c, const std::vector<std::int64_t>& d, std::int64_t axis, std::int64_t& inner) {
    inner = 1;
    if (d.size() < 2) return mapper::SoftmaxAxis::Unknown;  // a rank-1 tensor: its one axis may be the batch
    const std::size_t first = d[0] == c.batch ? 1 : 0;      // as Ctx::chw drops it
    if (axis < std::int64_t(first) || axis >= std::int64_t(d.size())) return mapper::SoftmaxAxis::Unknown;
    const std::size_t a = std::size_t(axis) - first, n = d.size() - first;
    if (n >= 2 && a == n - 1) return n == 2 ? mapper::SoftmaxAxis::H : mapper::SoftmaxAxis::W;
    if (n >= 3 && a == n - 2) return mapper::SoftmaxAxis::H;
    const std::size_t merged = n > 3 ? n - 2 : 1;  // per-sample axes in C
    for (std::size_t k = 0; k < a; ++k)
        if (d[first + k] != 1) return mapper::SoftmaxAxis::Unknown;
    for (std::size_t k = a + 1; k < merged; ++k) inner *= d[first + k];
    return mapper::SoftmaxAxis::C;
}

std::string axis_refusal(const std::string& what, std::int64_t axis) {
    return what + " along axis " + std::to_string(axis) +
           " (modelled: the channel axis, the last two axes, and an axis merged into the channels with only 1s before it)";
}

// --- element-wise ---------------------------------------------------------------------------

void eltwise(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label, mapper::EltwiseOp op) {
    std::vector<int> acts;
    for (int k = 0; k < n.input_size(); ++k)
        if (c.is_act(n, k)) acts.push_back(k);
    const bool sub = n.op_type() == "Sub", div = n.op_type() == "Div";
    if (acts.size() == 1 && n.input_size() == 2) {
        if (div && acts[0] != 0) throw Unsupported("a constant divided by an activation");
        const std::string& x = n.input(acts[0]);
        const int other = 1 - acts[0];
        int oc = 1, oh = 1, ow = 1;
        if (c.has_input(n, other)) c.chw(c.dims_of(n.input(other), label), oc, oh, ow, label, true);
        // The constant scale and shift after a layernorm (its decomposed form, or a Mul / Add of
        // constants after LayerNormalization): the layer's own affine step, when the constant does
        // not widen the tensor.
        const int ln = c.fusable(x, {LayerKind::LayerNorm});
        if (ln >= 0 && c.is_const(n, other) &&
            element_count(c.dims_of(n.output(0), label), label) == element_count(c.dims_of(x, label), label)) {
            c.fuse_into(ln, n.output(0));
            ++c.stats.fused_bias;
            return;
        }
        // A bias add (per channel or scalar) after conv / fc, or the dequantisation scale after an
        // integer conv / matmul: folded into that layer.
        const int p = c.fusable(x, {LayerKind::Conv, LayerKind::FullyConnected});
        if (p >= 0 && oh == 1 && ow == 1 && (oc == 1 || oc == c.net.layers[std::size_t(p)].K)) {
            const bool bias = op == mapper::EltwiseOp::Add && (!sub || acts[0] == 0);
            const bool scale = op == mapper::EltwiseOp::Mul && c.info[std::size_t(p)].integer_output;
            if (bias || scale) {
                if (scale) c.info[std::size_t(p)].integer_output = false;
                c.fuse_into(p, n.output(0));
                ++c.stats.fused_bias;
                return;
            }
        }
    }
    Layer l = shaped(c, LayerKind::Eltwise, n.output(0), label, true);
    l.eltwise_op = op;
    for (int k : acts) {
        int C, H, W;
        c.chw(c.dims_of(n.input(k), label), C, H, W, label, true);
        if (l.input_elems() % (std::uint64_t(C) * H * W) != 0) throw Unsupported("an operand that does not broadcast to the output");
        l.inputs.push_back(c.producer(n, k));
    }
    c.add_layer(l, n, index, n.output(0));
}

void add(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { eltwise(c, n, i, label, mapper::EltwiseOp::Add); }
void mul(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { eltwise(c, n, i, label, mapper::EltwiseOp::Mul); }

// Pow of an activation to the constant 2 (YOLOv5's box sizes, (2 sigmoid(t))^2): the product of
// the activation with itself, an eltwise mul of one producer twice. Other exponents are refused.
void pow(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    if (!c.is_act(n, 0)) throw Unsupported("a power of a constant");
    if (!c.is_const(n, 1)) throw Unsupported("an exponent computed at run time");
    const TensorData e = c.const_values(n, 1, label);
    if (e.size() == 0) throw InputError(c.m.path + ": " + label + ": Pow's exponent is an empty tensor");
    for (std::size_t k = 0; k < e.size(); ++k)
        if (e.at(k) != 2.0) {
            std::ostringstream os;
            os << "exponent " << e.at(k) << " (modelled: 2, the product of the input with itself)";
            throw Unsupported(os.str());
        }
    const auto xd = c.dims_of(n.input(0), label);
    if (element_count(c.dims_of(n.output(0), label), label) != element_count(xd, label))
        throw Unsupported("an exponent that widens the input");
    Layer l = shaped(c, LayerKind::Eltwise, n.output(0), label, true);
    l.eltwise_op = mapper::EltwiseOp::Mul;
    l.inputs = {c.producer(n, 0), c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

// --- concat / split / slice --------------------------------------------------------------------

void concat(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    const auto yd = c.dims_of(n.output(0), label);
    const std::int64_t axis = norm_axis(attr_int(n, "axis", 1), yd.size());
    std::int64_t inner = 1;
    // The axis as the operands see it (the output's extent along it is their sum: not the batch).
    const mapper::SoftmaxAxis a = yd.size() < 2 ? mapper::SoftmaxAxis::C : layer_axis(c, c.dims_of(n.input(0), label), axis, inner);
    if (a == mapper::SoftmaxAxis::Unknown) throw Unsupported(axis_refusal("concat", axis));
    Layer l = shaped(c, LayerKind::Concat, n.output(0), label, true);
    l.data_axis = a;
    for (int k = 0; k < n.input_size(); ++k) {
        if (!c.is_act(n, k)) throw Unsupported("a concat of activations and constants");
        l.inputs.push_back(c.producer(n, k));
    }
    c.add_layer(l, n, index, n.output(0));
}

// A slice layer reading the tensor of dims `xd` (produced by layer `src`) along ONNX axis `axis`:
// `count` positions from `start` in steps of `step` (ONNX units), written to `out`.
int slice_layer(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label, const std::vector<std::int64_t>& xd, int src,
                std::int64_t axis, std::int64_t start, std::int64_t count, std::int64_t step, const std::string& out,
                const std::string& name) {
    std::int64_t inner = 1;
    const mapper::SoftmaxAxis a = layer_axis(c, xd, axis, inner);
    if (a == mapper::SoftmaxAxis::Unknown) throw Unsupported(axis_refusal(n.op_type() == "Split" ? "split" : "slice", axis));
    if (step != 1 && inner != 1) throw Unsupported("a slice with step " + std::to_string(step) + " along an axis merged into the channels");
    Layer l;
    l.kind = LayerKind::Slice;
    c.chw(xd, l.C, l.H, l.W, label, true);
    l.K = l.C;
    l.data_axis = a;
    l.offset = int(start * inner);
    l.slice_step = count == 1 ? 1 : int(step);
    if (!mapper::set_slice_count(l, count * inner).empty()) throw Unsupported("a slice that the layer's C x H x W cannot express");
    l.inputs = {src};
    return c.add_layer(l, n, index, out, name);
}

void split(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    const auto xd = c.dims_of(n.input(0), label);
    const std::int64_t axis = norm_axis(attr_int(n, "axis", 0), xd.size());
    if (axis < 0 || axis >= std::int64_t(xd.size())) throw InputError(c.m.path + ": " + label + ": split axis outside the input's rank");
    std::int64_t off = 0;
    for (int o = 0; o < n.output_size(); ++o) {
        const auto yd = c.dims_of(n.output(o), label);
        const std::string base = n.name().empty() ? n.output(o) : n.name() + ":" + std::to_string(o);
        if (yd.size() != xd.size()) throw InputError(c.m.path + ": " + label + ": a split output of another rank");
        slice_layer(c, n, index, label, xd, c.producer(n, 0), axis, off, yd[std::size_t(axis)], 1, n.output(o), base);
        off += yd[std::size_t(axis)];
    }
}

void slice(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    const auto xd = c.dims_of(n.input(0), label), yd = c.dims_of(n.output(0), label);
    std::vector<std::int64_t> starts, axes, steps;
    if (c.m.opset >= 10) {
        starts = c.const_values(n, 1, label).i;
        if (c.has_input(n, 3)) axes = c.const_values(n, 3, label).i;
        if (c.has_input(n, 4)) steps = c.const_values(n, 4, label).i;
    } else {
        starts = attr_ints(n, "starts");
        axes = attr_ints(n, "axes");
    }
    if (axes.empty())
        for (std::size_t k = 0; k < starts.size(); ++k) axes.push_back(std::int64_t(k));
    if (xd.size() != yd.size()) throw Unsupported("a slice that changes the rank");
    if (starts.size() != axes.size() || (!steps.empty() && steps.size() != axes.size()))
        throw InputError(c.m.path + ": " + label + ": Slice's starts, axes and steps differ in length");
    // One slice layer per axis whose extent changes (YOLOv5's Focus: every second row, then every
    // second column), chained in the order of the axes.
    std::vector<std::int64_t> cur = xd;
    int src = c.producer(n, 0), last = -1;
    std::vector<std::size_t> changed;
    for (std::size_t k = 0; k < axes.size(); ++k) {
        const std::int64_t a = norm_axis(axes[k], xd.size());
        if (a < 0 || a >= std::int64_t(xd.size())) throw InputError(c.m.path + ": " + label + ": Slice axis outside the input's rank");
        // A negative step reverses the axis even when it keeps its extent.
        if (!steps.empty() && steps[k] < 1 && xd[std::size_t(a)] > 1)
            throw Unsupported("a slice with step " + std::to_string(steps[k]) + " (positive steps are modelled)");
        if (xd[std::size_t(a)] != yd[std::size_t(a)]) changed.push_back(k);
    }
    for (std::size_t j = 0; j < changed.size(); ++j) {
        const std::size_t k = changed[j];
        const std::size_t a = std::size_t(norm_axis(axes[k], xd.size()));
        const std::int64_t step = steps.empty() ? 1 : steps[k];
        if (step < 1) throw Unsupported("a slice with step " + std::to_string(step) + " (positive steps are modelled)");
        std::int64_t start = starts[k] < 0 ? starts[k] + xd[a] : starts[k];
        start = std::clamp<std::int64_t>(start, 0, xd[a]);
        const std::int64_t count = yd[a];
        if (count < 1 || start + (count - 1) * step > xd[a] - 1)
            throw InputError(c.m.path + ": " + label + ": Slice's output extent " + std::to_string(count) + " along axis " +
                             std::to_string(a) + " does not fit its start and step");
        const bool final_axis = j + 1 == changed.size();
        const std::string out = final_axis ? n.output(0) : n.output(0) + "#axis" + std::to_string(a);
        const std::string name = final_axis || n.name().empty() ? "" : n.name() + ":axis" + std::to_string(a);
        last = slice_layer(c, n, index, label, cur, src, std::int64_t(a), start, count, step, out, name);
        cur[a] = count;
        src = last;
    }
    if (last < 0) {  // the extents are unchanged: selects everything
        c.alias(n.output(0), c.in(n, 0));
        ++c.stats.layout;
    }
}

// --- resize ----------------------------------------------------------------------------------

void resize(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    const std::string mode = attr_string(n, "mode", "nearest");
    if (mode != "nearest" && mode != "linear" && mode != "bilinear") throw Unsupported("resize mode \"" + mode + "\" (nearest and linear are modelled)");
    const auto xd = c.dims_of(n.input(0), label), yd = c.dims_of(n.output(0), label);
    if (xd.size() != 4 || yd.size() != 4 || xd[0] != yd[0] || xd[1] != yd[1])
        throw Unsupported("a resize of other than the two spatial axes of an NCHW tensor");
    Layer l = shaped(c, LayerKind::Resize, n.input(0), label);
    l.out_h = int(yd[2]);
    l.out_w = int(yd[3]);
    if (yd[2] < 1 || yd[3] < 1 || yd[2] > 32768 || yd[3] > 32768) throw InputError(c.m.path + ": " + label + ": output size out of range");
    l.resize_mode = mode == "nearest" ? mapper::ResizeMode::Nearest : mapper::ResizeMode::Linear;
    // The coordinate mapping and the nearest rounding, for the VTA host (the shape platforms do not
    // need them). Upsample and Resize-10 have no attributes for them: asymmetric, floor (the ONNX
    // reference implementation's); a mode outside the five below (tf_crop_and_resize) is not recorded.
    using mapper::NearestRound;
    using mapper::ResizeCoord;
    if (n.op_type() == "Upsample" || c.m.opset < 11) {
        l.resize_coord = ResizeCoord::Asymmetric;
        l.nearest_round = NearestRound::Floor;
    } else {
        l.resize_coord = mapper::resize_coord_of(attr_string(n, "coordinate_transformation_mode", "half_pixel"));
        l.nearest_round = mapper::nearest_round_of(attr_string(n, "nearest_mode", "round_prefer_floor"));
    }
    if (l.resize_mode != mapper::ResizeMode::Nearest) l.nearest_round = mapper::NearestRound::Unknown;
    // The modes map with the scale a node gives; the host maps with the ratio of the sizes (P / H).
    // The two differ when the scale times the input size is not the output size (a scale of 0.6 on
    // 4 pixels: 2.4 -> 2): then nothing is recorded, and the VTA refuses what needs the modes.
    const bool sizes_given = n.op_type() == "Resize" && c.m.opset >= 11 && n.input_size() > 3 && !n.input(3).empty();
    if (!sizes_given) {
        const int si = n.op_type() == "Upsample" || c.m.opset < 11 ? 1 : 2;
        std::vector<double> sc;
        try {
            if (n.input_size() > si && !n.input(si).empty()) {
                const TensorData t = c.const_values(n, si, label);
                for (std::size_t k = 0; k < t.size(); ++k) sc.push_back(t.is_float() ? t.f[k] : double(t.i[k]));
            } else {
                for (const auto& a : n.attribute())  // Upsample-7/9: the scales attribute
                    if (a.name() == "scales")
                        for (float f : a.floats()) sc.push_back(double(f));
            }
        } catch (const Unsupported&) {
            sc.clear();
        }
        if (sc.size() != 4 || double(xd[2]) * sc[2] != double(yd[2]) || double(xd[3]) * sc[3] != double(yd[3])) {
            l.resize_coord = mapper::ResizeCoord::Unknown;
            l.nearest_round = mapper::NearestRound::Unknown;
        }
    }
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

// --- layout-only and removed nodes -------------------------------------------------------------

void layout(Ctx& c, const onnx::NodeProto& n, int, const std::string&) {
    for (int o = 1; o < n.output_size(); ++o)
        if (!n.output(o).empty() && c.uses[n.output(o)] > 0) throw Unsupported("output " + std::to_string(o) + " is used");
    c.alias(n.output(0), c.in(n, 0));
    ++c.stats.layout;
}

// Element-wise transparent nodes (Identity, Dropout, Cast, (De)QuantizeLinear): a later
// activation or batch norm may still fuse into the layer before them.
void transparent(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    const std::string& x = n.input(0);
    const int p = c.fusable(x, {LayerKind::Conv, LayerKind::FullyConnected, LayerKind::Eltwise});
    layout(c, n, i, label);
    if (p >= 0) c.info[std::size_t(p)].out = n.output(0);
}

void quantize(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    c.note_quant_type(c.has_input(n, 2) ? c.type_of(n.input(2)) : int(onnx::TensorProto::UINT8));
    transparent(c, n, i, label);
}

void dequantize(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    c.note_quant_type(c.type_of(n.input(0)));
    transparent(c, n, i, label);
}

void dynamic_quantize(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    c.note_quant_type(onnx::TensorProto::UINT8);
    Value side;
    side.kind = ValueKind::Side;
    for (int o = 1; o < n.output_size(); ++o) c.values[n.output(o)] = side;
    c.alias(n.output(0), c.in(n, 0));
    (void)i;
    (void)label;
    ++c.stats.layout;
}

// --- batch norm and activations ----------------------------------------------------------------

void batch_norm(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    if (attr_int(n, "training_mode", 0) != 0) throw Unsupported("training mode");
    for (int o = 1; o < n.output_size(); ++o)
        if (!n.output(o).empty() && c.uses[n.output(o)] > 0) throw Unsupported("the running statistics outputs are used");
    const int p = c.fusable(n.input(0), {LayerKind::Conv, LayerKind::FullyConnected});
    if (p >= 0) {
        c.info[std::size_t(p)].w.batchnorms.push_back(&n);
        c.fuse_into(p, n.output(0));
        ++c.stats.fused_bn;
        return;
    }
    Layer l = shaped(c, LayerKind::BatchNorm, n.input(0), label);
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

void activation(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label, Activation act,
                const std::optional<double>& alpha = std::nullopt, double beta = 0.0,
                const std::optional<std::pair<double, double>>& clip = std::nullopt) {
    const auto set_act = [&](Layer& l) {
        l.act = act;
        l.has_alpha = alpha.has_value();
        l.alpha = alpha.value_or(0.0);
        l.beta = alpha ? beta : 0.0;
        l.has_clip = clip.has_value();
        l.clip_lo = clip ? clip->first : 0.0;
        l.clip_hi = clip ? clip->second : 0.0;
    };
    const int p = act == Activation::Softmax
                      ? -1
                      : c.fusable(n.input(0), {LayerKind::Conv, LayerKind::FullyConnected, LayerKind::Eltwise});
    if (p >= 0) {
        Layer& l = c.net.layers[std::size_t(p)];
        set_act(l);
        l.relu = act == Activation::Relu || act == Activation::Relu6;
        c.fuse_into(p, n.output(0));
        ++c.stats.fused_act;
        return;
    }
    // relu / relu6 after a layer that already clamps with relu / relu6 (Relu after Relu, Clip(0, 6)
    // after Relu, ...): the composition is the tighter clamp, fused as well.
    const auto clamp = [](Activation a) { return a == Activation::Relu || a == Activation::Relu6; };
    const int q = clamp(act) ? c.fusable(n.input(0), {LayerKind::Conv, LayerKind::FullyConnected, LayerKind::Eltwise}, true) : -1;
    if (q >= 0 && clamp(c.net.layers[std::size_t(q)].act)) {
        Layer& l = c.net.layers[std::size_t(q)];
        if (act == Activation::Relu6) l.act = Activation::Relu6;
        c.fuse_into(q, n.output(0));
        ++c.stats.fused_act;
        return;
    }
    Layer l = shaped(c, LayerKind::Activation, n.input(0), label, act != Activation::Softmax);
    set_act(l);
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

// The layernorm layer of a normalisation of tensor x over its axes from `first` on (first >= 1: not
// over the batch axis), with `eps` added to the variance: the layer's C, H, W and the axes it
// normalises over in them ("axis"). x written by a Transpose to channels-last ([N, C, H, W] ->
// [N, H, W, C], ConvNeXt's blocks, whose other layers vp-import reads in the producer's C x H x W
// as well) and normalised over its last axis: over C, in the Transpose input's shape. Otherwise
// the layer has x's shape, and the trailing axes from `first` are CHW, HW or W of it (a channels-last
// tensor normalised over all of H, W, C: CHW). Axes that are none of these (over W and C of a
// channels-last map) are not recorded: the VTA host then refuses the layer.
Layer normalised_layer(Ctx& c, const std::string& x, std::int64_t first, double eps, const std::string& label) {
    const double recorded_eps = eps <= 1e9 ? eps : 0.0;  // beyond the workload format's range: not recorded (the VTA refuses)
    const auto xd = c.dims_of(x, label);
    const auto& g = c.m.model.graph();
    const onnx::NodeProto* t = nullptr;
    for (const auto& node : g.node())
        if (node.op_type() == "Transpose" && node.output_size() > 0 && node.output(0) == x) t = &node;
    const bool batched = xd.size() > 1 && xd[0] == c.batch;
    using mapper::SoftmaxAxis;
    if (t && batched && xd.size() == 4 && attr_ints(*t, "perm") == std::vector<std::int64_t>{0, 2, 3, 1}) {
        Layer l = shaped(c, LayerKind::LayerNorm, t->input(0), label);
        l.norm_axis = first == 3 ? SoftmaxAxis::C : first == 1 ? SoftmaxAxis::CHW : SoftmaxAxis::Unknown;
        l.norm_eps = recorded_eps;
        return l;
    }
    Layer l = shaped(c, LayerKind::LayerNorm, x, label);
    static const SoftmaxAxis from[3] = {SoftmaxAxis::CHW, SoftmaxAxis::HW, SoftmaxAxis::W};
    const std::int64_t k = batched ? first - 1 : first;  // 0 = C, 1 = H, 2 = W
    if (k >= 0 && k <= 2) l.norm_axis = from[k];
    l.norm_eps = recorded_eps;
    return l;
}

// The epsilon of a normalisation node (LayerNormalization, InstanceNormalization: default 1e-5),
// which must be above 0.
double norm_epsilon(const Ctx& c, const onnx::NodeProto& n, const std::string& label) {
    const double eps = double(attr_float(n, "epsilon", 1e-5f));
    if (!std::isfinite(eps)) throw InputError(c.m.path + ": " + label + ": epsilon is not a finite number");
    if (!(eps > 0.0)) throw Unsupported("an epsilon of " + std::to_string(eps) + " (a group of equal values would divide by zero)");
    if (eps > 1e9) throw Unsupported("an epsilon above 1e9");
    return eps;
}

// LayerNormalization (opset 17; ConvNeXt, and the transformers' blocks): normalises over the axes from
// `axis` on with statistics computed at run time, then scales and shifts by constants. Imported as a
// layernorm layer (one pass over the tensor, as a batch norm; nmp and mesh list it as skipped, the
// VTA host runs it) with the axes and epsilon (normalised_layer). The optional mean and
// inverse-deviation outputs are training outputs.
void layer_norm(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    for (int o = 1; o < n.output_size(); ++o)
        if (!n.output(o).empty() && c.uses[n.output(o)] > 0) throw Unsupported("the mean or inverse deviation output is used");
    for (int k = 1; k < n.input_size() && k < 3; ++k)
        if (c.has_input(n, k) && !c.is_const(n, k)) throw Unsupported("the scale or bias is not a constant");
    if (!c.has_input(n, 1)) throw InputError(c.m.path + ": " + label + ": LayerNormalization needs its scale input");
    const auto xd = c.dims_of(n.input(0), label);
    const std::int64_t axis = attr_int(n, "axis", -1);
    if (axis < -std::int64_t(xd.size()) || axis >= std::int64_t(xd.size()))
        throw InputError(c.m.path + ": " + label + ": axis " + std::to_string(axis) + " outside a rank-" +
                         std::to_string(xd.size()) + " input");
    if (norm_axis(axis, xd.size()) == 0) throw Unsupported("normalisation over the batch axis");
    Layer l = normalised_layer(c, n.input(0), norm_axis(axis, xd.size()), norm_epsilon(c, n, label), label);
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

// DepthToSpace (the pixel shuffle of super-resolution networks; its DCR or CRD channel order) and
// SpaceToDepth (YOLOv2's reorg): depth_to_space / space_to_depth layers with the block size.
void space_depth(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    const bool d2s = n.op_type() == "DepthToSpace";
    const auto xd = c.dims_of(n.input(0), label);
    if (xd.size() != 4) throw Unsupported("a rank-" + std::to_string(xd.size()) + " input (N x C x H x W is modelled)");
    const std::int64_t b = attr_int(n, "blocksize", 0);
    if (b < 1 || b > 1024) throw InputError(c.m.path + ": " + label + ": blocksize " + std::to_string(b) + " outside 1..1024");
    Layer l = shaped(c, d2s ? LayerKind::DepthToSpace : LayerKind::SpaceToDepth, n.input(0), label);
    l.block = int(b);
    if (d2s) {
        const std::string mode = attr_string(n, "mode", "DCR");
        if (mode != "DCR" && mode != "CRD") throw InputError(c.m.path + ": " + label + ": mode \"" + mode + "\" (DCR or CRD expected)");
        l.crd = mode == "CRD";
    }
    if (const std::string e = mapper::set_space_depth_shape(l); !e.empty())
        throw InputError(c.m.path + ": " + label + ": blocksize " + std::to_string(b) + ": " + e);
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

// InstanceNormalization (style-transfer networks): each channel of each sample normalised over its
// H x W positions, then scaled and shifted per channel by constants. Imported as a layernorm layer
// over HW (what the layer computes is the same; the per-channel scale and shift are its affine step).
void instance_norm(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    for (int k = 1; k < 3; ++k) {
        if (!c.has_input(n, k)) throw InputError(c.m.path + ": " + label + ": InstanceNormalization needs its scale and bias inputs");
        if (!c.is_const(n, k)) throw Unsupported("the scale or bias is not a constant");
    }
    const auto xd = c.dims_of(n.input(0), label);
    if (xd.size() < 3) throw InputError(c.m.path + ": " + label + ": InstanceNormalization of a rank-" + std::to_string(xd.size()) +
                                        " input (N x C x D1 ... expected)");
    Layer l = normalised_layer(c, n.input(0), 2, norm_epsilon(c, n, label), label);
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

}  // namespace

bool decomposed_layer_norm(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label,
                           const std::vector<std::int64_t>& axes) {
    const auto& g = c.m.model.graph();
    const std::string& x = n.input(0);
    const auto xd = c.dims_of(x, label);
    // Normalised axes: a trailing run that leaves the batch axis out.
    if (axes.empty() || axes.front() < 1 || axes.back() != std::int64_t(xd.size()) - 1 ||
        axes.back() - axes.front() + 1 != std::int64_t(axes.size()))
        return false;
    const auto uses = [&](const std::string& t) {
        const auto u = c.uses.find(t);
        return u == c.uses.end() ? 0 : u->second;
    };
    // The only node reading t (once, t not a graph output) if it is of type op, else -1.
    const auto only_reader = [&](const std::string& t, const char* op) {
        const auto r = c.readers.find(t);
        if (r == c.readers.end() || r->second.size() != 1 || uses(t) != 1) return -1;
        return g.node(r->second[0].first).op_type() == op ? r->second[0].first : -1;
    };
    // A scalar constant input (an initializer: constants are folded into initializers before
    // conversion), or NaN.
    const auto scalar = [&](const onnx::NodeProto& m, int k) {
        if (!c.values.count(m.input(k))) return std::numeric_limits<double>::quiet_NaN();
        try {
            const TensorData t = c.const_values(m, k, label);
            return t.size() == 1 ? t.at(0) : std::numeric_limits<double>::quiet_NaN();
        } catch (const Unsupported&) {
            return std::numeric_limits<double>::quiet_NaN();
        }
    };
    const auto keeps_dims = [](const onnx::NodeProto& m) { return attr_int(m, "keepdims", 1) != 0; };
    if (!keeps_dims(n)) return false;
    const int sub = only_reader(n.output(0), "Sub");
    if (sub < 0 || g.node(sub).input(0) != x || g.node(sub).input(1) != n.output(0)) return false;
    const std::string& d = g.node(sub).output(0);
    // d = x - mean: squared (Pow(d, 2) or Mul(d, d)) and divided by the deviation.
    int sq = -1, div = -1;
    const auto rd = c.readers.find(d);
    if (rd == c.readers.end() || uses(d) != int(rd->second.size())) return false;
    for (const auto& [node, k] : rd->second) {
        const onnx::NodeProto& m = g.node(node);
        if (m.op_type() == "Div" && k == 0 && div < 0) div = node;
        else if (m.op_type() == "Pow" && k == 0 && sq < 0 && scalar(m, 1) == 2.0) sq = node;
        else if (m.op_type() == "Mul" && m.input_size() == 2 && m.input(0) == d && m.input(1) == d && (sq < 0 || sq == node)) sq = node;
        else return false;
    }
    if (sq < 0 || div < 0) return false;
    const int var = only_reader(g.node(sq).output(0), "ReduceMean");
    if (var < 0 || !keeps_dims(g.node(var)) || reduce_axes(c, g.node(var), xd.size(), label) != axes) return false;
    const int eps = only_reader(g.node(var).output(0), "Add");
    if (eps < 0) return false;
    const onnx::NodeProto& e = g.node(eps);
    const int eps_const = e.input(0) == g.node(var).output(0) ? 1 : 0;
    if (e.input_size() != 2 || !(scalar(e, eps_const) >= 0)) return false;
    const int root = only_reader(e.output(0), "Sqrt");
    if (root < 0 || only_reader(g.node(root).output(0), "Div") != div || g.node(div).input(1) != g.node(root).output(0))
        return false;
    Layer l = normalised_layer(c, x, axes.front(), scalar(e, eps_const), label);
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, g.node(div).output(0));
    for (int k : {sub, sq, var, eps, root, div}) c.absorbed.insert(k);
    return true;
}

namespace {

void relu(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { activation(c, n, i, label, Activation::Relu); }
void erf(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { activation(c, n, i, label, Activation::Erf); }
// LeakyRelu: its `alpha` (ONNX's default 0.01 when the node has none) is recorded for the VTA host.
void leaky(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    const double alpha = double(attr_float(n, "alpha", 0.01f));
    if (!std::isfinite(alpha)) throw InputError(c.m.path + ": " + label + ": LeakyRelu's alpha is not a finite number");
    activation(c, n, i, label, Activation::LeakyRelu, alpha);
}
// PRelu: a leaky relu whose slope is a constant per channel (or one for all): the same per-element
// work; a slope computed from the activations is not modelled. One slope for every element is
// recorded as alpha; per-channel slopes are not (the VTA host refuses the layer then).
void prelu(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    if (!c.has_input(n, 1) || !c.is_const(n, 1)) throw Unsupported("the slope is not a constant");
    std::optional<double> alpha;
    try {  // a slope without stored values (a model kept for its shapes) or folded: no alpha
        const TensorData slope = c.const_values(n, 1, label);
        bool one = slope.size() > 0;
        for (std::size_t k = 1; one && k < slope.size(); ++k) one = slope.at(k) == slope.at(0);
        if (one && std::isfinite(slope.at(0))) alpha = slope.at(0);
    } catch (const Unsupported&) {
    }
    activation(c, n, i, label, Activation::LeakyRelu, alpha);
}
void sigmoid(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { activation(c, n, i, label, Activation::Sigmoid); }
// HardSigmoid: max(0, min(1, alpha x + beta)); its `alpha` and `beta` (ONNX's defaults 0.2 and 0.5)
// are recorded for the VTA host.
void hsigmoid(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    const double alpha = double(attr_float(n, "alpha", 0.2f)), beta = double(attr_float(n, "beta", 0.5f));
    if (!std::isfinite(alpha) || !std::isfinite(beta) || std::abs(alpha) > 1e3 || std::abs(beta) > 1e3)
        throw InputError(c.m.path + ": " + label + ": HardSigmoid's alpha and beta must be finite numbers in [-1000, 1000]");
    activation(c, n, i, label, Activation::HardSigmoid, alpha, beta);
}
void hswish(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { activation(c, n, i, label, Activation::HardSwish); }
// Softmax: the axes it normalises over are recorded as the layer's ("c", "h", "w", "hw", "chw") when
// they are axes of the layer's C x H x W: ONNX's `axis` (default -1) from opset 13, the axes from
// `axis` (default 1) on before it (the layer's trailing axes missing from a lower-rank tensor have
// size 1). Over the batch axis the layer has none (the shape platforms do not need it; the VTA host
// refuses the layer then).
void softmax(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    const auto xd = c.dims_of(n.input(0), label);
    const auto r = std::int64_t(xd.size());
    std::int64_t axis = attr_int(n, "axis", c.m.opset >= 13 ? -1 : 1);
    if (axis < -r || axis >= r)
        throw InputError(c.m.path + ": " + label + ": Softmax's axis " + std::to_string(axis) + " is outside a rank-" + std::to_string(r) + " input");
    if (axis < 0) axis += r;
    activation(c, n, i, label, Activation::Softmax);
    // The layer's C, H, W are the input's axes after the batch axis, when it has one (Ctx::chw).
    const bool batched = r > 1 && xd[0] == c.batch;
    const std::int64_t k = batched ? axis - 1 : axis;  // 0 = C, 1 = H, 2 = W
    if (k < 0 || k > 2) return;
    using mapper::SoftmaxAxis;
    static const SoftmaxAxis one[3] = {SoftmaxAxis::C, SoftmaxAxis::H, SoftmaxAxis::W},
                             from[3] = {SoftmaxAxis::CHW, SoftmaxAxis::HW, SoftmaxAxis::W};
    c.net.layers.back().softmax_axis = c.m.opset >= 13 ? one[k] : from[k];
}
void tanh(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { activation(c, n, i, label, Activation::Tanh); }
void softplus(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) { activation(c, n, i, label, Activation::Softplus); }
// Elu: x for x >= 0, alpha (e^x - 1) below; its `alpha` (ONNX's default 1) is recorded for the VTA host.
void elu(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    const double alpha = double(attr_float(n, "alpha", 1.0f));
    if (!std::isfinite(alpha) || std::abs(alpha) > 1e3)
        throw InputError(c.m.path + ": " + label + ": Elu's alpha must be a finite number in [-1000, 1000]");
    activation(c, n, i, label, Activation::Elu, alpha);
}

// LRN (local response normalisation across channels: AlexNet, GoogLeNet and the other Caffe-era
// models): x / (bias + alpha / size * sum of x^2 over the `size` channels around x)^beta. An lrn layer
// of the input's shape with the four attributes (ONNX's defaults alpha 1e-4, beta 0.75, bias 1);
// nmp and mesh list it as skipped, the VTA's host computes it.
void lrn(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    const auto xd = c.dims_of(n.input(0), label);
    if (xd.size() != 4) throw Unsupported("an LRN over a rank-" + std::to_string(xd.size()) + " tensor (NCHW is modelled)");
    const std::int64_t size = attr_int(n, "size", 0);
    const double alpha = double(attr_float(n, "alpha", 1e-4f)), beta = double(attr_float(n, "beta", 0.75f)),
                 bias = double(attr_float(n, "bias", 1.0f));
    if (size < 1 || size > 65536)  // the workload's bound on channels
        throw InputError(c.m.path + ": " + label + ": LRN's size " + std::to_string(size) + " is not in [1, 65536] (it is required)");
    if (!(alpha >= 0.0 && alpha <= 1e3) || !(beta >= 0.0 && beta <= 10.0) || !(bias >= 1e-6 && bias <= 1e3))
        throw InputError(c.m.path + ": " + label + ": LRN's alpha, beta and bias must lie in [0, 1000], [0, 10] and "
                         "[1e-6, 1000] (got " + std::to_string(alpha) + ", " + std::to_string(beta) + ", " + std::to_string(bias) + ")");
    Layer l = shaped(c, LayerKind::Lrn, n.input(0), label);
    l.lrn_size = int(size);
    l.alpha = alpha;
    l.beta = beta;
    l.lrn_bias = bias;
    l.has_alpha = true;
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

void clip(Ctx& c, const onnx::NodeProto& n, int i, const std::string& label) {
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    if (c.m.opset < 11) {
        lo = attr_float(n, "min", -std::numeric_limits<float>::max());
        hi = attr_float(n, "max", std::numeric_limits<float>::max());
    } else {
        if (c.has_input(n, 1)) lo = c.const_values(n, 1, label).at(0);
        if (c.has_input(n, 2)) hi = c.const_values(n, 2, label).at(0);
    }
    const bool no_max = hi >= double(std::numeric_limits<float>::max());
    const Activation a = lo == 0 && hi == 6 ? Activation::Relu6 : lo == 0 && no_max ? Activation::Relu : Activation::Clip;
    if (a != Activation::Clip) return activation(c, n, i, label, a);
    // The bounds are recorded for the VTA host (a bound the node does not have as +-inf, written as null).
    // min > max is Min(max, Max(x, min)) = max everywhere (ONNX's Clip), recorded as [max, max].
    const double inf = std::numeric_limits<double>::infinity();
    if (std::isnan(lo) || std::isnan(hi))
        throw InputError(c.m.path + ": " + label + ": Clip's min " + std::to_string(lo) + " or max " + std::to_string(hi) + " is NaN");
    if (lo > hi) lo = hi;
    const double l = lo <= -double(std::numeric_limits<float>::max()) ? -inf : lo, h = no_max ? inf : hi;
    if ((std::isfinite(l) && std::abs(l) > 1e6) || (std::isfinite(h) && std::abs(h) > 1e6))
        throw InputError(c.m.path + ": " + label + ": Clip's bounds must lie in [-1e6, 1e6] (got " + std::to_string(lo) + ", " +
                         std::to_string(hi) + ")");
    activation(c, n, i, label, a, std::nullopt, 0.0, std::pair<double, double>{l, h});
}

// --- pad ---------------------------------------------------------------------------------------

void pad(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    const auto xd = c.dims_of(n.input(0), label);
    std::vector<std::int64_t> pads;
    std::string mode = attr_string(n, "mode", "constant");
    double value = 0;
    if (c.m.opset < 11) {
        pads = attr_ints(n, "pads");
        value = attr_float(n, "value", 0.0f);
    } else {
        pads = c.const_values(n, 1, label).i;
        if (c.has_input(n, 2)) value = c.const_values(n, 2, label).at(0);
        if (c.has_input(n, 3)) throw Unsupported("the axes input");
    }
    const std::size_t r = xd.size();
    if (pads.size() != 2 * r) throw InputError(c.m.path + ": " + label + ": pads has " + std::to_string(pads.size()) + " values for rank " + std::to_string(r));
    if (r != 4 && r != 3) throw Unsupported("padding of a rank-" + std::to_string(r) + " tensor");
    if (pads[0] || pads[1] || pads[r] || pads[r + 1]) throw Unsupported("padding of the batch or channel axis");
    for (auto p : pads)
        if (p < 0 || p > 1024) throw Unsupported("a negative (cropping) or very large pad");
    const int top = int(pads[2]), bottom = int(pads[r + 2]), left = r == 4 ? int(pads[3]) : 0, right = r == 4 ? int(pads[r + 3]) : 0;
    if (top == 0 && bottom == 0 && left == 0 && right == 0) {  // exporters emit empty pads (e.g. before DenseNet's pools)
        c.alias(n.output(0), c.in(n, 0));
        ++c.stats.layout;
        return;
    }
    // A zero constant pad whose only reader is a convolution's data input becomes that
    // convolution's padding.
    const auto rd = c.readers.find(n.output(0));
    if (mode == "constant" && value == 0 && rd != c.readers.end() && rd->second.size() == 1 && c.uses[n.output(0)] == 1) {
        const auto& reader = c.m.model.graph().node(rd->second[0].first);
        const std::string& op = reader.op_type();
        if ((op == "Conv" || op == "ConvInteger" || op == "QLinearConv") && rd->second[0].second == 0) {
            Value v = c.in(n, 0);
            c.alias(n.output(0), v);
            Value& a = c.values[n.output(0)];
            a.pad[0] = top;
            a.pad[1] = left;
            a.pad[2] = bottom;
            a.pad[3] = right;
            ++c.stats.fused_pad;
            return;
        }
    }
    Layer l = shaped(c, LayerKind::Pad, n.input(0), label);
    l.pad_top = top;
    l.pad_bottom = bottom;
    l.pad_left = left;
    l.pad_right = right;
    if (mode == "reflect") l.pad_mode = mapper::PadMode::Reflect;
    else if (mode == "edge") l.pad_mode = mapper::PadMode::Edge;
    else if (mode != "constant") throw Unsupported("mode \"" + mode + "\"");
    else {
        // -inf (or -FLT_MAX) pads before a max pool are common: beyond +-1e9 the value is recorded
        // as +-1e9, the workload format's range (on the VTA's activation grid it is the int8 bound
        // either way).
        if (std::isnan(value)) throw InputError(c.m.path + ": " + label + ": the constant value is NaN");
        l.pad_value = std::clamp(value, -1e9, 1e9);
    }
    l.inputs = {c.producer(n, 0)};
    c.add_layer(l, n, index, n.output(0));
}

}  // namespace

void register_misc(std::unordered_map<std::string, Converter>& r) {
    r["Add"] = r["Sum"] = r["Sub"] = add;
    r["Mul"] = r["Div"] = mul;
    r["Pow"] = pow;
    r["Concat"] = concat;
    r["Split"] = split;
    r["Slice"] = slice;
    r["Resize"] = r["Upsample"] = resize;
    r["Flatten"] = r["Reshape"] = r["Squeeze"] = r["Unsqueeze"] = r["Transpose"] = layout;
    r["Identity"] = r["Dropout"] = r["Cast"] = transparent;
    r["QuantizeLinear"] = quantize;
    r["DequantizeLinear"] = dequantize;
    r["DynamicQuantizeLinear"] = dynamic_quantize;
    r["BatchNormalization"] = batch_norm;
    r["LayerNormalization"] = layer_norm;
    r["InstanceNormalization"] = instance_norm;
    r["DepthToSpace"] = r["SpaceToDepth"] = space_depth;
    r["Erf"] = erf;
    r["Relu"] = relu;
    r["Clip"] = clip;
    r["LeakyRelu"] = leaky;
    r["PRelu"] = prelu;
    r["Sigmoid"] = sigmoid;
    r["HardSigmoid"] = hsigmoid;
    r["HardSwish"] = hswish;
    r["Softmax"] = softmax;
    r["Tanh"] = tanh;
    r["Softplus"] = softplus;
    r["Elu"] = elu;
    r["LRN"] = lrn;
    r["Pad"] = pad;
}

}  // namespace vp::import
