#pragma once
// Convolution without host im2row (the schedule of TVM's VTA conv2d_packed): the activations
// stay in DRAM in the blocked layout [C/BLOCK][H][W][BLOCK] (BATCH = 1), and 2-D strided LOADs
// with y_pad_0/y_pad_1/x_pad_0/x_pad_1 bring one input tile plus its halo into the INP buffer
// (the load module writes the zeros of the padding). Weights are [K/BLOCK][C/BLOCK][R][S]
// blocks, loaded per output-channel block range. Per tile the GEMM micro-ops are indexed by
// input-channel block and kernel position (one micro-op per (c-block, r, s)); the GEMM
// instruction's two loop levels run over the tile's output rows and columns (source factors
// stride_h * tile width and stride_w), one GEMM instruction per output-channel block. The
// accumulator tile is zeroed by a GEMM reset, the bias (one vector per output-channel block)
// is added by an ALU ADD broadcast, then the requantisation of conv_lowering.h; STORE writes
// the blocked output [K/BLOCK][P][Q][BLOCK].
//
// Tiling: output rows TP, columns TQ, output-channel blocks TK, input-channel blocks TC per
// step. The input tile with halo ((TP-1)*stride_h + R) x ((TQ-1)*stride_w + S) x TC vectors,
// the TK*TC*R*S weight blocks and the TP*TQ*TK accumulator vectors (+ TK bias vectors) must fit
// the INP / WGT / ACC buffers; with two virtual threads the INP and WGT halves alternate between
// steps (the ACC tile stays resident over the input-channel steps, as for im2row). The tiling
// with the fewest cycles of a closed-form step model (loads at the DMA port's bytes per cycle
// plus the padding writes, overlapped with the GEMM when double buffered; ALU and store per
// tile) is compiled.
#include <cstdint>
#include <string>
#include <vector>

#include "mapper/vta/compiled_program.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/conv_lowering.h"
#include "mapper/workload/layer.h"

namespace vp::mapper::vta {

struct DirectTiling {
    int tp = 1, tq = 1, tk = 1, tc = 1;  // output rows, output columns, K blocks, C blocks per step
    std::string to_string() const;
};

// True when `l` can be lowered directly: a conv with groups 1 whose padding fits the 4-bit pad
// fields (<= 15). Depthwise / grouped convs and fc layers are lowered by im2row.
bool direct_conv_supported(const Layer& l, std::string* why = nullptr);

// The tiling for `l` on `cfg` (halved INP/WGT when `double_buffer`); throws vp::InputError when
// not even the smallest tile fits.
DirectTiling choose_direct_tiling(const Layer& l, const VtaConfig& cfg, bool double_buffer);

// Compiles `l` (input CHW int8, weights K x C x R x S, bias K) with a given tiling (tiling.tp = 0:
// chosen by choose_direct_tiling). The output is blocked (CompiledProgram::out_blocked): rows
// are the P*Q output positions, columns the K channels, as extract_output returns them.
// Throws vp::InputError when the layer cannot be lowered directly.
CompiledProgram compile_direct_conv(const Layer& l, const std::vector<std::int8_t>& input, const std::vector<std::int8_t>& weights,
                                    const std::vector<std::int32_t>& bias, const Requant& q, const VtaConfig& cfg,
                                    const CompileOptions& opt, DirectTiling tiling = DirectTiling{0, 0, 0, 0});

}  // namespace vp::mapper::vta
