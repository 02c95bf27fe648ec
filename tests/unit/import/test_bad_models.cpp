// Bad ONNX input: every case is vp::InputError (exit code 2 in the tools) with a message naming
// the file and, where one is involved, the node; never a crash.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <limits>
#include <fstream>

#include "mapper/common/errors.h"
#include "onnx_builder.h"
#include "platform/import/onnx_import.h"

using vp::import::ImportOptions;
using vp::import::import_onnx;
using test_onnx::attr;
using test_onnx::Model;

namespace {
const std::string kFixtures = std::string(VP_SOURCE_DIR) + "/tests/data/onnx/";

std::string write_bytes(const std::string& name, const std::string& bytes) {
    const std::string p = (test_onnx::scratch_dir() / name).string();
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
}
std::string read_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}
Model simple(int opset = 13) {
    Model m(opset);
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}).output("y");
    m.node("Conv", {"x", "w"}, {"y"}, "conv");
    return m;
}
}  // namespace

TEST_CASE("Truncated files and files that are not ONNX", "[import][bad]") {
    const std::string full = read_bytes(kFixtures + "resnet18.onnx");
    REQUIRE(full.size() > 1000);
    for (std::size_t cut : {full.size() / 2, full.size() - 7, std::size_t(40), std::size_t(3)}) {
        INFO("cut at " << cut);
        const std::string p = write_bytes("truncated.onnx", full.substr(0, cut));
        CHECK_THROWS_WITH(import_onnx(p, {}), Catch::Contains("truncated.onnx"));
    }
    CHECK_THROWS_WITH(import_onnx(write_bytes("text.onnx", "{\"name\": \"not a model\", \"layers\": []}\n"), {}),
                      Catch::Contains("text.onnx") && Catch::Contains("not"));
    CHECK_THROWS_WITH(import_onnx(write_bytes("empty.onnx", ""), {}), Catch::Contains("empty file"));
    CHECK_THROWS_WITH(import_onnx(kFixtures + "does_not_exist.onnx", {}), Catch::Contains("cannot open") && Catch::Contains("no such file"));
    CHECK_THROWS_WITH(import_onnx(kFixtures, {}), Catch::Contains("not a regular file"));
    std::string junk(4096, '\0');
    for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = char((i * 2654435761u) >> 13);
    CHECK_THROWS_AS(import_onnx(write_bytes("junk.onnx", junk), {}), vp::InputError);
}

TEST_CASE("Opsets outside 1..22 are rejected", "[import][bad]") {
    CHECK_THROWS_WITH(import_onnx(simple(0).save("op0.onnx"), {}), Catch::Contains("opset 0 is out of the supported range 1..22"));
    CHECK_THROWS_WITH(import_onnx(simple(23).save("op23.onnx"), {}), Catch::Contains("opset 23"));
    CHECK_NOTHROW(import_onnx(simple(1).save("op1.onnx"), {}));
    CHECK_NOTHROW(import_onnx(simple(6).save("op6.onnx"), {}));
    CHECK_NOTHROW(import_onnx(simple(7).save("op7.onnx"), {}));
    CHECK_NOTHROW(import_onnx(simple(17).save("op17.onnx"), {}));
    CHECK_NOTHROW(import_onnx(simple(18).save("op18.onnx"), {}));
    CHECK_NOTHROW(import_onnx(simple(22).save("op22.onnx"), {}));
}

