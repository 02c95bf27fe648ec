// The instruction and micro-op encoder against the layout the C++ compiler itself gives
// structs declared like those of VTA's hw_spec.h (apache/tvm-vta include/vta/hw_spec.h):
// bit-fields of uint64_t (VTAMemInsn, VTAGemInsn, VTAAluInsn) and of uint32_t (VTAUop), in
// the same order, with widths derived from the LOG_* configuration by the formulas of
// hw_spec_const.h. The structs below are written for this test and share no code with
// InsnLayout; the compiler's bit-field packing is the independent reference. Both
// directions are checked: encode(fields) == struct bytes, decode(struct bytes) == fields.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "mapper/vta/isa.h"

using namespace vp::mapper::vta;

namespace {

// One VTA configuration. Depth widths as hw_spec_const.h derives them (VTA_LOG_*_BUFF_DEPTH).
template <int LogBatch, int LogBlock, int LogUopBuff, int LogInpBuff, int LogWgtBuff, int LogAccBuff>
struct HwSpec {
    static constexpr int kLogInpWidth = 3, kLogWgtWidth = 3, kLogAccWidth = 5, kLogUopWidth = 5;
    static constexpr int kUopDepth = LogUopBuff - kLogUopWidth + 3;
    static constexpr int kInpDepth = LogInpBuff - LogBatch - LogBlock - kLogInpWidth + 3;
    static constexpr int kWgtDepth = LogWgtBuff - LogBlock - LogBlock - kLogWgtWidth + 3;
    static constexpr int kAccDepth = LogAccBuff - LogBatch - LogBlock - kLogAccWidth + 3;
    static constexpr int kSrcIdx = kAccDepth > kInpDepth ? kAccDepth : kInpDepth;  // MAX(ACC, INP)

    struct MemInsn {
        std::uint64_t opcode : 3;
        std::uint64_t pop_prev_dep : 1;
        std::uint64_t pop_next_dep : 1;
        std::uint64_t push_prev_dep : 1;
        std::uint64_t push_next_dep : 1;
        std::uint64_t memory_type : 3;
        std::uint64_t sram_base : 16;
        std::uint64_t dram_base : 32;
        std::uint64_t y_size : 16;
        std::uint64_t x_size : 16;
        std::uint64_t x_stride : 16;
        std::uint64_t y_pad_0 : 4;
        std::uint64_t y_pad_1 : 4;
        std::uint64_t x_pad_0 : 4;
        std::uint64_t x_pad_1 : 4;
    };
    struct GemInsn {
        std::uint64_t opcode : 3;
        std::uint64_t pop_prev_dep : 1;
        std::uint64_t pop_next_dep : 1;
        std::uint64_t push_prev_dep : 1;
        std::uint64_t push_next_dep : 1;
        std::uint64_t reset_reg : 1;
        std::uint64_t uop_bgn : kUopDepth;
        std::uint64_t uop_end : kUopDepth + 1;
        std::uint64_t iter_out : 14;
        std::uint64_t iter_in : 14;
        std::uint64_t dst_factor_out : kAccDepth;
        std::uint64_t dst_factor_in : kAccDepth;
        std::uint64_t src_factor_out : kInpDepth;
        std::uint64_t src_factor_in : kInpDepth;
        std::uint64_t wgt_factor_out : kWgtDepth;
        std::uint64_t wgt_factor_in : kWgtDepth;
    };
    struct AluInsn {
        std::uint64_t opcode : 3;
        std::uint64_t pop_prev_dep : 1;
        std::uint64_t pop_next_dep : 1;
        std::uint64_t push_prev_dep : 1;
        std::uint64_t push_next_dep : 1;
        std::uint64_t reset_reg : 1;
        std::uint64_t uop_bgn : kUopDepth;
        std::uint64_t uop_end : kUopDepth + 1;
        std::uint64_t iter_out : 14;
        std::uint64_t iter_in : 14;
        std::uint64_t dst_factor_out : kAccDepth;
        std::uint64_t dst_factor_in : kAccDepth;
        std::uint64_t src_factor_out : kAccDepth;
        std::uint64_t src_factor_in : kAccDepth;
        std::uint64_t alu_opcode : 3;
        std::uint64_t use_imm : 1;
        std::int64_t imm : 16;
    };
    struct Uop {
        std::uint32_t dst_idx : kAccDepth;
        std::uint32_t src_idx : kSrcIdx;
        std::uint32_t wgt_idx : kWgtDepth;
    };
    static_assert(sizeof(MemInsn) == 16 && sizeof(GemInsn) == 16 && sizeof(AluInsn) == 16,
                  "a VTA instruction is 128 bits in this configuration");
    static_assert(sizeof(Uop) == 4, "a VTA micro-op is 32 bits in this configuration");

