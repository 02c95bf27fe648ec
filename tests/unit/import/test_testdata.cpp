// Operator coverage on the single-operator models of Debian's libonnx-testdata (the ONNX
// project's backend test cases): the layer the importer builds must produce the shape of the
// expected output tensor that ships with each model (computed by ONNX's numpy reference), and
// its MACs must equal the count derived from the test's own tensor dims. Inputs after the data
// input (weights, scales, ...) become initializers, as in an exported model; the
// pytorch-converted models (opset 6) go through ONNX's version converter to opset 7 first (the last
// test case reads them as they ship instead, through the importer's own rewrite).
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <onnx/onnx_pb.h>
#include <onnx/version_converter/convert.h>

#include "mapper/common/errors.h"
#include "mapper/vta/network_driver.h"
#include "mapper/workload/network.h"
#include "platform/import/onnx_import.h"

using namespace vp::mapper;

namespace {
const std::string kData = "/usr/share/libonnx-testdata/data/";

onnx::TensorProto read_pb(const std::string& path) {
    onnx::TensorProto t;
    std::ifstream f(path, std::ios::binary);
    REQUIRE(f);
    REQUIRE(t.ParseFromIstream(&f));
    return t;
}

struct Case {
    const char* dir;         // under /usr/share/libonnx-testdata/data/
    int data_inputs;         // graph inputs kept as data; the others become initializers
    const char* error = "";  // expected InputError substring ("" = imports)
    bool native = false;     // opsets 1-6: given to the importer as they are (its own upgrade), not
                             // through ONNX's version converter
    bool one_output = false; // only the first graph output kept (LayerNormalization's tests also
                             // output its mean and inverse deviation)
};

// The model of `c` with its weight inputs as initializers, saved to a temporary file.
// wd: dims of the weights of the model's convolution node (if any), as the test data give them.
std::string prepare(const Case& c, std::vector<std::int64_t>& out_dims, std::vector<onnx::TensorProto>& inputs,
                    std::vector<std::int64_t>& wd) {
    const std::string dir = kData + c.dir;
    onnx::ModelProto m;
    {
        std::ifstream f(dir + "/model.onnx", std::ios::binary);
        REQUIRE(f);
        REQUIRE(m.ParseFromIstream(&f));
    }
    if (m.opset_import(0).version() < 7 && !c.native) m = onnx::version_conversion::ConvertVersion(m, 7);
    auto* g = m.mutable_graph();
    for (int k = 0;; ++k) {
        const std::string p = dir + "/test_data_set_0/input_" + std::to_string(k) + ".pb";
        if (!std::filesystem::exists(p)) break;
        inputs.push_back(read_pb(p));
    }
    const onnx::TensorProto out = read_pb(dir + "/test_data_set_0/output_0.pb");
    out_dims.assign(out.dims().begin(), out.dims().end());
    // Graph inputs without an initializer, in order, match input_<k>.pb.
    std::vector<std::string> names;
    for (const auto& v : g->input()) {
        bool init = false;
        for (const auto& t : g->initializer()) init = init || t.name() == v.name();
        if (!init) names.push_back(v.name());
    }
    REQUIRE(names.size() == inputs.size());
    google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> keep;
    for (const auto& v : g->input()) {
        const auto it = std::find(names.begin(), names.end(), v.name());
        const int k = it == names.end() ? -1 : int(it - names.begin());
        if (k >= c.data_inputs) {
            onnx::TensorProto t = inputs[std::size_t(k)];
            t.set_name(v.name());
            *g->add_initializer() = t;
        } else {
            *keep.Add() = v;
        }
    }
    g->mutable_input()->Swap(&keep);
    if (c.one_output)
        while (g->output_size() > 1) g->mutable_output()->RemoveLast();
    for (const auto& n : g->node()) {
        const int wi = n.op_type() == "QLinearConv" ? 3 : 1;
        if (n.op_type().find("Conv") == std::string::npos || n.input_size() <= wi) continue;
        for (const auto& t : g->initializer())
            if (t.name() == n.input(wi)) wd.assign(t.dims().begin(), t.dims().end());
    }
    const auto tmp = std::filesystem::temp_directory_path() / "vp_import_testdata";
    std::filesystem::create_directories(tmp);
    const std::string path =
        (tmp / (std::filesystem::path(c.dir).filename().string() + (c.native ? "_native" : "") + ".onnx")).string();
    std::ofstream(path, std::ios::binary) << m.SerializeAsString();
    return path;
}

std::int64_t prod(const std::vector<std::int64_t>& d, std::size_t from = 0) {
    std::int64_t p = 1;
    for (std::size_t k = from; k < d.size(); ++k) p *= d[k];
    return p;
}

void check_case(const Case& c) {
    INFO(c.dir);
    std::vector<std::int64_t> od, wd;
    std::vector<onnx::TensorProto> in;
    const std::string path = prepare(c, od, in, wd);
    if (*c.error) {
        CHECK_THROWS_WITH(vp::import::import_onnx(path, {}), Catch::Contains(c.error));
        return;
    }
    const auto r = vp::import::import_onnx(path, {});
    REQUIRE(!r.net.layers.empty());
    const Layer& l = r.net.layers.back();
    const std::int64_t batch = r.net.batch;
    INFO("layer " << l.name << " kind " << to_string(l.kind) << ", expected output dims size " << od.size());
    CHECK(batch == od.at(0));
    CHECK(std::int64_t(l.output_elems()) * batch == prod(od));  // the numpy reference's output tensor
    if (od.size() >= 3) {
        CHECK(l.K == od[1]);
        CHECK(l.P() == od[2]);
        CHECK(l.Q() == (od.size() == 4 ? od[3] : 1));
    }
    if (l.kind == LayerKind::Conv) {
        // MACs from the test's tensors: output elements x (C / groups) x kernel elements, from the
        // dims of the weights (ConvTranspose: weights [C, K / groups, R, S], its equivalent
        // convolution counts the inserted zeros).
        const bool transposed = std::string(c.dir).find("onvTranspose") != std::string::npos ||
                                std::string(c.dir).find("convtranspose") != std::string::npos;
        REQUIRE(!wd.empty());
        {
            const std::int64_t per_out = transposed ? wd[0] / l.groups * prod(wd, 2) : prod(wd, 1);
            CHECK(l.macs() * std::uint64_t(batch) == std::uint64_t(prod(od) * per_out));
        }
    }
    if (l.kind == LayerKind::FullyConnected) CHECK(l.macs() * std::uint64_t(batch) == std::uint64_t(prod(od) * l.C));
}
}  // namespace

