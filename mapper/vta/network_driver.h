#pragma once
// Runs a network on the VTA as a sequence of VTA programs and host steps (Compilation and Execution of an Embeddable YOLO-NAS on the VTA, its listings,
// Compilation and Execution of an Embeddable YOLO-NAS on the VTA Listing 21): for each layer the host builds the IR program(s) from the int8 CHW
// tensors produced so far (im2row, weight packing, widening), compiles them, and after each
// program reshapes the stored [rows, channels] result back to CHW. The driver is a generator:
// next() returns the next compiled program (its inputs must be complete), complete() hands the
// stored bytes back. The same driver serves the untimed executor and the SystemC host.
//
// Lowering per layer: conv (groups 1) / fc -> one im2row GEMM program + requantisation;
// grouped / depthwise conv -> per-group programs, BLOCK/(K/groups) groups packed per program
// with block-diagonal weights (layer_lowering.h); max / avg pool -> ALU-only programs (windows
// gathered by the host when they overlap, reach into padding or the map exceeds the
// accumulator, in bands of output rows that fit it);
// eltwise add -> ADD_ACC + clamp; concat, slice, zero pad, nearest resize by integer factors ->
// host copies between programs (no program). Weights, biases and generated inputs come from the seed
// (std::mt19937_64) or from raw files named by the graph.
//
// Requantisation (assumption, no trained scales exist for these workloads): per layer the
// scale s = 32 / (sqrt(Kd) * rms(x) * rms(w)) that maps the accumulator standard deviation to
// about 32 is written as mul / 2^shift with 16 <= mul <= 32767 where possible, shift <= 15.
//
// Host time model (assumption): host_ns_per_program + host_ns_per_byte * (bytes of the program
// image the host writes + output bytes it reads back and reshapes).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mapper/vta/compiled_program.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/conv_lowering.h"
#include "mapper/vta/cycle_estimate.h"
#include "mapper/vta/net_graph.h"
#include "mapper/vta/vta_config.h"