TEST_CASE("A cycle, a dangling input, a tensor produced twice", "[import][bad]") {
    Model cyc;
    cyc.input("x", {1, 3, 8, 8}).output("b");
    cyc.node("Add", {"x", "b"}, {"a"}, "add_a");
    cyc.node("Relu", {"a"}, {"b"}, "relu_b");
    CHECK_THROWS_WITH(import_onnx(cyc.save("cycle.onnx"), {}),
                      Catch::Contains("cycle") && Catch::Contains("node \"add_a\" (Add)") && Catch::Contains("node \"relu_b\" (Relu)"));
    Model dang = simple();
    dang.node("Add", {"y", "ghost"}, {"z"}, "add_ghost");
    CHECK_THROWS_WITH(import_onnx(dang.save("dangling.onnx"), {}),
                      Catch::Contains("node \"add_ghost\" (Add) reads \"ghost\"") && Catch::Contains("dangling"));
    Model twice = simple();
    twice.node("Relu", {"x"}, {"y"}, "relu_twice");
    CHECK_THROWS_WITH(import_onnx(twice.save("twice.onnx"), {}), Catch::Contains("produced twice"));
    Model noout = simple();
    noout.output("nowhere");
    CHECK_THROWS_WITH(import_onnx(noout.save("noout.onnx"), {}), Catch::Contains("graph output \"nowhere\" is produced by no node"));
}

TEST_CASE("External data: outside the model's folder, or absent where values are needed", "[import][bad]") {
    for (const char* loc : {"../escape.bin", "/etc/passwd", "sub/../../escape.bin"}) {
        INFO(loc);
        Model m;
        m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}, onnx::TensorProto::FLOAT, loc).output("y");
        m.node("Conv", {"x", "w"}, {"y"}, "conv");
        CHECK_THROWS_WITH(import_onnx(m.save("outside.onnx"), {}),
                          Catch::Contains("initializer \"w\"") && Catch::Contains("outside the model's folder"));
    }
    Model m;
    m.input("x", {1, 3, 8, 8}).init("w", {4, 3, 3, 3}, onnx::TensorProto::FLOAT, "absent.bin").output("y");
    m.node("Conv", {"x", "w"}, {"y"}, "conv");
    const std::string p = m.save("absent.onnx");
    CHECK(import_onnx(p, {}).net.layers.size() == 1);  // timing: shapes are enough
    ImportOptions o;
    o.need_values = true;
    CHECK_THROWS_WITH(import_onnx(p, o), Catch::Contains("layer \"conv\"") && Catch::Contains("absent.bin") &&
                                             Catch::Contains("does not exist"));
    // Present but too short.
    write_bytes("absent.bin", std::string(10, '\0'));
    CHECK_THROWS_WITH(import_onnx(p, o), Catch::Contains("too short"));
    std::filesystem::remove(test_onnx::scratch_dir() / "absent.bin");
}

TEST_CASE("Bad attributes and shapes name the node", "[import][bad]") {
    Model m;
    m.input("x", {1, 3, 8, 8}).init("w", {4, 2, 3, 3}).output("y");  // 3 channels, weights for 2
    m.node("Conv", {"x", "w"}, {"y"}, "mismatch");
    CHECK_THROWS_WITH(import_onnx(m.save("chan.onnx"), {}), Catch::Contains("mismatch"));
    Model k;
    k.input("x", {1, 3, 4, 4}).init("w", {4, 3, 7, 7}).output("y");  // kernel larger than the input
    k.node("Conv", {"x", "w"}, {"y"}, "big_kernel");
    CHECK_THROWS_WITH(import_onnx(k.save("bigk.onnx"), {}), Catch::Contains("big_kernel"));
    Model p;
    p.input("x", {1, 3, 8, 8}).output("y");
    attr(p.node("MaxPool", {"x"}, {"y"}, "nokernel"), "strides", std::vector<std::int64_t>{2, 2});
    CHECK_THROWS_WITH(import_onnx(p.save("nok.onnx"), {}), Catch::Contains("nokernel"));
    Model r;
    r.input("x", {1, 3, 8, 8}).ints("shape", {5, -1}).output("y");
    r.node("Reshape", {"x", "shape"}, {"y"}, "bad_reshape");  // 192 elements into 5 x ?
    CHECK_THROWS_AS(import_onnx(r.save("reshape.onnx"), {}), vp::InputError);
    Model none;
    none.input("x", {1, 3, 8, 8}).output("y");
    none.node("Relu", {"x"}, {"y"}, "relu");
    CHECK_NOTHROW(import_onnx(none.save("relu_only.onnx"), {}));  // an activation layer
    Model empty;
    empty.input("x", {1, 3, 8, 8}).output("x");
    CHECK_THROWS_WITH(import_onnx(empty.save("nolayers.onnx"), {}), Catch::Contains("no layer"));
}