TEST_CASE("libonnx-testdata: convolutions (pads, strides, auto_pad, groups, depthwise, dilated, 1-D, integer, quantized)", "[import][testdata]") {
    REQUIRE(std::filesystem::exists(kData + "node"));  // Debian package libonnx-testdata (scripts/setup.sh)
    for (const Case& c : {Case{"node/test_basic_conv_with_padding", 1}, Case{"node/test_basic_conv_without_padding", 1},
                          Case{"node/test_conv_with_autopad_same", 1}, Case{"node/test_conv_with_strides_and_asymmetric_padding", 1},
                          Case{"node/test_conv_with_strides_no_padding", 1}, Case{"node/test_conv_with_strides_padding", 1},
                          Case{"pytorch-converted/test_Conv2d", 1}, Case{"pytorch-converted/test_Conv2d_groups", 1},
                          Case{"pytorch-converted/test_Conv2d_dilated", 1}, Case{"pytorch-converted/test_Conv1d_dilated", 1},
                          Case{"pytorch-converted/test_Conv2d_depthwise", 1}, Case{"pytorch-converted/test_Conv2d_depthwise_padded", 1},
                          Case{"pytorch-converted/test_Conv2d_depthwise_strided", 1},
                          Case{"pytorch-converted/test_Conv2d_depthwise_with_multiplier", 1},
                          Case{"pytorch-converted/test_Conv2d_padding", 1}, Case{"pytorch-converted/test_Conv2d_strided", 1},
                          Case{"pytorch-converted/test_Conv2d_no_bias", 1}, Case{"pytorch-converted/test_Conv1d", 1},
                          Case{"pytorch-converted/test_Conv1d_groups", 1}, Case{"pytorch-converted/test_Conv1d_stride", 1},
                          Case{"pytorch-converted/test_Conv1d_pad2", 1}, Case{"node/test_basic_convinteger", 1},
                          Case{"node/test_convinteger_with_padding", 1}, Case{"node/test_convinteger_without_padding", 1},
                          Case{"node/test_qlinearconv", 1}})
        check_case(c);
}

TEST_CASE("libonnx-testdata: transposed convolutions", "[import][testdata]") {
    for (const Case& c : {Case{"node/test_convtranspose", 1}, Case{"node/test_convtranspose_pads", 1},
                          Case{"node/test_convtranspose_kernel_shape", 1}, Case{"node/test_convtranspose_output_shape", 1},
                          Case{"node/test_convtranspose_1d", 1}, Case{"node/test_convtranspose_autopad_same", 1},
                          Case{"pytorch-converted/test_ConvTranspose2d", 1}})
        check_case(c);
}

TEST_CASE("libonnx-testdata: pooling (pads, strides, SAME, ceil_mode, 1-D, global)", "[import][testdata]") {
    for (const char* d : {"test_maxpool_2d_default", "test_maxpool_2d_pads", "test_maxpool_2d_strides", "test_maxpool_2d_same_upper",
                          "test_maxpool_2d_same_lower", "test_maxpool_2d_ceil", "test_maxpool_2d_precomputed_pads",
                          "test_maxpool_2d_precomputed_same_upper", "test_maxpool_2d_precomputed_strides", "test_maxpool_1d_default",
                          "test_maxpool_2d_uint8", "test_averagepool_2d_default", "test_averagepool_2d_pads",
                          "test_averagepool_2d_strides", "test_averagepool_2d_same_upper", "test_averagepool_2d_same_lower",
                          "test_averagepool_2d_ceil", "test_averagepool_2d_precomputed_pads",
                          "test_averagepool_2d_pads_count_include_pad", "test_averagepool_1d_default", "test_globalaveragepool",
                          "test_globalmaxpool", "test_globalaveragepool_precomputed"})
        check_case(Case{(std::string("node/") + d).c_str(), 1});
}

