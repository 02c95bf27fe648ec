#pragma once
// VTA instruction set: opcodes, decoded instruction and micro-op structs, and the
// config-derived bit layout used to encode/decode them (vta_isa.md §2, hw_spec.h).
#include <array>
#include <cstdint>
#include <string>

#include "mapper/vta/vta_config.h"

namespace vp::mapper::vta {

enum class Opcode : std::uint8_t { Load = 0, Store = 1, Gemm = 2, Finish = 3, Alu = 4 };
enum class MemId : std::uint8_t { Uop = 0, Wgt = 1, Inp = 2, Acc = 3, Out = 4, Acc8Bit = 5 };
enum class AluOp : std::uint8_t { Min = 0, Max = 1, Add = 2, Shr = 3, Mul = 4 };

const char* to_string(Opcode op);
const char* to_string(MemId id);
const char* to_string(AluOp op);

// The four dependency flags common to every instruction (bits 3..6).
struct DepFlags {
    bool pop_prev = false, pop_next = false, push_prev = false, push_next = false;
    bool operator==(const DepFlags& o) const {
        return pop_prev == o.pop_prev && pop_next == o.pop_next && push_prev == o.push_prev && push_next == o.push_next;
    }
};

// A decoded instruction. Which members are meaningful depends on `opcode`:
// Load/Store: mem_*; Gemm: reset + loop; Alu: loop + alu_*; Finish: deps only.
struct Insn {
    Opcode opcode = Opcode::Finish;
    DepFlags dep;
    // memory instruction (VTAMemInsn)
    MemId mem_type = MemId::Uop;
    std::uint32_t sram_base = 0, dram_base = 0;
    std::uint32_t y_size = 0, x_size = 0, x_stride = 0;
    std::uint32_t y_pad0 = 0, y_pad1 = 0, x_pad0 = 0, x_pad1 = 0;
    // GEMM / ALU (VTAGemInsn / VTAAluInsn)
    bool reset = false;
    std::uint32_t uop_bgn = 0, uop_end = 0, iter_out = 0, iter_in = 0;
    std::uint32_t dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0;
    std::uint32_t wgt_factor_out = 0, wgt_factor_in = 0;
    AluOp alu_op = AluOp::Min;
    bool use_imm = false;
    std::int32_t imm = 0;  // int16 field, sign-extended

    bool operator==(const Insn& o) const;
    std::string to_string() const;  // one-line human-readable form (errors, traces)
};

// SRAM entries a LOAD zero-fills for its padding (y_pad rows of the padded width, x_pad
// entries per data row). The load module writes them one entry per cycle before and between
// its data rows (tvm-vta TensorLoad's pad states, the HLS load module's reset_mem loops).
inline std::uint64_t load_pad_elems(const Insn& in) {
    if (in.opcode != Opcode::Load || in.x_size == 0) return 0;
    const std::uint64_t xt = std::uint64_t(in.x_pad0) + in.x_size + in.x_pad1;
    return xt * (std::uint64_t(in.y_pad0) + in.y_pad1) + std::uint64_t(in.y_size) * (in.x_pad0 + in.x_pad1);
}

// A 128-bit instruction word, little-endian: w[0] = bits 63..0, w[1] = bits 127..64.
struct InsnWord {
    std::array<std::uint64_t, 2> w{0, 0};
    bool operator==(const InsnWord& o) const { return w == o.w; }
};

struct Uop {
    std::uint32_t dst = 0, src = 0, wgt = 0;
    bool operator==(const Uop& o) const { return dst == o.dst && src == o.src && wgt == o.wgt; }
};

// A field: 64-bit word (0: bits 63..0, 1: bits 127..64), bit offset inside it, and width.
struct Field {
    int word = 0, offset = 0, width = 0;
    int end() const { return offset + width; }
};

// Bit positions of every field, derived from a VtaConfig: the positions a C compiler gives
// the bit-fields of VTA's hw_spec.h structs (VTAMemInsn, VTAGemInsn, VTAAluInsn of uint64_t,
// VTAUop of uint32_t; apache/tvm-vta include/vta/hw_spec.h) under the System V ABI. Fields
// are packed in declaration order and none straddles a 64-bit (32-bit for micro-ops) unit, so
// gaps and word boundaries move with the LOG_* configuration.
class InsnLayout {
public:
    explicit InsnLayout(const VtaConfig& cfg);

    // Fixed-width fields (hw_spec_const.h).
    static constexpr int kOpcodeBits = 3, kMemIdBits = 3, kSramAddrBits = 16, kDramAddrBits = 32;
    static constexpr int kSizeBits = 16, kStrideBits = 16, kPadBits = 4, kLoopIterBits = 14;
    static constexpr int kAluOpBits = 3, kAluImmBits = 16;

    // Encoders throw vp::InputError when a value does not fit its field (names the field).
    InsnWord encode(const Insn& insn) const;
    Insn decode(const InsnWord& word) const;  // throws vp::InputError on an unknown opcode
    std::uint32_t encode(const Uop& uop) const;
    Uop decode_uop(std::uint32_t word) const;

    bool fits(std::string* why) const;  // every field inside its 64/32-bit word

    // Field positions (exposed for tests against the default-layout table).
    Field opcode, pop_prev, pop_next, push_prev, push_next;
    Field mem_type, sram_base, dram_base, y_size, x_size, x_stride, y_pad0, y_pad1, x_pad0, x_pad1;
    Field reset, uop_bgn, uop_end, iter_out, iter_in;
    Field dst_factor_out, dst_factor_in, src_factor_out, src_factor_in, wgt_factor_out, wgt_factor_in;
    Field alu_src_factor_out, alu_src_factor_in, alu_opcode, use_imm, imm;
    Field uop_dst, uop_src, uop_wgt;  // word 0 of a 32-bit micro-op
};

}  // namespace vp::mapper::vta
