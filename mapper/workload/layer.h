#pragma once
// A CNN layer as the mappers see it. Shapes follow the convention of
// shared/data/shapes: H, W are input sizes before padding; P, Q are output sizes.
#include <cstdint>
#include <string>

namespace vp::mapper {

enum class LayerKind { Conv, FullyConnected, Pool, Eltwise };
enum class PoolOp { Max, Avg };
enum class EltwiseOp { Add, Mul };

const char* to_string(LayerKind k);

struct Layer {
    std::string name;
    LayerKind kind = LayerKind::Conv;
    // Conv / pool: C input channels, K output channels (== C for pool/eltwise).
    int C = 1, K = 1, H = 1, W = 1, R = 1, S = 1;
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    int groups = 1;
    PoolOp pool_op = PoolOp::Max;
    EltwiseOp eltwise_op = EltwiseOp::Add;
    bool relu = false;  // fused activation (used by platforms that execute it)

    int P() const { return (H + pad_top + pad_bottom - R) / stride_h + 1; }
    int Q() const { return (W + pad_left + pad_right - S) / stride_w + 1; }
    bool is_depthwise() const { return kind == LayerKind::Conv && groups == C && groups == K && groups > 1; }
    // Multiply-accumulates of one inference (batch 1). Conv: (C/g)*K*R*S*P*Q; FC: C*K.
    // Pool and element-wise layers do no MACs.
    std::uint64_t macs() const;
    // Tensor sizes in elements.
    std::uint64_t input_elems() const { return std::uint64_t(C) * H * W; }
    std::uint64_t output_elems() const { return std::uint64_t(K) * P() * Q(); }
    std::uint64_t weight_elems() const;
    // A key equal for layers whose mapping problem is identical (name excluded).
    std::string shape_key() const;
};

}  // namespace vp::mapper