namespace vp::mapper::vta {

struct DriverOptions {
    static constexpr double kHostNsPerByte = 1.0;        // ns/byte: ~1 GB/s host copy + reshape (assumption: pynq Cortex-A9)
    static constexpr double kHostNsPerProgram = 2000.0;  // ns per program: driver call, cache flush, launch (assumption)
    static constexpr std::uint64_t kDramBase = 0x100000; // byte address of every program image (one program at a time)
    std::uint64_t seed = 1;
    int strategy = 0;            // 1..4, 0 = auto (fewest estimated cycles)
    bool double_buffer = true;   // two virtual threads (compiler.h), single buffering when false
    // Convolutions (groups 1): im2row on the host (conv_lowering.h), direct, without im2row
    // (direct_conv.h: blocked activations, padded 2-D LOADs), or auto (the default): per layer
    // both, the one with fewer estimated cycles (ties: direct). Depthwise / grouped convs, fc
    // layers and convs whose padding the LOAD fields cannot express use im2row in every mode.
    enum class ConvLowering { Im2row, Direct, Auto };
    ConvLowering conv_lowering = ConvLowering::Auto;
    std::uint64_t dram_base = kDramBase;
    double host_ns_per_byte = kHostNsPerByte;
    double host_ns_per_program = kHostNsPerProgram;
    // Estimate of STRATEGY auto and of the reports: model name (cycle_estimate.h), its
    // calibration file (vp-calibrate; relative to the config; "none": `coefficients`).
    std::string estimate_model = "calibrated";
    std::string calibration = "none";
    VtaCoefficients coefficients;
    EstimateParams estimate;     // resolved by the platform (model, hardware figures, coefficients)
    // Per layer (network order) a strategy that overrides `strategy` (0: none); set by the
    // refinement (--refine K), never read from YAML.
    std::vector<int> layer_strategy;
    // Per layer (network order) a lowering that overrides `conv_lowering` (Auto: none); set by
    // the refinement, never read from YAML.
    std::vector<ConvLowering> layer_lowering;
    void validate(const std::string& prefix) const;
    int strategy_of(std::size_t layer) const {
        return layer < layer_strategy.size() && layer_strategy[layer] > 0 ? layer_strategy[layer] : strategy;
    }
    ConvLowering lowering_of(std::size_t layer) const {
        return layer < layer_lowering.size() && layer_lowering[layer] != ConvLowering::Auto ? layer_lowering[layer]
                                                                                           : conv_lowering;
    }
};

// Everything generated for one layer (the independent reference in the tests uses it as data).
// A batchnorm layer the host runs: per channel c, y = clamp(((x scale[c] + 2^(kBnShift - 1)) >>
// kBnShift) + bias[c]), the lower bound 0 with a fused relu / relu6, else -128; the upper 127.
// The int8 workloads carry no batchnorm statistics, so scale (64-191, 0.5-1.5 in steps of 1/128)
// and bias (-16..16) are generated from the seed, as a conv layer's weights are.
constexpr int kBnShift = 7;

// leaky_relu on the host (an act layer, or fused after a conv / fc / eltwise add, applied to the
// program's int8 output): x for x >= 0, else clamp((x m + 2^(kLeakyShift - 1)) >> kLeakyShift) with
// m = leaky_multiplier(alpha) = round(alpha 2^kLeakyShift).
constexpr int kLeakyShift = 15;
std::int64_t leaky_multiplier(double alpha);
std::int8_t leaky_int8(std::int8_t x, std::int64_t m);

// The host's nonlinear activations and eltwise multiply. The int8 workloads carry no quantisation
// scales, so one fixed-point convention is assumed: an activation v stands for v / 2^kActFrac
// (-8 .. 7.94), and a gate (the output of sigmoid or hard_sigmoid, in [0, 1]) for g / 2^kGateFrac.
//   sigmoid:      clamp(round(2^kGateFrac / (1 + exp(-v / 2^kActFrac))), 0, 127)
//   hard_sigmoid: clamp((v A + B + 2^(kHardShift - 1)) >> kHardShift, 0, 127) with
//                 A = round(alpha 2^(kHardShift + kGateFrac - kActFrac)), B = round(beta 2^(kHardShift + kGateFrac))
//   hard_swish:   x hard_sigmoid(x) with ONNX's alpha 1/6, beta 1/2: the gate g as hard_sigmoid's but
//                 clamped to [0, 2^kGateFrac] (1 passes x), then clamp((v g + 2^(kGateFrac - 1)) >> kGateFrac)
//   tanh:         clamp(round(2^kGateFrac tanh(v / 2^kActFrac))), a gate in [-1, 1) (Mish multiplies
//                 x by tanh(softplus(x)) as SiLU by a sigmoid)
//   erf:          clamp(round(2^kGateFrac erf(v / 2^kActFrac))), a gate in [-1, 1) (an exported GELU,
//                 x (1 + erf(x / sqrt 2)) / 2, keeps its other operations as eltwise layers)
//   softplus:     clamp(round(2^kActFrac log(1 + exp(v / 2^kActFrac)))), an activation
//   elu:          v for v >= 0, else clamp(round(2^kActFrac alpha (exp(v / 2^kActFrac) - 1))), an activation
//   clip:         clamp(v, round(2^kActFrac min), round(2^kActFrac max)) (a missing bound: -128 or 127), which
//                 is the clipped value v / 2^kActFrac rounded to the activation grid
//   eltwise mul:  clamp((a b + 2^(kGateFrac - 1)) >> kGateFrac), the lower bound 0 with a fused relu:
//                 a gate of 127 passes its other operand as x 127/128 (SiLU, squeeze-and-excitation)
//   lrn:          clamp(round(v / (bias + alpha / size * s / 2^(2 kActFrac))^beta)), an activation, with s
//                 the sum of the squares of the activations of channels c - floor((size - 1) / 2) ..
//                 c + ceil((size - 1) / 2) (those inside 0 .. C - 1) at the same position (ONNX LRN)
// with >> an arithmetic shift (floor), round() halves away from zero, and clamps to [-128, 127]
// unless given.
constexpr int kActFrac = 4, kGateFrac = 7, kHardShift = 15;
std::int8_t sigmoid_int8(std::int8_t v);
struct HardSigmoidInt {
    std::int64_t a = 0, b = 0;
};
HardSigmoidInt hard_sigmoid_multipliers(double alpha, double beta);
std::int8_t hard_sigmoid_int8(std::int8_t v, const HardSigmoidInt& m);
std::int8_t hard_swish_int8(std::int8_t v);
std::int8_t mul_int8(std::int8_t a, std::int8_t b, bool relu);
std::int8_t tanh_int8(std::int8_t v);
std::int8_t erf_int8(std::int8_t v);
std::int8_t softplus_int8(std::int8_t v);
std::int8_t elu_int8(std::int8_t v, double alpha);
// Softmax on the host over a C x H x W int8 tensor (CHW): per group of the elements `axis` spans,
// with m the group's largest activation, g = clamp(round(2^kGateFrac exp((v - m) / 2^kActFrac) / (the
// group's sum of exp((v_j - m) / 2^kActFrac))), 0, 127), a gate (a probability at 1/128).
std::vector<std::int8_t> softmax_int8(const std::vector<std::int8_t>& in, int C, int H, int W, SoftmaxAxis axis);
// Layer normalisation on the host over a C x H x W int8 tensor (CHW): per group of the elements `axis`
// spans (n of them, activations v with sum S and sum of squares Q), every element becomes
//   t = clamp(round(2^kActFrac (n v - S) / sqrt(n Q - S^2 + 2^(2 kActFrac) eps n^2)))
// i.e. (x - mean) / sqrt(var + eps) of the values x = v / 2^kActFrac, an activation; then, per
// channel c, the batchnorm's affine step clamp(((t scale[c] + 2^(kBnShift - 1)) >> kBnShift) +
// bias[c]) (ONNX's scale and shift; the int8 workloads carry none, so they are generated from the
// seed as a batchnorm's are). `normalise_int8` is the first step alone.
std::vector<std::int8_t> normalise_int8(const std::vector<std::int8_t>& in, int C, int H, int W, SoftmaxAxis axis, double eps);
std::vector<std::int8_t> layernorm_int8(const std::vector<std::int8_t>& in, int C, int H, int W, SoftmaxAxis axis, double eps,
                                        const std::vector<std::int32_t>& scale, const std::vector<std::int32_t>& bias);
// depth_to_space and space_to_depth on the host (copies): element (c, y, x) of the map with fewer
// channels (depth_to_space's output, space_to_depth's input; `shallow_channels` of them) is at (y / b,
// x / b) of channel space_depth_channel(c, y % b, x % b) of the other: (i b + j) shallow_channels + c
// (ONNX's DCR mode, and SpaceToDepth), or (c b + i) b + j (DepthToSpace's CRD mode).
int space_depth_channel(int c, int i, int j, int shallow_channels, int b, bool crd);
// A pad layer on the host: the input coordinate an output coordinate i (counted from the first
// input element; negative in the leading border) copies along an axis of n elements, or -1 for the
// constant. Reflect mirrors without repeating the edge (ONNX's and numpy's reflect: a border wider
// than n - 1 reflects again), edge repeats the edge element. The constant is `value` on the
// activation grid, clamp(round(2^kActFrac value)) (0 unless the workload gives one).
int pad_source(int i, int n, PadMode mode);
std::int8_t pad_constant_int8(double value);
// LRN on the host over a C x HW int8 tensor (CHW), the formula above.
std::vector<std::int8_t> lrn_int8(const std::vector<std::int8_t>& in, int C, std::size_t HW, int size, double alpha, double beta,
                                  double bias);
// Activations the host applies to a layer's int8 output (an act layer, or fused after a conv / fc /
// eltwise): leaky_relu, sigmoid, hard_sigmoid, hard_swish, tanh, erf, softplus, elu, clip; relu and
// relu6 are the lower clamp at 0. False for none, and for softmax, which the host runs as an act layer
// of its own (softmax_int8).
bool host_activation(Activation a);
// The activation of `l` as a table over the 256 int8 inputs (index v + 128).
std::array<std::int8_t, 256> activation_table(const Layer& l);
// Resize on the host (ONNX Resize on the two spatial axes, nearest or linear). Per axis, output
// index p of P maps to the input coordinate s = num / den, exact in integers, by the layer's
// coordinate mode (ONNX's coordinate_transformation_mode):
//   half_pixel, and pytorch_half_pixel with P > 1: ((2p + 1) H - P) / 2P (pytorch_half_pixel, P = 1: 0)
//   align_corners: p (H - 1) / (P - 1) (0 when P = 1); asymmetric: p H / P; tf_half_pixel_for_nn: (2p + 1) H / 2P
// nearest: the index by the layer's rounding (round_prefer_floor ceil(s - 1/2), round_prefer_ceil
//   floor(s + 1/2), floor, ceil), clamped to [0, H - 1]. Without a coordinate mode or rounding, a
//   nearest resize by integer factors f reads floor(p / f) (what half_pixel / round_prefer_floor and
//   asymmetric / floor both give) and any other is refused.
// linear: s clamped to >= 0, i0 = min(floor(s), H - 1), i1 = min(floor(s) + 1, H - 1), the weight of
//   i1 w1 = round(2^7 (s - floor(s))) (halves up), of i0 2^7 - w1; the output is (the sum of the four
//   inputs times their row and column weights + 2^13) >> 14.
struct ResizeTap {
    int i0 = 0, i1 = 0, w1 = 0;  // nearest: i0 only
};
std::vector<ResizeTap> resize_taps(const Layer& l, bool rows);

// A transposed convolution's input (zero_insert z > 1): the producer's C x ((H - 1) / z_h + 1) x
// ((W - 1) / z_w + 1) output with z - 1 zeros between neighbours, C x H x W.
std::vector<std::int8_t> zero_inserted(const Layer& l, const std::vector<std::int8_t>& in);

// Element j of a C x H x W eltwise output reads element broadcast_index(...) of an operand of
// `elems` elements: the same shape, one scalar, one value per channel (C x 1 x 1) or per position
// (1 x H x W). -1 when the operand is none of these or ambiguous (C == H W).
std::int64_t broadcast_index(std::uint64_t elems, int C, std::uint64_t HW, std::uint64_t j);

struct LayerData {
    std::vector<std::int8_t> weights;   // conv: K x C/groups x R x S; fc: K x C
    std::vector<std::int32_t> bias;     // K (batchnorm, layernorm: the offset per channel)
    std::vector<std::int32_t> scale;    // batchnorm, layernorm: the multiplier per channel (C)
    Requant requant;
    std::vector<std::vector<std::int8_t>> generated;  // per operand: the generated tensor (empty if produced)
};

struct ProgramJob {
    std::size_t layer = 0;
    int part = 0, parts = 1;        // program index within the layer
    int ch0 = 0;                    // first output channel this program produces
    std::size_t row0 = 0;           // first output position (p * Q + q) it produces (pooling bands)
    std::size_t rows = 0;           // output positions it produces (0: all of the layer's)
    CompiledProgram prog;
    std::uint64_t host_bytes = 0;   // bytes the host moves for this program
    double host_ns = 0;             // host time charged before (prepare) and after (read back) it
};

class NetworkDriver {
public:
    NetworkDriver(NetGraph g, const VtaConfig& cfg, const DriverOptions& opt);

