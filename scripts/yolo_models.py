"""YOLOv5 and YOLOv8 detectors at their "n" scale (width x 0.25, depth x 0.33), as PyTorch modules
whose ONNX export has the graph the ultralytics exporter writes for them: SiLU convolutions with
folded batch norms, C3 / C2f blocks, SPPF, nearest upsampling, and the detection heads with their
box decoding (YOLOv5: the anchor head viewed as [N, 3, 5 + classes, H, W] and permuted to put the
outputs last, sigmoid, grid offsets, (2 sigmoid)^2 times the anchors; YOLOv8: the anchor-free head's
three scales joined along the positions, the distribution focal loss's softmax over 16 bins and its
1x1 convolution, distances to boxes). `focus=True` gives YOLOv5's earlier stem (releases before
v6.0): the Focus layer, every second row and column stacked on the channels, then a 3x3 conv.

Written from the architectures' published layer tables for scripts/export_torchvision.py; random
weights (the fixtures keep the graph, not the values).
"""
import torch
import torch.nn as nn


class Conv(nn.Module):
    """Convolution, batch norm, SiLU (padding k // 2 unless given)."""

    def __init__(self, c_in, c_out, k=1, stride=1, pad=None):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, k, stride, k // 2 if pad is None else pad, bias=False)
        self.bn = nn.BatchNorm2d(c_out)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Bottleneck(nn.Module):
    def __init__(self, c_in, c_out, shortcut=True, kernels=(1, 3)):
        super().__init__()
        self.cv1 = Conv(c_in, c_out, kernels[0])
        self.cv2 = Conv(c_out, c_out, kernels[1])
        self.add = shortcut and c_in == c_out

    def forward(self, x):
        y = self.cv2(self.cv1(x))
        return x + y if self.add else y


class C3(nn.Module):
    """YOLOv5's CSP block: two 1x1 branches, n bottlenecks on one, joined by a 1x1 conv."""

    def __init__(self, c_in, c_out, n=1, shortcut=True):
        super().__init__()
        h = c_out // 2
        self.cv1, self.cv2, self.cv3 = Conv(c_in, h), Conv(c_in, h), Conv(2 * h, c_out)
        self.m = nn.Sequential(*(Bottleneck(h, h, shortcut) for _ in range(n)))

    def forward(self, x):
        return self.cv3(torch.cat((self.m(self.cv1(x)), self.cv2(x)), 1))


class C2f(nn.Module):
    """YOLOv8's block: a 1x1 conv split in two halves, n bottlenecks chained on the second, every
    intermediate kept and joined by a 1x1 conv."""

    def __init__(self, c_in, c_out, n=1, shortcut=False):
        super().__init__()
        self.h = c_out // 2
        self.cv1, self.cv2 = Conv(c_in, 2 * self.h), Conv((2 + n) * self.h, c_out)
        self.m = nn.ModuleList(Bottleneck(self.h, self.h, shortcut, (3, 3)) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).split((self.h, self.h), 1))
        for m in self.m:
            y.append(m(y[-1]))
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    """Three chained 5x5 max pools (stride 1), the four maps joined."""

    def __init__(self, c_in, c_out):
        super().__init__()
        h = c_in // 2
        self.cv1, self.cv2, self.m = Conv(c_in, h), Conv(4 * h, c_out), nn.MaxPool2d(5, 1, 2)

    def forward(self, x):
        x = self.cv1(x)
        y1 = self.m(x)
        y2 = self.m(y1)
        return self.cv2(torch.cat((x, y1, y2, self.m(y2)), 1))


class Focus(nn.Module):
    def __init__(self, c_in, c_out, k=3):
        super().__init__()
        self.conv = Conv(4 * c_in, c_out, k)

    def forward(self, x):
        return self.conv(torch.cat((x[..., ::2, ::2], x[..., 1::2, ::2], x[..., ::2, 1::2], x[..., 1::2, 1::2]), 1))