TEST_CASE("libonnx-testdata: gemm, matmul, batch norm, concat, split, resize, pad, activations", "[import][testdata]") {
    for (const Case& c :
         {Case{"node/test_gemm_default_no_bias", 1}, Case{"node/test_gemm_default_vector_bias", 1},
          Case{"node/test_gemm_default_matrix_bias", 1}, Case{"node/test_gemm_transposeB", 1}, Case{"node/test_gemm_alpha", 1},
          Case{"node/test_gemm_beta", 1}, Case{"node/test_matmul_2d", 1}, Case{"pytorch-converted/test_Linear", 1},
          Case{"node/test_matmulinteger", 1}, Case{"node/test_qlinearmatmul_2D", 1}, Case{"node/test_batchnorm_example", 1},
          Case{"node/test_batchnorm_epsilon", 1}, Case{"node/test_concat_2d_axis_1", 2}, Case{"node/test_concat_3d_axis_1", 2},
          Case{"node/test_resize_upsample_scales_nearest", 1}, Case{"node/test_resize_upsample_scales_linear", 1},
          Case{"node/test_resize_downsample_scales_nearest", 1}, Case{"node/test_resize_upsample_sizes_nearest", 1},
          Case{"node/test_upsample_nearest", 1}, Case{"node/test_constant_pad", 1}, Case{"node/test_reflect_pad", 1},
          Case{"node/test_edge_pad", 1}, Case{"node/test_relu", 1}, Case{"node/test_clip", 1}, Case{"node/test_leakyrelu", 1}, Case{"node/test_prelu_example", 1}, Case{"node/test_prelu_broadcast", 1},
          Case{"node/test_sigmoid", 1}, Case{"node/test_hardsigmoid", 1}, Case{"node/test_softmax_axis_1", 1},
          Case{"node/test_tanh", 1}, Case{"node/test_softplus", 1}, Case{"node/test_elu", 1}, Case{"node/test_elu_default", 1},
          Case{"node/test_lrn", 1}, Case{"node/test_lrn_default", 1}, Case{"node/test_concat_3d_axis_2", 2},
          Case{"node/test_concat_3d_axis_negative_1", 2}, Case{"node/test_slice_default_axes", 1},
          Case{"node/test_slice_default_steps", 1}, Case{"node/test_slice_negative_axes", 1}, Case{"node/test_slice_neg", 1},
          Case{"node/test_slice_end_out_of_bounds", 1}, Case{"node/test_split_equal_parts_2d", 1}})
        check_case(c);
}

TEST_CASE("libonnx-testdata: what is rejected is rejected naming the node and the reason", "[import][testdata]") {
    for (const Case& c : {Case{"node/test_convtranspose_dilations", 1, "dilation 2"},
                          Case{"pytorch-converted/test_Conv3d", 1, "3-D convolution"},
                          Case{"node/test_maxpool_2d_dilations", 1, "dilated pooling"},
                          Case{"node/test_maxpool_3d_default", 1, "3-D pooling"},
                          Case{"node/test_maxpool_with_argmax_2d_precomputed_pads", 1, "Indices output"},
                          Case{"node/test_gemm_transposeA", 1, "transA"}, Case{"node/test_matmul_3d", 1, "weights of rank 3"},
                          Case{"node/test_concat_2d_axis_0", 2, "concat along axis 0"},
                          Case{"node/test_resize_upsample_scales_cubic", 1, "resize mode \"cubic\""},
                          Case{"node/test_batchnorm_example_training_mode", 1, "training mode"},
                          Case{"node/test_split_equal_parts_1d", 1, "split along axis 0"},
                          Case{"node/test_concat_3d_axis_0", 2, "concat along axis 0"},
                          Case{"node/test_slice", 1, "slice along axis 0"},
                          Case{"node/test_slice_neg_steps", 1, "step -1"},
                          Case{"node/test_slice_start_out_of_bounds", 1, "does not fit its start"}})
        check_case(c);
}

// Every model of opset 1-6 in the test data (PyTorch 0.3 exports and the opset-1 node tests): read
// as it ships (the importer's own rewrite into opset 7), each layer network must equal the one
// from the same file put through ONNX's version converter (independent code), and its last
// layer must produce the numpy reference's output tensor.
TEST_CASE("libonnx-testdata: opsets 1-6 read in process, against ONNX's version converter and the numpy reference",
          "[import][testdata]") {
    int legacy = 0, imported = 0, compared = 0;
    for (const char* group : {"pytorch-converted", "pytorch-operator", "node"}) {
        for (const auto& e : std::filesystem::directory_iterator(kData + group)) {
            onnx::ModelProto m;
            {
                std::ifstream f(e.path() / "model.onnx", std::ios::binary);
                if (!f || !m.ParseFromIstream(&f)) continue;
            }
            int opset = 0;
            for (const auto& op : m.opset_import())
                if (op.domain().empty() || op.domain() == "ai.onnx") opset = int(op.version());
            if (opset == 0 || opset >= 7) continue;
            if (!std::filesystem::exists(e.path() / "test_data_set_0" / "output_0.pb")) continue;
            ++legacy;
            const std::string dir = std::string(group) + "/" + e.path().filename().string();
            INFO(dir);
            std::vector<std::int64_t> od, wd;
            std::vector<onnx::TensorProto> in;
            Case native{dir.c_str(), 1, "", true};
            const std::string path = prepare(native, od, in, wd);
            vp::import::ImportResult r;
            try {
                r = vp::import::import_onnx(path, {});
            } catch (const vp::InputError& err) {
                // Not modelled (Selu, Neg, InstanceNormalization, 3-D, ...): named, never the opset;
                // and the same file through ONNX's converter does not import either.
                const std::string msg = err.what();
                INFO(msg);
                CHECK(msg.find("opset") == std::string::npos);
                bool converted_imports = false;
                try {
                    std::vector<std::int64_t> od2, wd2;
                    std::vector<onnx::TensorProto> in2;
                    (void)vp::import::import_onnx(prepare(Case{dir.c_str(), 1}, od2, in2, wd2), {});
                    converted_imports = true;
                } catch (const std::exception&) {
                }
                CHECK(!converted_imports);
                continue;
            }
            ++imported;
            CHECK(r.stats.opset == opset);
            CHECK(r.stats.upgraded_nodes >= 0);
            const Layer& l = r.net.layers.back();
            CHECK(std::int64_t(l.output_elems()) * r.net.batch == prod(od));
            std::vector<std::int64_t> od2, wd2;
            std::vector<onnx::TensorProto> in2;
            try {
                // ONNX's converter refuses some files itself (a Gemm operand without a shape).
                const std::string converted = prepare(Case{dir.c_str(), 1}, od2, in2, wd2);
                const auto r2 = vp::import::import_onnx(converted, {});
                CHECK(network_to_json(r.net)["layers"].dump() == network_to_json(r2.net)["layers"].dump());
                ++compared;
            } catch (const std::exception& err) {
                WARN(dir << ": no comparison, the version-converted model does not import: " << err.what());
            }
        }
    }
    INFO(legacy << " legacy models, " << imported << " imported, " << compared << " compared");
    CHECK(legacy >= 100);
    CHECK(imported >= 60);
    CHECK(compared >= 60);
}

