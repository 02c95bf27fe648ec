#!/usr/bin/python3
"""Regenerates the ONNX fixtures under tests/data/onnx/ (run only to regenerate them).

For each torchvision CNN: export with random weights (torch.onnx.export, opset 13, input name
"input"), move every initializer of 1 KiB or more to external data and drop that data file, so
that the committed graph keeps the initializers' dims (a few tens of KB per model). The shapes
and MACs of every Conv2d / Linear module are recorded by forward hooks on the PyTorch model
(torchvision_layers.json): an independent reference for the importer, which reads only the ONNX
graph.

Also writes resnet8_qdq.onnx: a small CIFAR-style ResNet (torchvision BasicBlocks, 8/16/32
channels) whose conv / linear weights are stored as int8 initializers behind DequantizeLinear
(the QDQ form of quantized models), with its values kept (a few KB): the VTA runs it with the
model's own weights.

Needs Debian's python3-torchvision and python3-onnx: /usr/bin/python3 scripts/export_torchvision.py
"""
import json
import os
import sys

import numpy as np
import onnx
import torch
import torchvision
from onnx import helper, numpy_helper
from onnx.external_data_helper import convert_model_to_external_data

import yolo_models

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "onnx")
MODELS = {  # name: (constructor, input size: H = W, or (H, W))
    "resnet18": (lambda: torchvision.models.resnet18(), 224),
    "resnet50": (lambda: torchvision.models.resnet50(), 224),
    "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(), 224),
    "squeezenet1_1": (lambda: torchvision.models.squeezenet1_1(), 224),
    "vgg16": (lambda: torchvision.models.vgg16(), 224),
    "alexnet": (lambda: torchvision.models.alexnet(), 224),
    "googlenet": (lambda: torchvision.models.googlenet(aux_logits=False, init_weights=True), 224),
    "inception_v3": (lambda: torchvision.models.inception_v3(aux_logits=False, init_weights=True), 299),
    # What else exporters emit: HardSwish and squeeze-excitation (MobileNetV3), batch norms with no
    # conv to fold into (DenseNet), Split and the channel shuffle's Reshape / Transpose (ShuffleNetV2).
    "mobilenet_v3_small": (lambda: torchvision.models.mobilenet_v3_small(), 224),
    "densenet121": (lambda: torchvision.models.densenet121(), 224),
    "shufflenet_v2_x0_5": (lambda: torchvision.models.shufflenet_v2_x0_5(), 224),
    # Held out from every fit and decision (bench/heldout): SiLU and sigmoid-gated squeeze-excitation
    # (EfficientNet-B0), grouped convolutions with SE (RegNetY-400MF) and without (ResNeXt-50 32x4d),
    # inverted residuals with 5x5 depthwise convolutions (MNASNet 0.5).
    "efficientnet_b0": (lambda: torchvision.models.efficientnet_b0(), 224),
    "regnet_y_400mf": (lambda: torchvision.models.regnet_y_400mf(), 224),
    "resnext50_32x4d": (lambda: torchvision.models.resnext50_32x4d(), 224),
    "mnasnet0_5": (lambda: torchvision.models.mnasnet0_5(), 224),
    # Added later, held out in the same way: larger siblings of the fixtures above and the
    # families they leave out (plain ResNet-34, Wide ResNet-50-2, RegNetX without SE, VGG-11 with
    # batch norms after every conv, SqueezeNet 1.0's 7x7 stem, EfficientNetV2's fused MBConv).
    "mobilenet_v3_large": (lambda: torchvision.models.mobilenet_v3_large(), 224),
    "regnet_x_400mf": (lambda: torchvision.models.regnet_x_400mf(), 224),
    "shufflenet_v2_x1_0": (lambda: torchvision.models.shufflenet_v2_x1_0(), 224),
    "mnasnet1_0": (lambda: torchvision.models.mnasnet1_0(), 224),
    "squeezenet1_0": (lambda: torchvision.models.squeezenet1_0(), 224),
    "efficientnet_v2_s": (lambda: torchvision.models.efficientnet_v2_s(), 224),
    "resnet34": (lambda: torchvision.models.resnet34(), 224),
    "wide_resnet50_2": (lambda: torchvision.models.wide_resnet50_2(), 224),
    "vgg11_bn": (lambda: torchvision.models.vgg11_bn(), 224),
    # Segmentation networks with dilated convolutions (dilation 2 and 4 in the backbone, 12 / 24 /
    # 36 in DeepLabV3's ASPP head), and the head's bilinear Resize.
    "fcn_resnet50": (lambda: torchvision.models.segmentation.fcn_resnet50(weights=None, weights_backbone=None,
                                                                           aux_loss=False), 224),
    "deeplabv3_mobilenet_v3_large": (lambda: torchvision.models.segmentation.deeplabv3_mobilenet_v3_large(
        weights=None, weights_backbone=None, aux_loss=False), 224),
    # LayerNorm (at opset 13 the exporter writes ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div),
    # GELU (Erf) and pointwise Linear layers on the channels-last map (MatMul on [1, H, W, C]).
    "convnext_tiny": (lambda: torchvision.models.convnext_tiny(), 224),
    # Detectors with their box decoding (scripts/yolo_models.py): YOLOv5's rank-5 head (split and
    # joined along the last axis, Pow by 2), its earlier Focus stem (strided slices), YOLOv8's
    # scales joined along the positions and its DFL softmax.
    "yolov5n": (lambda: yolo_models.YoloV5(), 320),
    "yolov5n_focus": (lambda: yolo_models.YoloV5(focus=True), 320),
    "yolov8n": (lambda: yolo_models.YoloV8(), 320),
    # Added to bench/heldout on 2026-12-07 (its README's "The second set"), measured on the model
    # of that day, which the day left unchanged: larger or smaller siblings of the families above
    # (ConvNeXt-Small, DenseNet-161, EfficientNet-B3 at its 300 x 300, RegNetX-800MF,
    # RegNetY-1.6GF, ShuffleNetV2 x1.5, MNASNet 0.75, VGG-13), the LR-ASPP segmentation head on
    # MobileNetV3-Large, DeepLabV3 on a dilated ResNet-50, and ResNet-50 on a map that is neither
    # square nor a multiple of 32 (199 x 257).
    "convnext_small": (lambda: torchvision.models.convnext_small(), 224),
    "densenet161": (lambda: torchvision.models.densenet161(), 224),
    "efficientnet_b3": (lambda: torchvision.models.efficientnet_b3(), 300),
    "regnet_x_800mf": (lambda: torchvision.models.regnet_x_800mf(), 224),
    "regnet_y_1_6gf": (lambda: torchvision.models.regnet_y_1_6gf(), 224),
    "shufflenet_v2_x1_5": (lambda: torchvision.models.shufflenet_v2_x1_5(), 224),
    "mnasnet0_75": (lambda: torchvision.models.mnasnet0_75(), 224),
    "vgg13": (lambda: torchvision.models.vgg13(), 224),
    "lraspp_mobilenet_v3_large": (lambda: torchvision.models.segmentation.lraspp_mobilenet_v3_large(
        weights=None, weights_backbone=None), 224),
    "deeplabv3_resnet50": (lambda: torchvision.models.segmentation.deeplabv3_resnet50(
        weights=None, weights_backbone=None, aux_loss=False), 224),
    "resnet50_199x257": (lambda: torchvision.models.resnet50(), (199, 257)),
}