    static VtaConfig config() {
        VtaConfig c;
        c.log_batch = LogBatch;
        c.log_block = LogBlock;
        c.log_uop_buff_size = LogUopBuff;
        c.log_inp_buff_size = LogInpBuff;
        c.log_wgt_buff_size = LogWgtBuff;
        c.log_acc_buff_size = LogAccBuff;
        return c;
    }
};

template <typename T>
InsnWord bytes_of(const T& s) {
    InsnWord w;
    std::memcpy(w.w.data(), &s, sizeof s);
    return w;
}
template <typename T>
T struct_of(const InsnWord& w) {
    T s;
    std::memcpy(&s, w.w.data(), sizeof s);
    return s;
}
template <typename T>
T zeroed() {
    T s;
    std::memset(&s, 0, sizeof s);
    return s;
}

struct Rng {
    std::mt19937_64 g;
    std::uint64_t bits(int n) { return n >= 64 ? g() : g() & ((1ull << n) - 1); }
    InsnWord word() { return InsnWord{{g(), g()}}; }
};

template <typename S>
void set_deps(S& s, Insn& in, Rng& r) {
    in.dep = DepFlags{bool(r.bits(1)), bool(r.bits(1)), bool(r.bits(1)), bool(r.bits(1))};
    s.pop_prev_dep = in.dep.pop_prev;
    s.pop_next_dep = in.dep.pop_next;
    s.push_prev_dep = in.dep.push_prev;
    s.push_next_dep = in.dep.push_next;
}
// The fields VTAGemInsn and VTAAluInsn share: dependency flags, reset, micro-op range, loops, dst factors.
template <typename Spec, typename S>
void set_loop(S& s, Insn& in, Rng& r) {
    set_deps(s, in, r);
    s.reset_reg = in.reset = r.bits(1);
    s.uop_bgn = in.uop_bgn = std::uint32_t(r.bits(Spec::kUopDepth));
    s.uop_end = in.uop_end = std::uint32_t(r.bits(Spec::kUopDepth + 1));
    s.iter_out = in.iter_out = std::uint32_t(r.bits(14));
    s.iter_in = in.iter_in = std::uint32_t(r.bits(14));
    s.dst_factor_out = in.dst_factor_out = std::uint32_t(r.bits(Spec::kAccDepth));
    s.dst_factor_in = in.dst_factor_in = std::uint32_t(r.bits(Spec::kAccDepth));
}
template <typename S>
void check_deps(const S& s, const Insn& in) {
    CHECK(in.dep.pop_prev == bool(s.pop_prev_dep));
    CHECK(in.dep.pop_next == bool(s.pop_next_dep));
    CHECK(in.dep.push_prev == bool(s.push_prev_dep));
    CHECK(in.dep.push_next == bool(s.push_next_dep));
}

template <typename Spec>
void check_configuration(std::uint64_t seed) {
    using MemInsn = typename Spec::MemInsn;
    using GemInsn = typename Spec::GemInsn;
    using AluInsn = typename Spec::AluInsn;
    using UopS = typename Spec::Uop;
    const VtaConfig cfg = Spec::config();
    REQUIRE_NOTHROW(cfg.validate("vta"));
    // The configuration's own derivation agrees with hw_spec_const.h's formulas.
    REQUIRE(cfg.log_uop_depth() == Spec::kUopDepth);
    REQUIRE(cfg.log_inp_depth() == Spec::kInpDepth);
    REQUIRE(cfg.log_wgt_depth() == Spec::kWgtDepth);
    REQUIRE(cfg.log_acc_depth() == Spec::kAccDepth);
    const InsnLayout l(cfg);
    Rng r{std::mt19937_64(seed)};
    for (int rep = 0; rep < 500; ++rep) {
        // LOAD / STORE: fill through the struct, encode the same values.
        {
            MemInsn s = zeroed<MemInsn>();
            Insn in;
            in.opcode = rep % 2 ? Opcode::Store : Opcode::Load;
            s.opcode = std::uint64_t(in.opcode);
            set_deps(s, in, r);
            in.mem_type = MemId(r.g() % 6);
            s.memory_type = std::uint64_t(in.mem_type);
            s.sram_base = in.sram_base = std::uint32_t(r.bits(16));
            s.dram_base = in.dram_base = std::uint32_t(r.bits(32));
            s.y_size = in.y_size = std::uint32_t(r.bits(16));
            s.x_size = in.x_size = std::uint32_t(r.bits(16));
            s.x_stride = in.x_stride = std::uint32_t(r.bits(16));
            s.y_pad_0 = in.y_pad0 = std::uint32_t(r.bits(4));
            s.y_pad_1 = in.y_pad1 = std::uint32_t(r.bits(4));
            s.x_pad_0 = in.x_pad0 = std::uint32_t(r.bits(4));
            s.x_pad_1 = in.x_pad1 = std::uint32_t(r.bits(4));
            REQUIRE(l.encode(in) == bytes_of(s));
            REQUIRE(l.decode(bytes_of(s)) == in);
        }
        // GEMM
        {
            GemInsn s = zeroed<GemInsn>();
            Insn in;
            in.opcode = Opcode::Gemm;
            s.opcode = 2;
            set_loop<Spec>(s, in, r);
            s.src_factor_out = in.src_factor_out = std::uint32_t(r.bits(Spec::kInpDepth));
            s.src_factor_in = in.src_factor_in = std::uint32_t(r.bits(Spec::kInpDepth));
            s.wgt_factor_out = in.wgt_factor_out = std::uint32_t(r.bits(Spec::kWgtDepth));
            s.wgt_factor_in = in.wgt_factor_in = std::uint32_t(r.bits(Spec::kWgtDepth));
            REQUIRE(l.encode(in) == bytes_of(s));
            REQUIRE(l.decode(bytes_of(s)) == in);
        }
        // ALU (imm is a signed bit-field: store a negative value through it)
        {
            AluInsn s = zeroed<AluInsn>();
            Insn in;
            in.opcode = Opcode::Alu;
            s.opcode = 4;
            set_loop<Spec>(s, in, r);
            s.src_factor_out = in.src_factor_out = std::uint32_t(r.bits(Spec::kAccDepth));
            s.src_factor_in = in.src_factor_in = std::uint32_t(r.bits(Spec::kAccDepth));
            in.alu_op = AluOp(r.g() % 5);
            s.alu_opcode = std::uint64_t(in.alu_op);
            s.use_imm = in.use_imm = r.bits(1);
            in.imm = std::int32_t(r.g() % 65536) - 32768;
            s.imm = in.imm;
            REQUIRE(l.encode(in) == bytes_of(s));
            REQUIRE(l.decode(bytes_of(s)) == in);
        }
        // Micro-op
        {
            UopS s = zeroed<UopS>();
            Uop u{std::uint32_t(r.bits(Spec::kAccDepth)), std::uint32_t(r.bits(Spec::kSrcIdx)),
                  std::uint32_t(r.bits(Spec::kWgtDepth))};
            s.dst_idx = u.dst;
            s.src_idx = u.src;
            s.wgt_idx = u.wgt;
            std::uint32_t word;
            std::memcpy(&word, &s, sizeof word);
            REQUIRE(l.encode(u) == word);
            REQUIRE(l.decode_uop(word) == u);
        }
        // Decode of arbitrary struct bytes (gaps filled with noise): every field the decoder
        // returns equals the field the compiler reads from the same bytes.
        {
            auto s = struct_of<GemInsn>(r.word());
            s.opcode = 2;
            const Insn in = l.decode(bytes_of(s));
            check_deps(s, in);
            CHECK(in.reset == bool(s.reset_reg));
            CHECK(in.uop_bgn == s.uop_bgn);
            CHECK(in.uop_end == s.uop_end);
            CHECK(in.iter_out == s.iter_out);
            CHECK(in.iter_in == s.iter_in);
            CHECK(in.dst_factor_out == s.dst_factor_out);
            CHECK(in.dst_factor_in == s.dst_factor_in);
            CHECK(in.src_factor_out == s.src_factor_out);
            CHECK(in.src_factor_in == s.src_factor_in);
            CHECK(in.wgt_factor_out == s.wgt_factor_out);
            CHECK(in.wgt_factor_in == s.wgt_factor_in);
        }
        {
            auto s = struct_of<AluInsn>(r.word());
            s.opcode = 4;
            s.alu_opcode = r.g() % 5;
            const Insn in = l.decode(bytes_of(s));
            check_deps(s, in);
            CHECK(in.dst_factor_out == s.dst_factor_out);
            CHECK(in.dst_factor_in == s.dst_factor_in);
            CHECK(in.src_factor_out == s.src_factor_out);
            CHECK(in.src_factor_in == s.src_factor_in);
            CHECK(std::uint64_t(in.alu_op) == s.alu_opcode);
            CHECK(in.use_imm == bool(s.use_imm));
            CHECK(in.imm == s.imm);
        }
        {
            auto s = struct_of<MemInsn>(r.word());
            s.opcode = rep % 2;
            s.memory_type = r.g() % 6;
            const Insn in = l.decode(bytes_of(s));
            check_deps(s, in);
            CHECK(std::uint64_t(in.mem_type) == s.memory_type);
            CHECK(in.sram_base == s.sram_base);
            CHECK(in.dram_base == s.dram_base);
            CHECK(in.y_size == s.y_size);
            CHECK(in.x_size == s.x_size);
            CHECK(in.x_stride == s.x_stride);
            CHECK(in.y_pad0 == s.y_pad_0);
            CHECK(in.y_pad1 == s.y_pad_1);
            CHECK(in.x_pad0 == s.x_pad_0);
            CHECK(in.x_pad1 == s.x_pad_1);
        }
        {
            const std::uint32_t word = std::uint32_t(r.g());
            UopS s;
            std::memcpy(&s, &word, sizeof s);
            const Uop u = l.decode_uop(word);
            CHECK(u.dst == s.dst_idx);
            CHECK(u.src == s.src_idx);
            CHECK(u.wgt == s.wgt_idx);
        }
    }
}

//                 batch block uop  inp  wgt  acc   (LOG_*; buffer sizes in log2 bytes)
using Default = HwSpec<0, 4, 15, 15, 18, 17>;    // vta_config.json
using Small = HwSpec<0, 4, 12, 11, 12, 12>;      // the unit tests' small buffers: dst_factor_out in word 0
using Gemm32 = HwSpec<0, 5, 15, 15, 18, 17>;     // 32x32 GEMM core
using AccDeeper = HwSpec<0, 4, 13, 14, 16, 17>;  // acc index wider than inp: src_idx takes the acc width
using TinyUop = HwSpec<0, 4, 8, 11, 12, 12>;     // three index factors in word 0, ALU sources in word 1
using Batch2 = HwSpec<1, 4, 15, 15, 18, 16>;     // BATCH 2

}  // namespace

