// Gemm, MatMul, QLinearMatMul, MatMulInteger with constant weights: a fully-connected layer, or
// a 1x1 convolution over the rows when the data operand has more than one row per sample
// ([N, L, D] x [D, E]; [N, H, W, D] x [D, E] over the H x W map).
#include "mapper/common/errors.h"
#include "platform/import/const_eval.h"
#include "platform/import/convert_context.h"

namespace vp::import {

using mapper::Layer;
using mapper::LayerKind;

namespace {

void make_dense(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label, int a_in, int b_in, bool trans_b,
                int b_zp, const std::vector<std::int64_t>& a_dims, bool integer = false) {
    if (!c.is_act(n, a_in)) throw Unsupported("the data operand (input " + std::to_string(a_in) + ") is not an activation");
    const Value& b = c.in(n, b_in);
    if (b.kind != ValueKind::Constant)
        throw Unsupported("a product of two activations (one operand must be constant weights)");
    const auto bd = c.dims_of(n.input(b_in), label);
    if (bd.size() != 2) throw Unsupported("weights of rank " + std::to_string(bd.size()) + " (2-D weights are modelled)");
    const std::int64_t F = trans_b ? bd[1] : bd[0], K = trans_b ? bd[0] : bd[1];
    if (a_dims.empty() || a_dims.back() != F)
        throw InputError(c.m.path + ": " + label + ": inner dimensions differ (" + std::to_string(a_dims.empty() ? 0 : a_dims.back()) +
                         " vs " + std::to_string(F) + ")");
    std::int64_t rows = 1;
    for (std::size_t k = 0; k + 1 < a_dims.size(); ++k) rows *= a_dims[k];
    if (rows % c.batch == 0) rows /= c.batch;
    if (F < 1 || K < 1 || F > (1 << 24) || K > (1 << 24) || rows < 1 || rows > (1 << 15))
        throw InputError(c.m.path + ": " + label + ": dimensions out of range");
    Layer l;
    if (rows == 1) {
        l.kind = LayerKind::FullyConnected;
        l.C = int(F);
        l.K = int(K);
    } else {  // every row of the sample times the same weights: a 1x1 convolution over H = rows
        if (F > (1 << 16) || K > (1 << 16)) throw InputError(c.m.path + ": " + label + ": more than 65536 channels");
        l.kind = LayerKind::Conv;
        l.C = int(F);
        l.K = int(K);
        l.H = int(rows);
        // [N, H, W, F] (a channels-last map, as ConvNeXt's pointwise layers): the 1x1 convolution
        // over the H x W map, so that the mappers tile its width as they tile a conv's.
        if (a_dims.size() == 4 && a_dims[1] * a_dims[2] == rows) {
            l.H = int(a_dims[1]);
            l.W = int(a_dims[2]);
        }
    }
    l.inputs = {c.producer(n, a_in)};
    const int li = c.add_layer(l, n, index, n.output(0));
    c.info[std::size_t(li)].integer_output = integer;
    WeightSource& ws = c.info[std::size_t(li)].w;
    ws.weight = b.init;
    ws.weight_computed = b.computed || !b.init;
    ws.layout = trans_b ? WeightSource::Layout::KC : WeightSource::Layout::CK;
    if (b_zp >= 0 && c.has_input(n, b_zp)) ws.weight_zp = c.in(n, b_zp).init;
}

void gemm(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    if (attr_int(n, "transA", 0) != 0) throw Unsupported("transA = 1 (a transposed data operand)");
    const auto ad = c.dims_of(n.input(0), label);
    if (ad.size() != 2) throw InputError(c.m.path + ": " + label + ": Gemm operand A of rank " + std::to_string(ad.size()));
    make_dense(c, n, index, label, 0, 1, attr_int(n, "transB", 0) != 0, -1, ad);
}

void matmul(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    make_dense(c, n, index, label, 0, 1, false, -1, c.dims_of(n.input(0), label));
}

// QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp)
void qlinear_matmul(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    c.note_quant_type(c.type_of(n.input(0)));
    c.note_quant_type(c.type_of(n.input(3)));
    make_dense(c, n, index, label, 0, 3, false, 5, c.dims_of(n.input(0), label));
}

// MatMulInteger(A, B, a_zp, b_zp)
void matmul_integer(Ctx& c, const onnx::NodeProto& n, int index, const std::string& label) {
    c.note_quant_type(c.type_of(n.input(0)));
    c.note_quant_type(c.type_of(n.input(1)));
    make_dense(c, n, index, label, 0, 1, false, 3, c.dims_of(n.input(0), label), true);
}

}  // namespace

void register_dense(std::unordered_map<std::string, Converter>& r) {
    r["Gemm"] = gemm;
    r["MatMul"] = matmul;
    r["QLinearMatMul"] = qlinear_matmul;
    r["MatMulInteger"] = matmul_integer;
}

}  // namespace vp::import