def hw(size):
    """(H, W) of a MODELS input size."""
    return tuple(size) if isinstance(size, (tuple, list)) else (size, size)


def hook_layers(model, size):
    """Conv2d / Linear shapes and MACs of one forward pass, from the PyTorch modules."""
    layers = []

    def conv_hook(mod, inp, out):
        x = inp[0]
        layer = {
            "type": "conv", "C": mod.in_channels, "K": mod.out_channels, "H": x.shape[2], "W": x.shape[3],
            "R": mod.kernel_size[0], "S": mod.kernel_size[1], "stride": list(mod.stride), "pad": list(mod.padding),
            "groups": mod.groups, "P": out.shape[2], "Q": out.shape[3],
            "macs": (mod.in_channels // mod.groups) * mod.out_channels * mod.kernel_size[0] * mod.kernel_size[1]
                    * out.shape[2] * out.shape[3]}
        if tuple(mod.dilation) != (1, 1):
            layer["dilation"] = list(mod.dilation)
        layers.append(layer)

    def linear_hook(mod, inp, out):
        x = inp[0]
        if x.dim() == 4:  # [N, H, W, C] (channels last): every pixel times the weights, a 1x1 conv over H x W
            layers.append({"type": "conv", "C": mod.in_features, "K": mod.out_features, "H": x.shape[1],
                           "W": x.shape[2], "R": 1, "S": 1, "stride": [1, 1], "pad": [0, 0], "groups": 1,
                           "P": x.shape[1], "Q": x.shape[2],
                           "macs": mod.in_features * mod.out_features * x.shape[1] * x.shape[2]})
            return
        layers.append({"type": "fc", "in": mod.in_features, "out": mod.out_features,
                       "macs": mod.in_features * mod.out_features})

    handles = []
    for m in model.modules():
        if isinstance(m, torch.nn.Conv2d):
            handles.append(m.register_forward_hook(conv_hook))
        elif isinstance(m, torch.nn.Linear):
            handles.append(m.register_forward_hook(linear_hook))
    with torch.no_grad():
        model(torch.randn(1, 3, *hw(size)))
    for h in handles:
        h.remove()
    return layers


def strip(path, name):
    model = onnx.load(path)
    convert_model_to_external_data(model, all_tensors_to_one_file=True, location=name + ".weights",
                                   size_threshold=1024)
    onnx.save_model(model, path)
    os.remove(os.path.join(os.path.dirname(path), name + ".weights"))


def export(name, ctor, size, refs):
    torch.manual_seed(0)
    model = ctor().eval()
    path = os.path.join(OUT, name + ".onnx")
    torch.onnx.export(model, torch.randn(1, 3, *hw(size)), path, opset_version=13, input_names=["input"],
                      output_names=["logits"])
    strip(path, name)
    refs[name] = {"input": [1, 3, *hw(size)], "layers": hook_layers(model, size)}
    print(f"{name}: {os.path.getsize(path)} bytes", file=sys.stderr)


class ResNet8(torch.nn.Module):
    def __init__(self):
        super().__init__()
        block = torchvision.models.resnet.BasicBlock
        self.stem = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, 1, 1, bias=False), torch.nn.BatchNorm2d(8),
                                        torch.nn.ReLU(inplace=True), torch.nn.MaxPool2d(3, 2, 1))
        down = lambda cin, cout: torch.nn.Sequential(torch.nn.Conv2d(cin, cout, 1, 2, bias=False), torch.nn.BatchNorm2d(cout))
        self.blocks = torch.nn.Sequential(block(8, 8), block(8, 16, 2, down(8, 16)), block(16, 32, 2, down(16, 32)))
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(32, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.blocks(self.stem(x))), 1))