namespace {
// The values of a float or int32 tensor (test_reflect_pad and test_edge_pad have int32 data), as floats.
std::vector<float> floats_of(const onnx::TensorProto& t) {
    if (t.data_type() == onnx::TensorProto::INT32) {
        if (t.int32_data_size() > 0) return {t.int32_data().begin(), t.int32_data().end()};
        std::vector<std::int32_t> i(t.raw_data().size() / sizeof(std::int32_t));
        std::memcpy(i.data(), t.raw_data().data(), i.size() * sizeof(std::int32_t));
        return {i.begin(), i.end()};
    }
    REQUIRE(t.data_type() == onnx::TensorProto::FLOAT);
    if (t.float_data_size() > 0) return {t.float_data().begin(), t.float_data().end()};
    std::vector<float> v(t.raw_data().size() / sizeof(float));
    std::memcpy(v.data(), t.raw_data().data(), v.size() * sizeof(float));
    return v;
}

// A float input on the host's activation grid: v stands for v / 16, rounded and clamped to int8.
std::int8_t on_grid(float x) { return std::int8_t(std::lround(std::clamp(double(x) * 16.0, -128.0, 127.0))); }

// A single-layer backend test imported, with its float input and ONNX's reference output.
struct Backend {
    vp::import::ImportResult r;
    std::vector<float> x, want;
    const Layer& layer() const { return r.net.layers.at(0); }
};
Backend backend(const std::string& dir, bool one_output = false) {
    std::vector<std::int64_t> od, wd;
    std::vector<onnx::TensorProto> in;
    Backend b;
    const std::string path = "node/" + dir;
    b.r = vp::import::import_onnx(prepare(Case{path.c_str(), 1, "", false, one_output}, od, in, wd), {});
    REQUIRE(b.r.net.layers.size() == 1);
    b.x = floats_of(in.at(0));
    b.want = floats_of(read_pb(kData + "node/" + dir + "/test_data_set_0/output_0.pb"));
    return b;
}
}  // namespace

TEST_CASE("libonnx-testdata: the VTA host's resize taps reproduce ONNX's reference outputs", "[import][testdata][vta]") {
    // An independent reference: the output tensors shipped with the resize tests (ONNX's numpy
    // implementation of each coordinate mode and rounding). The imported layer's taps
    // (mapper/vta/network_driver.h, resize_taps) applied to the float input must give them:
    // exactly for nearest, within the 1/128 weight quantisation (1/256 per axis) for linear.
    // A scale whose product with the input size is not the output size (0.6 on 2 and 4 pixels)
    // maps otherwise than the ratio of the sizes the host uses: its modes are not recorded.
    struct R {
        const char* dir;
        bool linear;
        bool recorded = true;
    };
    for (const R& c : {R{"test_resize_upsample_scales_nearest", false}, R{"test_resize_upsample_sizes_nearest", false},
                       R{"test_resize_upsample_sizes_nearest_ceil_half_pixel", false},
                       R{"test_resize_upsample_sizes_nearest_floor_align_corners", false},
                       R{"test_resize_upsample_sizes_nearest_round_prefer_ceil_asymmetric", false},
                       R{"test_resize_downsample_sizes_nearest", false},
                       R{"test_resize_downsample_sizes_nearest_tf_half_pixel_for_nn", false}, R{"test_upsample_nearest", false},
                       R{"test_resize_upsample_scales_linear", true}, R{"test_resize_upsample_scales_linear_align_corners", true},
                       R{"test_resize_downsample_sizes_linear_pytorch_half_pixel", true},
                       R{"test_resize_downsample_scales_linear", true, false}, R{"test_resize_downsample_scales_linear_align_corners", true, false},
                       R{"test_resize_downsample_scales_nearest", false, false}}) {
        INFO(c.dir);
        const Backend b = backend(c.dir);
        const auto& r = b.r;
        const Layer& l = b.layer();
        REQUIRE(l.kind == LayerKind::Resize);
        CHECK((l.resize_mode == ResizeMode::Linear) == c.linear);
        CHECK((l.resize_coord != ResizeCoord::Unknown) == c.recorded);
        if (!c.recorded) continue;
        const std::vector<float>& x = b.x;
        const std::vector<float>& want = b.want;
        const int P = l.P(), Q = l.Q();
        REQUIRE(want.size() == std::size_t(l.C) * P * Q * std::size_t(r.net.batch));
        const auto ty = vp::mapper::vta::resize_taps(l, true), tx = vp::mapper::vta::resize_taps(l, false);
        float amax = 0;
        for (float v : x) amax = std::max(amax, std::abs(v));
        for (std::size_t nc = 0; nc < std::size_t(l.C) * std::size_t(r.net.batch); ++nc)
            for (int p = 0; p < P; ++p)
                for (int q = 0; q < Q; ++q) {
                    const auto& y = ty[std::size_t(p)];
                    const auto& z = tx[std::size_t(q)];
                    auto at = [&](int i, int j) { return double(x[(nc * std::size_t(l.H) + std::size_t(i)) * std::size_t(l.W) + std::size_t(j)]); };
                    const double w = want[(nc * std::size_t(P) + std::size_t(p)) * std::size_t(Q) + std::size_t(q)];
                    if (!c.linear) {
                        CHECK(at(y.i0, z.i0) == w);
                        continue;
                    }
                    const double top = at(y.i0, z.i0) * (128 - z.w1) + at(y.i0, z.i1) * z.w1;
                    const double bot = at(y.i1, z.i0) * (128 - z.w1) + at(y.i1, z.i1) * z.w1;
                    CHECK(std::abs((top * (128 - y.w1) + bot * y.w1) / 16384.0 - w) <= amax * 2.0 / 256.0 + 1e-6);
                }
    }
}

