#include "mapper/tiling/conv_shape.h"

namespace vp::mapper::tiling {

bool ConvShape::from_layer(const Layer& layer, ConvShape* out) {
    ConvShape s;
    s.name = layer.name;
    if (layer.kind == LayerKind::Conv) {
        s.groups = layer.groups;
        s.C = layer.C;
        s.K = layer.K;
        s.P = layer.P();
        s.Q = layer.Q();
        s.kx = layer.S;
        s.ky = layer.R;
        s.sx = layer.stride_w;
        s.sy = layer.stride_h;
        s.dx = layer.dilation_w;
        s.dy = layer.dilation_h;
        s.padded_h = layer.H + layer.pad_top + layer.pad_bottom;
        s.padded_w = layer.W + layer.pad_left + layer.pad_right;
    } else if (layer.kind == LayerKind::FullyConnected) {
        s.groups = 1;
        s.C = layer.C;
        s.K = layer.K;
        // A fully connected layer is a 1x1 convolution on a 1x1 map.
    } else {
        return false;
    }
    s.n_of = s.K / s.groups;
    s.n_if = s.C / s.groups;
    *out = s;
    return true;
}

}  // namespace vp::mapper::tiling