TEST_CASE("Encoder equals the compiler's bit-field layout: default configuration", "[vta][isa][hw_spec]") {
    check_configuration<Default>(1);
}
TEST_CASE("Encoder equals the compiler's bit-field layout: small buffers", "[vta][isa][hw_spec]") {
    check_configuration<Small>(2);
}
TEST_CASE("Encoder equals the compiler's bit-field layout: 32x32 GEMM", "[vta][isa][hw_spec]") {
    check_configuration<Gemm32>(3);
}
TEST_CASE("Encoder equals the compiler's bit-field layout: acc deeper than inp", "[vta][isa][hw_spec]") {
    check_configuration<AccDeeper>(4);
}
TEST_CASE("Encoder equals the compiler's bit-field layout: tiny micro-op buffer", "[vta][isa][hw_spec]") {
    check_configuration<TinyUop>(5);
}
TEST_CASE("Encoder equals the compiler's bit-field layout: batch 2", "[vta][isa][hw_spec]") {
    check_configuration<Batch2>(6);
}

// Regression: with the unit tests' small buffers (acc index 6 bits) a C compiler packs
// dst_factor_out into word 0 right after iter_in (bits 57..62); it used to be placed at bit 64.
TEST_CASE("Small buffers: dst_factor_out shares word 0 with iter_in", "[vta][isa][hw_spec]") {
    const InsnLayout l(Small::config());
    CHECK((l.iter_in.word == 0 && l.iter_in.end() == 57));
    CHECK((l.dst_factor_out.word == 0 && l.dst_factor_out.offset == 57 && l.dst_factor_out.width == 6));
    CHECK((l.dst_factor_in.word == 1 && l.dst_factor_in.offset == 0));
    // The ALU instruction keeps dst_factor_out in the same place (same leading fields).
    Insn a;
    a.opcode = Opcode::Alu;
    a.dst_factor_out = 0x2a;
    CHECK(l.encode(a).w[0] == ((0x2aull << 57) | 4u));
}

// Regression: the micro-op src_idx is MAX(acc depth, inp depth) bits wide in hw_spec.h
// (apache/tvm-vta since the Intel OpenCL support; before that it was the inp depth), so
// wgt_idx starts after it. In the small configuration inp (7 bits) is wider than acc (6).
TEST_CASE("Micro-op src_idx takes MAX(acc, inp) bits as in hw_spec.h", "[vta][isa][hw_spec]") {
    const InsnLayout small(Small::config());
    CHECK(small.uop_src.width == 7);
    CHECK(small.uop_wgt.offset == 13);
    CHECK(small.encode(Uop{0, 127, 0}) == 127u << 6);  // an inp row beyond the acc depth still fits
    const InsnLayout deeper(AccDeeper::config());
    CHECK(deeper.uop_src.width == 11);  // acc 11 > inp 10
    CHECK(deeper.uop_wgt.offset == 22);
}