TEST_CASE("A Reshape keeps the element count: each rule named with the node and the counts", "[import][bad]") {
    // libonnx 1.12's inference kept a shape without -1 whatever its count: 2048 elements reshaped to
    // [7, 13] imported; the checked schemas apply every rule (const_eval.h reshape_dims).
    const auto reshape_to = [](const std::vector<std::int64_t>& shape, const std::string& name, int opset = 13,
                               int allowzero = -1, bool constant_node = false) {
        Model m(opset);
        m.input("x", {1, 3, 16, 16}).init("w", {8, 3, 3, 3}).output("z");
        attr(m.node("Conv", {"x", "w"}, {"y"}, "conv"), "pads", std::vector<std::int64_t>{1, 1, 1, 1});
        if (constant_node) {  // the shape as a Constant node's value, as PyTorch exports it
            auto& c = m.node("Constant", {}, {"s"}, "shape_const");
            auto* a = c.add_attribute();
            a->set_name("value");
            a->set_type(onnx::AttributeProto::TENSOR);
            a->mutable_t()->set_data_type(onnx::TensorProto::INT64);
            a->mutable_t()->add_dims(std::int64_t(shape.size()));
            for (auto v : shape) a->mutable_t()->add_int64_data(v);
        } else {
            m.ints("s", shape);
        }
        auto& r = m.node("Reshape", {"y", "s"}, {"z"}, name);
        if (name.empty()) r.clear_name();  // unnamed: ONNX's message cannot name it, ours gives its index
        if (allowzero >= 0) attr(r, "allowzero", std::int64_t(allowzero));
        return m;
    };
    const std::vector<std::pair<Model, std::string>> bad = {
        {reshape_to({7, 13}, "flat"), "node \"flat\" (Reshape): Reshape of [1, 8, 16, 16] to shape [7, 13]: the input has "
                                       "2048 elements and the shape 91 (expected equal element counts)"},
        {reshape_to({7, 13}, ""), "node \"#1\" (Reshape): Reshape of [1, 8, 16, 16] to shape [7, 13]: the input has 2048"},
        {reshape_to({7, 13}, "", 13, -1, true), "node \"#2\" (Reshape): Reshape of [1, 8, 16, 16] to shape [7, 13]"},
        {reshape_to({1, 8, 256, 0}, "r"), "the input has 2048 elements and the shape 32768"},  // the 0 copies 16
        {reshape_to({}, "r"), "to shape []: the input has 2048 elements and the shape 1"},
        {reshape_to({1, 0, 64, 32}, "r", 14, 1), "the input has 2048 elements and the shape 0"},
        {reshape_to({-1, 13}, "r"), "the input's 2048 elements are not a multiple of 13"},
        {reshape_to({-1, -1}, "r"), "two -1 dimensions"},
        {reshape_to({0, 0, 0, 0, 0}, "r"), "the 0 at index 4 copies the input's dimension 4, and the input has rank 4"},
        {reshape_to({-2, 1024}, "r"), "dimension -2 at index 0 (expected -1, 0 or positive)"},
        {reshape_to({0, -1}, "r", 14, 1), "a -1 beside a zero dimension (allowzero) cannot be inferred"},
    };
    for (const auto& [m, what] : bad) {
        INFO(what);
        CHECK_THROWS_WITH(import_onnx(m.save("reshape_rule.onnx"), {}), Catch::Contains(what));
    }
    for (const std::vector<std::int64_t>& good : {std::vector<std::int64_t>{1, -1}, {0, 0, -1}, {0, 8, 256}, {1, 8, 16, 16}}) {
        INFO(good.size());
        CHECK_NOTHROW(import_onnx(reshape_to(good, "r").save("reshape_ok.onnx"), {}));
    }
    // A Reshape of a folded constant (the shape arithmetic of const_eval.cpp) follows the same rules.
    Model f;
    f.input("x", {1, 3, 8, 8}).ints("a", {2, 3}).ints("s", {4}).output("y");
    f.node("Reshape", {"a", "s"}, {"b"}, "fold_reshape");
    f.node("Reshape", {"x", "b"}, {"y"}, "reshape");
    CHECK_THROWS_WITH(import_onnx(f.save("reshape_fold.onnx"), {}),
                      Catch::Contains("node \"fold_reshape\" (Reshape): Reshape of [2] to shape [4]: the input has 2 elements"));
}

