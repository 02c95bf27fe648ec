#pragma once
// A CNN layer as the mappers see it. Shapes follow the convention of the layer-shape tables
// (workloads/*.json): H, W are input sizes before padding; P, Q are output sizes.
#include <cstdint>
#include <string>
#include <vector>

namespace vp::mapper {

// Conv and fc do MACs; the other kinds move or transform data without MACs.
// DepthToSpace and SpaceToDepth move elements between the channels and b x b blocks of positions
// (ONNX's operators of those names: YOLOv2's reorg, the pixel shuffle of super-resolution networks).
enum class LayerKind { Conv, FullyConnected, Pool, Eltwise, Concat, Slice, Resize, Activation, BatchNorm, Pad, LayerNorm, Lrn,
                       DepthToSpace, SpaceToDepth };
enum class PoolOp { Max, Avg };
enum class EltwiseOp { Add, Mul };
// Pad: what the added border holds (ONNX Pad's mode): a constant (`pad_value`, 0 unless the workload
// says), the mirror image without the edge (reflect), or the edge repeated.
enum class PadMode { Constant, Reflect, Edge };
enum class ResizeMode { Nearest, Linear };
// Resize: how an output coordinate maps to an input one (ONNX Resize's coordinate_transformation_mode;
// Unknown when the workload does not say) and how a nearest resize rounds it (ONNX's nearest_mode).
enum class ResizeCoord { Unknown, HalfPixel, PytorchHalfPixel, AlignCorners, Asymmetric, TfHalfPixelForNn };
enum class NearestRound { Unknown, RoundPreferFloor, RoundPreferCeil, Floor, Ceil };
// Softmax and layernorm: the axes they normalise over, in the layer's C x H x W (Unknown when the
// workload does not say): one axis (ONNX's Softmax from opset 13; a LayerNormalization over the
// channels of a channels-last map), or the trailing axes from one on (Softmax before opset 13,
// LayerNormalization, InstanceNormalization's H x W).
enum class SoftmaxAxis { Unknown, C, H, W, HW, CHW };
// Activation of an Activation layer, or fused after a conv / fc / eltwise layer.
// Relu6 is Clip(0, 6); Clip any other bounds. Erf is the error function (the core of an exported GELU,
// x * (1 + erf(x / sqrt 2)) / 2, whose other operations are eltwise layers). Softplus is log(1 + e^x)
// (with Tanh and a Mul, an exported Mish); Elu is x for x >= 0, alpha (e^x - 1) below.
enum class Activation { None, Relu, Relu6, Clip, LeakyRelu, Sigmoid, HardSigmoid, HardSwish, Softmax, Erf, Tanh, Softplus, Elu };

const char* to_string(LayerKind k);
const char* to_string(Activation a);
const char* to_string(ResizeCoord c);
const char* to_string(NearestRound r);
// The inverse of to_string: Unknown for a name that is none of the values.
ResizeCoord resize_coord_of(const std::string& s);
NearestRound nearest_round_of(const std::string& s);
const char* to_string(SoftmaxAxis a);
const char* to_string(PadMode m);
SoftmaxAxis softmax_axis_of(const std::string& s);

struct Layer {
    static constexpr int kNetInput = -1;  // producer index of the network input

