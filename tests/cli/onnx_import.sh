#!/usr/bin/env bash
# ONNX models end to end: vp-import on the torchvision fixtures (weights stripped), vp-run on
# nmp, mesh-4x4 and vta taking a .onnx directly (OUT/workload.json = vp-import's output, a rerun
# from it gives the same statistics), vp-map writing workload.json, and bad models: exit 2 with
# a message naming the file or node, no output folder.
set -u
vp_run=$1; root=$2; bindir=$3
vp_import=$bindir/vp-import
vp_map=$bindir/vp-map
onnx=$root/tests/data/onnx
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
bad() {  # bad NAME SUBSTRING CMD...: exit 2, SUBSTRING in stderr, no $tmp/bad_out
  local name=$1 want=$2; shift 2
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]] && [ ! -e "$tmp/bad_out" ]; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $name: rc=$rc, want 2 and \"$want\"; got: $err"; fi
}

for m in resnet18 resnet50 mobilenet_v2 squeezenet1_1 vgg16 alexnet googlenet inception_v3 mobilenet_v3_small \
         densenet121 shufflenet_v2_x0_5 resnet8_qdq; do
  "$vp_import" "$onnx/$m.onnx" -o "$tmp/$m.json" --quiet
  ok "vp-import $m" "[ $? -eq 0 ] && grep -q '\"inputs\": \\[\"input\"\\]' '$tmp/$m.json'"
done
"$vp_import" "$onnx/resnet50.onnx" -o "$tmp/r50.json" > "$tmp/r50.txt"
ok "summary: 72 layers, folded, fused" "grep -q '169 nodes -> 72 layers' '$tmp/r50.txt' && grep -q 'fused 0 batch norms, 49 activations' '$tmp/r50.txt'"
ok "the default output is MODEL.json" "cp '$onnx/alexnet.onnx' '$tmp/a.onnx' && '$vp_import' '$tmp/a.onnx' -q && [ -s '$tmp/a.json' ]"

# nmp: a .onnx workload runs; OUT/workload.json equals vp-import's file and reruns identically.
"$vp_run" "$root/configs/nmp.yaml" "$onnx/resnet18.onnx" --out "$tmp/nmp" --quiet
ok "nmp runs resnet18.onnx" "[ $? -eq 0 ] && [ -s '$tmp/nmp/stats.json' ]"
ok "OUT/workload.json is the imported network" "cmp -s '$tmp/nmp/workload.json' '$tmp/resnet18.json'"
"$vp_run" "$root/configs/nmp.yaml" "$tmp/nmp/workload.json" --out "$tmp/nmp2" --quiet
ok "rerun from workload.json: same statistics" \
   "diff <(grep -v '\"workload\"' '$tmp/nmp/stats.json') <(grep -v '\"workload\"' '$tmp/nmp2/stats.json') >/dev/null"
ok "simulated MACs = the model's" "grep -q '\"macs\": 1814073344' '$tmp/nmp/stats.json' || grep -q '1814073344' '$tmp/nmp/stats.csv'"

# mesh-4x4 (SqueezeNet 1.1 at 96x96 to keep the test short) and vta (the QDQ ResNet-8 with its weights).
"$vp_run" "$root/configs/mesh-4x4.yaml" "$onnx/squeezenet1_1.onnx" --input-shape input=1x3x96x96 --out "$tmp/mesh" --quiet
ok "mesh-4x4 runs squeezenet1_1.onnx" "[ $? -eq 0 ] && grep -q '\"H\": 96' '$tmp/mesh/workload.json'"
"$vp_run" "$root/configs/vta.yaml" "$onnx/resnet8_qdq.onnx" --out "$tmp/vta" --quiet
ok "vta runs the QDQ ResNet-8 with its weights" "[ $? -eq 0 ] && [ -d '$tmp/vta/outputs' ]"
"$vp_map" "$root/configs/nmp.yaml" "$onnx/googlenet.onnx" --out "$tmp/map/m.json" --quiet 2>/dev/null
mkdir -p "$tmp/map"
"$vp_map" "$root/configs/nmp.yaml" "$onnx/googlenet.onnx" --out "$tmp/map/m.json" --quiet
ok "vp-map: mapping.json and workload.json" "[ $? -eq 0 ] && [ -s '$tmp/map/m.json' ] && [ -s '$tmp/map/workload.json' ]"
"$vp_run" "$root/configs/nmp.yaml" "$onnx/resnet18.onnx" --batch 2 --out "$tmp/b2" --quiet
ok "--batch 2: twice the MACs" "[ $? -eq 0 ] && grep -q '\"batch\": 2' '$tmp/b2/workload.json' && grep -q '3628146688' '$tmp/b2/stats.csv'"