TEST_CASE("A window larger than the padded input is named as such, not as an unknown shape", "[import][bad]") {
    // Every shape is static: ONNX shape inference leaves the output unknown, which used to be
    // reported as "a dynamic dimension: give --input-shape or --batch".
    Model k;
    k.input("x", {1, 3, 4, 4}).init("w", {4, 3, 7, 7}).output("y");
    k.node("Conv", {"x", "w"}, {"y"}, "big_kernel");
    CHECK_THROWS_WITH(import_onnx(k.save("bigk.onnx"), {}),
                      Catch::EndsWith("bigk.onnx: node \"big_kernel\" (Conv): kernel height 7 exceeds the padded input "
                                      "height 4 (4 + pads 0 and 0)"));
    Model d;
    d.input("x", {1, 3, 16, 16}).init("w", {4, 3, 2, 2}).output("y");
    auto& dc = d.node("Conv", {"x", "w"}, {"y"}, "dilated");
    attr(dc, "dilations", std::vector<std::int64_t>{1, 20});
    attr(dc, "pads", std::vector<std::int64_t>{0, 1, 0, 1});
    CHECK_THROWS_WITH(import_onnx(d.save("dil.onnx"), {}),
                      Catch::EndsWith("node \"dilated\" (Conv): kernel width 2 (window 21 with dilation 20) exceeds the "
                                      "padded input width 18 (16 + pads 1 and 1)"));
    Model p;
    p.input("x", {1, 3, 4, 4}).output("y");
    attr(p.node("MaxPool", {"x"}, {"y"}, "big_pool"), "kernel_shape", std::vector<std::int64_t>{9, 9});
    CHECK_THROWS_WITH(import_onnx(p.save("bigp.onnx"), {}),
                      Catch::EndsWith("node \"big_pool\" (MaxPool): kernel height 9 exceeds the padded input height 4 "
                                      "(4 + pads 0 and 0)"));
    Model fits;  // a window that just fits its padded input
    fits.input("x", {1, 3, 4, 4}).init("w", {4, 3, 7, 7}).output("y");
    attr(fits.node("Conv", {"x", "w"}, {"y"}, "fits"), "pads", std::vector<std::int64_t>{2, 2, 1, 1});
    CHECK_NOTHROW(import_onnx(fits.save("fits.onnx"), {}));
}

TEST_CASE("An input dimension of 0 is a zero dimension, not an unknown one", "[import][bad]") {
    Model z;
    z.input("x", {0, 3, 8, 8}).init("w", {4, 3, 3, 3}).output("y");
    z.node("Conv", {"x", "w"}, {"y"}, "conv");
    CHECK_THROWS_WITH(import_onnx(z.save("zero_batch.onnx"), {}),
                      Catch::EndsWith("zero_batch.onnx: input \"x\" has a zero dimension (dim 0): give --input-shape "
                                      "x=1x3x224x224 or --batch N"));
    Model h;
    h.input("x", {1, 3, 0, 8}).init("w", {4, 3, 3, 3}).output("y");
    h.node("Conv", {"x", "w"}, {"y"}, "conv");
    CHECK_THROWS_WITH(import_onnx(h.save("zero_h.onnx"), {}), Catch::Contains("input \"x\" has a zero dimension (dim 2)"));
    Model s;
    s.input("x", {-1, 3, 8, 8}).init("w", {4, 3, 3, 3}).output("y");
    s.node("Conv", {"x", "w"}, {"y"}, "conv");
    CHECK_THROWS_WITH(import_onnx(s.save("sym.onnx"), {}), Catch::Contains("input \"x\" has a dynamic dimension"));
}

