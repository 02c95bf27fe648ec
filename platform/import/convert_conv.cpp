// Conv, ConvTranspose (as its equivalent convolution), QLinearConv, ConvInteger.
#include "mapper/common/errors.h"
#include "platform/import/const_eval.h"
#include "platform/import/convert_context.h"

namespace vp::import {

using mapper::Layer;
using mapper::LayerKind;

namespace {

struct ConvArgs {
    int x = 0, w = 1;         // input indices of data and weights
    int w_zp = -1, bias = -1; // integer weight zero point, int32 bias (QLinearConv)
    bool transposed = false;
    bool integer = false;     // ConvInteger: int32 output, a dequantisation scale may follow
};

void check_dims(Ctx& c, const std::vector<std::int64_t>& d, const std::string& label) {
    for (auto v : d)
        if (v < 1 || v > (1 << 24)) throw InputError(c.m.path + ": " + label + ": dimension " + std::to_string(v) + " out of range");
}

void convert_conv_like(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label, const ConvArgs& a) {
    if (!c.is_act(n, a.x)) throw Unsupported("the data input is not an activation");
    const Value& x = c.in(n, a.x);
    const Value& w = c.in(n, a.w);
    if (w.kind != ValueKind::Constant) throw Unsupported("weights computed at run time (only constant weights are modelled)");
    const auto xd = c.dims_of(n.input(a.x), label), wd = c.dims_of(n.input(a.w), label);
    if (xd.size() != 4 && xd.size() != 3)
        throw Unsupported(std::to_string(int(xd.size()) - 2) + "-D convolution (1-D and 2-D are modelled)");
    if (wd.size() != xd.size()) throw InputError(c.m.path + ": " + label + ": weights of rank " + std::to_string(wd.size()) +
                                                 " for an input of rank " + std::to_string(xd.size()));
    check_dims(c, xd, label);
    check_dims(c, wd, label);
    const std::size_t r = xd.size() - 2;
    auto per_axis = [&](const char* name, std::int64_t dflt) {
        auto v = attr_ints(n, name);
        if (v.empty()) v.assign(r, dflt);
        if (v.size() != r) throw InputError(c.m.path + ": " + label + ": \"" + name + "\" has " + std::to_string(v.size()) +
                                            " values, expected " + std::to_string(r));
        return v;
    };
    const auto dil = per_axis("dilations", 1), strides = per_axis("strides", 1);
    for (auto d : dil) {
        if (d < 1 || d > 1024) throw InputError(c.m.path + ": " + label + ": dilation " + std::to_string(d) + " out of range 1..1024");
        if (d != 1 && a.transposed) throw Unsupported("dilation " + std::to_string(d) + " of a transposed convolution is not modelled");
    }
    for (auto s : strides)
        if (s < 1 || s > 1024) throw InputError(c.m.path + ": " + label + ": stride " + std::to_string(s) + " out of range 1..1024");
    // in: the spatial size the ONNX attributes refer to (after a folded Pad); the layer's H, W
    // exclude the folded Pad, which becomes part of the layer's padding.
    const std::vector<std::int64_t> k(wd.begin() + 2, wd.end()), in(xd.begin() + 2, xd.end());
    if (auto ks = attr_ints(n, "kernel_shape"); !ks.empty() && ks != k)
        throw InputError(c.m.path + ": " + label + ": kernel_shape differs from the weights' dims");
    const std::int64_t group = attr_int(n, "group", 1);
    if (group < 1) throw InputError(c.m.path + ": " + label + ": group " + std::to_string(group));
    std::vector<std::int64_t> pb, pe;
    if (!a.transposed) {
        // The dilated window's extent decides the SAME padding (as for the output size). A window
        // beyond the padded input is reported before the output's shape is asked for: shape
        // inference leaves that unknown.
        std::vector<std::int64_t> window(k);
        for (std::size_t ax = 0; ax < r; ++ax) window[ax] = (k[ax] - 1) * dil[ax] + 1;
        resolve_pads(n, in, window, strides, pb, pe, label);
        check_window_fits(c.m.path, label, in, k, dil, pb, pe);
    }
    const auto yd = c.dims_of(n.output(0), label);
    Layer l;
    l.kind = LayerKind::Conv;
    l.groups = int(group);
    l.R = int(k[0]);
    l.S = r == 2 ? int(k[1]) : 1;
    if (!a.transposed) {
        if (xd[1] != wd[1] * group)
            throw InputError(c.m.path + ": " + label + ": input channels " + std::to_string(xd[1]) + " != weight channels " +
                             std::to_string(wd[1]) + " x group " + std::to_string(group));
        l.C = int(xd[1]);
        l.K = int(wd[0]);
        l.dilation_h = int(dil[0]);
        l.dilation_w = r == 2 ? int(dil[1]) : 1;
        l.H = int(in[0] - x.pad[0] - x.pad[2]);
        l.W = r == 2 ? int(in[1] - x.pad[1] - x.pad[3]) : 1;
        if (l.H < 1 || l.W < 1) throw Unsupported("a Pad larger than its input");
        l.stride_h = int(strides[0]);
        l.stride_w = r == 2 ? int(strides[1]) : 1;
        l.pad_top = int(pb[0] + x.pad[0]);
        l.pad_bottom = int(pe[0] + x.pad[2]);
        l.pad_left = int(r == 2 ? pb[1] + x.pad[1] : 0);
        l.pad_right = int(r == 2 ? pe[1] + x.pad[3] : 0);
        if (r == 1 && (x.pad[1] || x.pad[3])) throw Unsupported("padding along a missing axis");
    } else {
        // y = s (x - 1) + op + k - pb - pe equals a stride-1 convolution over the input with s - 1
        // zeros inserted between elements, padded by k - 1 - pb before and k - 1 - pe + op after.
        if (xd[1] != wd[0])
            throw InputError(c.m.path + ": " + label + ": input channels " + std::to_string(xd[1]) + " != weight dim 0 " +
                             std::to_string(wd[0]));
        if (x.pad[0] || x.pad[1] || x.pad[2] || x.pad[3]) throw Unsupported("a Pad before a transposed convolution");
        const auto op = per_axis("output_padding", 0);
        const std::string ap = attr_string(n, "auto_pad", "NOTSET");
        if (ap == "NOTSET" && attr_ints(n, "output_shape").empty()) {
            resolve_pads(n, in, k, strides, pb, pe, label);
        } else {
            pb.assign(r, 0);
            pe.assign(r, 0);
            for (std::size_t ax = 0; ax < r; ++ax) {
                // Negative when output_shape asks for more than the formula gives: the equivalent
                // convolution pads more at the end.
                const std::int64_t total = strides[ax] * (in[ax] - 1) + op[ax] + k[ax] - yd[2 + ax];
                pb[ax] = ap == "SAME_LOWER" ? total - total / 2 : total / 2;
                pe[ax] = total - pb[ax];
            }
        }
        l.C = int(xd[1]);
        l.K = int(wd[1] * group);
        l.zero_insert_h = int(strides[0]);
        l.zero_insert_w = r == 2 ? int(strides[1]) : 1;
        l.H = int((in[0] - 1) * strides[0] + 1);
        l.W = r == 2 ? int((in[1] - 1) * strides[1] + 1) : 1;
        l.pad_top = int(k[0] - 1 - pb[0]);
        l.pad_bottom = int(k[0] - 1 - pe[0] + op[0]);
        l.pad_left = r == 2 ? int(k[1] - 1 - pb[1]) : 0;
        l.pad_right = r == 2 ? int(k[1] - 1 - pe[1] + op[1]) : 0;
        if (l.pad_top < 0 || l.pad_bottom < 0 || l.pad_left < 0 || l.pad_right < 0)
            throw Unsupported("padding larger than kernel - 1 (no equivalent convolution)");
    }
    if (l.C % l.groups != 0 || l.K % l.groups != 0) throw InputError(c.m.path + ": " + label + ": group does not divide the channels");
    if (l.window_h() > l.H + l.pad_top + l.pad_bottom || l.window_w() > l.W + l.pad_left + l.pad_right)
        throw InputError(c.m.path + ": " + label + ": kernel window larger than the padded input");
    if (yd.size() != xd.size() || yd[1] != l.K || yd[2] != l.P() || (r == 2 && yd[3] != l.Q()))
        throw InputError(c.m.path + ": " + label + ": ONNX shape inference gives an output of " + std::to_string(yd.size() > 2 ? yd[2] : 0) +
                         " rows, the layer's geometry " + std::to_string(l.P()) + " (unsupported padding semantics)");
    l.inputs = {x.producer};
    const int li = c.add_layer(l, n, index, n.output(0));
    c.info[std::size_t(li)].integer_output = a.integer;
    WeightSource& ws = c.info[std::size_t(li)].w;
    ws.weight = w.init;
    ws.weight_computed = w.computed || !w.init;
    ws.layout = a.transposed ? WeightSource::Layout::CKRS : WeightSource::Layout::KCRS;
    if (a.w_zp >= 0 && c.has_input(n, a.w_zp)) ws.weight_zp = c.in(n, a.w_zp).init;
    if (a.bias >= 0 && c.has_input(n, a.bias)) ws.bias = c.in(n, a.bias).init;
}

void conv(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) { convert_conv_like(c, n, index, label, {}); }

void conv_transpose(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    ConvArgs a;
    a.transposed = true;
    convert_conv_like(c, n, index, label, a);
}

// The quantized forms: precision from the types of the data and weight operands.
void quantized_conv(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label, const ConvArgs& a) {
    c.note_quant_type(c.type_of(n.input(a.x)));
    c.note_quant_type(c.type_of(n.input(a.w)));
    convert_conv_like(c, n, index, label, a);
}

// QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B)
void qlinear_conv(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    ConvArgs a;
    a.w = 3;
    a.w_zp = 5;
    a.bias = 8;
    quantized_conv(c, n, index, label, a);
}

// ConvInteger(x, w, x_zp, w_zp): int32 output.
void conv_integer(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    ConvArgs a;
    a.w_zp = 3;
    a.integer = true;
    quantized_conv(c, n, index, label, a);
}

}  // namespace

void register_conv(std::unordered_map<std::string, Converter>& r) {
    r["Conv"] = conv;
    r["ConvTranspose"] = conv_transpose;
    r["QLinearConv"] = qlinear_conv;
    r["ConvInteger"] = conv_integer;
}

}  // namespace vp::import