def export_qdq_resnet8(refs):
    """ResNet-8 on 32x32 with int8 weights behind DequantizeLinear (symmetric per-tensor scale)."""
    torch.manual_seed(0)
    model = ResNet8().eval()
    path = os.path.join(OUT, "resnet8_qdq.onnx")
    torch.onnx.export(model, torch.randn(1, 3, 32, 32), path, opset_version=13, input_names=["input"],
                      output_names=["logits"])
    m = onnx.load(path)
    g = m.graph
    weights = {n.input[1] for n in g.node if n.op_type in ("Conv", "Gemm")}
    inits = {t.name: t for t in g.initializer}
    new_inits, new_nodes = [], []
    for name in sorted(weights):
        w = numpy_helper.to_array(inits[name])
        scale = max(float(np.abs(w).max()), 1e-8) / 127.0
        q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
        new_inits += [numpy_helper.from_array(q, name + "_q"),
                      numpy_helper.from_array(np.array(scale, dtype=np.float32), name + "_scale"),
                      numpy_helper.from_array(np.array(0, dtype=np.int8), name + "_zp")]
        new_nodes.append(helper.make_node("DequantizeLinear", [name + "_q", name + "_scale", name + "_zp"], [name],
                                          name=name + "_dq"))
    keep = [t for t in g.initializer if t.name not in weights]
    del g.initializer[:]
    g.initializer.extend(keep + new_inits)
    nodes = list(g.node)
    del g.node[:]
    g.node.extend(new_nodes + nodes)
    onnx.checker.check_model(m)
    onnx.save_model(m, path)
    refs["resnet8_qdq"] = {"input": [1, 3, 32, 32], "layers": hook_layers(model, 32)}
    print(f"resnet8_qdq: {os.path.getsize(path)} bytes", file=sys.stderr)


def main():
    """Exports every model, or only those named on the command line (the others' references kept)."""
    os.makedirs(OUT, exist_ok=True)
    names = sys.argv[1:] or list(MODELS) + ["resnet8_qdq"]
    path = os.path.join(OUT, "torchvision_layers.json")
    refs = json.load(open(path))["models"] if sys.argv[1:] and os.path.exists(path) else {}
    for name in names:
        if name == "resnet8_qdq":
            export_qdq_resnet8(refs)
        else:
            export(name, *MODELS[name], refs)
    refs = {k: refs[k] for k in list(MODELS) + ["resnet8_qdq"] if k in refs}
    write_refs(refs, {"generated_by": "scripts/export_torchvision.py (PyTorch forward hooks on Conv2d / Linear)",
                      "torch": torch.__version__, "torchvision": torchvision.__version__})


def write_refs(refs, meta):
    """torchvision_layers.json with one layer per line."""
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in meta.items()] + [' "models": {']
    for i, (name, ref) in enumerate(refs.items()):
        lines.append(f'  {json.dumps(name)}: {{"input": {json.dumps(ref["input"])}, "layers": [')
        lines += ["   " + json.dumps(l) + ("," if j + 1 < len(ref["layers"]) else "") for j, l in enumerate(ref["layers"])]
        lines.append("  ]}" + ("," if i + 1 < len(refs) else ""))
    lines += [" }", "}"]
    with open(os.path.join(OUT, "torchvision_layers.json"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
