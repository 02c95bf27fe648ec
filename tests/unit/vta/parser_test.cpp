// VTA IR parser: the malformed corpus (tests/data/vta_bad) and the example programs.
#include <catch2/catch.hpp>

#include <fstream>

#include "mapper/common/errors.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/executor.h"
#include "mapper/vta/ir_parser.h"
#include "mapper/workload/network.h"
#include "vta_reference.h"

using namespace vp::mapper::vta;

TEST_CASE("Every malformed IR file throws InputError with a clear message", "[vta][parser]") {
    const std::string dir = std::string(VP_SOURCE_DIR) + "/tests/data/vta_bad/";
    const auto expected = vp::mapper::read_json_file(dir + "expected_errors.json.txt");
    REQUIRE(expected.size() >= 20);
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        // Network files, and programs that parse but do not compile: vta_bad_input.sh.
        if (it.key().rfind("net_", 0) == 0 || it.key().rfind("vtanet_", 0) == 0 || it.key().rfind("compile_", 0) == 0) continue;
        const std::string file = dir + it.key() + ".json";
        INFO(file);
        std::string msg;
        try {
            load_program(file);
        } catch (const vp::InputError& e) {
            msg = e.what();
        }
        REQUIRE(!msg.empty());
        CHECK(msg.find(it.value().get<std::string>()) != std::string::npos);
        CHECK(msg.find(it.key() + ".json") != std::string::npos);  // names the file
        UNSCOPED_INFO(msg);
    }
}

TEST_CASE("Errors carry the JSON pointer of the offending value", "[vta][parser]") {
    const std::string dir = std::string(VP_SOURCE_DIR) + "/tests/data/vta_bad/";
    REQUIRE_THROWS_WITH(load_program(dir + "unknown_op.json"), Catch::Contains("/ALU/C/0/0"));
    REQUIRE_THROWS_WITH(load_program(dir + "strategy_7.json"), Catch::Contains("/STRATEGY"));
    REQUIRE_THROWS_WITH(load_program(dir + "shape_mismatch_k.json"), Catch::Contains("/GEMM"));
}

TEST_CASE("Example programs parse, compile and match the reference", "[vta][parser]") {
    const std::string dir = std::string(VP_SOURCE_DIR) + "/workloads/vta/";
    int n = 0;
    for (const char* f : {"matmul_16x16.json", "matmul_const_16x16.json", "maxpool_36x16.json", "add_36x16.json",
                          "listing10_6x2.json", "lenet5_c5_fc.json", "load_datalist.json", "partition_gemm_s2.json",
                          "partition_gemm_auto.json"}) {
        INFO(f);
        const Program p = load_program(dir + f, 17);
        const CompiledProgram cp = compile(p, VtaConfig{});
        REQUIRE(run_functional(cp) == vta_ref::run(p));
        ++n;
    }
    CHECK(n == 9);
}

TEST_CASE("Data files are read as raw little-endian (int8 A/B, int32 X)", "[vta][parser]") {
    const std::string dir = std::string(VP_SOURCE_DIR) + "/workloads/vta/";
    const Program p = load_program(dir + "matmul_16x16.json");
    std::ifstream fa(dir + "data/a_16x16.bin", std::ios::binary), fx(dir + "data/x_1x16.bin", std::ios::binary);
    char a0 = 0;
    fa.read(&a0, 1);
    CHECK(p.A().at(0, 0) == std::int32_t(std::int8_t(a0)));
    unsigned char x[4] = {0, 0, 0, 0};
    fx.read(reinterpret_cast<char*>(x), 4);
    CHECK(p.X().at(0, 0) == std::int32_t(std::uint32_t(x[0]) | std::uint32_t(x[1]) << 8 | std::uint32_t(x[2]) << 16 | std::uint32_t(x[3]) << 24));
    // "input" matrices are generated deterministically from the seed.
    const Program q1 = load_program(dir + "lenet5_c5_fc.json", 5), q2 = load_program(dir + "lenet5_c5_fc.json", 5),
                  q3 = load_program(dir + "lenet5_c5_fc.json", 6);
    CHECK(q1.B().data == q2.B().data);
    CHECK(q1.B().data != q3.B().data);
}

TEST_CASE("Compiled example: partitioning figures of the examples", "[vta][parser]") {
    const std::string dir = std::string(VP_SOURCE_DIR) + "/workloads/vta/";
    const CompiledProgram big = compile(load_program(dir + "partition_gemm_s2.json"), VtaConfig{});
    CHECK(big.strategy == 2);
    CHECK(big.partition.steps.size() > 1);
    CHECK(big.stats.macs == std::uint64_t(16) * 144 * 4 * 16 * 16 * 16);  // alpha*lambda*beta*BLOCK^3
    for (const DramRegion& r : big.regions) CHECK(r.addr % 4096 == 0);      // page-aligned objects
    const CompiledProgram small = compile(load_program(dir + "matmul_16x16.json"), VtaConfig{});
    CHECK(small.partition.steps.size() == 1);
    CHECK(small.stats.gemm_uops == 16);
}