# Bad input.
head -c 5000 "$onnx/resnet50.onnx" > "$tmp/truncated.onnx"
bad truncated "truncated.onnx" "$vp_run" "$root/configs/nmp.yaml" "$tmp/truncated.onnx" --out "$tmp/bad_out"
echo '{"name": "x", "layers": []}' > "$tmp/text.onnx"
bad not_onnx "not a valid ONNX model" "$vp_run" "$root/configs/nmp.yaml" "$tmp/text.onnx" --out "$tmp/bad_out"
# Opset 6 (PyTorch 0.3): read as opset 7 in process; vp-run takes it on nmp.
"$vp_import" /usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d/model.onnx -o "$tmp/op6.json" > "$tmp/op6.txt"
ok "opset 6 imports" "[ $? -eq 0 ] && grep -q 'opset 6 read as opset 7' '$tmp/op6.txt' && grep -q '\"type\": \"conv\"' '$tmp/op6.json'"
"$vp_run" "$root/configs/nmp.yaml" /usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d/model.onnx --out "$tmp/op6run" --quiet
ok "vp-run takes an opset-6 model" "[ $? -eq 0 ] && [ -s '$tmp/op6run/stats.json' ]"
bad missing_weights "resnet18.weights\", which does not exist" "$vp_run" "$root/configs/vta.yaml" "$onnx/resnet18.onnx" --out "$tmp/bad_out"
mkdir -p "$tmp/fw/resnet18.weights" && cp "$onnx/resnet18.onnx" "$tmp/fw/"
bad weights_folder "resnet18.weights\" of \"" "$vp_run" "$root/configs/vta.yaml" "$tmp/fw/resnet18.onnx" --out "$tmp/bad_out"
bad bad_shape_arg "--input-shape input=1x3x: \"\" is not a dimension" "$vp_run" "$root/configs/nmp.yaml" "$onnx/resnet18.onnx" --input-shape input=1x3x --out "$tmp/bad_out"
bad wrong_input "not an input of the model (inputs: input)" "$vp_import" "$onnx/alexnet.onnx" --input-shape image=1x3x224x224 -o "$tmp/bad_out"
bad huge_input "(the imported network): at /layers/0/H: value 100000 out of range (expected 1..32768) (layer \"/conv1/Conv\")" "$vp_run" "$root/configs/nmp.yaml" "$onnx/resnet18.onnx" --input-shape input=1x3x100000x100000 --out "$tmp/bad_out"
# A trailing Reshape of 2048 elements to [7, 13] (an unnamed node): libonnx's inference kept the shape.
bad reshape_count "node \"#1\" (Reshape): Reshape of [1, 8, 16, 16] to shape [7, 13]: the input has 2048 elements and the shape 91" \
  "$vp_import" "$onnx/bad_reshape_7x13.onnx" -o "$tmp/bad_out"
bad precision "--precision 12: expected 8 or 16" "$vp_import" "$onnx/alexnet.onnx" --precision 12 -o "$tmp/bad_out"
# The import options with a JSON workload: refused, not ignored (the run used to be batch 1, 8 bits).
lenet=$root/workloads/lenet5.json
bad json_batch "--batch: applies to .onnx workloads only, and $lenet is not one (a JSON network sets \"batch\" itself)" \
  "$vp_run" "$root/configs/nmp.yaml" "$lenet" --batch 4 --out "$tmp/bad_out"
