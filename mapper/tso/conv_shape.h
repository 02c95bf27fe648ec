#pragma once
// The convolution as TSO sees it (Tensor Slicing and Optimization for Multicore NPUs symbols in brackets): one group of a
// (possibly grouped) conv. A grouped conv is mapped as `groups` identical sub-convs run one
// after the other on the whole NMP (our choice; the paper has no grouped convs). An FC
// layer is a 1x1 conv on a 1x1 map.
#include <cstdint>
#include <string>

#include "mapper/workload/layer.h"

namespace vp::mapper::tso {

struct ConvShape {
    std::string name;
    int groups = 1;
    int N = 1;          // input channels per group [N]
    int M = 1;          // filters per group [M]
    int H = 1, W = 1;   // input rows / cols before padding [H, L]
    int R = 1, S = 1;   // kernel rows / cols [K x K]: the taps (weights, MACs)
    // Dilation: the taps d apart, so an output's window spans window_h() x window_w() input
    // elements (R, S without dilation); the IN tiles are the windows' extent.
    int dilation_h = 1, dilation_w = 1;
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_left = 0;  // bottom/right padding only enters through P, Q
    int P = 1, Q = 1;   // OFM rows / cols [R, C]
    int elem_bytes = 2; // [type]

    int window_h() const { return (R - 1) * dilation_h + 1; }
    int window_w() const { return (S - 1) * dilation_w + 1; }

    std::uint64_t macs() const {
        return std::uint64_t(groups) * M * N * std::uint64_t(R) * S * std::uint64_t(P) * Q;
    }
};

// True for layers TSO maps (conv and fc).
bool is_tso_layer(const Layer& l);

// Throws vp::InputError for zero-sized or degenerate layers and unsupported kinds.
ConvShape make_conv_shape(const Layer& l, int elem_bytes);

}  // namespace vp::mapper::tso
