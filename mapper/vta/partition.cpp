#include "mapper/vta/partition.h"

#include <algorithm>
#include <cmath>

#include "mapper/common/errors.h"

namespace vp::mapper::vta {

const char* to_string(PartitionKind k) {
    switch (k) {
        case PartitionKind::Fits: return "fits";
        case PartitionKind::Strategy1: return "strategy1";
        case PartitionKind::Strategy2: return "strategy2";
        case PartitionKind::Strategy3: return "strategy3";
        case PartitionKind::Strategy4: return "strategy4";
        case PartitionKind::MulConstant: return "mul_constant";
        case PartitionKind::AddAccChunks: return "add_acc_chunks";
        case PartitionKind::AluColumns: return "alu_columns";
    }
    return "?";
}

Capacities capacities(const VtaConfig& cfg) {
    Capacities c;
    c.inp = cfg.inp_depth() / cfg.block();
    c.wgt = cfg.wgt_depth();
    c.acc = cfg.acc_depth() / cfg.block();
    c.out = cfg.out_depth() / cfg.block();
    return c;
}

namespace {


Step make(int i0, int i1, int j0, int j1, int k0, int k1, int lambda) {
    Step s;
    s.i0 = i0; s.i1 = i1; s.j0 = j0; s.j1 = j1; s.k0 = k0; s.k1 = k1;
    s.first = k0 == 0;
    s.last = k1 == lambda;
    return s;
}

// Row-major tiles of th x tw covering alpha x beta; k range tied to j (scalar GEMM) or empty.
void tiles_2d(Partition& p, const BlockShape& s, int th, int tw, bool k_is_j) {
    for (int i0 = 0; i0 < s.alpha; i0 += th)
        for (int j0 = 0; j0 < s.beta; j0 += tw) {
            const int i1 = std::min(s.alpha, i0 + th), j1 = std::min(s.beta, j0 + tw);
            Step st = make(i0, i1, j0, j1, k_is_j ? j0 : 0, k_is_j ? j1 : 0, 0);
            st.first = st.last = true;
            p.steps.push_back(st);
        }
}

// A tile th x tw with th*tw <= m, as wide as possible (rows of C stay contiguous).
void tile_dims(const BlockShape& s, int m, int& th, int& tw) {
    tw = std::min(s.beta, m);
    th = std::max(1, std::min(s.alpha, m / tw));
}

}  // namespace

Partition partition(OpCase op, const BlockShape& s, const Capacities& cap, int strategy, bool only_imm_alu) {
    if (s.alpha < 1 || s.beta < 1 || s.lambda < 1) throw InputError("partition: empty matrix");
    if (cap.inp < 1 || cap.wgt < 1 || cap.acc < 1 || cap.out < 1) throw InputError("partition: a buffer holds no block");
    Partition p;
    const long nb_a = long(s.alpha) * s.lambda, nb_b = long(s.lambda) * s.beta, nb_c = long(s.alpha) * s.beta;
    const int acc_out = std::min(cap.acc, cap.out);
    switch (op) {
        case OpCase::Gemm: {
            // Compilation and Execution of an Embeddable YOLO-NAS on the VTA, matrix partitioning, case 1: no overfitting iff every operand fits (strict <, as the code).
            if (nb_a < cap.inp && nb_b < cap.wgt && nb_c < cap.out && nb_c < cap.acc) {
                p.steps.push_back(make(0, s.alpha, 0, s.beta, 0, s.lambda, s.lambda));
                return p;
            }
            if (!only_imm_alu)
                throw InputError("the GEMM operands overflow the VTA buffers and the program has vector-vector ALU "
                                 "operations, which need the whole output resident: only *_IMM operations can follow "
                                 "a partitioned GEMM (Compilation and Execution of an Embeddable YOLO-NAS on the VTA §5)");
            const int b = std::min({cap.inp, cap.wgt, cap.acc, cap.out});
            p.kind = PartitionKind(strategy);
            switch (strategy) {
                case 1: {  // one C block at a time, chunks of delta along k
                    const int d = std::min(b, s.lambda);
                    for (int i = 0; i < s.alpha; ++i)
                        for (int j = 0; j < s.beta; ++j)
                            for (int k = 0; k < s.lambda; k += d)
                                p.steps.push_back(make(i, i + 1, j, j + 1, k, std::min(s.lambda, k + d), s.lambda));
                    break;
                }
                case 2: {  // square C tiles
                    int th = 1;
                    for (int h = 1; h * h <= acc_out; ++h)
                        if (acc_out % h == 0) th = h;
                    int tw = acc_out / th;
                    th = std::min(th, s.alpha);
                    tw = std::min(tw, s.beta);
                    const int tk = std::min({s.lambda, cap.inp / th, cap.wgt / tw});
                    if (tk < 1) throw InputError("partition strategy 2: a C tile leaves no room for A or B blocks");
                    for (int i = 0; i < s.alpha; i += th)
                        for (int j = 0; j < s.beta; j += tw)
                            for (int k = 0; k < s.lambda; k += tk)
                                p.steps.push_back(make(i, std::min(s.alpha, i + th), j, std::min(s.beta, j + tw), k,
                                                       std::min(s.lambda, k + tk), s.lambda));
                    break;
                }
                case 3: {  // C column by column, row groups of delta
                    const int d = std::min(b, s.alpha);
                    for (int i = 0; i < s.alpha; i += d)
                        for (int j = 0; j < s.beta; ++j)
                            for (int k = 0; k < s.lambda; ++k)
                                p.steps.push_back(make(i, std::min(s.alpha, i + d), j, j + 1, k, k + 1, s.lambda));
                    break;
                }
                case 4: {  // C row by row, column groups of delta
                    const int d = std::min(b, s.beta);
                    for (int i = 0; i < s.alpha; ++i)
                        for (int j = 0; j < s.beta; j += d)
                            for (int k = 0; k < s.lambda; ++k)
                                p.steps.push_back(make(i, i + 1, j, std::min(s.beta, j + d), k, k + 1, s.lambda));
                    break;
                }
                default: throw InputError("partition: strategy " + std::to_string(strategy) + " is not 1, 2, 3 or 4");
            }
            return p;
        }
        case OpCase::ScalarGemm: {
            // B = scalar * I: one weight block; A and C share their shape (lambda == beta).
            if (nb_a < cap.inp && nb_c < cap.out && nb_c < cap.acc) {
                Step st = make(0, s.alpha, 0, s.beta, 0, s.beta, s.beta);
                p.steps.push_back(st);
                return p;
            }
            if (!only_imm_alu)
                throw InputError("the scalar GEMM overflows the VTA buffers and the program has vector-vector ALU "
                                 "operations: only *_IMM operations can follow a partitioned GEMM");
            p.kind = PartitionKind::MulConstant;
            int th, tw;
            tile_dims(s, std::min(cap.inp, acc_out), th, tw);
            tiles_2d(p, s, th, tw, true);
            return p;
        }
        case OpCase::AddAcc: {
            if (2 * nb_c < cap.acc && nb_c < cap.out) {
                p.steps.push_back(make(0, s.alpha, 0, s.beta, 0, 0, 0));
                return p;
            }
            if (!only_imm_alu)
                throw InputError("ADD_ACC overflows the accumulator and is followed by vector-vector ALU operations");
            p.kind = PartitionKind::AddAccChunks;
            const int m = std::min(cap.acc / 2, cap.out);
            if (m < 1) throw InputError("ADD_ACC: the accumulator cannot hold one block of X and one of Y");
            int th, tw;
            tile_dims(s, m, th, tw);
            tiles_2d(p, s, th, tw, false);
            return p;
        }
        case OpCase::AluOnly: {
            if (nb_c <= acc_out) {
                p.steps.push_back(make(0, s.alpha, 0, s.beta, 0, 0, 0));
                return p;
            }
            p.kind = PartitionKind::AluColumns;
            int th, tw;
            if (only_imm_alu) {
                tile_dims(s, acc_out, th, tw);
            } else {
                // Rows interact through vector-vector ops, columns never do: keep whole block
                // columns resident (the paper's ALU strategy never evicts a destination).
                if (s.alpha > acc_out)
                    throw InputError("ALU program: one block column of the output (" + std::to_string(s.alpha) +
                                     " blocks) exceeds the accumulator (" + std::to_string(acc_out) +
                                     " blocks) and vector-vector operations need all rows resident");
                th = s.alpha;
                tw = std::min(s.beta, acc_out / s.alpha);
            }
            tiles_2d(p, s, th, tw, false);
            return p;
        }
    }
    return p;
}

std::string check_partition(OpCase op, const BlockShape& s, const Capacities& cap, const Partition& p) {
    const bool gemm = op == OpCase::Gemm || op == OpCase::ScalarGemm;
    const int L = op == OpCase::Gemm ? s.lambda : 1;
    // contributions[(i*beta + j)*L + k]
    std::vector<std::uint8_t> contrib(std::size_t(s.alpha) * s.beta * L, 0);
    std::vector<std::uint8_t> state(std::size_t(s.alpha) * s.beta, 0);  // 0 untouched, 1 resident, 2 stored
    const Step* resident = nullptr;
    for (std::size_t n = 0; n < p.steps.size(); ++n) {
        const Step& st = p.steps[n];
        const std::string at = "step " + std::to_string(n) + ": ";
        if (st.i0 < 0 || st.i1 > s.alpha || st.j0 < 0 || st.j1 > s.beta || st.th() < 1 || st.tw() < 1)
            return at + "C tile outside the matrix";
        const long c_blocks = long(st.th()) * st.tw();
        const long acc_blocks = op == OpCase::AddAcc ? 2 * c_blocks : c_blocks;
        if (acc_blocks > cap.acc || c_blocks > cap.out) return at + "C/X tile exceeds the ACC/OUT buffer";
        if (op == OpCase::Gemm) {
            if (st.k0 < 0 || st.k1 > s.lambda || st.tk() < 1) return at + "k range outside [0, lambda)";
            if (long(st.th()) * st.tk() > cap.inp) return at + "A blocks exceed the INP buffer";
            if (long(st.tk()) * st.tw() > cap.wgt) return at + "B blocks exceed the WGT buffer";
        } else if (op == OpCase::ScalarGemm) {
            if (c_blocks > cap.inp) return at + "A blocks exceed the INP buffer";
            if (st.k0 != st.j0 || st.k1 != st.j1) return at + "scalar GEMM k range must equal the j range";
        }
        // One C tile resident: a new tile may start only when the previous one was stored.
        const bool same_tile = resident && resident->i0 == st.i0 && resident->i1 == st.i1 && resident->j0 == st.j0 &&
                               resident->j1 == st.j1;
        if (resident && !same_tile) return at + "a new C tile starts while the previous one is still resident";
        for (int i = st.i0; i < st.i1; ++i)
            for (int j = st.j0; j < st.j1; ++j) {
                std::uint8_t& sc = state[std::size_t(i) * s.beta + j];
                if (sc == 2) return at + "C block (" + std::to_string(i) + "," + std::to_string(j) + ") touched after its store";
                if (sc == 0 && !st.first) return at + "C block used before X is loaded (first contribution without load)";
                if (sc == 1 && st.first) return at + "X reloaded over partial results";
                sc = 1;
                if (gemm) {
                    const int k0 = op == OpCase::Gemm ? st.k0 : 0, k1 = op == OpCase::Gemm ? st.k1 : 1;
                    for (int k = k0; k < k1; ++k)
                        if (contrib[(std::size_t(i) * s.beta + j) * L + k]++)
                            return at + "C block (" + std::to_string(i) + "," + std::to_string(j) + ") receives k=" +
                                   std::to_string(k) + " twice";
                }
                if (st.last) {
                    if (gemm)
                        for (int k = 0; k < L; ++k)
                            if (!contrib[(std::size_t(i) * s.beta + j) * L + k])
                                return at + "C block stored before its k=" + std::to_string(k) + " contribution";
                    sc = 2;
                }
            }
        resident = st.last ? nullptr : &st;
    }
    for (std::size_t b = 0; b < state.size(); ++b)
        if (state[b] != 2) return "C block " + std::to_string(b) + " never stored";
    return "";
}

}  // namespace vp::mapper::vta