bad json_precision "--precision: applies to .onnx workloads only" "$vp_run" "$root/configs/nmp.yaml" "$lenet" --precision 16 --check
bad json_input_shape "--input-shape: applies to .onnx workloads only" "$vp_run" "$root/configs/nmp.yaml" "$lenet" --input-shape x=1x3x4x4 --check
bad json_allow_unsupported "--allow-unsupported: applies to .onnx workloads only" "$vp_run" "$root/configs/nmp.yaml" "$lenet" --allow-unsupported --check
bad map_json_batch "--batch: applies to .onnx workloads only" "$vp_map" "$root/configs/nmp.yaml" "$lenet" --batch 2 --out "$tmp/bad_out"
# Models built here with Debian's python3-onnx: a dynamic batch, unsupported operators.
/usr/bin/python3 - "$tmp" <<'PY'
import sys
from onnx import TensorProto, helper, save
import numpy as np
from onnx import numpy_helper
d = sys.argv[1]
w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
g = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["y"], name="conv")], "dyn", [x], [y], [w])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), d + "/dyn.onnx")
# Two inputs: dyn.onnx's conv reading the sum of "x" and a second input "b" of the same shape.
from onnx import NodeProto, load
two = load(d + "/dyn.onnx")
g2 = two.graph
g2.input.add().CopyFrom(g2.input[0])
g2.input[1].name = "b"
add = NodeProto(op_type="Add", name="add", input=["x", "b"], output=["s"])
conv = NodeProto()
conv.CopyFrom(g2.node[0])
conv.input[0] = "s"
del g2.node[:]
g2.node.extend([add, conv])
save(two, d + "/two_inputs.onnx")
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])
nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv"), helper.make_node("Sin", ["c"], ["t"], name="sin_a"),
         helper.make_node("Cos", ["t"], ["y"], name="cos_b")]
save(helper.make_model(helper.make_graph(nodes, "unsup", [x], [y], [w]), opset_imports=[helper.make_opsetid("", 13)]),
     d + "/unsup.onnx")
# Attributes ONNX's shape inference divides by, zero (libonnx 1.12 does not check them).
nodes = [helper.make_node("MaxPool", ["x"], ["y"], name="pool0", kernel_shape=[2, 2], strides=[0, 2])]
save(helper.make_model(helper.make_graph(nodes, "s0", [x], [y]), opset_imports=[helper.make_opsetid("", 13)]), d + "/stride0.onnx")
nodes = [helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=0)]
save(helper.make_model(helper.make_graph(nodes, "b0", [x], [y]), opset_imports=[helper.make_opsetid("", 13)]), d + "/block0.onnx")
nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv_d", dilations=[1, -1])]
save(helper.make_model(helper.make_graph(nodes, "d0", [x], [y], [w]), opset_imports=[helper.make_opsetid("", 13)]), d + "/dil.onnx")
PY
bad stride0 "MaxPool: attribute strides holds 0, expected positive integers" "$vp_import" "$tmp/stride0.onnx" -o "$tmp/bad_out"
bad blocksize0 "DepthToSpace: attribute blocksize is 0" "$vp_import" "$tmp/block0.onnx" -o "$tmp/bad_out"
bad dilation "node name: conv_d): [ShapeInferenceError] Conv: attribute dilations holds -1" "$vp_import" "$tmp/dil.onnx" -o "$tmp/bad_out"
bad dynamic "input \"x\" has a dynamic dimension \"N\"" "$vp_run" "$root/configs/nmp.yaml" "$tmp/dyn.onnx" --out "$tmp/bad_out"
"$vp_import" "$tmp/dyn.onnx" --batch 1 -o "$tmp/dyn.json" -q
ok "--batch fixes the dynamic dimension" "[ $? -eq 0 ]"
# One --input-shape per input: a second one for the same input is refused (the last one used to win
# silently); different inputs each take their own.
bad input_shape_twice "--input-shape names input \"x\" twice (x=1x3x8x8 and x=2x3x8x8): give each input once" \
  "$vp_import" "$tmp/dyn.onnx" --input-shape x=1x3x8x8 --input-shape x=2x3x8x8 -o "$tmp/bad_out"