TEST_CASE("Command-line shapes are validated", "[import][bad]") {
    using vp::import::parse_input_shape;
    CHECK(parse_input_shape("input=1x3x224x224").second == std::vector<std::int64_t>{1, 3, 224, 224});
    for (const char* bad : {"input", "=1x3", "input=", "input=1x0x2", "input=1xx2", "input=-1x3", "input=3e2", "input=1x3x"}) {
        INFO(bad);
        CHECK_THROWS_AS(parse_input_shape(bad), vp::InputError);
    }
    // One shape per input: a second one for the same input is refused, not kept in place of the first.
    using vp::import::parse_input_shapes;
    CHECK(parse_input_shapes({"a=1x3x8x8", "b=1x3x4x4"}).size() == 2);
    CHECK_THROWS_WITH(parse_input_shapes({"input=1x3x64x64", "b=1x3", "input=1x3x32x32"}),
                      Catch::Contains("names input \"input\" twice (input=1x3x64x64 and input=1x3x32x32)"));
    CHECK_THROWS_AS(parse_input_shapes({"a=1x3", "a=1x3"}), vp::InputError);  // even the same shape
    ImportOptions o;
    o.batch = 5000;
    CHECK_THROWS_WITH(import_onnx(simple().save("b.onnx"), o), Catch::Contains("--batch"));
    o.batch = 0;
    o.input_shapes["x"] = {1, 3, 8};
    CHECK_THROWS_WITH(import_onnx(simple().save("b.onnx"), o), Catch::Contains("rank 3"));
}

TEST_CASE("Shape arithmetic beyond 64-bit integers is an input error, not undefined behaviour", "[import][bad]") {
    // Each constant computation feeds a Reshape's shape, so the importer folds it (found by fuzzing:
    // a ReduceSum of 1.7e19, signed overflow in the integer operations, a float cast to int64).
    const auto reshape_by = [](const std::function<void(Model&)>& shape) {
        Model m;
        m.input("x", {1, 3, 8, 8}).output("y");
        shape(m);
        m.node("Reshape", {"x", "s"}, {"y"}, "reshape");
        return m;
    };
    const std::int64_t big = std::int64_t(1) << 62;
    const std::vector<std::pair<std::function<void(Model&)>, std::string>> cases = {
        {[&](Model& m) { m.ints("a", {big}).ints("b", {4}); m.node("Mul", {"a", "b"}, {"s"}, "mul"); },
         "integer overflow in a shape computation (Mul)"},
        {[&](Model& m) { m.ints("a", {big, big}).ints("b", {big, big}); m.node("Add", {"a", "b"}, {"s"}, "add"); },
         "integer overflow in a shape computation (Add)"},
        {[&](Model& m) {
             m.ints("a", {std::numeric_limits<std::int64_t>::min()}).ints("b", {-1});
             m.node("Div", {"a", "b"}, {"s"}, "div");
         },
         "integer overflow in a shape computation (Div)"},
        {[&](Model& m) {
             m.ints("a", {big, big, big, big});
             attr(m.node("ReduceSum", {"a"}, {"s"}, "sum"), "keepdims", std::int64_t(1));
         },
         "ReduceSum gives"},
        {[&](Model& m) {
             m.floats("f", {1e30f});
             attr(m.node("Cast", {"f"}, {"s"}, "cast"), "to", std::int64_t(onnx::TensorProto::INT64));
         },
         "Cast gives"},
    };
    for (const auto& [shape, what] : cases) {
        INFO(what);
        CHECK_THROWS_WITH(import_onnx(reshape_by(shape).save("overflow.onnx"), {}), Catch::Contains(what));
    }
}
