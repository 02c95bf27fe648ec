#pragma once
// Small YOLOv5- and YOLOv8-style models for the importer's tests (test_import_ops.cpp: the layers it becomes;
// test_vta_imported.cpp: its values on the VTA against the reference).
#include "onnx_builder.h"

namespace test_onnx {

// A YOLOv5 detection head as its exporter writes it (one scale): a 1x1 conv to 3 anchors x 7
// outputs (2 classes), viewed as [1, 3, 7, 4, 4] and permuted to [1, 3, 4, 4, 7], a sigmoid, the
// outputs split into xy, wh and the rest along the last axis, xy * 2 + grid (times the stride), (wh
// * 2)^2 times the anchors, joined again along the last axis and flattened to [1, 48, 7]. A Focus
// stem before it (every second row and column, in one Slice over two axes and in two Slices).
inline Model yolov5_head() {
    Model m(13);
    m.input("x", {1, 4, 8, 8}).init("w0", {8, 16, 1, 1}).init("w", {21, 8, 1, 1}).output("y").output("q");
    m.ints("s0", {0, 0}).ints("s1", {1, 1}).ints("e", {1000, 1000}).ints("ax", {2, 3}).ints("st", {2, 2});
    m.ints("h1", {1}).ints("hend", {1000}).ints("hax", {2}).ints("hst", {2}).ints("wax", {3});
    m.node("Slice", {"x", "s0", "e", "ax", "st"}, {"f00"}, "focus00");  // rows 0, 2, .. and columns 0, 2, ..
    m.node("Slice", {"x", "s1", "e", "ax", "st"}, {"f11"}, "focus11");
    m.node("Slice", {"x", "h1", "hend", "hax", "hst"}, {"r1"}, "rows1");  // rows 1, 3, ..
    m.node("Slice", {"r1", "h1", "hend", "wax", "hst"}, {"f10"}, "focus10");  // .. then columns 1, 3, ..
    m.ints("s01", {0, 1});
    m.node("Slice", {"x", "s01", "e", "ax", "st"}, {"f01"}, "focus01");  // rows 0, 2, .., columns 1, 3, ..
    attr(m.node("Concat", {"f00", "f10", "f01", "f11"}, {"f"}, "focus"), "axis", std::int64_t(1));  // 16 x 4 x 4
    m.node("Conv", {"f", "w0"}, {"stem"}, "stem");
    m.node("Conv", {"stem", "w"}, {"p"}, "head");
    m.ints("v5", {1, 3, 7, 4, 4}).ints("flat", {1, 48, 7}).ints("parts", {2, 2, 3});
    m.floats("two", {2.0f}, true).floats("stride", {8.0f}, true);
    m.init("grid", {1, 3, 4, 4, 2}).init("anchors", {1, 3, 4, 4, 2});
    m.node("Reshape", {"p", "v5"}, {"p5"}, "view");
    attr(m.node("Transpose", {"p5"}, {"t"}, "permute"), "perm", std::vector<std::int64_t>{0, 1, 3, 4, 2});
    m.node("Sigmoid", {"t"}, {"sg"}, "sigmoid");
    attr(m.node("Split", {"sg", "parts"}, {"xy", "wh", "conf"}, "split"), "axis", std::int64_t(4));
    m.node("Mul", {"xy", "two"}, {"xy2"}, "xy2");
    m.node("Add", {"xy2", "grid"}, {"xyg"}, "xy_grid");
    m.node("Mul", {"xyg", "stride"}, {"xyo"}, "xy_stride");
    m.node("Mul", {"wh", "two"}, {"wh2"}, "wh2");
    m.node("Pow", {"wh2", "two"}, {"whp"}, "wh_pow");
    m.node("Mul", {"whp", "anchors"}, {"who"}, "wh_anchor");
    attr(m.node("Concat", {"xyo", "who", "conf"}, {"y5"}, "join"), "axis", std::int64_t(4));
    m.node("Reshape", {"y5", "flat"}, {"y"}, "flatten");
    m.node("Identity", {"f"}, {"q"}, "focus_out");
    return m;
}

// A YOLOv8 head as its exporter writes it (two scales, 2 classes, 4-bin DFL): each scale's box and
// class convolutions joined on the channels, viewed as [1, 20, H W] and the scales joined along the
// positions (axis 2), split into 16 box and 4 class channels; the box distribution viewed as
// [1, 4, 4, 20], transposed to put the bins first, softmaxed over them and reduced by a 1x1 conv;
// the distances split in two, anchors - lt and anchors + rb, the centre and size joined and
// scaled by the strides, joined with the sigmoid of the classes.
inline Model yolov8_head() {
    Model m(13);
    m.input("x", {1, 6, 4, 4}).init("wb", {16, 6, 3, 3}).init("wc", {4, 6, 3, 3}).init("wd", {16, 6, 3, 3});
    m.init("we", {4, 6, 3, 3}).init("dfl", {1, 4, 1, 1}).output("y");
    m.ints("v1", {1, 20, 16}).ints("v2", {1, 20, 4}).ints("parts", {16, 4});
    m.ints("bins", {1, 4, 4, 20}).ints("dist", {1, 4, 20}).ints("halves", {2, 2});
    m.init("anchors", {1, 2, 20}).init("strides", {1, 20}).floats("half", {0.5f}, true);
    const auto conv = [&](const char* w, const char* in, const char* out, bool stride2) {
        onnx::NodeProto& n = m.node("Conv", {in, w}, {out}, out);
        attr(n, "pads", std::vector<std::int64_t>{1, 1, 1, 1});
        if (stride2) attr(n, "strides", std::vector<std::int64_t>{2, 2});
    };
    conv("wb", "x", "box1", false);
    conv("wc", "x", "cls1", false);
    conv("wd", "x", "box2", true);
    conv("we", "x", "cls2", true);
    attr(m.node("Concat", {"box1", "cls1"}, {"s1"}, "scale1"), "axis", std::int64_t(1));
    attr(m.node("Concat", {"box2", "cls2"}, {"s2"}, "scale2"), "axis", std::int64_t(1));
    m.node("Reshape", {"s1", "v1"}, {"f1"}, "view1");
    m.node("Reshape", {"s2", "v2"}, {"f2"}, "view2");
    attr(m.node("Concat", {"f1", "f2"}, {"all"}, "positions"), "axis", std::int64_t(2));  // [1, 12, 20]
    attr(m.node("Split", {"all", "parts"}, {"box", "cls"}, "split"), "axis", std::int64_t(1));
    m.node("Reshape", {"box", "bins"}, {"b4"}, "dfl_view");
    attr(m.node("Transpose", {"b4"}, {"bt"}, "dfl_transpose"), "perm", std::vector<std::int64_t>{0, 2, 1, 3});
    attr(m.node("Softmax", {"bt"}, {"bs"}, "dfl_softmax"), "axis", std::int64_t(1));
    m.node("Conv", {"bs", "dfl"}, {"bd"}, "dfl_conv");
    m.node("Reshape", {"bd", "dist"}, {"d"}, "dfl_out");
    attr(m.node("Split", {"d", "halves"}, {"lt", "rb"}, "chunk"), "axis", std::int64_t(1));
    m.node("Sub", {"anchors", "lt"}, {"x1y1"}, "x1y1");
    m.node("Add", {"anchors", "rb"}, {"x2y2"}, "x2y2");
    m.node("Add", {"x1y1", "x2y2"}, {"sum"}, "sum");
    m.node("Mul", {"sum", "half"}, {"c_xy"}, "centre");
    m.node("Sub", {"x2y2", "x1y1"}, {"wh"}, "size");
    attr(m.node("Concat", {"c_xy", "wh"}, {"bbox"}, "bbox"), "axis", std::int64_t(1));
    m.node("Mul", {"bbox", "strides"}, {"scaled"}, "scale");
    m.node("Sigmoid", {"cls"}, {"cs"}, "cls_sigmoid");
    attr(m.node("Concat", {"scaled", "cs"}, {"y"}, "out"), "axis", std::int64_t(1));
    return m;
}

}  // namespace test_onnx