bad run_input_shape_twice "--input-shape names input \"x\" twice" \
  "$vp_run" "$root/configs/nmp.yaml" "$tmp/dyn.onnx" --input-shape x=1x3x8x8 --input-shape x=1x3x8x8 --check
"$vp_import" "$tmp/two_inputs.onnx" --input-shape x=2x3x8x8 --input-shape b=2x3x8x8 -o "$tmp/two.json" -q
ok "an --input-shape for each of two inputs" "[ $? -eq 0 ] && grep -q '\"batch\": 2' '$tmp/two.json'"
# The summary and the workload's description say that both inputs are read as the one network
# input; the VTA runs the model (both 3 x 8 x 8: one input tensor for both).
"$vp_import" "$tmp/two_inputs.onnx" --batch 1 -o "$tmp/two1.json" > "$tmp/two1.txt"
ok "two data inputs: named with their shapes in the summary and the workload" \
   "[ $? -eq 0 ] && grep -q '2 data inputs (x 1x3x8x8, b 1x3x8x8): each layer that reads one of them reads the network input' '$tmp/two1.txt' && grep -q '\"description\": \".*2 data inputs (x 1x3x8x8, b 1x3x8x8)' '$tmp/two1.json'"
"$vp_run" "$root/configs/vta.yaml" "$tmp/two_inputs.onnx" --batch 1 --out "$tmp/tworun" --quiet
ok "two data inputs of one size run on the VTA" "[ $? -eq 0 ] && [ -s '$tmp/tworun/stats.json' ]"
bad unsupported "node \"cos_b\" (Cos)" "$vp_run" "$root/configs/nmp.yaml" "$tmp/unsup.onnx" --out "$tmp/bad_out"
err=$("$vp_import" "$tmp/unsup.onnx" -o "$tmp/u.json" 2>&1); rc=$?
ok "every unsupported node is listed" "[ $rc -eq 2 ] && [[ \"\$err\" == *'sin_a'* ]] && [[ \"\$err\" == *'cos_b'* ]]"
"$vp_import" "$tmp/unsup.onnx" -o "$tmp/u.json" --allow-unsupported > "$tmp/u.txt"
ok "--allow-unsupported lists what it skipped" "[ $? -eq 0 ] && grep -q 'skipped node \"cos_b\" (Cos)' '$tmp/u.txt' && grep -q '\"op\": \"Sin\"' '$tmp/u.json'"
"$vp_run" "$root/configs/nmp.yaml" "$tmp/unsup.onnx" --allow-unsupported --out "$tmp/u_run" --quiet
ok "vp-run --allow-unsupported runs the rest" "[ $? -eq 0 ] && grep -q 'skipped' '$tmp/u_run/workload.json'"
# Small models of whole networks, built with onnx.helper: small_models.py defines the builders
# (random weights from a seeded generator), each model its layers. runs_everywhere runs one on nmp,
# mesh-4x4 and the VTA.
cat > "$tmp/small_models.py" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
rng = np.random.default_rng(int(sys.argv[2]))
inits, nodes = [], []
def const(name, a):
    inits.append(numpy_helper.from_array(a, name))
    return name
def w(name, *shape, scale=0.1):
    return const(name, (rng.standard_normal(shape) * scale).astype(np.float32))
def node(op, ins, out, **kw):
    nodes.append(helper.make_node(op, ins, [out], name=out, **kw))
    return out