    // Builds and compiles the next program; false when every layer is done.
    bool next(ProgramJob& job);
    // The stored output of `job` (CompiledProgram::extract_output order).
    void complete(const ProgramJob& job, const std::vector<std::int8_t>& stored);

    const NetGraph& graph() const { return m_g; }
    const std::vector<std::int8_t>& input() const { return m_input; }
    const std::vector<std::int8_t>& output(std::size_t layer) const { return m_out[layer]; }
    const LayerData& data(std::size_t layer) const { return m_data[layer]; }
    bool layer_done(std::size_t layer) const { return m_done[layer]; }
    // Layers whose output no other layer consumes (the network outputs), in order.
    std::vector<std::size_t> output_layers() const;
    // Programs a layer needs (known before it runs; 0 for a host layer).
    int parts(std::size_t layer) const;
    std::size_t programs_total() const;

private:
    // next() for layer m_layer, which is not a host layer.
    bool next_program(ProgramJob& job);
    void prepare_layer(std::size_t i);
    // Compiles conv layer `l` (job.layer) without im2row into job.prog; false when no tiling fits.
    bool try_direct(const Layer& l, const LayerData& d, const CompileOptions& co, ProgramJob& job);
    // Output rows per program of a pooling layer lowered as window gathers in bands (0: the
    // whole map fits one in-place program).
    int pool_band(const Layer& l) const;
    // A pooling layer one output row of whose windows exceeds the accumulator (a global pool over a
    // large map): the host computes it with the VTA's arithmetic (lower_avgpool's multiplier and shift).
    bool pool_on_host(const Layer& l) const;
    // Concat, slice, zero pad, nearest resize, activation and batchnorm layers of their own (not
    // fused into a conv), eltwise mul, and eltwise add with a broadcast operand: what the host
    // computes between programs (no VTA program; their bytes are charged to the next program's
    // host time).
    bool is_host_layer(std::size_t i) const;
    // Elements of producer s (a layer, or the network input; not kGenerated).
    std::uint64_t producer_elems(int s) const;
    void run_host_layer(std::size_t i);
    // A batchnorm's or layernorm's per-channel scale and bias (kBnShift's comment), from the seed.
    const LayerData& generate_affine(std::size_t i);
    std::uint64_t m_carry_bytes = 0;
    const std::vector<std::int8_t>& operand(std::size_t i, std::size_t k) const;

    NetGraph m_g;
    VtaConfig m_cfg;
    DriverOptions m_opt;
    std::vector<std::int8_t> m_input;
    // Elements of the network input: what the first layer reads (a first concat reads it once per
    // operand, every operand being the input).
    std::uint64_t m_input_elems = 0;
    std::vector<std::vector<std::int8_t>> m_out;
    std::vector<LayerData> m_data;
    std::vector<bool> m_done, m_prepared;
    std::vector<int> m_parts_done;
    std::size_t m_layer = 0;  // next layer to issue
    int m_part = 0;           // next part of m_layer
};

// Runs every program with the untimed executor (run_functional). Returns the per-program jobs
// without their images (stats, partition) when `jobs` is non-null.
void run_network_functional(NetworkDriver& d, std::vector<ProgramJob>* jobs = nullptr);

}  // namespace vp::mapper::vta
