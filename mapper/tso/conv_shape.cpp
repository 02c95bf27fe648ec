#include "mapper/tso/conv_shape.h"

#include "mapper/common/errors.h"

namespace vp::mapper::tso {

bool is_tso_layer(const Layer& l) { return l.kind == LayerKind::Conv || l.kind == LayerKind::FullyConnected; }

ConvShape make_conv_shape(const Layer& l, int elem_bytes) {
    const std::string where = "layer \"" + l.name + "\": ";
    if (!is_tso_layer(l)) throw InputError(where + "TSO maps only conv and fc layers");
    if (elem_bytes != 1 && elem_bytes != 2) throw InputError(where + "precision must be 8 or 16 bit");
    ConvShape c;
    c.name = l.name;
    c.elem_bytes = elem_bytes;
    if (l.kind == LayerKind::FullyConnected) {
        if (l.C < 1 || l.K < 1) throw InputError(where + "fc layer needs in >= 1 and out >= 1");
        c.N = l.C;
        c.M = l.K;
        return c;
    }
    if (l.C < 1 || l.K < 1 || l.H < 1 || l.W < 1 || l.R < 1 || l.S < 1 || l.stride_h < 1 || l.stride_w < 1 ||
        l.groups < 1)
        throw InputError(where + "zero-sized conv (C, K, H, W, R, S, stride and groups must be >= 1)");
    if (l.C % l.groups != 0 || l.K % l.groups != 0)
        throw InputError(where + "groups must divide C and K");
    if (l.pad_top < 0 || l.pad_bottom < 0 || l.pad_left < 0 || l.pad_right < 0)
        throw InputError(where + "negative padding");
    if (l.dilation_h < 1 || l.dilation_w < 1) throw InputError(where + "dilation must be >= 1");
    if (l.H + l.pad_top + l.pad_bottom < l.window_h() || l.W + l.pad_left + l.pad_right < l.window_w())
        throw InputError(where + "kernel larger than the padded input (empty output)");
    c.groups = l.groups;
    c.N = l.C / l.groups;
    c.M = l.K / l.groups;
    c.H = l.H;
    c.W = l.W;
    c.R = l.R;
    c.S = l.S;
    c.dilation_h = l.dilation_h;
    c.dilation_w = l.dilation_w;
    c.stride_h = l.stride_h;
    c.stride_w = l.stride_w;
    c.pad_top = l.pad_top;
    c.pad_left = l.pad_left;
    c.P = l.P();
    c.Q = l.Q();
    if (c.P < 1 || c.Q < 1) throw InputError(where + "empty output feature map");
    return c;
}

}  // namespace vp::mapper::tso