def model(name, inp, in_shape, out, out_shape, opset):
    g = helper.make_graph(nodes, name, [helper.make_tensor_value_info(inp, TensorProto.FLOAT, in_shape)],
                          [helper.make_tensor_value_info(out, TensorProto.FLOAT, out_shape)], inits)
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]), sys.argv[1] + "/" + name + ".onnx")
PY
small_model() {  # small_model NAME SEED < BODY: the builders, then BODY (python), writes $tmp/NAME.onnx
  (cat "$tmp/small_models.py"; cat) > "$tmp/$1.py" && /usr/bin/python3 "$tmp/$1.py" "$tmp" "$2"
}
runs_everywhere() {  # runs_everywhere MODEL WHAT: vp-run on each platform into $tmp/MODEL_<platform>
  for c in nmp mesh-4x4 vta; do
    "$vp_run" "$root/configs/$c.yaml" "$tmp/$1.onnx" --out "$tmp/$1_$c" --quiet
    ok "$2 runs on $c" "[ $? -eq 0 ] && [ -s '$tmp/$1_$c/stats.json' ]"
  done
}
# A Caffe-era model (CaffeNet's layer order, at 67 x 67): LRN after the first two convolutions, grouped
# convolutions, and an opset-9 Softmax over the classes (axis 1: everything after the batch axis).
small_model caffenet 3 <<'PY'
x = node("Conv", ["data", w("w1", 24, 3, 11, 11, scale=0.05)], "conv1", strides=[4, 4])
x = node("Relu", [x], "relu1")
x = node("LRN", [x], "norm1", size=5, alpha=1e-4, beta=0.75)
x = node("MaxPool", [x], "pool1", kernel_shape=[3, 3], strides=[2, 2])
x = node("Conv", [x, w("w2", 32, 12, 5, 5, scale=0.05)], "conv2", pads=[2, 2, 2, 2], group=2)
x = node("Relu", [x], "relu2")
x = node("LRN", [x], "norm2", size=5, alpha=1e-4, beta=0.75, bias=1.0)
x = node("Conv", [x, w("w3", 48, 32, 3, 3, scale=0.05)], "conv3", pads=[1, 1, 1, 1])
x = node("Relu", [x], "relu3")
x = node("Flatten", [x], "flat")
x = node("Gemm", [x, w("w6", 10, 48 * 7 * 7, scale=0.05)], "fc8", transB=1)
node("Softmax", [x], "prob")
model("caffenet", "data", [1, 3, 67, 67], "prob", [1, 10], 9)
PY
"$vp_import" "$tmp/caffenet.onnx" -o "$tmp/caffenet.json" -q
ok "Caffe-era model: lrn layers and the softmax's axes imported" \
   "[ $? -eq 0 ] && [ \$(grep -c '\"type\": \"lrn\", \"size\": 5' '$tmp/caffenet.json') -eq 2 ] && grep -q '\"op\": \"softmax\", \"axis\": \"chw\"' '$tmp/caffenet.json'"
runs_everywhere caffenet "Caffe-era model"
ok "the VTA's output is the softmax's: 10 probabilities at 1/128 in [0, 127]" \
   "[ \$(stat -c %s '$tmp/caffenet_vta/outputs/prob.bin') -eq 10 ] && ! od -An -v -td1 '$tmp/caffenet_vta/outputs/prob.bin' | grep -q -- '-'"
