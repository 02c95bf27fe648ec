#include "mapper/vta/isa.h"

#include <algorithm>
#include <sstream>

#include "mapper/common/errors.h"

namespace vp::mapper::vta {

const char* to_string(Opcode op) {
    switch (op) {
        case Opcode::Load: return "LOAD";
        case Opcode::Store: return "STORE";
        case Opcode::Gemm: return "GEMM";
        case Opcode::Finish: return "FINISH";
        case Opcode::Alu: return "ALU";
    }
    return "?";
}
const char* to_string(MemId id) {
    switch (id) {
        case MemId::Uop: return "UOP";
        case MemId::Wgt: return "WGT";
        case MemId::Inp: return "INP";
        case MemId::Acc: return "ACC";
        case MemId::Out: return "OUT";
        case MemId::Acc8Bit: return "ACC_8BIT";
    }
    return "?";
}
const char* to_string(AluOp op) {
    switch (op) {
        case AluOp::Min: return "MIN";
        case AluOp::Max: return "MAX";
        case AluOp::Add: return "ADD";
        case AluOp::Shr: return "SHR";
        case AluOp::Mul: return "MUL";
    }
    return "?";
}

bool Insn::operator==(const Insn& o) const {
    if (opcode != o.opcode || !(dep == o.dep)) return false;
    switch (opcode) {
        case Opcode::Load:
        case Opcode::Store:
            return mem_type == o.mem_type && sram_base == o.sram_base && dram_base == o.dram_base &&
                   y_size == o.y_size && x_size == o.x_size && x_stride == o.x_stride && y_pad0 == o.y_pad0 &&
                   y_pad1 == o.y_pad1 && x_pad0 == o.x_pad0 && x_pad1 == o.x_pad1;
        case Opcode::Gemm:
        case Opcode::Alu: {
            bool same = reset == o.reset && uop_bgn == o.uop_bgn && uop_end == o.uop_end && iter_out == o.iter_out &&
                        iter_in == o.iter_in && dst_factor_out == o.dst_factor_out &&
                        dst_factor_in == o.dst_factor_in && src_factor_out == o.src_factor_out &&
                        src_factor_in == o.src_factor_in;
            if (opcode == Opcode::Gemm) return same && wgt_factor_out == o.wgt_factor_out && wgt_factor_in == o.wgt_factor_in;
            return same && alu_op == o.alu_op && use_imm == o.use_imm && imm == o.imm;
        }
        case Opcode::Finish: return true;
    }
    return false;
}

std::string Insn::to_string() const {
    std::ostringstream s;
    s << vta::to_string(opcode);
    if (opcode == Opcode::Load || opcode == Opcode::Store)
        s << ' ' << vta::to_string(mem_type) << " sram=" << sram_base << " dram=" << dram_base << " y=" << y_size
          << " x=" << x_size << " stride=" << x_stride;
    if (opcode == Opcode::Gemm || opcode == Opcode::Alu) {
        if (opcode == Opcode::Alu) s << ' ' << vta::to_string(alu_op) << (use_imm ? " imm=" + std::to_string(imm) : "");
        if (reset) s << " reset";
        s << " uop=[" << uop_bgn << ',' << uop_end << ") iter=" << iter_out << 'x' << iter_in;
    }
    s << " deps=" << (dep.pop_prev ? "P" : "-") << (dep.pop_next ? "N" : "-") << (dep.push_prev ? "p" : "-")
      << (dep.push_next ? "n" : "-");
    return s.str();
}

namespace {
// Places bit-fields the way GCC and Clang lay out a C struct of `unit`-bit bit-fields
// (System V ABI, as hw_spec.h's VTAMemInsn / VTAGemInsn / VTAAluInsn of uint64_t and VTAUop
// of uint32_t are compiled): in declaration order, each at the next free bit unless it would
// straddle a `unit` boundary, in which case it starts at the next unit. So a narrow field may
// still fit in word 0 after iter_in (dst_factor_out does when the acc index is <= 7 bits).
struct BitfieldPacker {
    int unit;
    int pos = 0;
    Field next(int width) {
        if (width > 0 && pos / unit != (pos + width - 1) / unit) pos = (pos / unit + 1) * unit;
        Field f{pos / 64, pos % 64, width};
        pos += width;
        return f;
    }
};

std::uint64_t mask(int width) { return width >= 64 ? ~0ull : ((1ull << width) - 1); }

void put(InsnWord& iw, const Field& f, std::uint64_t v, const char* name) {
    if (v > mask(f.width))
        throw InputError(std::string("VTA instruction field ") + name + " = " + std::to_string(v) + " does not fit " +
                         std::to_string(f.width) + " bits");
    if (f.word > 1) throw InputError(std::string("VTA instruction field ") + name + " lies beyond bit 127 (invalid configuration)");
    iw.w[f.word] |= v << f.offset;
}
std::uint64_t get(const InsnWord& iw, const Field& f) {
    return f.word > 1 ? 0 : (iw.w[f.word] >> f.offset) & mask(f.width);  // beyond bit 127: only in configs validate() rejects
}
}  // namespace

InsnLayout::InsnLayout(const VtaConfig& cfg) {
    // The five leading fields are common to every instruction struct.
    BitfieldPacker head{64};
    opcode = head.next(kOpcodeBits);
    pop_prev = head.next(1);
    pop_next = head.next(1);
    push_prev = head.next(1);
    push_next = head.next(1);
    // VTAMemInsn
    BitfieldPacker m = head;
    mem_type = m.next(kMemIdBits);
    sram_base = m.next(kSramAddrBits);
    dram_base = m.next(kDramAddrBits);
    y_size = m.next(kSizeBits);
    x_size = m.next(kSizeBits);
    x_stride = m.next(kStrideBits);
    y_pad0 = m.next(kPadBits);
    y_pad1 = m.next(kPadBits);
    x_pad0 = m.next(kPadBits);
    x_pad1 = m.next(kPadBits);
    // VTAGemInsn (uop_end is one bit wider: exclusive end).
    BitfieldPacker g = head;
    reset = g.next(1);
    uop_bgn = g.next(cfg.log_uop_depth());
    uop_end = g.next(cfg.log_uop_depth() + 1);
    iter_out = g.next(kLoopIterBits);
    iter_in = g.next(kLoopIterBits);
    const BitfieldPacker loop_end = g;
    dst_factor_out = g.next(cfg.log_acc_depth());
    dst_factor_in = g.next(cfg.log_acc_depth());
    src_factor_out = g.next(cfg.log_inp_depth());
    src_factor_in = g.next(cfg.log_inp_depth());
    wgt_factor_out = g.next(cfg.log_wgt_depth());
    wgt_factor_in = g.next(cfg.log_wgt_depth());
    // VTAAluInsn: the same fields up to iter_in; its sources index the acc buffer.
    BitfieldPacker a = loop_end;
    a.next(cfg.log_acc_depth());  // dst_factor_out, dst_factor_in: same place as in VTAGemInsn
    a.next(cfg.log_acc_depth());
    alu_src_factor_out = a.next(cfg.log_acc_depth());
    alu_src_factor_in = a.next(cfg.log_acc_depth());
    alu_opcode = a.next(kAluOpBits);
    use_imm = a.next(1);
    imm = a.next(kAluImmBits);
    // VTAUop (uint32_t bit-fields): src_idx indexes the input buffer (GEMM) or the acc buffer
    // (ALU), so hw_spec.h sizes it MAX(VTA_LOG_ACC_BUFF_DEPTH, VTA_LOG_INP_BUFF_DEPTH).
    BitfieldPacker u{32};
    uop_dst = u.next(cfg.log_acc_depth());
    uop_src = u.next(std::max(cfg.log_acc_depth(), cfg.log_inp_depth()));
    uop_wgt = u.next(cfg.log_wgt_depth());
}

bool InsnLayout::fits(std::string* why) const {
    // Instructions are 128 bits (two 64-bit words), micro-ops 32 bits (VTA_INS_WIDTH, VTA_UOP_WIDTH):
    // a struct that the packing rule makes longer is not a VTA instruction.
    // keys: the configuration keys whose buffer depths (log2 of the entries, less log_block and
    // log_batch) size the fields before the last one of the struct.
    struct Named { const Field* f; const char* name; int limit_bits; const char* keys; };
    const Named all[] = {
        {&x_pad1, "x_pad_1", 128, nullptr},
        {&wgt_factor_in, "wgt_factor_in", 128, "log_uop_buff_size, log_acc_buff_size, log_inp_buff_size, log_wgt_buff_size"},
        {&imm, "alu imm", 128, "log_uop_buff_size, log_acc_buff_size"},
        {&uop_wgt, "uop wgt_idx", 32, "log_acc_buff_size, log_inp_buff_size, log_wgt_buff_size"}};
    for (const auto& n : all) {
        const int end = n.f->word * 64 + n.f->end();
        if (end > n.limit_bits) {
            if (why) {
                *why = std::string(n.name) + " ends at bit " + std::to_string(end) + " > " + std::to_string(n.limit_bits);
                if (n.keys) *why += " (its index fields grow with " + std::string(n.keys) + ": lower one of them, or raise log_block)";
            }
            return false;
        }
    }
    return true;
}

InsnWord InsnLayout::encode(const Insn& in) const {
    InsnWord w;
    put(w, opcode, std::uint64_t(in.opcode), "opcode");
    put(w, pop_prev, in.dep.pop_prev, "pop_prev");
    put(w, pop_next, in.dep.pop_next, "pop_next");
    put(w, push_prev, in.dep.push_prev, "push_prev");
    put(w, push_next, in.dep.push_next, "push_next");
    switch (in.opcode) {
        case Opcode::Load:
        case Opcode::Store:
            put(w, mem_type, std::uint64_t(in.mem_type), "memory_type");
            put(w, sram_base, in.sram_base, "sram_base");
            put(w, dram_base, in.dram_base, "dram_base");
            put(w, y_size, in.y_size, "y_size");
            put(w, x_size, in.x_size, "x_size");
            put(w, x_stride, in.x_stride, "x_stride");
            put(w, y_pad0, in.y_pad0, "y_pad_0");
            put(w, y_pad1, in.y_pad1, "y_pad_1");
            put(w, x_pad0, in.x_pad0, "x_pad_0");
            put(w, x_pad1, in.x_pad1, "x_pad_1");
            break;
        case Opcode::Gemm:
        case Opcode::Alu:
            put(w, reset, in.reset, "reset_reg");
            put(w, uop_bgn, in.uop_bgn, "uop_bgn");
            put(w, uop_end, in.uop_end, "uop_end");
            put(w, iter_out, in.iter_out, "iter_out");
            put(w, iter_in, in.iter_in, "iter_in");
            put(w, dst_factor_out, in.dst_factor_out, "dst_factor_out");
            put(w, dst_factor_in, in.dst_factor_in, "dst_factor_in");
            if (in.opcode == Opcode::Gemm) {
                put(w, src_factor_out, in.src_factor_out, "src_factor_out");
                put(w, src_factor_in, in.src_factor_in, "src_factor_in");
                put(w, wgt_factor_out, in.wgt_factor_out, "wgt_factor_out");
                put(w, wgt_factor_in, in.wgt_factor_in, "wgt_factor_in");
            } else {
                put(w, alu_src_factor_out, in.src_factor_out, "src_factor_out");
                put(w, alu_src_factor_in, in.src_factor_in, "src_factor_in");
                put(w, alu_opcode, std::uint64_t(in.alu_op), "alu_opcode");
                put(w, use_imm, in.use_imm, "use_imm");
                if (in.imm < -32768 || in.imm > 32767)
                    throw InputError("VTA instruction field imm = " + std::to_string(in.imm) + " does not fit int16");
                put(w, imm, std::uint64_t(std::uint16_t(std::int16_t(in.imm))), "imm");
            }
            break;
        case Opcode::Finish: break;
    }
    return w;
}

Insn InsnLayout::decode(const InsnWord& w) const {
    Insn in;
    const auto op = get(w, opcode);
    if (op > 4) throw InputError("VTA instruction: unknown opcode " + std::to_string(op));
    in.opcode = Opcode(op);
    in.dep.pop_prev = get(w, pop_prev);
    in.dep.pop_next = get(w, pop_next);
    in.dep.push_prev = get(w, push_prev);
    in.dep.push_next = get(w, push_next);
    switch (in.opcode) {
        case Opcode::Load:
        case Opcode::Store: {
            const auto mt = get(w, mem_type);
            if (mt > 5) throw InputError("VTA instruction: unknown memory type " + std::to_string(mt));
            in.mem_type = MemId(mt);
            in.sram_base = std::uint32_t(get(w, sram_base));
            in.dram_base = std::uint32_t(get(w, dram_base));
            in.y_size = std::uint32_t(get(w, y_size));
            in.x_size = std::uint32_t(get(w, x_size));
            in.x_stride = std::uint32_t(get(w, x_stride));
            in.y_pad0 = std::uint32_t(get(w, y_pad0));
            in.y_pad1 = std::uint32_t(get(w, y_pad1));
            in.x_pad0 = std::uint32_t(get(w, x_pad0));
            in.x_pad1 = std::uint32_t(get(w, x_pad1));
            break;
        }
        case Opcode::Gemm:
        case Opcode::Alu:
            in.reset = get(w, reset);
            in.uop_bgn = std::uint32_t(get(w, uop_bgn));
            in.uop_end = std::uint32_t(get(w, uop_end));
            in.iter_out = std::uint32_t(get(w, iter_out));
            in.iter_in = std::uint32_t(get(w, iter_in));
            in.dst_factor_out = std::uint32_t(get(w, dst_factor_out));
            in.dst_factor_in = std::uint32_t(get(w, dst_factor_in));
            if (in.opcode == Opcode::Gemm) {
                in.src_factor_out = std::uint32_t(get(w, src_factor_out));
                in.src_factor_in = std::uint32_t(get(w, src_factor_in));
                in.wgt_factor_out = std::uint32_t(get(w, wgt_factor_out));
                in.wgt_factor_in = std::uint32_t(get(w, wgt_factor_in));
            } else {
                in.src_factor_out = std::uint32_t(get(w, alu_src_factor_out));
                in.src_factor_in = std::uint32_t(get(w, alu_src_factor_in));
                const auto a = get(w, alu_opcode);
                if (a > 4) throw InputError("VTA instruction: unknown ALU opcode " + std::to_string(a));
                in.alu_op = AluOp(a);
                in.use_imm = get(w, use_imm);
                in.imm = std::int16_t(std::uint16_t(get(w, imm)));
            }
            break;
        case Opcode::Finish: break;
    }
    return in;
}

std::uint32_t InsnLayout::encode(const Uop& u) const {
    InsnWord w;
    put(w, uop_dst, u.dst, "uop dst_idx");
    put(w, uop_src, u.src, "uop src_idx");
    put(w, uop_wgt, u.wgt, "uop wgt_idx");
    return std::uint32_t(w.w[0]);
}

Uop InsnLayout::decode_uop(std::uint32_t word) const {
    InsnWord w;
    w.w[0] = word;
    return Uop{std::uint32_t(get(w, uop_dst)), std::uint32_t(get(w, uop_src)), std::uint32_t(get(w, uop_wgt))};
}

}  // namespace vp::mapper::vta