TEST_CASE("libonnx-testdata: the VTA host's sigmoid, hard sigmoid and hard swish against ONNX's reference outputs", "[import][testdata][vta]") {
    // The host's int8 functions (mapper/vta/network_driver.h) under their fixed-point convention
    // (an input v stands for v / 16, a gate g for g / 128, hard_swish's output for v / 16), on the
    // ONNX backend tests' float inputs rounded to 1/16, against the outputs of ONNX's numpy
    // implementation: within the input rounding (1/32 times the function's slope), the output
    // rounding and the gate's clamp at 127 / 128.
    using vp::mapper::Activation;
    for (const char* d : {"test_sigmoid", "test_hardsigmoid", "test_hardsigmoid_default", "test_hardswish"}) {
        INFO(d);
        const Backend b = backend(d);
        const Layer& l = b.layer();
        const std::vector<float>& x = b.x;
        const std::vector<float>& want = b.want;
        REQUIRE(x.size() == want.size());
        const auto hs = vp::mapper::vta::hard_sigmoid_multipliers(l.alpha, l.beta);
        if (l.act == Activation::HardSigmoid) CHECK(l.has_alpha);
        const double slope = l.act == Activation::Sigmoid ? 0.25 : l.act == Activation::HardSigmoid ? std::abs(l.alpha) : 1.5;
        for (std::size_t k = 0; k < x.size(); ++k) {
            const auto v = on_grid(x[k]);
            double got = 0, tol = slope / 32.0;
            switch (l.act) {
                case Activation::Sigmoid: got = vp::mapper::vta::sigmoid_int8(v) / 128.0; tol += 1.0 / 256 + 1.0 / 128; break;
                case Activation::HardSigmoid: got = vp::mapper::vta::hard_sigmoid_int8(v, hs) / 128.0; tol += 1.0 / 256 + 1.0 / 128; break;
                case Activation::HardSwish: got = vp::mapper::vta::hard_swish_int8(v) / 16.0; tol += 1.0 / 32 + 1.0 / 256; break;
                default: FAIL("unexpected activation " << to_string(l.act));
            }
            INFO("x " << x[k] << " v " << int(v) << " ONNX " << want[k] << " host " << got);
            CHECK(std::abs(got - double(want[k])) <= tol);
        }
    }
}

TEST_CASE("libonnx-testdata: the VTA host's tanh, erf, softplus, elu, clip and LRN against ONNX's reference outputs", "[import][testdata][vta]") {
    // As the test above: the inputs rounded to 1/16, the host's int8 functions, ONNX's numpy outputs,
    // within the input rounding (1/32 times the function's largest slope) and the output rounding
    // (tanh a gate g / 128, the others activations v / 16). The imported attributes (Elu's alpha,
    // LRN's four) are the ones applied.
    using vp::mapper::Activation;
    for (const char* d : {"test_tanh", "test_erf", "test_softplus", "test_elu", "test_elu_default", "test_clip", "test_clip_splitbounds",
                          "test_clip_outbounds", "test_clip_default_max"}) {
        INFO(d);
        const Backend b = backend(d);
        const Layer& l = b.layer();
        REQUIRE(b.x.size() == b.want.size());
        if (l.act == Activation::Elu) CHECK(l.has_alpha);
        const double slope = l.act == Activation::Elu ? std::max(1.0, l.alpha) : l.act == Activation::Erf ? 1.13 : 1.0;  // erf: 2 / sqrt(pi)
        for (std::size_t k = 0; k < b.x.size(); ++k) {
            const auto v = on_grid(b.x[k]);
            double got = 0, tol = slope / 32.0;
            switch (l.act) {
                case Activation::Tanh: got = vp::mapper::vta::tanh_int8(v) / 128.0; tol += 1.0 / 256 + 1.0 / 128; break;
                case Activation::Erf: got = vp::mapper::vta::erf_int8(v) / 128.0; tol += 1.0 / 256 + 1.0 / 128; break;
                case Activation::Clip: got = vp::mapper::vta::activation_table(l)[std::size_t(v + 128)] / 16.0; tol += 1.0 / 32; break;
                case Activation::Softplus: got = vp::mapper::vta::softplus_int8(v) / 16.0; tol += 1.0 / 32; break;
                case Activation::Elu: got = vp::mapper::vta::elu_int8(v, l.alpha) / 16.0; tol += 1.0 / 32; break;
                default: FAIL("unexpected activation " << to_string(l.act));
            }
            INFO("x " << b.x[k] << " v " << int(v) << " ONNX " << b.want[k] << " host " << got);
            CHECK(std::abs(got - double(b.want[k])) <= tol + 1e-6);
        }
    }
    for (const char* d : {"test_lrn", "test_lrn_default"}) {
        INFO(d);
        const Backend b = backend(d);
        const Layer& l = b.layer();
        REQUIRE(l.kind == LayerKind::Lrn);
        CHECK(l.lrn_size == 3);
        const std::size_t per = std::size_t(l.C) * l.H * l.W, hw = std::size_t(l.H) * l.W;
        REQUIRE(b.x.size() == per * std::size_t(b.r.net.batch));
        REQUIRE(b.want.size() == b.x.size());
        for (std::size_t n = 0; n < std::size_t(b.r.net.batch); ++n) {
            std::vector<std::int8_t> v(per);
            for (std::size_t k = 0; k < per; ++k) v[k] = on_grid(b.x[n * per + k]);
            const auto out = vp::mapper::vta::lrn_int8(v, l.C, hw, l.lrn_size, l.alpha, l.beta, l.lrn_bias);
            for (std::size_t k = 0; k < per; ++k) {
                INFO("x " << b.x[n * per + k] << " ONNX " << b.want[n * per + k] << " host " << out[k] / 16.0);
                CHECK(std::abs(out[k] / 16.0 - double(b.want[n * per + k])) <= 1.0 / 32 + 1.0 / 32 + 1e-6);
            }
        }
    }
}

