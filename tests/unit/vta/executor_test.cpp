// Compiled programs run on the untimed executor must equal the independent reference
// bit for bit: every operation kind, sizes that fit and that force partitioning, all four
// strategies, double buffering on/off, module order fixed or random.
#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/executor.h"
#include "mapper/vta/ir_parser.h"
#include "random_programs.h"
#include "vta_reference.h"

using namespace vp::mapper::vta;
using vta_test::Kind;

namespace {
VtaConfig small_config() {  // INP 8 blocks, WGT 16 blocks, ACC/OUT 4 blocks, 1024 uops
    VtaConfig c;
    c.log_inp_buff_size = 11;
    c.log_wgt_buff_size = 12;
    c.log_acc_buff_size = 12;
    c.log_uop_buff_size = 12;
    return c;
}

struct Tally { int runs = 0, mismatches = 0, partitioned = 0; };

void run_one(const nlohmann::json& doc, std::uint64_t seed, const VtaConfig& cfg, bool dbuf, Tally& t, bool random_order) {
    IrParseOptions po;
    po.seed = seed;
    const Program p = parse_program(doc, "random", po);
    CompileOptions co;
    co.double_buffer = dbuf;
    const CompiledProgram cp = compile(p, cfg, co);
    ExecOptions eo;
    eo.random_order = random_order;
    eo.seed = seed;
    ExecResult r;
    const auto got = run_functional(cp, eo, &r);
    const auto want = vta_ref::run(p);
    ++t.runs;
    if (cp.partition.steps.size() > 1) ++t.partitioned;
    if (got != want) {
        ++t.mismatches;
        UNSCOPED_INFO("mismatch: " << doc.dump() << " seed " << seed << " dbuf " << dbuf);
    }
    // The executed work equals what the compiler predicted, and every token was consumed.
    CHECK(r.counters.gemm_uops == cp.stats.gemm_uops);
    CHECK(r.counters.alu_uops == cp.stats.alu_uops);
    CHECK(r.counters.inp_load_bytes == cp.stats.inp_bytes);
    CHECK(r.counters.out_store_bytes == cp.stats.out_bytes);
    for (auto left : r.tokens_left) CHECK(left == 0);
}
}  // namespace

TEST_CASE("Executor equals reference: programs that fit (default config)", "[vta][executor]") {
    std::mt19937_64 g(7);
    Tally t;
    const Kind kinds[] = {Kind::Gemm, Kind::GemmBias, Kind::GemmX, Kind::Scalar, Kind::AddAcc, Kind::AluOnly};
    for (int rep = 0; rep < 60; ++rep) {
        const Kind k = kinds[rep % 6];
        const int m = 1 + int(g() % 50), kk = 1 + int(g() % 70), n = 1 + int(g() % 40);
        run_one(vta_test::random_program(g, k, m, kk, n, true, 0), std::uint64_t(rep), VtaConfig{}, rep % 2, t, rep % 3 == 0);
    }
    CHECK(t.mismatches == 0);
    CHECK(t.runs == 60);
}

TEST_CASE("Executor equals reference: partitioned programs, strategies 1-4 and auto", "[vta][executor]") {
    std::mt19937_64 g(11);
    Tally t;
    const VtaConfig cfg = small_config();
    const Kind kinds[] = {Kind::Gemm, Kind::GemmBias, Kind::GemmX, Kind::Scalar, Kind::AddAcc, Kind::AluOnly};
    for (int rep = 0; rep < 150; ++rep) {
        const Kind k = kinds[rep % 6];
        const int strategy = (rep / 6) % 5;  // 0 = auto
        const bool vv = k == Kind::AluOnly;  // vector-vector ops need whole block columns resident
        const int m = vv ? 20 + int(g() % 44) : 20 + int(g() % 60), kk = 20 + int(g() % 90), n = 20 + int(g() % 60);
        run_one(vta_test::random_program(g, k, m, kk, n, vv, strategy), std::uint64_t(rep), cfg, rep % 4 == 1, t, rep % 2 == 0);
    }
    CHECK(t.mismatches == 0);
    CHECK(t.partitioned > 100);
}

TEST_CASE("Executor equals reference: default config forced to partition", "[vta][executor]") {
    std::mt19937_64 g(3);
    Tally t;
    for (int s = 1; s <= 4; ++s) {
        // A: 3 x 130 blocks > 128 INP blocks.
        run_one(vta_test::random_program(g, Kind::GemmBias, 40, 130 * 16 - 5, 20, false, s), std::uint64_t(s), VtaConfig{}, false, t, false);
    }
    CHECK(t.mismatches == 0);
    CHECK(t.partitioned == 4);
}

TEST_CASE("Result does not depend on the module order (fsim random start)", "[vta][executor]") {
    std::mt19937_64 g(5);
    const auto doc = vta_test::random_program(g, Kind::GemmBias, 50, 60, 70, false, 2);
    const Program p = parse_program(doc, "r", IrParseOptions{});
    const CompiledProgram cp = compile(p, small_config());
    const auto base = run_functional(cp);
    for (std::uint64_t s = 1; s < 20; ++s) {
        ExecOptions eo;
        eo.random_order = true;
        eo.seed = s;
        REQUIRE(run_functional(cp, eo) == base);
    }
}

TEST_CASE("A missing dependency token is reported as a deadlock naming the instruction", "[vta][executor]") {
    std::mt19937_64 g(9);
    const auto doc = vta_test::random_program(g, Kind::Gemm, 20, 20, 20, false, 0);
    const Program p = parse_program(doc, "r", IrParseOptions{});
    CompiledProgram cp = compile(p, VtaConfig{});
    // Remove the push of l2c from the last INP/WGT load: the GEMM waits forever.
    InsnLayout l(cp.cfg);
    for (std::uint32_t n = 0; n < cp.insn_count; ++n) {
        Insn in = cp.insns[n];
        if (in.opcode == Opcode::Load && in.dep.push_next) {
            in.dep.push_next = false;
            const InsnWord w = l.encode(in);
            for (int h = 0; h < 2; ++h)
                for (int b = 0; b < 8; ++b)
                    cp.image[cp.insn_addr - cp.dram_base + 16 * n + std::size_t(8 * h + b)] = std::uint8_t(w.w[std::size_t(h)] >> (8 * b));
        }
    }
    REQUIRE_THROWS_WITH(run_functional(cp), Catch::Contains("deadlock") && Catch::Contains("GEMM") && Catch::Contains("l2c"));
}
