#pragma once
// A parsed and checked VTA IR program (Compilation and Execution of an Embeddable YOLO-NAS on the VTA grammar), with its data.
// Roles follow the compiler: A = LOAD INP[0], B = LOAD WGT[0], X = LOAD ACC[0],
// Y = LOAD ACC[1], C = the single matrix whose source is "output".
#include <cstdint>
#include <string>
#include <vector>

#include "mapper/vta/isa.h"

namespace vp::mapper::vta {

enum class MatrixSource { File, Input, Output };

struct Matrix {
    std::string name;
    int rows = 0, cols = 0;
    MatrixSource source = MatrixSource::Input;
    std::string path;                // resolved file path for MatrixSource::File
    std::vector<std::int32_t> data;  // row-major rows*cols (int8 range for A/B); empty for C
    std::int32_t at(int r, int c) const { return data[std::size_t(r) * cols + c]; }
};

// [[start, step], count]: rows start + i*step for i < count (the VTA IR grammar and Algorithm 1 of Compilation and Execution of an Embeddable YOLO-NAS on the VTA).
struct RowRange {
    std::int64_t start = 0, step = 1, count = 0;
    std::int64_t row(std::int64_t i) const { return start + i * step; }
};

struct AluOpSpec {
    enum class Kind { VectorVector, Immediate, AddAcc };
    Kind kind = Kind::Immediate;
    AluOp op = AluOp::Max;
    std::int64_t dst = 0, dst_step = 0, src = 0, src_step = 0, count = 0;
    std::int32_t imm = 0;
    std::int64_t dst_row(std::int64_t i) const { return dst + i * dst_step; }
    std::int64_t src_row(std::int64_t i) const { return src + i * src_step; }
};

struct Program {
    std::string name;
    std::string source;  // file name for messages
    std::vector<Matrix> matrices;
    int a = -1, b = -1, x = -1, y = -1, c = -1;  // indices into matrices, -1 = absent
    // Optional data_lists of LOAD (empty = whole matrix). Unlisted rows are not loaded: they
    // read as zero (assumption: Compilation and Execution of an Embeddable YOLO-NAS on the VTA gives no rule for the rows left out).
    std::vector<RowRange> a_rows, b_rows, x_rows;
    bool has_gemm = false;
    bool gemm_scalar = false;      // GEMM [C, A, <int>]: C += A * scalar
    std::int32_t scalar = 0;       // int8 range
    std::vector<AluOpSpec> alu;    // applied in order to the rows of C
    std::vector<RowRange> store_rows;  // empty = whole matrix
    int strategy = 1;              // 1..4, 0 = "auto" (least DRAM traffic)

    const Matrix& C() const { return matrices[std::size_t(c)]; }
    const Matrix& A() const { return matrices[std::size_t(a)]; }
    const Matrix& B() const { return matrices[std::size_t(b)]; }
    const Matrix& X() const { return matrices[std::size_t(x)]; }
    const Matrix& Y() const { return matrices[std::size_t(y)]; }
    bool has_add_acc() const { return !alu.empty() && alu.front().kind == AluOpSpec::Kind::AddAcc; }
    // Row indices of C written to DRAM by STORE, in order.
    std::vector<std::int64_t> stored_rows() const;
};

}  // namespace vp::mapper::vta