    std::string name;
    LayerKind kind = LayerKind::Conv;
    // C input channels, K output channels (== C for pool, eltwise, activation, batchnorm,
    // resize, pad; the sum of the producers' channels for concat; the slice width for slice).
    int C = 1, K = 1, H = 1, W = 1, R = 1, S = 1;
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    int groups = 1;
    PoolOp pool_op = PoolOp::Max;
    // Average pool with padding: whether padded positions count in a window's divisor (ONNX's
    // count_include_pad), when the workload says (`count_include_pad`; the VTA host needs it).
    bool has_count_include_pad = false, count_include_pad = false;
    EltwiseOp eltwise_op = EltwiseOp::Add;
    // Fused activation after a conv / fc / eltwise layer (the operation itself for an Activation
    // layer). `relu` is the lower clamp at zero that the value-computing platforms apply: true for
    // Relu and Relu6 (the upper clamp of Relu6 needs quantisation scales the int8 platforms do
    // not have), false otherwise.
    bool relu = false;
    Activation act = Activation::None;
    // LeakyRelu: the slope for x < 0, when the workload gives it (`alpha`; an imported LeakyRelu
    // always does, with ONNX's default 0.01 when the node has none). HardSigmoid: max(0, min(1,
    // alpha x + beta)), `alpha` and `beta` given together (an imported HardSigmoid always has them,
    // with ONNX's defaults 0.2 and 0.5). The shape platforms do not need them; the VTA host refuses
    // a leaky relu or hard sigmoid without them rather than assume any.
    // Elu: its alpha, as LeakyRelu's. Lrn (local response normalisation, ONNX LRN):
    // x / (bias + alpha / size * (sum of x^2 over `size` neighbouring channels))^beta, with
    // `alpha`, `beta`, `lrn_bias` and `lrn_size` always given.
    bool has_alpha = false;
    double alpha = 0.0;
    double beta = 0.0;  // HardSigmoid and Lrn only (with has_alpha)
    double lrn_bias = 1.0;
    int lrn_size = 1;
    // Clip: its bounds, when the workload gives them (`clip`: [min, max], null for none; an imported
    // Clip always does). -inf / inf for a missing bound. The VTA host refuses a clip without them.
    bool has_clip = false;
    double clip_lo = 0.0, clip_hi = 0.0;
    SoftmaxAxis softmax_axis = SoftmaxAxis::Unknown;  // Softmax: "axis" (the VTA host needs it)
    // LayerNorm: the axes whose elements share a mean and deviation ("axis"), and the epsilon added
    // to the variance ("epsilon", > 0), when the workload gives them (vp-import always does); the
    // shape platforms do not need them, the VTA host refuses the layer without both.
    SoftmaxAxis norm_axis = SoftmaxAxis::Unknown;
    double norm_eps = 0.0;  // 0: not given
    int out_h = 0, out_w = 0;  // Resize, DepthToSpace, SpaceToDepth: output size
    // DepthToSpace, SpaceToDepth: the block size b (K = C / b^2, out H b x W b; or K = C b^2, out H / b
    // x W / b). DepthToSpace's channel order: `crd` (ONNX's CRD mode: channel c' b^2 + i b + j goes to
    // block position (i, j) of output channel c'), else DCR (channel (i b + j) K + c').
    int block = 1;
    bool crd = false;
    ResizeMode resize_mode = ResizeMode::Nearest;
    ResizeCoord resize_coord = ResizeCoord::Unknown;      // Resize: "coord" (the VTA host needs it)
    NearestRound nearest_round = NearestRound::Unknown;   // nearest Resize: "nearest"
    // Concat: the axis its producers are joined along (C, H or W of the layer's C x H x W; `axis`,
    // C when the workload does not say). Slice: the axis it selects along; the selected positions
    // are offset, offset + slice_step, ... (K of them along C; out_h along H, out_w along W, K = C).
    SoftmaxAxis data_axis = SoftmaxAxis::C;
    int offset = 0;            // Slice: first selected position along data_axis
    int slice_step = 1;        // Slice: distance between selected positions
    PadMode pad_mode = PadMode::Constant;  // Pad: "mode"
    double pad_value = 0.0;                // Pad, constant mode: "value"
    // Conv: the input is the producer's output with z - 1 zeros inserted between neighbouring
    // elements (a transposed convolution as its equivalent convolution); H, W count the zeros.
    int zero_insert_h = 1, zero_insert_w = 1;
    // Conv: a dilated kernel, its taps d apart (ONNX `dilations`): the window spans
    // (R - 1) d + 1 input rows and (S - 1) d + 1 columns; R, S count the taps (MACs, weights).
    int dilation_h = 1, dilation_w = 1;
    // Producers of the operands, in operand order: earlier layer indices or kNetInput. Empty when
    // the workload does not give them (the layer list is then read as a chain where shapes match).
    std::vector<int> inputs;

    // The window's extent in input rows / columns: (R - 1) dilation + 1 (R, S without dilation).
    int window_h() const { return (R - 1) * dilation_h + 1; }
    int window_w() const { return (S - 1) * dilation_w + 1; }
    bool sized_output() const {
        return kind == LayerKind::Resize || kind == LayerKind::DepthToSpace || kind == LayerKind::SpaceToDepth ||
               (kind == LayerKind::Slice && data_axis != SoftmaxAxis::C);
    }
    int P() const { return sized_output() ? out_h : (H + pad_top + pad_bottom - window_h()) / stride_h + 1; }
    int Q() const { return sized_output() ? out_w : (W + pad_left + pad_right - window_w()) / stride_w + 1; }
    bool is_depthwise() const { return kind == LayerKind::Conv && groups == C && groups == K && groups > 1; }
    bool has_macs() const { return kind == LayerKind::Conv || kind == LayerKind::FullyConnected; }
    // Multiply-accumulates of one inference (batch 1). Conv: (C/g)*K*R*S*P*Q; FC: C*K.
    // The other kinds do no MACs.
    std::uint64_t macs() const;
    // Tensor sizes in elements (fc: C inputs, K outputs).
    std::uint64_t input_elems() const;
    std::uint64_t output_elems() const;
    // Elements read from the producer(s): input_elems() without inserted zeros.
    std::uint64_t consumed_elems() const;
    std::uint64_t weight_elems() const;
    // A key equal for layers whose mapping problem is identical (name and producers excluded).
    std::string shape_key() const;
};

// DepthToSpace / SpaceToDepth: K, out_h and out_w from the layer's kind, C, H, W and block. Returns ""
// or, when C is not a multiple of block^2 (depth_to_space) or the map not a multiple of the block
// (space_to_depth), what is wrong (the layer's output size is then left as it was).
std::string set_space_depth_shape(Layer& l);

// Slice: the output extent from the count of positions taken along data_axis (K along C, out_h
// along H, out_w along W; the other extents the input's). Returns "" or, when the positions offset,
// offset + slice_step, ... run past the axis (or count < 1), what is wrong (nothing set then).
std::string set_slice_count(Layer& l, std::int64_t count);
// Concat along H (W): the elements of one row (column) of the output, C W (C H); each producer
// gives a whole number of them. 1 along C.
std::uint64_t concat_section(const Layer& l);

}  // namespace vp::mapper
