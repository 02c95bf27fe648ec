// VTA config validation and instruction/micro-op encode/decode (vta_isa.md §1-2).
#include <catch2/catch.hpp>

#include <random>

#include "mapper/common/errors.h"
#include "mapper/vta/isa.h"

using namespace vp::mapper::vta;

namespace {
std::uint32_t rnd(std::mt19937_64& g, int bits) { return std::uint32_t(g() & ((1ull << bits) - 1)); }

std::vector<VtaConfig> configs() {
    std::vector<VtaConfig> v(4);
    v[1].log_block = 3;                       // BLOCK 8
    v[1].log_acc_buff_size = 15;
    v[1].log_wgt_buff_size = 16;
    v[2].log_inp_buff_size = 14;              // smaller buffers
    v[2].log_wgt_buff_size = 16;
    v[2].log_uop_buff_size = 12;
    v[3].log_batch = 1;                       // BATCH 2
    v[3].log_acc_buff_size = 16;
    return v;
}
}  // namespace

TEST_CASE("VtaConfig default derived sizes match vta_config.json", "[vta][config]") {
    VtaConfig c;
    REQUIRE_NOTHROW(c.validate("vta"));
    CHECK(c.block() == 16);
    CHECK(c.inp_depth() == 2048);   // 32 KiB / 16 B
    CHECK(c.wgt_depth() == 1024);   // 256 KiB / 256 B
    CHECK(c.acc_depth() == 2048);   // 128 KiB / 64 B
    CHECK(c.uop_depth() == 8192);   // 32 KiB / 4 B
    CHECK(c.inp_elem_bytes() == 16);
    CHECK(c.wgt_elem_bytes() == 256);
    CHECK(c.acc_elem_bytes() == 64);
    CHECK(c.out_elem_bytes() == 16);
    CHECK((1 << c.log_out_buff_size()) == 32 * 1024);
    // depth * element bytes == buffer bytes for every buffer
    CHECK(std::int64_t(c.inp_depth()) * c.inp_elem_bytes() == (1 << c.log_inp_buff_size));
    CHECK(std::int64_t(c.wgt_depth()) * c.wgt_elem_bytes() == (1 << c.log_wgt_buff_size));
    CHECK(std::int64_t(c.acc_depth()) * c.acc_elem_bytes() == (1 << c.log_acc_buff_size));
}

TEST_CASE("VtaConfig::validate rejects bad values with the key", "[vta][config]") {
    VtaConfig c;
    c.log_inp_width = 4;
    REQUIRE_THROWS_WITH(c.validate("vta"), Catch::Contains("vta.log_inp_width"));
    VtaConfig d;
    d.log_acc_buff_size = 20;  // acc depth 2^14: ALU word 1 needs 4*14+20 = 76 bits
    REQUIRE_THROWS_AS(d.validate("vta"), vp::InputError);
    VtaConfig e;
    e.log_block = 0;
    REQUIRE_THROWS_WITH(e.validate("x"), Catch::Contains("x.log_block"));
}

TEST_CASE("Default layout equals the vta_isa.md §2.1 bit table", "[vta][isa]") {
    InsnLayout l{VtaConfig{}};
    // LOAD/STORE
    CHECK(l.mem_type.offset == 7);
    CHECK(l.sram_base.offset == 10);
    CHECK(l.dram_base.offset == 26);
    CHECK(l.dram_base.end() == 58);
    CHECK((l.y_size.word == 1 && l.y_size.offset == 0));
    CHECK(l.x_size.offset == 16);
    CHECK(l.x_stride.offset == 32);
    CHECK(l.y_pad0.offset == 48);
    CHECK(l.x_pad1.offset == 60);
    // GEMM
    CHECK(l.reset.offset == 7);
    CHECK((l.uop_bgn.offset == 8 && l.uop_bgn.width == 13));
    CHECK((l.uop_end.offset == 21 && l.uop_end.width == 14));
    CHECK(l.iter_out.offset == 35);
    CHECK((l.iter_in.offset == 49 && l.iter_in.end() == 63));
    CHECK((l.dst_factor_in.offset == 75 - 64));
    CHECK((l.src_factor_out.offset == 86 - 64));
    CHECK((l.src_factor_in.offset == 97 - 64));
    CHECK((l.wgt_factor_out.offset == 108 - 64 && l.wgt_factor_out.width == 10));
    CHECK((l.wgt_factor_in.offset == 118 - 64 && l.wgt_factor_in.end() == 64));
    // ALU
    CHECK(l.alu_opcode.offset == 108 - 64);
    CHECK(l.use_imm.offset == 111 - 64);
    CHECK((l.imm.offset == 112 - 64 && l.imm.width == 16));
    // micro-op
    CHECK((l.uop_dst.offset == 0 && l.uop_dst.width == 11));
    CHECK((l.uop_src.offset == 11 && l.uop_src.width == 11));
    CHECK((l.uop_wgt.offset == 22 && l.uop_wgt.width == 10));
}