class DetectV5(nn.Module):
    ANCHORS = [[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119], [116, 90, 156, 198, 373, 326]]

    def __init__(self, classes, channels):
        super().__init__()
        self.no, self.na, self.strides = classes + 5, 3, (8, 16, 32)
        self.m = nn.ModuleList(nn.Conv2d(c, self.no * self.na, 1) for c in channels)

    def forward(self, xs):
        z = []
        for i, x in enumerate(xs):
            x = self.m[i](x)
            n, _, ny, nx = x.shape
            x = x.view(n, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
            yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
            grid = torch.stack((xv, yv), 2).expand(1, self.na, ny, nx, 2).float() - 0.5
            anchors = torch.tensor(self.ANCHORS[i], dtype=torch.float32).view(1, self.na, 1, 1, 2).expand(1, self.na, ny, nx, 2)
            xy, wh, conf = x.sigmoid().split((2, 2, self.no - 4), 4)
            xy = (xy * 2 + grid) * self.strides[i]
            wh = (wh * 2) ** 2 * anchors
            z.append(torch.cat((xy, wh, conf), 4).view(n, self.na * ny * nx, self.no))
        return torch.cat(z, 1)


class DFL(nn.Module):
    """The box distances' expectation over 16 bins: softmax, then a fixed 1x1 conv with weights 0..15."""

    def __init__(self, bins=16):
        super().__init__()
        self.bins = bins
        self.conv = nn.Conv2d(bins, 1, 1, bias=False).requires_grad_(False)
        self.conv.weight.data[:] = torch.arange(bins, dtype=torch.float).view(1, bins, 1, 1)

    def forward(self, x):
        n, _, a = x.shape
        return self.conv(x.view(n, 4, self.bins, a).transpose(2, 1).softmax(1)).view(n, 4, a)


class DetectV8(nn.Module):
    def __init__(self, classes, channels):
        super().__init__()
        self.classes, self.no, self.strides = classes, classes + 64, (8, 16, 32)
        c2, c3 = max(16, channels[0] // 4, 64), max(channels[0], min(classes, 100))
        self.cv2 = nn.ModuleList(nn.Sequential(Conv(c, c2, 3), Conv(c2, c2, 3), nn.Conv2d(c2, 64, 1)) for c in channels)
        self.cv3 = nn.ModuleList(nn.Sequential(Conv(c, c3, 3), Conv(c3, c3, 3), nn.Conv2d(c3, classes, 1)) for c in channels)
        self.dfl = DFL()

    def forward(self, xs):
        n = xs[0].shape[0]
        x = [torch.cat((self.cv2[i](xs[i]), self.cv3[i](xs[i])), 1) for i in range(len(xs))]
        points, strides = [], []
        for i, xi in enumerate(x):
            _, _, h, w = xi.shape
            sy, sx = torch.meshgrid(torch.arange(h) + 0.5, torch.arange(w) + 0.5, indexing="ij")
            points.append(torch.stack((sx, sy), -1).view(-1, 2))
            strides.append(torch.full((h * w, 1), float(self.strides[i])))
        anchors = torch.cat(points).transpose(0, 1).unsqueeze(0)
        stride = torch.cat(strides).transpose(0, 1)
        box, cls = torch.cat([xi.view(n, self.no, -1) for xi in x], 2).split((64, self.classes), 1)
        lt, rb = self.dfl(box).chunk(2, 1)
        x1y1, x2y2 = anchors - lt, anchors + rb
        return torch.cat((torch.cat(((x1y1 + x2y2) / 2, x2y2 - x1y1), 1) * stride, cls.sigmoid()), 1)


def _w(c):
    return c // 4  # width multiple 0.25


class YoloV5(nn.Module):
    def __init__(self, classes=80, focus=False):
        super().__init__()
        self.b0 = Focus(3, _w(64)) if focus else Conv(3, _w(64), 6, 2, 2)
        self.b1, self.b2 = Conv(_w(64), _w(128), 3, 2), C3(_w(128), _w(128), 1)
        self.b3, self.b4 = Conv(_w(128), _w(256), 3, 2), C3(_w(256), _w(256), 2)
        self.b5, self.b6 = Conv(_w(256), _w(512), 3, 2), C3(_w(512), _w(512), 3)
        self.b7, self.b8 = Conv(_w(512), _w(1024), 3, 2), C3(_w(1024), _w(1024), 1)
        self.b9 = SPPF(_w(1024), _w(1024))
        self.up = nn.Upsample(None, 2, "nearest")
        self.h10, self.h13 = Conv(_w(1024), _w(512)), C3(_w(1024), _w(512), 1, False)
        self.h14, self.h17 = Conv(_w(512), _w(256)), C3(_w(512), _w(256), 1, False)
        self.h18, self.h20 = Conv(_w(256), _w(256), 3, 2), C3(_w(512), _w(512), 1, False)
        self.h21, self.h23 = Conv(_w(512), _w(512), 3, 2), C3(_w(1024), _w(1024), 1, False)
        self.detect = DetectV5(classes, (_w(256), _w(512), _w(1024)))

    def forward(self, x):
        x = self.b2(self.b1(self.b0(x)))
        p3 = self.b4(self.b3(x))
        p4 = self.b6(self.b5(p3))
        x = self.b9(self.b8(self.b7(p4)))
        h10 = self.h10(x)
        h14 = self.h14(self.h13(torch.cat((self.up(h10), p4), 1)))
        o3 = self.h17(torch.cat((self.up(h14), p3), 1))
        o4 = self.h20(torch.cat((self.h18(o3), h14), 1))
        o5 = self.h23(torch.cat((self.h21(o4), h10), 1))
        return self.detect([o3, o4, o5])


class YoloV8(nn.Module):
    def __init__(self, classes=80):
        super().__init__()
        self.b0, self.b1, self.b2 = Conv(3, _w(64), 3, 2), Conv(_w(64), _w(128), 3, 2), C2f(_w(128), _w(128), 1, True)
        self.b3, self.b4 = Conv(_w(128), _w(256), 3, 2), C2f(_w(256), _w(256), 2, True)
        self.b5, self.b6 = Conv(_w(256), _w(512), 3, 2), C2f(_w(512), _w(512), 2, True)
        self.b7, self.b8 = Conv(_w(512), _w(1024), 3, 2), C2f(_w(1024), _w(1024), 1, True)
        self.b9 = SPPF(_w(1024), _w(1024))
        self.up = nn.Upsample(None, 2, "nearest")
        self.h12, self.h15 = C2f(_w(1024) + _w(512), _w(512)), C2f(_w(512) + _w(256), _w(256))
        self.h16, self.h18 = Conv(_w(256), _w(256), 3, 2), C2f(_w(256) + _w(512), _w(512))
        self.h19, self.h21 = Conv(_w(512), _w(512), 3, 2), C2f(_w(512) + _w(1024), _w(1024))
        self.detect = DetectV8(classes, (_w(256), _w(512), _w(1024)))

    def forward(self, x):
        x = self.b2(self.b1(self.b0(x)))
        p3 = self.b4(self.b3(x))
        p4 = self.b6(self.b5(p3))
        p5 = self.b9(self.b8(self.b7(p4)))
        x = self.h12(torch.cat((self.up(p5), p4), 1))
        o3 = self.h15(torch.cat((self.up(x), p3), 1))
        o4 = self.h18(torch.cat((self.h16(o3), x), 1))
        o5 = self.h21(torch.cat((self.h19(o4), p5), 1))
        return self.detect([o3, o4, o5])
