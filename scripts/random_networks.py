#!/usr/bin/env python3
"""Random valid networks for the tools (docs/fuzzing.md, "Random valid networks").

  random_networks.py gen  --seed S [--out FILE] [--dilated] [--gates] [--norms] [--layernorms] [--reorgs] [--spatial]
                          a network workload (JSON) on stdout / FILE
  random_networks.py onnx --seed S --out FILE.onnx [--dilated] [--gates] [--norms] [--layernorms] [--reorgs] [--spatial]
                          an ONNX model (needs python3-onnx: /usr/bin/python3); prints its MACs by the
                          operators' definitions
  random_networks.py run  --seeds 1:20 [--bindir build/platform] [--work DIR] [--onnx-every 4]
                          [--platforms nmp,mesh-4x4,vta] [--timeout 60] [--repeat-every 5]
                          [--run-args "--refine 2"] [--dilated] [--gates] [--norms] [--layernorms] [--reorgs] [--spatial]

`gen` and `onnx` are deterministic from --seed (stdlib `random.Random(seed)` only). `run` runs
every network through `vp-map` (nmp, mesh) and `vp-run` (each platform; ONNX models through
`vp-import`, and on nmp and vta also as `vp-run CONFIG MODEL.onnx`), classifies each run and exits
1 when one of them is a bug (77 when the tools are not built):

  ok           exit 0, the outputs exist, stats.json is valid JSON, the MACs the nmp / mesh
               simulation executed equal the closed form, and stats.json is byte-identical on a
               rerun for every --repeat-every-th seed; for an ONNX model, the imported
               workload's MACs equal the generator's own count from the operators' definitions
  unsupported  exit 2 with a message docs/onnx-import.md lists ("What the platforms run")
  rejected     another exit 2 naming the workload file and the layer / JSON pointer: to review
  BUG          exit 2 without them, exit 1 / 3, a signal, a timeout, missing or invalid outputs,
               MACs off, a rerun whose stats.json differs

It also lists the layers whose |simulated / estimated - 1| exceeds 50 % in OUT/layers.json
(accuracy outliers: findings, not failures) and the slowest runs. docs/fuzzing.md describes it.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

PRIMES = [2, 3, 5, 7, 11, 13, 17]


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


class Net:
    """Builds a random valid layer graph; every tensor is (name, C, H, W)."""

    def __init__(self, rng, graph=True, large=False, dil_rng=None, gate_rng=None, norm_rng=None, ln_rng=None, reorg_rng=None,
                 spatial_rng=None):
        self.rng = rng
        self.large = large
        # Dilated convs (--dilated): their own generator, so that the networks of every seed
        # without the option stay what they were. Likewise gates (--gates): sigmoid, hard_sigmoid
        # and hard_swish (fused and as act layers), eltwise mul, squeeze-and-excitation blocks.
        self.dil_rng = dil_rng
        self.gate_rng = gate_rng
        # --norms: lrn, softmax, tanh / softplus / erf / elu / clip (fused and as act layers), Mish.
        self.norm_rng = norm_rng
        # --layernorms: layernorm layers over random axes with random epsilons.
        self.ln_rng = ln_rng
        # --reorgs: space_to_depth and depth_to_space layers.
        self.reorg_rng = reorg_rng
        # --spatial: slices along C, H or W with a step, concats along H or W.
        self.spatial_rng = spatial_rng
        self.layers = []
        self.tensors = []
        self.graph = graph

    def spatial(self):
        r = self.rng.random()
        if r < 0.1:
            return 1
        if r < 0.3:
            return self.rng.choice(PRIMES + [9, 15])
        return self.rng.randint(2, 20)

    def channels(self, hi=24):
        r = self.rng.random()
        if r < 0.15:
            return 1
        if r < 0.35:
            return self.rng.choice([2, 3, 5, 7, 11, 13])
        if r < 0.45:
            return self.rng.choice([32, 48, 64, 96, 128] + ([192, 256, 384] if self.large else []))
        return self.rng.randint(2, hi * (4 if self.large else 1))

    def add(self, layer, C, H, W, inputs):
        layer["name"] = "l%d_%s" % (len(self.layers), layer["type"])
        if self.graph:
            layer["inputs"] = inputs
        self.layers.append(layer)
        self.tensors.append((layer["name"], C, H, W))

    def pick(self):
        # Mostly the latest tensor (a chain), sometimes an earlier one (a branch).
        if not self.tensors or (self.graph and self.rng.random() < 0.15 and len(self.tensors) > 1):
            return self.rng.choice(self.tensors) if self.tensors else None
        return self.tensors[-1]

    def window(self, H, W, square_bias=0.6):
        """R, S, stride, pad with R <= padded H, S <= padded W; some edge cases."""
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            pt = pb = pl = pr = rng.choice([0, 0, 1, 2])
        else:
            pt, pb, pl, pr = (rng.choice([0, 0, 1, 2, 3]) for _ in range(4))
        Hp, Wp = H + pt + pb, W + pl + pr
        e = rng.random()
        if e < 0.1:  # kernel = padded input
            R, S = Hp, Wp
        elif e < 0.2:
            R, S = 1, 1
        else:
            R = rng.randint(1, min(Hp, 7))
            S = R if rng.random() < square_bias and R <= Wp else rng.randint(1, min(Wp, 7))
        if R > Hp or S > Wp:
            R, S = min(R, Hp), min(S, Wp)
        s = rng.random()
        if s < 0.5:
            sh = sw = 1
        elif s < 0.8:
            sh = sw = rng.choice([2, 3])
        elif s < 0.9:  # stride > kernel
            sh = sw = max(R, S) + rng.randint(1, 2)
        else:
            sh, sw = rng.randint(1, 4), rng.randint(1, 4)
        return R, S, (sh, sw), (pt, pb, pl, pr)

    @staticmethod
    def out(H, W, R, S, st, pad):
        pt, pb, pl, pr = pad
        return (H + pt + pb - R) // st[0] + 1, (W + pl + pr - S) // st[1] + 1

    @staticmethod
    def enc_stride(st):
        return st[0] if st[0] == st[1] else [st[0], st[1]]

    @staticmethod
    def enc_pad(p):
        pt, pb, pl, pr = p
        if pt == pb == pl == pr:
            return pt
        if pt == pb and pl == pr:
            return [pt, pl]
        return {"top": pt, "bottom": pb, "left": pl, "right": pr}

    def conv(self, t):
        name, C, H, W = t
        rng = self.rng
        g = rng.random()
        if g < 0.15:  # depthwise
            groups, K = C, C
        elif g < 0.3 and C > 1:
            groups = rng.choice([d for d in divisors(C) if d > 1] or [1])
            K = groups * rng.randint(1, 4)
        else:
            groups, K = 1, self.channels()
        R, S, st, pad = self.window(H, W)
        dh = dw = 1
        if self.dil_rng and self.dil_rng.random() < 0.5:
            # the largest dilation whose window still fits the padded input, at most 4
            pt, pb, pl, pr = pad
            dh = self.dil_rng.randint(1, min(4, (H + pt + pb - 1) // (R - 1))) if R > 1 else 1
            dw = self.dil_rng.randint(1, min(4, (W + pl + pr - 1) // (S - 1))) if S > 1 else 1
        P, Q = self.out(H, W, (R - 1) * dh + 1, (S - 1) * dw + 1, st, pad)
        l = {"type": "conv", "C": C, "K": K, "H": H, "W": W, "R": R, "S": S}
        if (dh, dw) != (1, 1):
            l["dilation"] = dh if dh == dw else [dh, dw]
        if st != (1, 1) or rng.random() < 0.3:
            l["stride"] = self.enc_stride(st)
        if any(pad) or rng.random() < 0.2:
            l["pad"] = self.enc_pad(pad)
        if groups != 1 or rng.random() < 0.2:
            l["groups"] = groups
        a = rng.random()
        if a < 0.5:
            l["relu"] = True
        elif a < 0.6:
            l["act"] = "relu6"
        if self.gate_rng and self.gate_rng.random() < 0.3:
            l.pop("relu", None)
            l.update(self.gate_act())
        if self.norm_rng and self.norm_rng.random() < 0.25:
            l.pop("relu", None)
            l.pop("alpha", None)
            l.pop("beta", None)
            l.update(self.norm_act())
        self.add(l, K, P, Q, [name])

    def gate_act(self):
        """A fused or act-layer activation of the gates: its "act" (and hard_sigmoid's alpha, beta)."""
        g = self.gate_rng
        a = g.choice(["sigmoid", "hard_sigmoid", "hard_swish"])
        if a != "hard_sigmoid":
            return {"act": a}
        return {"act": a, "alpha": g.choice([0.2, 1.0 / 6.0, round(g.uniform(-2, 2), 3)]),
                "beta": g.choice([0.5, round(g.uniform(-2, 2), 3)])}

    def norm_act(self):
        """--norms: tanh, softplus, erf, elu (with its alpha) or clip (with its bounds, one may be null), as "act"."""
        g = self.norm_rng
        a = g.choice(["tanh", "softplus", "erf", "elu", "clip"])
        if a == "elu":
            return {"act": a, "alpha": g.choice([1.0, 0.5, round(g.uniform(-3, 3), 3)])}
        if a == "clip":
            lo = g.choice([None, -1.0, round(g.uniform(-9, 2), 3)])
            hi = g.choice([None, 1.0, round(g.uniform(2, 9), 3)])
            if lo is not None and hi is not None and lo > hi:  # a valid clip (the format refuses min > max)
                lo, hi = hi, lo
            return {"act": a, "clip": [lo, hi]}
        return {"act": a}

    def norm_layer(self, t):
        """--norms: an lrn layer, a softmax over random axes, an act layer of norm_act, or (graph) Mish:
        softplus, tanh, mul by the input."""
        name, C, H, W = t
        g = self.norm_rng
        k = g.choice(["lrn", "lrn", "softmax", "act"] + (["mish"] if self.graph else []))
        if k == "lrn":
            self.add({"type": "lrn", "size": g.choice([1, 3, 5, g.randint(2, 12)]),
                      "alpha": g.choice([1e-4, 0.5, round(g.uniform(0, 4), 3)]), "beta": g.choice([0.75, 0.5, round(g.uniform(0, 2), 3)]),
                      "bias": g.choice([1.0, 2.0, round(g.uniform(0.5, 3), 3)]), "C": C, "H": H, "W": W}, C, H, W, [name])
        elif k == "softmax":
            self.add({"type": "act", "op": "softmax", "axis": g.choice(["c", "h", "w", "hw", "chw"]), "C": C, "H": H, "W": W},
                     C, H, W, [name])
        elif k == "act":
            a = self.norm_act()
            l = {"type": "act", "op": a.pop("act"), "C": C, "H": H, "W": W}
            l.update(a)
            self.add(l, C, H, W, [name])
        else:
            self.add({"type": "act", "op": "softplus", "C": C, "H": H, "W": W}, C, H, W, [name])
            self.add({"type": "act", "op": "tanh", "C": C, "H": H, "W": W}, C, H, W, [self.tensors[-1][0]])
            ins = [name, self.tensors[-1][0]]
            g.shuffle(ins)
            self.add({"type": "eltwise", "op": "mul", "C": C, "H": H, "W": W}, C, H, W, ins)

    def ln_layer(self, t):
        """--layernorms: a layernorm over random axes of the tensor, with a random epsilon."""
        name, C, H, W = t
        g = self.ln_rng
        self.add({"type": "layernorm", "axis": g.choice(["c", "h", "w", "hw", "chw"]),
                  "epsilon": g.choice([1e-5, 1e-6, 0.01, round(g.uniform(0.001, 4), 4)]), "C": C, "H": H, "W": W}, C, H, W, [name])

    def reorg_layer(self, t):
        """--reorgs: a space_to_depth layer (the map a multiple of the block) or a depth_to_space layer
        (the channels a multiple of block^2, DCR or CRD); nothing when neither fits."""
        name, C, H, W = t
        g = self.reorg_rng
        b = g.choice([2, 2, 3, 4])
        opts = []
        if H % b == 0 and W % b == 0:
            opts.append("s2d")
        if C % (b * b) == 0 and H * b <= 224 and W * b <= 224:
            opts.append("d2s")
        if not opts:
            return
        if g.choice(opts) == "s2d":
            self.add({"type": "space_to_depth", "block": b, "C": C, "H": H, "W": W}, C * b * b, H // b, W // b, [name])
        else:
            self.add({"type": "depth_to_space", "block": b, "mode": g.choice(["dcr", "crd"]), "C": C, "H": H, "W": W},
                     C // (b * b), H * b, W * b, [name])

    def spatial_layer(self, t):
        """--spatial: a slice along C, H or W (an offset and a step), or a concat along H or W of the
        tensor with a slice of itself along the same axis or with an earlier tensor that fits."""
        name, C, H, W = t
        g = self.spatial_rng
        axis = g.choice(["c", "h", "w"])
        extent = {"c": C, "h": H, "w": W}[axis]
        step = g.choice([1, 2, 2, 3]) if extent > 1 else 1
        off = g.randint(0, min(extent - 1, step))
        count = g.randint(1, (extent - 1 - off) // step + 1)
        l = {"type": "slice", "C": C, "H": H, "W": W}
        if axis != "c":
            l["axis"] = axis
        l[{"c": "K", "h": "P", "w": "Q"}[axis]] = count
        l["offset"] = off
        if step != 1:
            l["step"] = step
        shape = {"c": (count, H, W), "h": (C, count, W), "w": (C, H, count)}[axis]
        if axis == "c" or g.random() < 0.4:
            self.add(l, *shape, [name])
            return
        # a concat along the axis: with the slice, or with an earlier tensor of the same cross-section
        others = [u for u in self.tensors if u[0] != name and u[1] == C and (u[3] == W if axis == "h" else u[2] == H)]
        if others and g.random() < 0.5:
            other = g.choice(others)
        else:
            self.add(l, *shape, [name])
            other = self.tensors[-1]
        ins = [t, other]
        g.shuffle(ins)
        total = sum(u[2] if axis == "h" else u[3] for u in ins)
        if total > 512:
            return
        self.add({"type": "concat", "axis": axis, "C": C, "H": total if axis == "h" else H, "W": total if axis == "w" else W},
                 C, total if axis == "h" else H, total if axis == "w" else W, [u[0] for u in ins])

    def gate_layer(self, t):
        """--gates: an act layer of a gate activation, or (graph) a squeeze-and-excitation block:
        global average pool, 1x1 conv with relu, 1x1 conv with a gate, mul by the gate per channel."""
        name, C, H, W = t
        if not self.graph or self.gate_rng.random() < 0.5:
            l = {"type": "act", "op": None, "C": C, "H": H, "W": W}
            a = self.gate_act()
            l["op"] = a.pop("act")
            l.update(a)
            self.add(l, C, H, W, [name])
            return
        self.add({"type": "pool", "op": "avg", "C": C, "H": H, "W": W, "R": H, "S": W,
                  "stride": self.enc_stride((H, W))}, C, 1, 1, [name])
        mid = max(1, C // 4)
        self.add({"type": "conv", "C": C, "K": mid, "H": 1, "W": 1, "R": 1, "S": 1, "relu": True}, mid, 1, 1,
                 [self.tensors[-1][0]])
        l = {"type": "conv", "C": mid, "K": C, "H": 1, "W": 1, "R": 1, "S": 1}
        l.update(self.gate_act())
        self.add(l, C, 1, 1, [self.tensors[-1][0]])
        ins = [self.tensors[-1][0], name]
        self.gate_rng.shuffle(ins)
        self.add({"type": "eltwise", "op": "mul", "C": C, "H": H, "W": W}, C, H, W, ins)

    def fc(self, t):
        name, C, H, W = t
        n = C * H * W
        out = self.rng.choice([1, 2, 10, self.rng.randint(3, 200)])
        l = {"type": "fc", "in": n, "out": out}
        if self.rng.random() < 0.5:
            l["relu"] = True
        self.add(l, out, 1, 1, [name])

    def pool(self, t):
        name, C, H, W = t
        R, S, st, pad = self.window(H, W)
        # pads of a pool stay below the window (as ONNX requires)
        pad = tuple(min(p, (R if i < 2 else S) - 1) for i, p in enumerate(pad))
        R, S = min(R, H + pad[0] + pad[1]), min(S, W + pad[2] + pad[3])
        P, Q = self.out(H, W, R, S, st, pad)
        l = {"type": "pool", "op": self.rng.choice(["max", "avg"]), "C": C, "H": H, "W": W, "R": R, "S": S}
        if st != (1, 1):
            l["stride"] = self.enc_stride(st)
        if any(pad):
            l["pad"] = self.enc_pad(pad)
            if l["op"] == "avg" and self.gate_rng and self.gate_rng.random() < 0.8:  # --gates: the divisor rule
                l["count_include_pad"] = self.gate_rng.random() < 0.5
        self.add(l, C, P, Q, [name])

    def eltwise(self, t):
        name, C, H, W = t
        same = [u for u in self.tensors if u[1:] == (C, H, W) and u[0] != name]
        e = self.rng.random()
        op = "mul" if self.gate_rng and self.gate_rng.random() < 0.5 else "add"
        if e < 0.15:  # one producer: the other operand is a constant of the model
            self.add({"type": "eltwise", "op": op, "C": C, "H": H, "W": W}, C, H, W, [name])
            return
        bcast = [u for u in self.tensors if u[0] != name and (C * H * W) % (u[1] * u[2] * u[3]) == 0 and u[1:] != (C, H, W)]
        if e < 0.3 and bcast:  # a broadcast operand (its elements divide the layer's)
            self.add({"type": "eltwise", "op": op, "C": C, "H": H, "W": W}, C, H, W,
                     [name, self.rng.choice(bcast)[0]])
            return
        if not same:
            # a second branch of the same shape: a 1x1 or 3x3 same conv of t
            self.add({"type": "conv", "C": C, "K": C, "H": H, "W": W, "R": 1, "S": 1, "relu": True}, C, H, W,
                     [name])
            other = self.tensors[-1][0]
        else:
            other = self.rng.choice(same)[0]
        l = {"type": "eltwise", "op": op, "C": C, "H": H, "W": W}
        if self.rng.random() < 0.5:
            l["relu"] = True
        self.add(l, C, H, W, [other, name])

    def concat(self, t):
        name, C, H, W = t
        same = [u for u in self.tensors if u[2:] == (H, W) and u[0] != name]
        ins = [t]
        if same:
            ins += self.rng.sample(same, min(len(same), self.rng.randint(1, 3)))
        else:
            K = self.channels(12)
            self.add({"type": "conv", "C": C, "K": K, "H": H, "W": W, "R": 1, "S": 1}, K, H, W, [name])
            ins.append(self.tensors[-1])
        self.rng.shuffle(ins)
        Csum = sum(u[1] for u in ins)
        self.add({"type": "concat", "C": Csum, "H": H, "W": W}, Csum, H, W, [u[0] for u in ins])

    def resize(self, t):
        name, C, H, W = t
        rng = self.rng
        if rng.random() < 0.8:
            f = rng.choice([2, 2, 3])
            P, Q = H * f, W * f
            mode = "nearest"
        else:
            P, Q = rng.randint(1, 24), rng.randint(1, 24)
            mode = rng.choice(["nearest", "linear"])
        if P * Q > 1600:
            P, Q = H, W
        l = {"type": "resize", "mode": mode, "C": C, "H": H, "W": W, "P": P, "Q": Q}
        if self.gate_rng and self.gate_rng.random() < 0.8:  # --gates: ONNX's coordinate modes and roundings
            l["coord"] = self.gate_rng.choice(["half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                               "tf_half_pixel_for_nn"])
            if mode == "nearest":
                l["nearest"] = self.gate_rng.choice(["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"])
        self.add(l, C, P, Q, [name])


    def slice(self, t):
        name, C, H, W = t
        K = self.rng.randint(1, C)
        off = self.rng.randint(0, C - K)
        self.add({"type": "slice", "C": C, "K": K, "offset": off, "H": H, "W": W}, K, H, W, [name])

    def pad(self, t):
        name, C, H, W = t
        pt, pb, pl, pr = (self.rng.randint(0, 2) for _ in range(4))
        layer = {"type": "pad", "C": C, "H": H, "W": W, "pad": self.enc_pad((pt, pb, pl, pr))}
        if self.ln_rng:  # --layernorms: the border's mode, or a constant other than 0
            mode = self.ln_rng.choice(["constant", "reflect", "edge"])
            if mode != "constant":
                layer["mode"] = mode
            elif self.ln_rng.random() < 0.5:
                layer["value"] = round(self.ln_rng.uniform(-9, 9), 3)
        self.add(layer, C, H + pt + pb, W + pl + pr, [name])

    def deconv(self, t):
        """A transposed convolution as its equivalent convolution (zero_insert z, H - 1 divisible by z)."""
        name, C, H, W = t
        z = self.rng.choice([2, 3])
        Hz, Wz = (H - 1) * z + 1, (W - 1) * z + 1
        R = self.rng.randint(1, 4)
        p = R - 1
        K = self.channels(16)
        P, Q = Hz + 2 * p - R + 1, Wz + 2 * p - R + 1
        self.add({"type": "conv", "C": C, "K": K, "H": Hz, "W": Wz, "R": R, "S": R, "pad": p, "zero_insert": z}, K, P, Q,
                 [name])


def gen_network(seed, large=False, dilated=False, gates=False, norms=False, layernorms=False, reorgs=False, spatial=False):
    """large: up to 384 channels and 112 pixels a side (runs of seconds instead of a tenth);
    dilated: half of the convs draw a dilation of 1-4 per axis, as far as the padded input allows;
    gates: sigmoid / hard_sigmoid / hard_swish activations, eltwise mul, squeeze-and-excitation
    blocks, resizes with a coordinate mode and rounding and padded average pools with their divisor
    rule; norms: lrn layers, softmax over random axes, tanh / softplus / erf / elu / clip activations and Mish;
    layernorms: layernorm layers over random axes with random epsilons, and pad layers with a mode
    (reflect, edge) or a constant value; reorgs: space_to_depth and depth_to_space layers; spatial:
    slices along C, H or W with steps and concats along H or W (each option
    from a generator of its own:
    the networks without the options stay as they were)."""
    rng = random.Random(seed)
    graph = rng.random() < 0.8
    net = Net(rng, graph, large, random.Random(seed * 7919 + 1) if dilated else None,
              random.Random(seed * 7919 + 3) if gates else None, random.Random(seed * 7919 + 5) if norms else None,
              random.Random(seed * 7919 + 7) if layernorms else None, random.Random(seed * 7919 + 9) if reorgs else None,
              random.Random(seed * 7919 + 11) if spatial else None)
    C0 = rng.choice([1, 3, 3, 4, rng.randint(1, 16)])
    H0 = net.spatial() if rng.random() < 0.3 else rng.randint(4, 112 if large else 48)
    W0 = H0 if rng.random() < 0.7 else net.spatial()
    net.tensors.append(("input", C0, H0, W0))
    n = rng.randint(1, 10)
    kinds = ["conv"] * 5 + ["pool"] * 2 + ["fc"]
    if graph:
        kinds += ["eltwise"] * 2 + ["concat"] * 2 + ["resize"]
        if rng.random() < 0.3:  # the mappers skip slice and pad, the VTA copies them; zero-inserted (transposed) convs
            kinds += ["slice", "pad", "deconv"]
    for _ in range(n):
        t = net.pick()
        k = rng.choice(kinds)
        if not graph:
            t = net.tensors[-1]
        if k == "fc" and t[1] * t[2] * t[3] > 4096:
            k = "conv"
        if k in ("resize", "deconv") and t[2] * t[3] > 400:
            k = "conv"
        if k == "conv" and t[1] * t[2] * t[3] > (400000 if large else 40000):
            k = "pool"
        getattr(net, k)(t)
        if net.gate_rng and net.gate_rng.random() < 0.2:
            net.gate_layer(net.tensors[-1])
        if net.norm_rng and net.norm_rng.random() < 0.3:
            net.norm_layer(net.tensors[-1])
        if net.ln_rng and net.ln_rng.random() < 0.3:
            net.ln_layer(net.tensors[-1])
        if net.reorg_rng and net.reorg_rng.random() < 0.3:
            net.reorg_layer(net.tensors[-1])
        if net.spatial_rng and net.graph and net.spatial_rng.random() < 0.35:
            net.spatial_layer(net.tensors[-1])
    doc = {"name": "rand%d" % seed, "precision": rng.choice([8, 8, 16])}
    if rng.random() < 0.2:
        doc["batch"] = rng.randint(2, 3)
    doc["layers"] = net.layers
    return doc


# ---------------------------------------------------------------------------------------------
# ONNX models (onnx.helper; float weights, values from the seed)

def gen_onnx(seed, path, dilated=False, gates=False, norms=False, layernorms=False, reorgs=False, spatial=False):
    """Writes the model; returns its MACs by the operators' definitions (Conv: C / group x K x
    kernel taps x output pixels; Gemm: in x out), from this generator's own shape arithmetic.
    dilated: half of the Conv nodes draw `dilations` of 1-4 per axis, from a generator of their
    own (the models of a seed without the option are unchanged).
    gates: after a step, sometimes a Sigmoid, HardSigmoid (random alpha, beta), hard swish
    (x * HardSigmoid(x), as exported at opset 13), SiLU (x * Sigmoid(x)) or squeeze-and-excitation block (GlobalAveragePool, 1x1 Conv, Relu, 1x1 Conv,
    HardSigmoid or Sigmoid, Mul), and Resize nodes with a coordinate mode and nearest rounding,
    from a generator of their own as well.
    norms: after a step, sometimes an LRN, a Softmax (axis 1-3 or -1), Tanh, Softplus, Erf, Elu (random
    alpha), Clip (both bounds or one) or Mish (x * Tanh(Softplus(x))), from a generator of its own.
    layernorms: after a step, sometimes a LayerNormalization over the axes from 1, 2 or 3 on, one over
    the channels of a channels-last map (Transpose, LayerNormalization over the last axis, Transpose
    back: ConvNeXt's block), an InstanceNormalization, or the seven-node decomposition exporters write
    below opset 17 (over the last axis, with its scale and shift), with random epsilons, from a
    generator of its own, and Pad nodes in reflect or edge mode or with a constant value; the model is
    then of opset 17 (13 otherwise).
    reorgs: after a step, sometimes a SpaceToDepth or a DepthToSpace (DCR or CRD), where the shape
    allows, from a generator of its own.
    spatial: after a step, sometimes a Slice along H and / or W with steps 1-3 (YOLOv5's Focus), a
    Concat along H or W with a slice of the tensor, or YOLOv5's head pattern: a Reshape to rank 5
    [1, a, C / a, H, W], a Transpose putting the channels last, a Split along the last axis, Sigmoid,
    Mul by a constant and Pow 2 on the parts, a Concat along the last axis, and the way back (Transpose,
    Reshape), from a generator of its own."""
    import onnx
    from onnx import TensorProto, helper
    rng = random.Random(seed)
    dil_rng = random.Random(seed * 7919 + 2) if dilated else None
    gate_rng = random.Random(seed * 7919 + 4) if gates else None
    norm_rng = random.Random(seed * 7919 + 6) if norms else None
    ln_rng = random.Random(seed * 7919 + 8) if layernorms else None
    reorg_rng = random.Random(seed * 7919 + 10) if reorgs else None
    sp_rng = random.Random(seed * 7919 + 12) if spatial else None
    macs = [0]
    nodes, inits = [], []
    C = rng.choice([1, 3, rng.randint(2, 8)])
    H = rng.randint(3, 16)
    W = H if rng.random() < 0.7 else rng.randint(3, 16)
    cur, shape = "x", (C, H, W)  # the tensor we build on (rank 4), or rank 2 after a Flatten
    rank2 = False
    n = [0]

    def name(p):
        n[0] += 1
        return "%s%d" % (p, n[0])

    def init(nm, dims):
        cnt = 1
        for d in dims:
            cnt *= d
        inits.append(helper.make_tensor(nm, TensorProto.FLOAT, dims, [rng.uniform(-1, 1) for _ in range(cnt)]))
        return nm

    branch = {}  # shape -> tensor names usable for Add / Concat
    for step in range(rng.randint(2, 9)):
        op = "Conv" if step == 0 else rng.choice(["Conv", "Conv", "Conv", "ConvAuto", "Pool", "PoolCeil", "GAP", "Add", "Mul", "Concat", "Resize",
                         "ResizeSizes", "BN", "Relu", "Clip", "Leaky", "Pad", "Gemm"])
        if rank2:
            op = rng.choice(["Gemm", "Relu"])
        c, h, w = shape
        out = name("t")
        if op == "Conv":
            g = rng.random()
            groups = c if g < 0.2 else (rng.choice([d for d in divisors(c)]) if g < 0.35 else 1)
            k = c if g < 0.2 else groups * rng.randint(1, max(1, 12 // groups))
            r = rng.randint(1, min(5, h + 2))
            s = rng.randint(1, min(5, w + 2))
            pads = [rng.randint(0, 2) for _ in range(4)]
            r, s = min(r, h + pads[0] + pads[2]), min(s, w + pads[1] + pads[3])
            st = [rng.choice([1, 1, 2, 3]), rng.choice([1, 1, 2])]
            wt = init(name("w"), [k, c // groups, r, s])
            ins = [cur, wt]
            if rng.random() < 0.5:
                ins.append(init(name("b"), [k]))
            attrs = dict(kernel_shape=[r, s], pads=pads, strides=st, group=groups)
            dh = dw = 1
            if dil_rng and dil_rng.random() < 0.5:
                # at most 4, and the dilated window within the padded input
                dh = dil_rng.randint(1, min(4, (h + pads[0] + pads[2] - 1) // (r - 1))) if r > 1 else 1
                dw = dil_rng.randint(1, min(4, (w + pads[1] + pads[3] - 1) // (s - 1))) if s > 1 else 1
                attrs["dilations"] = [dh, dw]
            nodes.append(helper.make_node("Conv", ins, [out], **attrs))
            wr, ws = (r - 1) * dh + 1, (s - 1) * dw + 1
            shape = (k, (h + pads[0] + pads[2] - wr) // st[0] + 1, (w + pads[1] + pads[3] - ws) // st[1] + 1)
            macs[0] += c // groups * k * r * s * shape[1] * shape[2]
        elif op == "Pool":
            r, s = rng.randint(1, min(3, h)), rng.randint(1, min(3, w))
            st = [rng.randint(1, 3), rng.randint(1, 3)]
            kind = rng.choice(["MaxPool", "AveragePool"])
            nodes.append(helper.make_node(kind, [cur], [out], kernel_shape=[r, s], strides=st))
            shape = (c, (h - r) // st[0] + 1, (w - s) // st[1] + 1)
        elif op == "ConvAuto":  # auto_pad SAME_UPPER / SAME_LOWER / VALID, square kernel
            mode = rng.choice(["SAME_UPPER", "SAME_LOWER", "VALID"])
            r = rng.randint(1, min(5, h, w))
            st = rng.choice([1, 2])
            k = rng.randint(1, 16)
            wt = init(name("w"), [k, c, r, r])
            attrs = dict(kernel_shape=[r, r], strides=[st, st], auto_pad=mode)
            d = 1
            if dil_rng and r > 1 and dil_rng.random() < 0.5:
                d = dil_rng.randint(1, min(4, (min(h, w) - 1) // (r - 1)) if mode == "VALID" else 4)
                attrs["dilations"] = [d, d]
            nodes.append(helper.make_node("Conv", [cur, wt], [out], **attrs))
            if mode == "VALID":
                wr = (r - 1) * d + 1
                shape = (k, (h - wr) // st + 1, (w - wr) // st + 1)
            else:  # SAME: the output is the input over the stride, whatever the (dilated) window
                shape = (k, -(-h // st), -(-w // st))
            macs[0] += c * k * r * r * shape[1] * shape[2]
        elif op == "PoolCeil":  # ceil_mode, pads (below the window), count_include_pad
            r, s_ = rng.randint(2, min(4, h + 1)), rng.randint(2, min(4, w + 1))
            pads = [rng.randint(0, r - 1), rng.randint(0, s_ - 1), rng.randint(0, r - 1), rng.randint(0, s_ - 1)]
            r, s_ = min(r, h + pads[0] + pads[2]), min(s_, w + pads[1] + pads[3])
            st = [rng.randint(1, 3), rng.randint(1, 3)]
            kind = rng.choice(["MaxPool", "AveragePool"])
            attrs = dict(kernel_shape=[r, s_], strides=st, pads=pads, ceil_mode=1)
            if kind == "AveragePool":
                attrs["count_include_pad"] = rng.randint(0, 1)
            nodes.append(helper.make_node(kind, [cur], [out], **attrs))

            def ceil_out(n, p0, p1, kk, ss):  # as ONNX 1.12's shape inference (no last-window rule)
                return -(-(n + p0 + p1 - kk) // ss) + 1
            shape = (c, ceil_out(h, pads[0], pads[2], r, st[0]), ceil_out(w, pads[1], pads[3], s_, st[1]))
        elif op == "Mul":
            same = branch.get(shape, [])
            other = rng.choice(same) if same and rng.random() < 0.3 else init(name("k"), [c, 1, 1])
            nodes.append(helper.make_node(rng.choice(["Mul", "Sub"]), [cur, other], [out]))
        elif op == "ResizeSizes":
            oh, ow = rng.randint(1, 2 * h), rng.randint(1, 2 * w)
            sz = name("sz")
            inits.append(helper.make_tensor(sz, TensorProto.INT64, [4], [1, c, oh, ow]))
            rattrs = dict(mode=rng.choice(["nearest", "linear"]))
            if gate_rng:
                rattrs["coordinate_transformation_mode"] = gate_rng.choice(
                    ["half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn"])
                rattrs["nearest_mode"] = gate_rng.choice(["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"])
            nodes.append(helper.make_node("Resize", [cur, "", "", sz], [out], **rattrs))
            shape = (c, oh, ow)
        elif op == "Leaky":
            nodes.append(helper.make_node("LeakyRelu", [cur], [out], alpha=0.1))
        elif op == "Pad":
            pv = [0, 0, rng.randint(0, 2), rng.randint(0, 2), 0, 0, rng.randint(0, 2), rng.randint(0, 2)]
            pn = name("pd")
            inits.append(helper.make_tensor(pn, TensorProto.INT64, [8], pv))
            mode, ins = "constant", [cur, pn]
            if ln_rng:  # --layernorms: reflect and edge pads, or a constant other than 0
                mode = ln_rng.choice(["constant", "reflect", "edge"])
                if mode == "constant" and ln_rng.random() < 0.5:
                    ins.append(name("k"))
                    inits.append(helper.make_tensor(ins[-1], TensorProto.FLOAT, [], [round(ln_rng.uniform(-9, 9), 3)]))
            nodes.append(helper.make_node("Pad", ins, [out], mode=mode))
            shape = (c, h + pv[2] + pv[6], w + pv[3] + pv[7])
        elif op == "GAP":
            nodes.append(helper.make_node("GlobalAveragePool", [cur], [out]))
            shape = (c, 1, 1)
        elif op == "Add":
            same = branch.get(shape, [])
            other = rng.choice(same) if same else init(name("k"), [1, c, 1, 1])
            nodes.append(helper.make_node("Add", [cur, other], [out]))
        elif op == "Concat":
            same = [t for (cc, hh, ww), ts in branch.items() if (hh, ww) == (h, w) for t in ts]
            if not same:
                continue
            other = rng.choice(same)
            oc = [cc for (cc, hh, ww), ts in branch.items() if other in ts][0]
            nodes.append(helper.make_node("Concat", [cur, other], [out], axis=1))
            shape = (c + oc, h, w)
        elif op == "Resize":
            f = rng.choice([2, 2, 3])
            scales = init(name("sc"), [4])
            inits[-1] = helper.make_tensor(scales, TensorProto.FLOAT, [4], [1.0, 1.0, float(f), float(f)])
            nodes.append(helper.make_node("Resize", [cur, "", scales], [out], mode="nearest"))
            shape = (c, h * f, w * f)
        elif op == "BN":
            ps = [init(name(p), [c]) for p in ("g", "be", "m")]
            v = name("v")
            inits.append(helper.make_tensor(v, TensorProto.FLOAT, [c], [rng.uniform(0.5, 2) for _ in range(c)]))
            nodes.append(helper.make_node("BatchNormalization", [cur] + ps + [v], [out]))
        elif op == "Relu":
            nodes.append(helper.make_node("Relu", [cur], [out]))
        elif op == "Clip":
            lo, hi = name("lo"), name("hi")
            inits.append(helper.make_tensor(lo, TensorProto.FLOAT, [], [0.0]))
            inits.append(helper.make_tensor(hi, TensorProto.FLOAT, [], [6.0]))
            nodes.append(helper.make_node("Clip", [cur, lo, hi], [out]))
        elif op == "Gemm":
            if not rank2:
                flat = name("f")
                if rng.random() < 0.5:
                    nodes.append(helper.make_node("Flatten", [cur], [flat], axis=1))
                else:
                    sh = name("s")
                    inits.append(helper.make_tensor(sh, TensorProto.INT64, [2], [1, c * h * w]))
                    nodes.append(helper.make_node("Reshape", [cur, sh], [flat]))
                cur, rank2 = flat, True
                shape = (c * h * w, 1, 1)
            k = rng.choice([1, 10, rng.randint(2, 64)])
            wt = init(name("w"), [k, shape[0]])
            bs = init(name("b"), [k])
            nodes.append(helper.make_node("Gemm", [cur, wt, bs], [out], transB=1))
            macs[0] += shape[0] * k
            shape = (k, 1, 1)
        cur = out
        if not rank2:
            branch.setdefault(shape, []).append(cur)
        if gate_rng and not rank2 and gate_rng.random() < 0.35:
            c, h, w = shape
            kind = gate_rng.choice(["Sigmoid", "HardSigmoid", "HardSwish", "SiLU", "SE", "SE"])
            out = name("t")
            if kind == "HardSigmoid":
                nodes.append(helper.make_node("HardSigmoid", [cur], [out], alpha=gate_rng.choice([0.2, 1.0 / 6.0]),
                                              beta=gate_rng.choice([0.5, 0.6])))
            elif kind == "Sigmoid":
                nodes.append(helper.make_node(kind, [cur], [out]))
            elif kind == "HardSwish":  # as PyTorch exports it at opset 13 (the HardSwish operator is opset 14's)
                hg = name("t")
                nodes.append(helper.make_node("HardSigmoid", [cur], [hg], alpha=1.0 / 6.0, beta=0.5))
                nodes.append(helper.make_node("Mul", [cur, hg], [out]))
            elif kind == "SiLU":
                sg = name("t")
                nodes.append(helper.make_node("Sigmoid", [cur], [sg]))
                nodes.append(helper.make_node("Mul", [cur, sg], [out]))
            else:
                mid = max(1, c // 4)
                p, a, r, b, gt = name("t"), name("t"), name("t"), name("t"), name("t")
                nodes.append(helper.make_node("GlobalAveragePool", [cur], [p]))
                nodes.append(helper.make_node("Conv", [p, init(name("w"), [mid, c, 1, 1]), init(name("b"), [mid])], [a],
                                              kernel_shape=[1, 1]))
                nodes.append(helper.make_node("Relu", [a], [r]))
                nodes.append(helper.make_node("Conv", [r, init(name("w"), [c, mid, 1, 1]), init(name("b"), [c])], [b],
                                              kernel_shape=[1, 1]))
                nodes.append(helper.make_node(gate_rng.choice(["Sigmoid", "HardSigmoid"]), [b], [gt]))
                ins = [cur, gt]
                gate_rng.shuffle(ins)
                nodes.append(helper.make_node("Mul", ins, [out]))
                macs[0] += 2 * c * mid
            cur = out
            branch.setdefault(shape, []).append(cur)
        if norm_rng and not rank2 and norm_rng.random() < 0.35:
            kind = norm_rng.choice(["LRN", "LRN", "Softmax", "Tanh", "Softplus", "Elu", "Mish", "Clip", "Erf"])
            out = name("t")
            if kind == "LRN":
                nodes.append(helper.make_node("LRN", [cur], [out], size=norm_rng.choice([1, 3, 5, norm_rng.randint(2, 9)]),
                                              alpha=norm_rng.choice([1e-4, 0.5, 2.0]), beta=norm_rng.choice([0.75, 0.5, 1.0]),
                                              bias=norm_rng.choice([1.0, 2.0])))
            elif kind == "Softmax":
                nodes.append(helper.make_node("Softmax", [cur], [out], axis=norm_rng.choice([1, 2, 3, -1])))
            elif kind == "Clip":  # a hard tanh, or one bound only
                lo, hi = norm_rng.choice([(-1.0, 1.0), (-0.5, None), (None, 2.5), (-3.0, 0.25)])
                ins = [cur, "", ""]
                for k2, v in ((1, lo), (2, hi)):
                    if v is not None:
                        nm = name("k")
                        inits.append(helper.make_tensor(nm, TensorProto.FLOAT, [], [v]))
                        ins[k2] = nm
                while ins and ins[-1] == "":
                    ins.pop()
                nodes.append(helper.make_node("Clip", ins, [out]))
            elif kind == "Elu":
                nodes.append(helper.make_node("Elu", [cur], [out], alpha=norm_rng.choice([1.0, 0.5, 2.0])))
            elif kind == "Mish":
                sp, th = name("t"), name("t")
                nodes.append(helper.make_node("Softplus", [cur], [sp]))
                nodes.append(helper.make_node("Tanh", [sp], [th]))
                nodes.append(helper.make_node("Mul", [cur, th], [out]))
            else:
                nodes.append(helper.make_node(kind, [cur], [out]))
            cur = out
            branch.setdefault(shape, []).append(cur)
        if ln_rng and not rank2 and ln_rng.random() < 0.35:
            kind = ln_rng.choice(["LN", "ChannelsLast", "Instance", "Decomposed"])
            c, h, w = shape
            eps = ln_rng.choice([1e-5, 1e-6, 0.01, 0.5])
            out = name("t")

            def affine(dims):  # the scale and shift, from this generator
                cnt = 1
                for d in dims:
                    cnt *= d
                nm = [name("g"), name("b")]
                for k2 in nm:
                    inits.append(helper.make_tensor(k2, TensorProto.FLOAT, dims, [ln_rng.uniform(-2, 2) for _ in range(cnt)]))
                return nm
            if kind == "LN":
                axis = ln_rng.choice([1, 2, 3, -1, -2])
                sg, sb = affine(list((1, c, h, w)[axis:]))
                nodes.append(helper.make_node("LayerNormalization", [cur, sg, sb], [out], axis=axis, epsilon=eps))
            elif kind == "ChannelsLast":
                t1, t2 = name("t"), name("t")
                sg, sb = affine([c])
                nodes.append(helper.make_node("Transpose", [cur], [t1], perm=[0, 2, 3, 1]))
                nodes.append(helper.make_node("LayerNormalization", [t1, sg, sb], [t2], axis=-1, epsilon=eps))
                nodes.append(helper.make_node("Transpose", [t2], [out], perm=[0, 3, 1, 2]))
            elif kind == "Instance":
                sg, sb = affine([c])
                nodes.append(helper.make_node("InstanceNormalization", [cur, sg, sb], [out], epsilon=eps))
            else:
                sg, sb = affine([w])
                two, ep = name("k"), name("k")
                inits.append(helper.make_tensor(two, TensorProto.FLOAT, [], [2.0]))
                inits.append(helper.make_tensor(ep, TensorProto.FLOAT, [], [eps]))
                mu, d, d2, var, ve, sd, nx, sc = (name("t") for _ in range(8))
                nodes.append(helper.make_node("ReduceMean", [cur], [mu], axes=[-1]))
                nodes.append(helper.make_node("Sub", [cur, mu], [d]))
                nodes.append(helper.make_node("Pow", [d, two], [d2]))
                nodes.append(helper.make_node("ReduceMean", [d2], [var], axes=[-1]))
                nodes.append(helper.make_node("Add", [var, ep], [ve]))
                nodes.append(helper.make_node("Sqrt", [ve], [sd]))
                nodes.append(helper.make_node("Div", [d, sd], [nx]))
                nodes.append(helper.make_node("Mul", [nx, sg], [sc]))
                nodes.append(helper.make_node("Add", [sc, sb], [out]))
            cur = out
            branch.setdefault(shape, []).append(cur)
        if reorg_rng and not rank2 and reorg_rng.random() < 0.3:
            c, h, w = shape
            b = reorg_rng.choice([2, 2, 3])
            opts = (["SpaceToDepth"] if h % b == 0 and w % b == 0 else []) + (["DepthToSpace"] if c % (b * b) == 0 else [])
            if opts:
                out = name("t")
                if reorg_rng.choice(opts) == "SpaceToDepth":
                    nodes.append(helper.make_node("SpaceToDepth", [cur], [out], blocksize=b))
                    shape = (c * b * b, h // b, w // b)
                else:
                    nodes.append(helper.make_node("DepthToSpace", [cur], [out], blocksize=b, mode=reorg_rng.choice(["DCR", "CRD"])))
                    shape = (c // (b * b), h * b, w * b)
                cur = out
                branch.setdefault(shape, []).append(cur)
        if sp_rng and not rank2 and sp_rng.random() < 0.35:
            c, h, w = shape
            kind = sp_rng.choice(["Slice", "Concat", "Rank5"])
            if kind == "Rank5" and not [a for a in (2, 3) if c % a == 0 and c // a >= 2]:
                kind = "Slice"
            out = name("t")

            def ints(vals):
                nm = name("i")
                inits.append(helper.make_tensor(nm, TensorProto.INT64, [len(vals)], vals))
                return nm

            def slice_of(x, dims, axes):  # a random strided slice of x (dims: c, h, w) along the axes 2 / 3
                starts, ends, steps, nd = [], [], [], list(dims)
                for ax in axes:
                    n = dims[ax - 1]
                    st = sp_rng.choice([1, 2, 2, 3]) if n > 1 else 1
                    b = sp_rng.randint(0, min(n - 1, st))
                    e = sp_rng.choice([n, 1 << 30, sp_rng.randint(b + 1, n)])
                    starts.append(b); ends.append(e); steps.append(st)
                    nd[ax - 1] = (min(e, n) - b + st - 1) // st
                y = name("t")
                nodes.append(helper.make_node("Slice", [x, ints(starts), ints(ends), ints(axes), ints(steps)], [y]))
                return y, tuple(nd)

            if kind == "Slice":
                axes = sp_rng.choice([[2], [3], [2, 3]])
                cur, shape = slice_of(cur, (c, h, w), axes)
            elif kind == "Concat":
                ax = sp_rng.choice([2, 3])
                part, pd = slice_of(cur, (c, h, w), [ax])
                ins = [cur, part]
                sp_rng.shuffle(ins)
                nodes.append(helper.make_node("Concat", ins, [out], axis=ax))
                shape = (c, h + pd[1], w) if ax == 2 else (c, h, w + pd[2])
                cur = out
            else:
                a = sp_rng.choice([a for a in (2, 3) if c % a == 0 and c // a >= 2])
                f = c // a
                r5, tr, sg = name("t"), name("t"), name("t")
                nodes.append(helper.make_node("Reshape", [cur, ints([1, a, f, h, w])], [r5]))
                nodes.append(helper.make_node("Transpose", [r5], [tr], perm=[0, 1, 3, 4, 2]))
                nodes.append(helper.make_node("Sigmoid", [tr], [sg]))
                k = sp_rng.randint(1, f - 1)
                p1, p2, m1, m2 = name("t"), name("t"), name("t"), name("t")
                nodes.append(helper.make_node("Split", [sg, ints([k, f - k])], [p1, p2], axis=4))
                two = name("c")
                inits.append(helper.make_tensor(two, TensorProto.FLOAT, [], [2.0]))
                nodes.append(helper.make_node("Mul", [p1, two], [m1]))
                nodes.append(helper.make_node("Pow", [p2, two], [m2]))
                cat, back = name("t"), name("t")
                nodes.append(helper.make_node("Concat", [m1, m2], [cat], axis=4))
                nodes.append(helper.make_node("Transpose", [cat], [back], perm=[0, 1, 4, 2, 3]))
                nodes.append(helper.make_node("Reshape", [back, ints([1, c, h, w])], [out]))
                cur = out
            branch.setdefault(shape, []).append(cur)
    if not nodes:
        nodes.append(helper.make_node("Relu", ["x"], ["t0"]))
        cur = "t0"
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, H, W])
    y = helper.make_tensor_value_info(cur, TensorProto.FLOAT, [1, shape[0]] if rank2 else [1] + list(shape))
    g = helper.make_graph(nodes, "rand%d" % seed, [x], [y], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17 if layernorms else 13)], producer_name="random_networks")
    m.ir_version = 8
    onnx.save(m, path)
    return macs[0]


# ---------------------------------------------------------------------------------------------
# the driver

PLATFORMS = {"nmp": "configs/nmp.yaml", "mesh-4x4": "configs/mesh-4x4.yaml", "mesh-8x8": "configs/mesh-8x8.yaml",
             "mesh-3x1": "configs/mesh-3x1.yaml", "mesh-16x8": "configs/mesh-16x8.yaml", "vta": "configs/vta.yaml"}
MAPPED = ("nmp", "mesh-4x4", "mesh-8x8", "mesh-3x1", "mesh-16x8")


def run_cmd(cmd, timeout):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), time.time() - t0
    except subprocess.TimeoutExpired as e:
        return "timeout", "", (e.stderr or b"").decode("utf-8", "replace"), time.time() - t0
    except OSError as e:  # e.g. the binary is being relinked
        return "not started", "", str(e), time.time() - t0


def layer_names(wl):
    try:
        with open(wl) as f:
            return [l["name"] for l in json.load(f).get("layers", [])]
    except (OSError, ValueError, KeyError):
        return []


# Exit-2 messages for what docs/workload-format.md, docs/onnx-import.md ("What the platforms run")
# and docs/vta.md say a platform does not run: "unsupported", not findings.
DOCUMENTED = (
    "the network has no conv or fc layer for the",
    "the workload gives the platform nothing to run",
    "the VTA platform runs int8 networks",
    "do not run on the VTA",
    "does not run on the VTA",
    "only eltwise add runs on the VTA",
    "nearest-neighbour resizes by integer factors only",
    "a broadcast operand",
    "exceeds the VTA accumulator",
    "no TLT tile fits the TLT memories",  # docs/nmp.md: a layer whose smallest tile exceeds MB0-MB2
    "beyond every layer's",  # --refine K with more candidates than any layer has (docs/configuration.md)
    "the network gives the VTA no program to run",  # docs/vta.md: every layer on the host
)


def classify_rejection(err, wl, names):
    """An exit-2 message must name the workload file and a layer or JSON pointer."""
    first = err.strip().splitlines()[-1] if err.strip() else ""
    base = os.path.basename(wl)
    names_file = base in err
    names_where = any(n in err for n in names) or "/layers/" in err or "layer" in err or ": /" in err
    return names_file and names_where, first


def accuracy_outliers(layers_json):
    """Layers of OUT/layers.json (est_cycles, sim_cycles) with |sim/est - 1| > 50 %."""
    out = []
    try:
        with open(layers_json) as f:
            rows = json.load(f).get("layers", [])
    except (OSError, ValueError, AttributeError):
        return out
    for o in rows:
        est, sim = o.get("est_cycles"), o.get("sim_cycles")
        if isinstance(est, (int, float)) and isinstance(sim, (int, float)) and est > 0 and abs(sim / est - 1) > 0.5:
            out.append((o.get("name", "?"), est, sim))
    return out


def layer_macs(l):
    """Closed-form MACs of one workload layer (docs/workload-format.md); 0 without MACs."""
    if l["type"] == "fc":
        return l["in"] * l["out"]
    if l["type"] != "conv":
        return 0
    st = l.get("stride", 1)
    sh, sw = (st, st) if isinstance(st, int) else st
    p = l.get("pad", 0)
    if isinstance(p, int):
        pt = pb = pl = pr = p
    elif isinstance(p, list):
        pt = pb = p[0]
        pl = pr = p[1]
    else:
        pt, pb, pl, pr = p["top"], p["bottom"], p["left"], p["right"]
    d = l.get("dilation", 1)
    dh, dw = (d, d) if isinstance(d, int) else d
    P = (l["H"] + pt + pb - (l["R"] - 1) * dh - 1) // sh + 1
    Q = (l["W"] + pl + pr - (l["S"] - 1) * dw - 1) // sw + 1
    return l["C"] // l.get("groups", 1) * l["K"] * l["R"] * l["S"] * P * Q


def expected_macs(wl):
    """Closed-form MACs of the conv and fc layers times the batch."""
    with open(wl) as f:
        d = json.load(f)
    return sum(layer_macs(l) for l in d["layers"]) * d.get("batch", 1)


def layers_json_problems(od, wl, check_macs):
    """OUT/layers.json: per layer the closed-form MACs (nmp, mesh; the VTA's are the GEMM unit's,
    padding included), layers in time order."""
    try:
        with open(wl) as f:
            by = {l["name"]: l for l in json.load(f)["layers"]}
        with open(os.path.join(od, "layers.json")) as f:
            rows = json.load(f)["layers"]
    except (OSError, ValueError, KeyError) as e:
        return ["layers.json: %r" % e]
    out, end = [], 0.0
    for r in rows:
        base = r["name"].split("@")[0]
        if check_macs and base in by and "macs" in r and r["macs"] != layer_macs(by[base]) and by[base]["type"] in ("conv", "fc"):
            out.append("layers.json %s: %s MACs, closed form %s" % (r["name"], r["macs"], layer_macs(by[base])))
        if r.get("begin_ns", end) < end - 1e-9 or r.get("end_ns", 0) < r.get("begin_ns", 0):
            out.append("layers.json %s: [%s, %s] before the previous layer's end %s" % (
                r["name"], r.get("begin_ns"), r.get("end_ns"), end))
        end = max(end, r.get("end_ns", end))
    return out[:3]


def simulated_macs(stats_json, plat):
    """MACs the simulation executed: nmp.macs, or the mesh cores' macs summed; None elsewhere."""
    with open(stats_json) as f:
        st = json.load(f)["stats"]
    if plat == "nmp":
        return st["nmp"]["macs"]["value"]
    if plat.startswith("mesh"):
        return sum(v["macs"]["value"] for k, v in st["mesh"].items() if k.startswith("core["))
    return None


def timeseries_problems(od):
    """docs/observability.md: per statistic, the sum of timeseries.csv over the intervals equals
    the end-of-run value (the dictionary's total and stats.json where the path resolves)."""
    import csv
    try:
        with open(os.path.join(od, "timeseries.columns.json")) as f:
            cols = json.load(f)
        with open(os.path.join(od, "stats.json")) as f:
            st = json.load(f)["stats"]
        sums = {}
        with open(os.path.join(od, "timeseries.csv")) as f:
            for r in csv.DictReader(f):
                k = (r["module"], r["statistic"])
                sums[k] = sums.get(k, 0.0) + float(r["value"])
    except (OSError, ValueError, KeyError) as e:
        return ["timeseries: %r" % e]
    out = []
    for s in cols.get("statistics", []):
        k, tot = (s["module"], s["statistic"]), s["total"]
        if abs(sums.get(k, 0.0) - tot) > 1e-6 * max(1.0, abs(tot)):
            out.append("timeseries %s.%s sums to %s, total %s" % (k[0], k[1], sums.get(k, 0.0), tot))
        node = st
        for part in k[0].split(".") + k[1].split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict) and isinstance(node.get("value"), (int, float)) and \
                abs(node["value"] - tot) > 1e-6 * max(1.0, abs(tot)):
            out.append("timeseries total of %s.%s %s != stats.json %s" % (k[0], k[1], tot, node["value"]))
    return out[:3]


def vta_variant(wl):
    """The network at 8 bit with padded average pools without their divisor rule as max pools
    (what the VTA runs)."""
    with open(wl) as f:
        d = json.load(f)
    d["precision"] = 8
    for l in d["layers"]:
        if l["type"] == "pool" and l.get("op") == "avg" and l.get("pad") and "count_include_pad" not in l:
            l["op"] = "max"
    out = wl[:-len(".json")] + "_vta.json"
    with open(out, "w") as f:
        json.dump(d, f, indent=1)
    return out


def shape_of(wl, layer):
    base = layer.split("@")[0]
    try:
        with open(wl) as f:
            for l in json.load(f)["layers"]:
                if l["name"] == base:
                    return {k: v for k, v in l.items() if k not in ("name", "inputs")}
    except (OSError, ValueError, KeyError):
        pass
    return {}


def driver(a):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bindir = os.path.abspath(a.bindir)
    vp_run, vp_map, vp_import = (os.path.join(bindir, t) for t in ("vp-run", "vp-map", "vp-import"))
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    for tool in (vp_run, vp_map):
        if not os.access(tool, os.X_OK):
            print("skipped: no %s (build the tools: vp-run vp-map vp-import)" % tool)
            return 77
    onnx_ok = a.onnx_every > 0 and os.access(vp_import, os.X_OK) and subprocess.call(
        [a.onnx_python, "-c", "import onnx.helper"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0
    if a.onnx_every > 0 and not onnx_ok:
        print("note: ONNX seeds run as JSON networks (needs %s with python3-onnx and %s)" % (a.onnx_python, vp_import))
    lo, _, hi = a.seeds.partition(":")
    seeds = range(int(lo), int(hi or lo) + 1)
    plats = a.platforms.split(",")
    unknown = [p for p in plats if p not in PLATFORMS]
    if unknown:
        print("random_networks.py: --platforms: unknown %s (known: %s)" % (", ".join(unknown), ", ".join(PLATFORMS)), file=sys.stderr)
        sys.exit(2)
    counts, bugs, rejections, outliers, unsupported, times = {}, [], [], [], {}, []

    def note(tool, plat, cls):
        counts.setdefault((tool, plat), {}).setdefault(cls, 0)
        counts[(tool, plat)][cls] += 1

    for seed in seeds:
        onnx_mode = onnx_ok and seed % a.onnx_every == 0
        if onnx_mode:
            model = os.path.join(work, "rand%d.onnx" % seed)
            # onnx.helper lives in Debian's python3-onnx: generate with the system interpreter
            gen = subprocess.run([a.onnx_python, os.path.abspath(__file__), "onnx", "--seed", str(seed),
                                  "--out", model] + (["--dilated"] if a.dilated else []) + (["--gates"] if a.gates else []) +
                                 (["--norms"] if a.norms else []) + (["--layernorms"] if a.layernorms else []) +
                                 (["--reorgs"] if a.reorgs else []) + (["--spatial"] if a.spatial else []),
                                 stdout=subprocess.PIPE, universal_newlines=True)
            m_gen = re.match(r"macs (\d+)$", gen.stdout.strip())
            if gen.returncode != 0 or not m_gen:
                bugs.append("seed %d: the ONNX generator failed (exit %s)" % (seed, gen.returncode))
                continue
            wl = os.path.join(work, "rand%d_onnx.json" % seed)
            rc, out, err, _ = run_cmd([vp_import, model, "-o", wl, "--quiet"], a.timeout)
            if rc != 0:
                ok, first = classify_rejection(err, model, [])
                cls = "rejected" if rc == 2 and ok else "BUG"
                note("vp-import", "-", cls)
                (bugs if cls == "BUG" else rejections).append(
                    "seed %d vp-import %s: exit %s: %s" % (seed, model, rc, first))
                continue
            # the imported workload's MACs (closed form of its conv / fc layers) against the
            # generator's count from the ONNX operators' definitions
            if expected_macs(wl) != int(m_gen.group(1)):
                bugs.append("seed %d vp-import %s: the workload's conv / fc layers have %d MACs, the model's Conv "
                            "and Gemm nodes %s" % (seed, model, expected_macs(wl), m_gen.group(1)))
                note("vp-import", "-", "BUG")
                continue
            note("vp-import", "-", "ok")
        else:
            wl = os.path.join(work, "rand%d.json" % seed)
            with open(wl, "w") as f:
                json.dump(gen_network(seed, a.large, a.dilated, a.gates, a.norms, a.layernorms, a.reorgs, a.spatial), f, indent=1)
        names = layer_names(wl)
        wl_all = wl
        for plat in plats:
            cfg = os.path.join(root, PLATFORMS[plat])
            wl = wl_all
            if plat == "vta" and not onnx_mode:
                # the VTA runs int8 and no padded average pools (docs/vta.md): run what it can
                wl = vta_variant(wl_all)
            if plat in MAPPED:
                mp = os.path.join(work, "map_%d_%s.json" % (seed, plat))
                rc, out, err, _ = run_cmd([vp_map, cfg, wl, "--out", mp, "--quiet"], a.timeout)
                cls = "ok" if rc == 0 and os.path.exists(mp) else None
                if cls is None:
                    ok, first = classify_rejection(err, wl, names)
                    cls = "rejected" if rc == 2 and ok else "BUG"
                    if cls == "rejected" and any(d in first for d in DOCUMENTED):
                        cls = "unsupported"
                    else:
                        (bugs if cls == "BUG" else rejections).append(
                            "seed %d vp-map %s: exit %s: %s" % (seed, plat, rc, first))
                note("vp-map", plat, cls)
            od = os.path.join(work, "out_%d_%s" % (seed, plat))
            shutil.rmtree(od, ignore_errors=True)
            cmd = [vp_run, cfg, wl, "--out", od, "--quiet"] + a.run_args.split()
            rc, out, err, dt = run_cmd(cmd, a.timeout)
            if rc == 0:
                problems = []
                for fn in ("stats.json", "stats.csv", "config.yaml", "report.html"):
                    if not os.path.exists(os.path.join(od, fn)):
                        problems.append("missing " + fn)
                try:
                    with open(os.path.join(od, "stats.json")) as f:
                        json.load(f)
                except (OSError, ValueError) as e:
                    problems.append("stats.json: %s" % e)
                if not problems and os.path.exists(os.path.join(od, "layers.json")):
                    problems += layers_json_problems(od, wl, plat != "vta")
                if not problems and os.path.exists(os.path.join(od, "timeseries.csv")):
                    problems += timeseries_problems(od)
                if not problems:
                    try:
                        sm, em = simulated_macs(os.path.join(od, "stats.json"), plat), expected_macs(wl)
                        if sm is not None and sm != em:
                            problems.append("simulated MACs %s != closed form %s" % (sm, em))
                    except (KeyError, TypeError, ValueError) as e:
                        problems.append("MAC check: %r" % e)
                if plat in MAPPED and not os.path.exists(os.path.join(od, "mapping.json")):
                    problems.append("missing mapping.json")
                for name, est, sim in accuracy_outliers(os.path.join(od, "layers.json")):
                    outliers.append("seed %d %s %s est %.0f sim %.0f cycles (sim/est %.2f) %s" % (
                        seed, plat, name, est, sim, sim / est, json.dumps(shape_of(wl, name))))
                if a.repeat_every > 0 and seed % a.repeat_every == 0 and not problems:
                    od2 = od + "_again"
                    shutil.rmtree(od2, ignore_errors=True)
                    rc2, _, err2, _ = run_cmd([vp_run, cfg, wl, "--out", od2, "--quiet"] + a.run_args.split(), a.timeout)
                    try:
                        with open(os.path.join(od, "stats.json"), "rb") as f1, \
                                open(os.path.join(od2, "stats.json"), "rb") as f2:
                            if rc2 != 0 or f1.read() != f2.read():
                                problems.append("rerun: exit %s or stats.json differs" % rc2)
                    except OSError as e:
                        problems.append("rerun: %s" % e)
                    shutil.rmtree(od2, ignore_errors=True)
                cls = "BUG" if problems else "ok"
                if problems:
                    bugs.append("seed %d vp-run %s: %s" % (seed, plat, "; ".join(problems)))
            else:
                ok, first = classify_rejection(err, wl, names)
                cls = "rejected" if rc == 2 and ok else "BUG"
                if cls == "rejected" and any(d in first for d in DOCUMENTED):
                    cls = "unsupported"
                    key = plat + ": " + re.sub(r"^.*?\.json: (layer \S+: )?", "", first)
                    unsupported[key] = unsupported.get(key, 0) + 1
                else:
                    (bugs if cls == "BUG" else rejections).append(
                        "seed %d vp-run %s: exit %s (%.1f s): %s" % (seed, plat, rc, dt, first))
            note("vp-run", plat, cls)
            times.append((dt, "seed %d %s %s" % (seed, plat, cls)))
            if not a.keep and cls == "ok":
                shutil.rmtree(od, ignore_errors=True)
            if a.verbose:
                print("seed %d %s %s %.1f s" % (seed, plat, cls, dt), flush=True)
            if onnx_mode and plat in ("nmp", "vta"):
                # the model itself: imported on the fly (vta: with the model's own float weights,
                # quantised), same outcome as the imported workload, OUT/workload.json written
                od = os.path.join(work, "out_%d_%s_onnx" % (seed, plat))
                shutil.rmtree(od, ignore_errors=True)
                rc2, _, err2, dt2 = run_cmd([vp_run, cfg, model, "--out", od, "--quiet"] + a.run_args.split(), a.timeout)
                ok2 = (rc2 == 0 and os.path.exists(os.path.join(od, "workload.json"))) if cls == "ok" else rc2 == 2
                c2 = "ok" if ok2 and rc2 == 0 else ("unsupported" if ok2 else "BUG")
                if c2 == "BUG":
                    bugs.append("seed %d vp-run %s %s: exit %s (the imported workload: %s): %s" % (
                        seed, plat, model, rc2, cls, (err2.strip().splitlines() or [""])[-1]))
                note("vp-run .onnx", plat, c2)
                if not a.keep:
                    shutil.rmtree(od, ignore_errors=True)
    print("== counts (tool, platform: outcome)")
    for (tool, plat), c in sorted(counts.items()):
        print("  %-12s %-9s %s" % (tool, plat, ", ".join("%s %d" % kv for kv in sorted(c.items()))))
    times.sort(reverse=True)
    print("== slowest vp-run: " + ", ".join("%s %.1f s" % (n, t) for t, n in times[:5]))
    print("== unsupported (exit 2 for what the docs say the platform does not run): message, count")
    for m, n in sorted(unsupported.items(), key=lambda kv: -kv[1]):
        print("  %4d  %s" % (n, m[:160]))
    print("== other rejections (exit 2 naming file and layer: review them)")
    for r in rejections:
        print("  " + r)
    print("== accuracy outliers (|sim/est - 1| > 50 %%): %d" % len(outliers))
    for o in outliers:
        print("  " + o)
    print("== bugs: %d" % len(bugs))
    for b in bugs[:a.max_listed]:
        print("  " + b)
    if len(bugs) > a.max_listed:
        print("  ... %d more" % (len(bugs) - a.max_listed))
    return 1 if bugs else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--out")
    g.add_argument("--large", action="store_true")
    g.add_argument("--dilated", action="store_true", help="half of the convs draw a dilation of 1-4 per axis")
    g.add_argument("--gates", action="store_true", help="sigmoid / hard_sigmoid / hard_swish, eltwise mul, SE blocks, resize modes")
    g.add_argument("--norms", action="store_true", help="lrn, softmax over random axes, tanh / softplus / erf / elu / clip, Mish")
    g.add_argument("--layernorms", action="store_true", help="layernorm layers over random axes with random epsilons; "
                   "pads with a mode or constant value")
    g.add_argument("--reorgs", action="store_true", help="space_to_depth and depth_to_space layers")
    g.add_argument("--spatial", action="store_true", help="slices along C, H or W with steps, concats along H or W")
    o = sub.add_parser("onnx")
    o.add_argument("--seed", type=int, required=True)
    o.add_argument("--out", required=True)
    o.add_argument("--dilated", action="store_true", help="half of the Conv nodes draw dilations of 1-4 per axis")
    o.add_argument("--gates", action="store_true", help="Sigmoid / HardSigmoid / HardSwish, SiLU, SE blocks, Resize modes")
    o.add_argument("--norms", action="store_true", help="LRN, Softmax, Tanh, Softplus, Erf, Elu, Clip, Mish")
    o.add_argument("--layernorms", action="store_true", help="LayerNormalization (channels-first and channels-last), "
                   "InstanceNormalization, the decomposed LayerNorm (opset 17); reflect, edge and constant-value Pads")
    o.add_argument("--reorgs", action="store_true", help="SpaceToDepth and DepthToSpace (DCR, CRD)")
    o.add_argument("--spatial", action="store_true", help="strided Slices along H / W, Concats along H / W, YOLOv5's rank-5 head")
    r = sub.add_parser("run")
    r.add_argument("--seeds", default="1:10", help="A:B (inclusive) or one seed")
    r.add_argument("--bindir", default="build/platform")
    r.add_argument("--work", default="random-networks")
    r.add_argument("--platforms", default="nmp,mesh-4x4,vta")
    r.add_argument("--timeout", type=float, default=60)
    r.add_argument("--onnx-every", type=int, default=4, help="every N-th seed is an ONNX model (0: none)")
    r.add_argument("--repeat-every", type=int, default=5, help="rerun every N-th seed, compare stats.json")
    r.add_argument("--onnx-python", default="/usr/bin/python3", help="an interpreter with onnx (python3-onnx)")
    r.add_argument("--run-args", default="", help="more vp-run arguments, e.g. \"--refine 2 --timeline\"")
    r.add_argument("--large", action="store_true", help="larger JSON networks (up to 384 channels, 112 pixels)")
    r.add_argument("--dilated", action="store_true", help="half of the convs (JSON and ONNX) draw a dilation of 1-4 per axis")
    r.add_argument("--gates", action="store_true", help="networks (JSON and ONNX) with sigmoid / hard_sigmoid / hard_swish, "
                   "eltwise mul, squeeze-and-excitation blocks and resizes with ONNX's coordinate modes")
    r.add_argument("--norms", action="store_true", help="networks (JSON and ONNX) with lrn, softmax over random axes, "
                   "tanh / softplus / erf / elu / clip and Mish")
    r.add_argument("--layernorms", action="store_true", help="networks (JSON and ONNX) with layernorms over random "
                   "axes: LayerNormalization channels-first and channels-last, InstanceNormalization, the decomposed form; "
                   "pads in reflect and edge mode or with a constant value")
    r.add_argument("--reorgs", action="store_true", help="networks (JSON and ONNX) with space_to_depth and depth_to_space")
    r.add_argument("--spatial", action="store_true", help="networks (JSON and ONNX) with strided slices and concats along "
                   "H and W, and (ONNX) YOLOv5's rank-5 head pattern")
    r.add_argument("--max-listed", type=int, default=40, help="bugs listed at most")
    r.add_argument("--keep", action="store_true", help="keep the output folders of passing runs")
    r.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    if a.cmd == "gen":
        text = json.dumps(gen_network(a.seed, a.large, a.dilated, a.gates, a.norms, a.layernorms, a.reorgs, a.spatial),
                          indent=1) + "\n"
        if a.out:
            with open(a.out, "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0
    if a.cmd == "onnx":
        print("macs %d" % gen_onnx(a.seed, a.out, a.dilated, a.gates, a.norms, a.layernorms, a.reorgs, a.spatial))
        return 0
    return driver(a)


if __name__ == "__main__":
    sys.exit(main())
