#pragma once
// Matrix partitioning (Compilation and Execution of an Embeddable YOLO-NAS on the VTA §5-6): splits an operation on block
// matrices A (alpha x lambda), B (lambda x beta), X/C (alpha x beta) into steps whose
// operands fit the INP/WGT/ACC/OUT buffers. Every step is a rectangular tile
// [i0,i1) x [j0,j1) x [k0,k1) of the block iteration space; one C tile is resident at a time.
#include <cstdint>
#include <string>
#include <vector>

#include "mapper/vta/vta_config.h"

namespace vp::mapper::vta {

// Buffer capacities in blocks (INP/ACC/OUT block = BLOCK vectors, WGT block = one entry).
struct Capacities {
    int inp = 0, wgt = 0, acc = 0, out = 0;
};
Capacities capacities(const VtaConfig& cfg);

enum class OpCase { Gemm, ScalarGemm, AddAcc, AluOnly };

// Sizes in blocks.
struct BlockShape {
    int alpha = 1, lambda = 1, beta = 1;
};

struct Step {
    int i0 = 0, i1 = 0, j0 = 0, j1 = 0, k0 = 0, k1 = 0;
    bool first = true;  // first contribution to this C tile: load X (or reset) before it
    bool last = true;   // last contribution: apply the ALU ops and store after it
    int th() const { return i1 - i0; }
    int tw() const { return j1 - j0; }
    int tk() const { return k1 - k0; }
};

enum class PartitionKind { Fits = 0, Strategy1 = 1, Strategy2 = 2, Strategy3 = 3, Strategy4 = 4, MulConstant, AddAccChunks, AluColumns };
const char* to_string(PartitionKind k);

struct Partition {
    PartitionKind kind = PartitionKind::Fits;
    std::vector<Step> steps;
};

// Builds the steps. `strategy` 1..4 selects the GEMM strategy used when the operands
// overflow the buffers (0 is not accepted here: the compiler resolves "auto").
// `only_imm_alu`: all ALU ops are vector-scalar (required when a GEMM overflows).
// Throws vp::InputError when the operation cannot be partitioned.
Partition partition(OpCase op, const BlockShape& s, const Capacities& cap, int strategy, bool only_imm_alu);

// The validity constraints of a partition (Compilation and Execution of an Embeddable YOLO-NAS on the VTA §6 as the code maintains them): every
// step fits the buffers; each C block receives every k contribution exactly once; X is
// loaded (first) with its first contribution; C is stored (last) with its last one and never
// touched afterwards; only one C tile is resident. Returns "" when valid, else the violation.
std::string check_partition(OpCase op, const BlockShape& s, const Capacities& cap, const Partition& p);

}  // namespace vp::mapper::vta