# A fast-neural-style-shaped model (32 x 32): reflect pads before every convolution, instance norms
# (with and without relu), a residual block, a nearest upsample, opset 13.
small_model style 5 <<'PY'
def conv(x, n, cin, cout, k, s):
    p = node("Pad", [x, const(n + "_p", np.array([0, 0, k // 2, k // 2, 0, 0, k // 2, k // 2], np.int64))], n + "_pad", mode="reflect")
    return node("Conv", [p, w(n + "_w", cout, cin, k, k)], n, strides=[s, s])
def inorm(x, n, c, relu=True):
    y = node("InstanceNormalization", [x, const(n + "_s", np.ones(c, np.float32)), const(n + "_b", np.zeros(c, np.float32))], n)
    return node("Relu", [y], n + "_relu") if relu else y
h = inorm(conv("img", "c1", 3, 8, 9, 1), "in1", 8)
h = inorm(conv(h, "c2", 8, 16, 3, 2), "in2", 16)
r = inorm(conv(h, "r1", 16, 16, 3, 1), "rin1", 16)
r = inorm(conv(r, "r2", 16, 16, 3, 1), "rin2", 16, relu=False)
h = node("Add", [h, r], "res")
h = node("Resize", [h, "", const("up_s", np.array([1, 1, 2, 2], np.float32))], "up", mode="nearest")
h = inorm(conv(h, "c3", 16, 8, 3, 1), "in3", 8)
conv(h, "out", 8, 3, 9, 1)
model("style", "img", [1, 3, 32, 32], "out", [1, 3, 32, 32], 13)
PY
"$vp_import" "$tmp/style.onnx" -o "$tmp/style.json" -q
ok "style-transfer model: reflect pads and instance norms (layernorm over hw) imported" \
   "[ $? -eq 0 ] && [ \$(grep -c '\"type\": \"pad\", \"mode\": \"reflect\"' '$tmp/style.json') -eq 6 ] && [ \$(grep -c '\"type\": \"layernorm\", \"axis\": \"hw\"' '$tmp/style.json') -eq 5 ]"
runs_everywhere style "style-transfer model"
# A reorg (SpaceToDepth, YOLOv2's passthrough) and a pixel shuffle (DepthToSpace CRD, as PyTorch
# exports PixelShuffle), 32 x 32, opset 13.
small_model space_depth 7 <<'PY'
x = node("Conv", ["img", w("w1", 8, 3, 3, 3)], "c1", pads=[1, 1, 1, 1])
x = node("Tanh", [x], "t1")
x = node("SpaceToDepth", [x], "reorg", blocksize=2)
x = node("Conv", [x, w("w2", 48, 32, 3, 3)], "c2", pads=[1, 1, 1, 1])
x = node("DepthToSpace", [x], "shuffle", blocksize=4, mode="CRD")
node("Conv", [x, w("w3", 3, 3, 3, 3)], "out", pads=[1, 1, 1, 1])
model("space_depth", "img", [1, 3, 32, 32], "out", [1, 3, 64, 64], 13)
PY
"$vp_import" "$tmp/space_depth.onnx" -o "$tmp/space_depth.json" -q
ok "reorg and pixel shuffle imported as space_to_depth and depth_to_space layers" \
   "[ $? -eq 0 ] && grep -q '\"type\": \"space_to_depth\", \"block\": 2' '$tmp/space_depth.json' && grep -q '\"type\": \"depth_to_space\", \"block\": 4, \"mode\": \"crd\"' '$tmp/space_depth.json'"
runs_everywhere space_depth "reorg and pixel shuffle model"
# Detectors with their box decoding, at 320 x 320 (the fixtures of scripts/yolo_models.py): YOLOv5's
# head viewed at rank 5 and split / joined along its last axis (W of the merged C x H x W), its Focus
# stem's strided slices, YOLOv8's scales joined along the positions (H of N x C x L).
for m in yolov5n yolov5n_focus yolov8n; do
  cp "$onnx/$m.onnx" "$tmp/$m.onnx"
  "$vp_import" "$tmp/$m.onnx" -o "$tmp/$m.json" -q
  ok "vp-import $m" "[ $? -eq 0 ] && [ \$(grep -c '\"skipped\"' '$tmp/$m.json') -eq 0 ]"
done
ok "YOLOv5's head: splits and concats along W" \
   "grep -q '\"type\": \"slice\", \"axis\": \"w\"' '$tmp/yolov5n.json' && grep -q '\"type\": \"concat\", \"axis\": \"w\"' '$tmp/yolov5n.json'"
ok "the Focus stem: every second row and column" \
   "[ \$(grep -c '\"type\": \"slice\", \"axis\": \"[hw]\", .*\"step\": 2' '$tmp/yolov5n_focus.json') -ge 6 ]"
ok "YOLOv8's scales joined along H" "grep -q '\"type\": \"concat\", \"axis\": \"h\"' '$tmp/yolov8n.json'"
for m in yolov5n_focus yolov8n; do  # the shape platforms (the VTA needs the stripped weights: test_vta_imported.cpp)
  for c in nmp mesh-4x4; do
    "$vp_run" "$root/configs/$c.yaml" "$tmp/$m.onnx" --out "$tmp/${m}_$c" --quiet
    ok "$m runs on $c" "[ $? -eq 0 ] && [ -s '$tmp/${m}_$c/stats.json' ]"
  done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
