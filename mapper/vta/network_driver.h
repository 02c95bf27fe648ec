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

struct LayerData {
    std::vector<std::int8_t> weights;   // conv: K x C/groups x R x S; fc: K x C
    std::vector<std::int32_t> bias;     // K (batchnorm: the offset per channel)
    std::vector<std::int32_t> scale;    // batchnorm: the multiplier per channel (C)
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
    // Concat, slice, zero pad, nearest resize, and relu / relu6 / leaky_relu and batchnorm layers
    // of their own (not fused into a conv): what the host computes between programs (no VTA program;
    // their bytes are charged to the next program's host time).
    static bool is_host_layer(const Layer& l);
    void run_host_layer(std::size_t i);
    std::uint64_t m_carry_bytes = 0;
    const std::vector<std::int8_t>& operand(std::size_t i, std::size_t k) const;

    NetGraph m_g;
    VtaConfig m_cfg;
    DriverOptions m_opt;
    std::vector<std::int8_t> m_input;
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