TEST_CASE("libonnx-testdata: the VTA host's softmax against ONNX's reference outputs, over the axes recorded", "[import][testdata][vta]") {
    // The axes vp-import records for each test's `axis` (opset 13: one axis; the [3, 4, 5] inputs are
    // N, C, L, so axis 0 is the batch's and nothing is recorded), the host's softmax_int8 on the
    // inputs rounded to 1/16 against ONNX's outputs: within the output rounding (1/256) and the
    // input rounding (a probability p moves by at most p (1 - p) / 16 per 1/32 of every input, over
    // at most 5 inputs of a group: 5 / 64 / 4). test_softmax_large_number's inputs exceed the int8 range.
    struct S {
        const char* dir;
        SoftmaxAxis axis;
    };
    for (const S& c : {S{"test_softmax_axis_0", SoftmaxAxis::Unknown}, S{"test_softmax_axis_1", SoftmaxAxis::C},
                       S{"test_softmax_axis_2", SoftmaxAxis::H}, S{"test_softmax_default_axis", SoftmaxAxis::H},
                       S{"test_softmax_negative_axis", SoftmaxAxis::H}, S{"test_softmax_example", SoftmaxAxis::C}}) {
        INFO(c.dir);
        const Backend b = backend(c.dir);
        const Layer& l = b.layer();
        REQUIRE(l.act == Activation::Softmax);
        CHECK(l.softmax_axis == c.axis);
        if (c.axis == SoftmaxAxis::Unknown) continue;
        const std::size_t per = std::size_t(l.C) * l.H * l.W;
        REQUIRE(b.x.size() == per * std::size_t(b.r.net.batch));
        for (std::size_t n = 0; n < std::size_t(b.r.net.batch); ++n) {
            std::vector<std::int8_t> v(per);
            for (std::size_t k = 0; k < per; ++k) v[k] = on_grid(b.x[n * per + k]);
            const auto out = vp::mapper::vta::softmax_int8(v, l.C, l.H, l.W, l.softmax_axis);
            for (std::size_t k = 0; k < per; ++k) {
                INFO("x " << b.x[n * per + k] << " ONNX " << b.want[n * per + k] << " host " << out[k] / 128.0);
                CHECK(std::abs(out[k] / 128.0 - double(b.want[n * per + k])) <= 1.0 / 256 + 5.0 / 256 + 1.0 / 128 + 1e-6);
            }
        }
    }
}

TEST_CASE("libonnx-testdata: the VTA host's layernorm against ONNX's LayerNormalization and InstanceNormalization outputs", "[import][testdata][vta]") {
    // The axes and epsilon vp-import records for each test, the host's normalisation (normalise_int8)
    // of the inputs rounded to 1/16, then ONNX's own scale and shift (test inputs 1 and 2: per
    // element of the normalised axes, or per channel for InstanceNormalization) applied to it in
    // float, against ONNX's outputs. Tolerance per element, in normalised units: the output rounding
    // (1/32) and the input rounding (every input moves by at most 1/32, so x - mean by at most 1/16
    // and the deviation s by at most 1/32: (1/16 + |y| / 32) / s), times |scale|. Over the batch axis
    // (axis 0) nothing is recorded: the importer refuses the node.
    struct N {
        const char* dir;
        SoftmaxAxis axis;
        bool instance = false;
    };
    for (const N& c : {N{"test_layer_normalization_4d_axis1", SoftmaxAxis::CHW}, N{"test_layer_normalization_4d_axis2", SoftmaxAxis::HW},
                       N{"test_layer_normalization_4d_axis3", SoftmaxAxis::W}, N{"test_layer_normalization_4d_axis_negative_1", SoftmaxAxis::W},
                       N{"test_layer_normalization_4d_axis_negative_2", SoftmaxAxis::HW},
                       N{"test_layer_normalization_4d_axis_negative_3", SoftmaxAxis::CHW},
                       N{"test_layer_normalization_default_axis", SoftmaxAxis::W},
                       N{"test_layer_normalization_3d_axis1_epsilon", SoftmaxAxis::CHW},
                       N{"test_layer_normalization_3d_axis2_epsilon", SoftmaxAxis::HW},
                       N{"test_layer_normalization_3d_axis_negative_1_epsilon", SoftmaxAxis::HW},
                       N{"test_layer_normalization_2d_axis1", SoftmaxAxis::CHW}, N{"test_layer_normalization_2d_axis_negative_1", SoftmaxAxis::CHW},
                       N{"test_instancenorm_example", SoftmaxAxis::HW, true}, N{"test_instancenorm_epsilon", SoftmaxAxis::HW, true}}) {
        INFO(c.dir);
        const Backend b = backend(c.dir, true);
        const Layer& l = b.layer();
        REQUIRE(l.kind == LayerKind::LayerNorm);
        CHECK(l.norm_axis == c.axis);
        REQUIRE(l.norm_eps > 0.0);
        const std::string data = kData + "node/" + c.dir + "/test_data_set_0/";
        const std::vector<float> scale = floats_of(read_pb(data + "input_1.pb")), shift = floats_of(read_pb(data + "input_2.pb"));
        REQUIRE(scale.size() == shift.size());
        const std::size_t per = std::size_t(l.C) * l.H * l.W, hw = std::size_t(l.H) * l.W;
        const std::size_t group = c.axis == SoftmaxAxis::CHW ? per : c.axis == SoftmaxAxis::HW ? hw : std::size_t(l.W);
        REQUIRE(b.x.size() == per * std::size_t(b.r.net.batch));
        REQUIRE(scale.size() == (c.instance ? std::size_t(l.C) : group));
        for (std::size_t n = 0; n < std::size_t(b.r.net.batch); ++n) {
            std::vector<std::int8_t> v(per);
            for (std::size_t k = 0; k < per; ++k) v[k] = on_grid(b.x[n * per + k]);
            const auto t = vp::mapper::vta::normalise_int8(v, l.C, l.H, l.W, l.norm_axis, l.norm_eps);
            for (std::size_t g0 = 0; g0 < per; g0 += group) {
                double sum = 0, sq = 0;
                for (std::size_t k = g0; k < g0 + group; ++k) sum += b.x[n * per + k];
                for (std::size_t k = g0; k < g0 + group; ++k) sq += std::pow(b.x[n * per + k] - sum / double(group), 2);
                const double s = std::sqrt(sq / double(group) + l.norm_eps);
                for (std::size_t k = g0; k < g0 + group; ++k) {
                    const std::size_t a = c.instance ? k / hw : k - g0;  // the scale and shift of the element
                    const double y = t[k] / 16.0, got = y * scale[a] + shift[a];
                    const double tol = (1.0 / 32 + (1.0 / 16 + std::abs(y) / 32) / s) * std::abs(scale[a]) + 1e-5;
                    INFO("x " << b.x[n * per + k] << " ONNX " << b.want[n * per + k] << " host " << got << " deviation " << s);
                    CHECK(std::abs(got - double(b.want[n * per + k])) <= tol);
                }
            }
        }
    }
    for (const char* d : {"test_layer_normalization_4d_axis0", "test_layer_normalization_3d_axis0_epsilon"}) {
        INFO(d);
        std::vector<std::int64_t> od, wd;
        std::vector<onnx::TensorProto> in;
        const std::string path = std::string("node/") + d;
        CHECK_THROWS_WITH(vp::import::import_onnx(prepare(Case{path.c_str(), 1, "", false, true}, od, in, wd), {}),
                          Catch::Contains("normalisation over the batch axis"));
    }
}

