// The plain C++ reference against hand-worked examples (Compilation and Execution of an Embeddable YOLO-NAS on the VTA Listing 10 / Example 10,
// vta_isa.md §3 shift and narrowing rules).
#include <catch2/catch.hpp>

#include "mapper/vta/ir_parser.h"
#include "vta_reference.h"

using namespace vp::mapper::vta;

namespace {
Matrix mat(const std::string& n, int r, int c, std::vector<std::int32_t> d, MatrixSource s = MatrixSource::Input) {
    Matrix m;
    m.name = n;
    m.rows = r;
    m.cols = c;
    m.source = s;
    m.data = std::move(d);
    return m;
}
}  // namespace

TEST_CASE("Reference: 2x2 GEMM with bias and narrowing", "[vta][reference]") {
    Program p;
    p.matrices = {mat("A", 2, 2, {1, 2, 3, 4}), mat("B", 2, 2, {5, 6, 7, 8}), mat("X", 1, 2, {100, -1000}),
                  mat("C", 2, 2, {}, MatrixSource::Output)};
    p.a = 0; p.b = 1; p.x = 2; p.c = 3;
    p.has_gemm = true;
    // A*B = [[19,22],[43,50]]; + bias -> [[119,-978],[143,-950]]; low 8 bits signed:
    // 119 -> 119; -978 = 0x...FC2E -> 0x2E = 46; 143 -> -113; -950 = 0x...FC4A -> 74.
    const auto out = vta_ref::run(p);
    REQUIRE(out == std::vector<std::int8_t>{119, 46, -113, 74});
}

TEST_CASE("Reference: Listing 10 ALU ops on a 6x2 matrix (Compilation and Execution of an Embeddable YOLO-NAS on the VTA Example 10)", "[vta][reference]") {
    Program p;
    p.matrices = {mat("X", 6, 2, {-1, 5, 3, -2, -4, 7, 2, 2, 9, -8, -3, 1}), mat("C", 6, 2, {}, MatrixSource::Output)};
    p.x = 0; p.c = 1;
    auto vv = [](std::int64_t d, std::int64_t dt, std::int64_t s, std::int64_t st, std::int64_t n) {
        AluOpSpec o; o.kind = AluOpSpec::Kind::VectorVector; o.op = AluOp::Max;
        o.dst = d; o.dst_step = dt; o.src = s; o.src_step = st; o.count = n; return o;
    };
    auto vs = [](std::int64_t d, std::int64_t dt, std::int32_t imm, std::int64_t n) {
        AluOpSpec o; o.kind = AluOpSpec::Kind::Immediate; o.op = AluOp::Max;
        o.dst = d; o.dst_step = dt; o.imm = imm; o.count = n; return o;
    };
    p.alu = {vv(0, 0, 1, 0, 1), vs(0, 0, 1, 1), vv(0, 2, 1, 2, 3), vs(0, 1, 0, 6)};
    // Rows: C0=(-1,5) C1=(3,-2) C2=(-4,7) C3=(2,2) C4=(9,-8) C5=(-3,1)
    // op1: C0 = max(C0,C1) = (3,5); op2: C0 = max(C0,1) = (3,5)
    // op3: C0=max(C0,C1)=(3,5); C2=max(C2,C3)=(2,7); C4=max(C4,C5)=(9,1)
    // op4: ReLU: C1=(3,0), C3=(2,2), C5=(0,1)
    const auto out = vta_ref::run(p);
    REQUIRE(out == std::vector<std::int8_t>{3, 5, 3, 0, 2, 7, 2, 2, 9, 1, 0, 1});
}

TEST_CASE("Reference: SHR follows fsim (negative shift = left shift), MUL wraps", "[vta][reference]") {
    CHECK(vta_ref::shr(-17, 2) == -5);      // arithmetic: floor(-17/4)
    CHECK(vta_ref::shr(17, 2) == 4);
    CHECK(vta_ref::shr(3, -4) == 48);
    CHECK(vta_ref::shr(-1, 40) == -1);      // saturated distance
    CHECK(vta_ref::wrap_mul(65536, 65536) == 0);
    CHECK(vta_ref::wrap_add(2147483647, 1) == -2147483647 - 1);
    CHECK(vta_ref::alu(AluOp::Min, -3, 2) == -3);
}

TEST_CASE("Reference: ADD_ACC and partial STORE", "[vta][reference]") {
    Program p;
    p.matrices = {mat("X", 3, 1, {1, 2, 3}), mat("Y", 3, 1, {10, 20, 127}), mat("C", 3, 1, {}, MatrixSource::Output)};
    p.x = 0; p.y = 1; p.c = 2;
    AluOpSpec o; o.kind = AluOpSpec::Kind::AddAcc;
    p.alu = {o};
    p.store_rows = {RowRange{2, -2, 2}};  // rows 2, 0
    REQUIRE(vta_ref::run(p) == std::vector<std::int8_t>{-126, 11});
}