TEST_CASE("A hand-assembled default GEMM word decodes field by field", "[vta][isa]") {
    // GEMM, pop_prev, reset=0, uop [5,21), iter 3x7, factors: dst 16/1, src 32/0, wgt 0/1.
    std::uint64_t w0 = 2ull | (1ull << 3) | (5ull << 8) | (21ull << 21) | (3ull << 35) | (7ull << 49);
    std::uint64_t w1 = 16ull | (1ull << 11) | (32ull << 22) | (0ull << 33) | (0ull << 44) | (1ull << 54);
    InsnLayout l{VtaConfig{}};
    InsnWord w;
    w.w = {w0, w1};
    Insn in = l.decode(w);
    CHECK(in.opcode == Opcode::Gemm);
    CHECK(in.dep.pop_prev);
    CHECK(!in.dep.push_next);
    CHECK(in.uop_bgn == 5);
    CHECK(in.uop_end == 21);
    CHECK(in.iter_out == 3);
    CHECK(in.iter_in == 7);
    CHECK(in.dst_factor_out == 16);
    CHECK(in.dst_factor_in == 1);
    CHECK(in.src_factor_out == 32);
    CHECK(in.wgt_factor_in == 1);
    CHECK(l.encode(in) == w);
}

TEST_CASE("Every instruction kind round-trips under several configurations", "[vta][isa]") {
    std::mt19937_64 g(42);
    for (const VtaConfig& c : configs()) {
        REQUIRE_NOTHROW(c.validate("vta"));
        InsnLayout l(c);
        for (int rep = 0; rep < 300; ++rep) {
            Insn in;
            in.dep = DepFlags{bool(g() & 1), bool(g() & 1), bool(g() & 1), bool(g() & 1)};
            switch (rep % 5) {
                case 0:
                case 1:
                    in.opcode = rep % 5 == 0 ? Opcode::Load : Opcode::Store;
                    in.mem_type = MemId(g() % 6);
                    in.sram_base = rnd(g, 16);
                    in.dram_base = rnd(g, 32);
                    in.y_size = rnd(g, 16);
                    in.x_size = rnd(g, 16);
                    in.x_stride = rnd(g, 16);
                    in.y_pad0 = rnd(g, 4);
                    in.y_pad1 = rnd(g, 4);
                    in.x_pad0 = rnd(g, 4);
                    in.x_pad1 = rnd(g, 4);
                    break;
                case 2:
                case 3:
                    in.opcode = rep % 5 == 2 ? Opcode::Gemm : Opcode::Alu;
                    in.reset = g() & 1;
                    in.uop_bgn = rnd(g, c.log_uop_depth());
                    in.uop_end = rnd(g, c.log_uop_depth() + 1);
                    in.iter_out = rnd(g, 14);
                    in.iter_in = rnd(g, 14);
                    in.dst_factor_out = rnd(g, c.log_acc_depth());
                    in.dst_factor_in = rnd(g, c.log_acc_depth());
                    if (in.opcode == Opcode::Gemm) {
                        in.src_factor_out = rnd(g, c.log_inp_depth());
                        in.src_factor_in = rnd(g, c.log_inp_depth());
                        in.wgt_factor_out = rnd(g, c.log_wgt_depth());
                        in.wgt_factor_in = rnd(g, c.log_wgt_depth());
                    } else {
                        in.src_factor_out = rnd(g, c.log_acc_depth());
                        in.src_factor_in = rnd(g, c.log_acc_depth());
                        in.alu_op = AluOp(g() % 5);
                        in.use_imm = g() & 1;
                        in.imm = std::int32_t(g() % 65536) - 32768;
                    }
                    break;
                default: in.opcode = Opcode::Finish;
            }
            InsnWord w = l.encode(in);
            Insn back = l.decode(w);
            REQUIRE(back == in);
            REQUIRE(l.encode(back) == w);
        }
        for (int rep = 0; rep < 300; ++rep) {
            Uop u{rnd(g, c.log_acc_depth()), rnd(g, std::max(c.log_acc_depth(), c.log_inp_depth())),
                  rnd(g, c.log_wgt_depth())};
            REQUIRE(l.decode_uop(l.encode(u)) == u);
        }
    }
}

TEST_CASE("Encoding a value too wide for its field throws InputError naming it", "[vta][isa]") {
    InsnLayout l{VtaConfig{}};
    Insn in;
    in.opcode = Opcode::Gemm;
    in.dst_factor_out = 2048;  // 11-bit field
    REQUIRE_THROWS_WITH(l.encode(in), Catch::Contains("dst_factor_out"));
    Insn a;
    a.opcode = Opcode::Alu;
    a.imm = 40000;
    REQUIRE_THROWS_AS(l.encode(a), vp::InputError);
    REQUIRE_THROWS_AS(l.encode(Uop{0, 0, 1024}), vp::InputError);
    // Fields move with the config: BLOCK 8 widens the acc index.
    VtaConfig c;
    c.log_block = 3;
    InsnLayout l8(c);
    CHECK(l8.uop_dst.width == c.log_acc_depth());
    CHECK(l8.uop_dst.width != l.uop_dst.width);
}