namespace {
// The layer alone, run by the VTA driver on a network input whose element k of each sample holds k
// (a tag; at most 127 elements per sample), so that each output element names the input element it
// copies. Returns the output of one sample.
std::vector<std::int8_t> run_on_tags(const Layer& l, const char* dir) {
    const std::size_t per = std::size_t(l.C) * l.H * l.W;
    REQUIRE(per <= 127);
    vp::mapper::Network one;
    one.name = dir;
    one.layers = {l};
    one.layers[0].inputs = {Layer::kNetInput};
    vp::mapper::vta::NetGraph g = vp::mapper::vta::chain_graph(one, dir);
    g.input_file = (std::filesystem::temp_directory_path() / "vp_import_testdata" / (std::string(dir) + "_tags.bin")).string();
    {
        std::ofstream f(g.input_file, std::ios::binary);
        for (std::size_t k = 0; k < per; ++k) f.put(char(k));
    }
    vp::mapper::vta::NetworkDriver d(g, vp::mapper::vta::VtaConfig{}, vp::mapper::vta::DriverOptions{});
    vp::mapper::vta::run_network_functional(d, nullptr);
    return d.output(0);
}
}  // namespace

TEST_CASE("libonnx-testdata: DepthToSpace (DCR, CRD) and SpaceToDepth on the VTA host against ONNX's reference outputs", "[import][testdata][vta]") {
    // The imported layer (block, mode) run by the VTA driver on a network input whose element k of
    // each sample holds k (a tag: every test moves at most 72 elements per sample), so each output
    // element names the input element it copies; ONNX's output must hold that element's value.
    struct S {
        const char* dir;
        LayerKind kind;
        bool crd;
    };
    for (const S& c : {S{"test_depthtospace_example", LayerKind::DepthToSpace, false}, S{"test_depthtospace_dcr_mode", LayerKind::DepthToSpace, false},
                       S{"test_depthtospace_crd_mode_example", LayerKind::DepthToSpace, true},
                       S{"test_depthtospace_crd_mode", LayerKind::DepthToSpace, true}, S{"test_spacetodepth_example", LayerKind::SpaceToDepth, false},
                       S{"test_spacetodepth", LayerKind::SpaceToDepth, false}}) {
        INFO(c.dir);
        const Backend b = backend(c.dir);
        const Layer& l = b.layer();
        REQUIRE(l.kind == c.kind);
        CHECK((l.block == 2 && l.crd == c.crd));
        const std::size_t per = std::size_t(l.C) * l.H * l.W;
        REQUIRE(per <= 127);
        REQUIRE(b.want.size() == std::size_t(l.K) * l.P() * l.Q() * std::size_t(b.r.net.batch));
        REQUIRE(std::size_t(l.K) * l.P() * l.Q() == per);
        const auto out = run_on_tags(l, c.dir);
        REQUIRE(out.size() == per);
        for (std::size_t n = 0; n < std::size_t(b.r.net.batch); ++n)
            for (std::size_t k = 0; k < per; ++k) {
                INFO("sample " << n << " output " << k << " copies input " << int(out[k]));
                CHECK(b.want[n * per + k] == b.x[n * per + std::size_t(out[k])]);
            }
    }
}

