// Binary VTA programs (mapper/vta/binary_program.h): compiled programs of every kind, both
// buffering modes, written as their files and read back, run bit-identically on the untimed
// executor and equal the independent reference; the words of insn.bin are the hw_spec.h
// encoding of the decoded instructions. Bad streams are input errors naming the instruction.
#include <catch2/catch.hpp>

#include <map>

#include "mapper/common/errors.h"
#include "mapper/vta/binary_program.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/direct_conv.h"
#include "mapper/vta/executor.h"
#include "mapper/vta/ir_parser.h"
#include "random_programs.h"
#include "vta_reference.h"

using namespace vp::mapper::vta;
using vta_test::Kind;
using vp::mapper::Layer;

namespace {
using Files = std::map<std::string, std::string>;

Files files_of(const CompiledProgram& p, const nlohmann::json& m) {
    auto bytes = [&](const std::string& name) {
        for (const DramRegion& r : p.regions)
            if (r.name == name) return std::string(reinterpret_cast<const char*>(p.image.data() + (r.addr - p.dram_base)), r.bytes);
        return std::string();
    };
    Files f{{m["instructions"]["file"], bytes("INSN")}, {m["micro_ops"]["file"], bytes("UOP")}};
    for (const auto& d : m["data"]) f[d["file"]] = bytes(d["name"]);
    return f;
}

CompiledProgram reread(const nlohmann::json& m, const Files& f, const VtaConfig& cfg = {}) {
    return parse_binary_program(m, "t/program.json", [&](const std::string& n) { return f.at(n); }, cfg);
}

std::string message_of(const nlohmann::json& m, const Files& f, const VtaConfig& cfg = {}) {
    try {
        (void)reread(m, f, cfg);
    } catch (const vp::InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("Binary programs round-trip: same instructions, image and outputs", "[vta][binary]") {
    std::mt19937_64 g(23);
    const Kind kinds[] = {Kind::Gemm, Kind::GemmBias, Kind::GemmX, Kind::Scalar, Kind::AddAcc, Kind::AluOnly};
    int runs = 0, mismatches = 0;
    for (int rep = 0; rep < 24; ++rep) {
        const int m = 1 + int(g() % 80), kk = 1 + int(g() % 300), n = 1 + int(g() % 300);
        vp::mapper::vta::IrParseOptions po;
        po.seed = std::uint64_t(rep);
        const Program p = parse_program(vta_test::random_program(g, kinds[rep % 6], m, kk, n, true, rep % 5), "random", po);
        CompileOptions co;
        co.double_buffer = rep % 2 == 0;
        const CompiledProgram c = compile(p, VtaConfig{}, co);
        const nlohmann::json man = binary_manifest(c);
        const CompiledProgram b = reread(man, files_of(c, man));
        CHECK(b.insns == c.insns);
        CHECK(b.image == c.image);
        CHECK(b.dram_base == c.dram_base);
        CHECK(b.insn_addr == c.insn_addr);
        CHECK(b.stored_rows == c.stored_rows);
        CHECK(b.stats.gemm_uops == c.stats.gemm_uops);
        CHECK(b.stats.inp_bytes + b.stats.wgt_bytes + b.stats.acc_bytes + b.stats.uop_bytes + b.stats.out_bytes ==
              c.stats.inp_bytes + c.stats.wgt_bytes + c.stats.acc_bytes + c.stats.uop_bytes + c.stats.out_bytes);
        const auto out = run_functional(b);
        ++runs;
        if (out != run_functional(c) || out != vta_ref::run(p)) ++mismatches;
        // insn.bin holds the hw_spec.h words of the decoded instructions (InsnLayout, checked
        // field by field against hw_spec.h in hw_spec_layout_test.cpp).
        const InsnLayout lay{VtaConfig{}};
        const Files written = files_of(c, man);
        const std::string& ib = written.at("insn.bin");
        REQUIRE(ib.size() == 16 * c.insns.size());
        for (std::size_t i = 0; i < c.insns.size(); ++i) {
            InsnWord w;
            for (int h = 0; h < 2; ++h)
                for (int k = 0; k < 8; ++k) w.w[std::size_t(h)] |= std::uint64_t(std::uint8_t(ib[16 * i + std::size_t(8 * h + k)])) << (8 * k);
            INFO("instruction " << i << " " << c.insns[i].to_string());
            CHECK(w == lay.encode(c.insns[i]));
        }
    }
    CHECK(runs == 24);
    CHECK(mismatches == 0);
}

TEST_CASE("Binary programs: bad streams are input errors naming the instruction", "[vta][binary]") {
    vp::mapper::vta::IrParseOptions po;
    std::mt19937_64 g(5);
    const CompiledProgram c = compile(parse_program(vta_test::random_program(g, Kind::GemmBias, 40, 50, 40, true, 2), "r", po), VtaConfig{});
    const nlohmann::json man = binary_manifest(c);
    Files f = files_of(c, man);
    const std::string ib = f.at("insn.bin");

    f["insn.bin"] = ib.substr(0, ib.size() - 5);
    CHECK_THAT(message_of(man, f), Catch::Contains("insn.bin") && Catch::Contains("is truncated (11 of 16 bytes)"));

    f["insn.bin"] = ib;
    f["insn.bin"][16 * 2] = char((std::uint8_t(ib[32]) & ~7u) | 6u);  // opcode 6
    CHECK_THAT(message_of(man, f), Catch::Contains("instruction 2 (byte 32)") && Catch::Contains("unknown opcode 6"));

    f["insn.bin"] = ib.substr(0, ib.size() - 16);  // FINISH dropped
    CHECK_THAT(message_of(man, f), Catch::Contains("expected FINISH"));

    f["insn.bin"] = ib;
    f["uop.bin"] += "xy";
    CHECK_THAT(message_of(man, f), Catch::Contains("not a whole number of 4-byte micro-ops"));

    f = files_of(c, man);
    VtaConfig other;
    other.log_acc_buff_size = 16;
    CHECK_THAT(message_of(man, f, other), Catch::Contains("log_acc_buff_size 17") && Catch::Contains("vta.log_acc_buff_size 16"));

    nlohmann::json far = man;
    far["data"][0]["addr"] = 0xF0000000u;
    CHECK_THAT(message_of(far, f), Catch::Contains("span"));

    nlohmann::json overlap = man;
    overlap["data"][1]["addr"] = man["data"][0]["addr"];
    CHECK_THAT(message_of(overlap, f), Catch::Contains("overlap"));
}

TEST_CASE("Direct-convolution programs round-trip: blocked output layout, padded loads", "[vta][binary][direct]") {
    std::mt19937_64 g(5);
    Layer l;
    l.name = "c";
    l.kind = vp::mapper::LayerKind::Conv;
    l.C = 20; l.K = 24; l.H = 9; l.W = 11; l.R = l.S = 3; l.stride_h = l.stride_w = 2;
    l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = 1;
    std::vector<std::int8_t> in(std::size_t(l.C) * l.H * l.W), w(std::size_t(l.K) * l.C * 9);
    for (auto& v : in) v = std::int8_t(int(g() % 256) - 128);
    for (auto& v : w) v = std::int8_t(int(g() % 255) - 127);
    std::vector<std::int32_t> bias(std::size_t(l.K), 17);
    for (bool dbuf : {true, false}) {
        CompileOptions co;
        co.double_buffer = dbuf;
        const CompiledProgram c = compile_direct_conv(l, in, w, bias, Requant{3, 4, false}, VtaConfig{}, co, DirectTiling{2, 3, 1, 1});
        const nlohmann::json man = binary_manifest(c);
        CHECK(man["output"]["layout"] == "blocked");
        const CompiledProgram b = reread(man, files_of(c, man));
        CHECK(b.insns == c.insns);
        CHECK(b.image == c.image);
        CHECK(b.out_blocked);
        CHECK(b.stored_rows == c.stored_rows);
        CHECK(run_functional(b) == run_functional(c));
        auto bad = man;
        bad["output"]["layout"] = "columns";
        CHECK_THROWS_WITH(reread(bad, files_of(c, man)), Catch::Contains("/output/layout"));
    }
}