TEST_CASE("libonnx-testdata: slices along C and H (starts, ends past the end, negative axes) on the VTA host against ONNX's reference outputs",
          "[import][testdata][vta]") {
    // As the DepthToSpace test above: the imported slice layer run by the VTA driver on a tagged
    // input (element k of each sample holds k; 50 elements per sample), so each output element names
    // the input element it copies, and ONNX's output must hold that element's value.
    for (const char* dir : {"test_slice_default_axes", "test_slice_default_steps", "test_slice_negative_axes", "test_slice_neg",
                            "test_slice_end_out_of_bounds"}) {
        INFO(dir);
        const Backend b = backend(dir);
        const Layer& l = b.layer();
        REQUIRE(l.kind == LayerKind::Slice);
        const std::size_t per = std::size_t(l.C) * l.H * l.W, out_per = std::size_t(l.K) * l.P() * l.Q();
        REQUIRE(per <= 127);
        REQUIRE(b.want.size() == out_per * std::size_t(b.r.net.batch));
        const auto out = run_on_tags(l, dir);
        REQUIRE(out.size() == out_per);
        for (std::size_t n = 0; n < std::size_t(b.r.net.batch); ++n)
            for (std::size_t k = 0; k < out_per; ++k) {
                INFO("sample " << n << " output " << k << " copies input " << int(out[k]));
                CHECK(b.want[n * out_per + k] == b.x[n * per + std::size_t(out[k])]);
            }
    }
}

TEST_CASE("libonnx-testdata: the VTA host's reflect, edge and constant pads against ONNX's reference outputs", "[import][testdata][vta]") {
    // The imported pad layer's mode and value, the host's source coordinates (pad_source) and
    // constant (pad_constant_int8) on the inputs rounded to 1/16, against ONNX's outputs: within the
    // input rounding (1/32), every output being an input element or the constant.
    struct P {
        const char* dir;
        PadMode mode;
    };
    for (const P& c : {P{"test_reflect_pad", PadMode::Reflect}, P{"test_edge_pad", PadMode::Edge}, P{"test_constant_pad", PadMode::Constant}}) {
        INFO(c.dir);
        const Backend b = backend(c.dir);
        const Layer& l = b.layer();
        REQUIRE(l.kind == LayerKind::Pad);
        CHECK(l.pad_mode == c.mode);
        const int P = l.P(), Q = l.Q();
        const std::size_t in_per = std::size_t(l.C) * l.H * l.W, out_per = std::size_t(l.C) * P * Q;
        REQUIRE(b.x.size() == in_per * std::size_t(b.r.net.batch));
        REQUIRE(b.want.size() == out_per * std::size_t(b.r.net.batch));
        std::size_t border = 0;
        for (std::size_t n = 0; n < std::size_t(b.r.net.batch); ++n)
            for (int ch = 0; ch < l.C; ++ch)
                for (int p = 0; p < P; ++p)
                    for (int q = 0; q < Q; ++q) {
                        const int y = vp::mapper::vta::pad_source(p - l.pad_top, l.H, l.pad_mode),
                                  x = vp::mapper::vta::pad_source(q - l.pad_left, l.W, l.pad_mode);
                        const double got = (y < 0 || x < 0 ? vp::mapper::vta::pad_constant_int8(l.pad_value)
                                                           : on_grid(b.x[n * in_per + (std::size_t(ch) * l.H + std::size_t(y)) * l.W + std::size_t(x)])) /
                                           16.0;
                        border += y != p - l.pad_top || x != q - l.pad_left;
                        const double want = b.want[n * out_per + (std::size_t(ch) * P + std::size_t(p)) * Q + std::size_t(q)];
                        INFO("c " << ch << " p " << p << " q " << q << " ONNX " << want << " host " << got);
                        CHECK(std::abs(got - want) <= 1.0 / 32 + 1e-6);
                    }
        CHECK(border > 0);
    }
}

TEST_CASE("libonnx-testdata: the VTA host's divisor rule of padded average pools against ONNX's reference outputs", "[import][testdata][vta]") {
    // The imported layer's count_include_pad, applied as the host does (a window's divisor: its
    // positions in the input, or in the padded input) to the float input, gives ONNX's outputs.
    for (const char* d : {"test_averagepool_2d_pads", "test_averagepool_2d_pads_count_include_pad", "test_averagepool_2d_precomputed_pads",
                          "test_averagepool_2d_precomputed_pads_count_include_pad", "test_averagepool_2d_same_upper",
                          "test_averagepool_2d_same_lower"}) {
        INFO(d);
        const Backend b = backend(d);
        const auto& r = b.r;
        const Layer& l = b.layer();
        REQUIRE((l.kind == LayerKind::Pool && l.pool_op == PoolOp::Avg));
        REQUIRE(l.has_count_include_pad);
        CHECK(l.count_include_pad == (std::string(d).find("count_include_pad") != std::string::npos));
        const std::vector<float>& x = b.x;
        const std::vector<float>& want = b.want;
        const int P = l.P(), Q = l.Q();
        REQUIRE(want.size() == std::size_t(l.C) * P * Q * std::size_t(r.net.batch));
        for (std::size_t nc = 0; nc < std::size_t(l.C) * std::size_t(r.net.batch); ++nc)
            for (int p = 0; p < P; ++p)
                for (int q = 0; q < Q; ++q) {
                    double sum = 0;
                    int n = 0;
                    for (int a = 0; a < l.R; ++a)
                        for (int b = 0; b < l.S; ++b) {
                            const int y = p * l.stride_h + a - l.pad_top, z = q * l.stride_w + b - l.pad_left;
                            if (y < 0 || y >= l.H || z < 0 || z >= l.W) {
                                n += l.count_include_pad;
                                continue;
                            }
                            sum += x[(nc * std::size_t(l.H) + std::size_t(y)) * std::size_t(l.W) + std::size_t(z)];
                            ++n;
                        }
                    CHECK(sum / n == Approx(want[(nc * std::size_t(P) + std::size_t(p)) * std::size_t(Q) + std::size_t(q)]).margin(1e-5));
                }
    }
}
