#include "mapper/vta/compiler.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

#include "mapper/common/errors.h"
#include "mapper/vta/queue_check.h"

namespace vp::mapper::vta {

std::vector<std::int8_t> CompiledProgram::extract_output(const std::uint8_t* dram) const {
    const int B = cfg.block();
    std::vector<std::int8_t> out;
    out.reserve(stored_rows.size() * std::size_t(out_cols));
    const std::uint64_t off = out_addr - dram_base;
    for (std::int64_t r : stored_rows)
        for (int c = 0; c < out_cols; ++c)
            out.push_back(std::int8_t(dram[off + (out_blocked ? std::uint64_t(c / B) * std::uint64_t(out_rows) + std::uint64_t(r)
                                                              : std::uint64_t(r) * out_row_vectors + std::uint64_t(c / B)) * B + c % B]));
    return out;
}

std::uint64_t partition_traffic(const Partition& part, OpCase op, const VtaConfig& cfg) {
    const std::uint64_t B = std::uint64_t(cfg.block());
    const std::uint64_t a = B * cfg.inp_elem_bytes(), w = cfg.wgt_elem_bytes(), x = B * cfg.acc_elem_bytes(),
                        c = B * cfg.out_elem_bytes();
    std::uint64_t t = 0;
    for (const Step& s : part.steps) {
        const std::uint64_t cb = std::uint64_t(s.th()) * s.tw();
        if (op == OpCase::Gemm) t += std::uint64_t(s.th()) * s.tk() * a + std::uint64_t(s.tk()) * s.tw() * w;
        if (op == OpCase::ScalarGemm) t += cb * a;
        if (s.first) t += cb * x * (op == OpCase::AddAcc ? 2 : 1);
        if (s.last) t += cb * c;
    }
    return t;
}

CompileStats count_program(const std::vector<Insn>& insns, const VtaConfig& cfg) {
    CompileStats s;
    for (const Insn& in : insns) {
        const std::uint64_t loop = std::uint64_t(in.iter_out) * in.iter_in * (in.uop_end - in.uop_bgn);
        const std::uint64_t elems = std::uint64_t(in.x_size) * in.y_size;
        switch (in.opcode) {
            case Opcode::Load:
                ++s.load_insns;
                if (in.mem_type == MemId::Inp) s.inp_bytes += elems * std::uint64_t(cfg.inp_elem_bytes());
                if (in.mem_type == MemId::Wgt) s.wgt_bytes += elems * std::uint64_t(cfg.wgt_elem_bytes());
                if (in.mem_type == MemId::Acc) s.acc_bytes += elems * std::uint64_t(cfg.acc_elem_bytes());
                if (in.mem_type == MemId::Uop) s.uop_bytes += elems * VtaConfig::kUopBytes;
                break;
            case Opcode::Store:
                ++s.store_insns;
                s.out_bytes += elems * std::uint64_t(cfg.out_elem_bytes());
                break;
            case Opcode::Gemm:
                ++s.gemm_insns;
                if (!in.reset) s.gemm_uops += loop;
                break;
            case Opcode::Alu:
                ++s.alu_insns;
                s.alu_uops += loop;
                break;
            case Opcode::Finish: break;
        }
    }
    s.macs = s.gemm_uops * cfg.macs_per_gemm_uop();
    s.insns = insns.size();
    return s;
}

namespace {


class Codegen {
public:
    Codegen(const Program& p, const VtaConfig& cfg, const CompileOptions& opt)
        : m_p(p), m_cfg(cfg), m_opt(opt), m_layout(cfg), m_B(cfg.block()) {}

    CompiledProgram run();

private:
    struct Region { std::uint64_t off = 0, bytes = 0; };

    void choose_partition();
    void allocate_and_pack();
    void emit_step(std::size_t n, const Step& st);
    void emit_alu(const Step& st, std::vector<Insn>& cq, std::uint32_t uop_base);
    std::uint32_t uop_dram_index(const std::vector<std::uint32_t>& words);
    Insn mem(Opcode op, MemId id, std::uint32_t sram, std::uint64_t dram_elem, std::uint32_t y, std::uint32_t x,
             std::uint32_t stride) const;
    Insn uop_load(std::uint32_t sram, const std::vector<Uop>& uops);
    std::uint64_t elem_addr(const Region& r, int elem_bytes) const { return (m_out.dram_base + r.off) / elem_bytes; }
    void push(std::vector<Insn>& q) {
        for (auto& i : q) m_insns.push_back(i);
        q.clear();
    }

    const Program& m_p;
    const VtaConfig& m_cfg;
    const CompileOptions& m_opt;
    InsnLayout m_layout;
    int m_B;
    OpCase m_op = OpCase::AluOnly;
    BlockShape m_s;
    Capacities m_cap;
    CompiledProgram m_out;
    Region m_a, m_w, m_x, m_y, m_c;
    std::vector<Insn> m_insns;
    std::vector<std::uint32_t> m_uop_words;
    std::map<std::vector<std::uint32_t>, std::uint32_t> m_uop_index;
    std::vector<bool> m_store_mask;  // rows of C that STORE writes
    bool m_pending_s2g = false;
    int m_reuse = 1;  // steps between two uses of the same INP/WGT half
};

Insn Codegen::mem(Opcode op, MemId id, std::uint32_t sram, std::uint64_t dram_elem, std::uint32_t y, std::uint32_t x,
                  std::uint32_t stride) const {
    if (dram_elem > 0xFFFFFFFFull) throw InputError("VTA program does not fit the 32-bit DRAM element address field");
    if (stride > 0xFFFF) throw InputError("matrix too wide: DRAM row stride " + std::to_string(stride) + " elements exceeds the 16-bit x_stride field");
    Insn i;
    i.opcode = op;
    i.mem_type = id;
    i.sram_base = sram;
    i.dram_base = std::uint32_t(dram_elem);
    i.y_size = y;
    i.x_size = x;
    i.x_stride = stride;
    return i;
}

std::uint32_t Codegen::uop_dram_index(const std::vector<std::uint32_t>& words) {
    auto it = m_uop_index.find(words);
    if (it != m_uop_index.end()) return it->second;
    const auto idx = std::uint32_t(m_uop_words.size());
    m_uop_words.insert(m_uop_words.end(), words.begin(), words.end());
    m_uop_index.emplace(words, idx);
    return idx;
}

Insn Codegen::uop_load(std::uint32_t sram, const std::vector<Uop>& uops) {
    std::vector<std::uint32_t> w;
    w.reserve(uops.size());
    for (const Uop& u : uops) w.push_back(m_layout.encode(u));
    // The UOP region address is only known after generation: dram_base is patched in run().
    Insn i = mem(Opcode::Load, MemId::Uop, sram, uop_dram_index(w), 1, std::uint32_t(uops.size()), std::uint32_t(uops.size()));
    return i;
}

void Codegen::choose_partition() {
    const Program& p = m_p;
    const auto cdiv = [](int a, int b) { return (a + b - 1) / b; };
    m_s.alpha = cdiv(p.C().rows, m_B);
    m_s.beta = cdiv(p.C().cols, m_B);
    m_s.lambda = p.has_gemm && !p.gemm_scalar ? cdiv(p.A().cols, m_B) : m_s.beta;
    m_op = p.has_gemm ? (p.gemm_scalar ? OpCase::ScalarGemm : OpCase::Gemm) : (p.has_add_acc() ? OpCase::AddAcc : OpCase::AluOnly);
    m_cap = capacities(m_cfg);
    if (m_opt.double_buffer) {
        m_cap.inp /= 2;
        m_cap.wgt /= 2;
        m_reuse = 2;
        m_out.virtual_threads = 2;
        if (m_cap.inp < 1 || m_cap.wgt < 1) throw InputError("double buffering needs room for two INP and two WGT blocks");
    }
    bool only_imm = true;
    for (const auto& o : p.alu)
        if (o.kind == AluOpSpec::Kind::VectorVector) only_imm = false;
    if (p.strategy == 0 && m_op == OpCase::Gemm) {
        std::uint64_t best = ~0ull;
        for (int s = 1; s <= 4; ++s) {
            Partition cand = partition(m_op, m_s, m_cap, s, only_imm);
            const std::uint64_t t = partition_traffic(cand, m_op, m_cfg);
            if (t < best) {
                best = t;
                m_out.partition = cand;
                m_out.strategy = s;
            }
        }
    } else {
        m_out.strategy = p.strategy == 0 ? 1 : p.strategy;
        m_out.partition = partition(m_op, m_s, m_cap, m_out.strategy, only_imm);
    }
    const std::string bad = check_partition(m_op, m_s, m_cap, m_out.partition);
    if (!bad.empty()) throw SimulationError("VTA compiler: invalid partition (" + bad + ")");
}

void Codegen::allocate_and_pack() {
    const Program& p = m_p;
    const int B = m_B;
    std::uint64_t off = 0;
    auto alloc = [&](Region& r, std::uint64_t bytes, const char* name) {
        r.off = off;
        r.bytes = bytes;
        m_out.regions.push_back(DramRegion{name, m_out.dram_base + off, bytes});
        off = page_up(off + bytes);
    };
    const std::uint64_t rows_pad = std::uint64_t(m_s.alpha) * B;
    if (p.has_gemm) alloc(m_a, rows_pad * m_s.lambda * m_cfg.inp_elem_bytes(), "INP");
    if (p.has_gemm) alloc(m_w, p.gemm_scalar ? m_cfg.wgt_elem_bytes() : std::uint64_t(m_s.lambda) * m_s.beta * m_cfg.wgt_elem_bytes(), "WGT");
    if (p.x >= 0) alloc(m_x, (p.X().rows == 1 ? 1 : rows_pad) * m_s.beta * m_cfg.acc_elem_bytes(), "ACC");
    if (p.y >= 0) alloc(m_y, rows_pad * m_s.beta * m_cfg.acc_elem_bytes(), "ACC_BIS");
    alloc(m_c, rows_pad * m_s.beta * m_cfg.out_elem_bytes(), "OUT");
    m_out.image.assign(off, 0);
    std::uint8_t* img = m_out.image.data();
    auto keep = [](const std::vector<RowRange>& rr, int rows) {
        std::vector<bool> v(std::size_t(rows), rr.empty());
        for (const auto& r : rr)
            for (std::int64_t i = 0; i < r.count; ++i) v[std::size_t(r.row(i))] = true;
        return v;
    };
    if (p.has_gemm) {
        const Matrix& A = p.A();
        const auto ka = keep(p.a_rows, A.rows);
        for (int r = 0; r < A.rows; ++r)
            if (ka[std::size_t(r)])
                for (int c = 0; c < A.cols; ++c)
                    img[m_a.off + (std::uint64_t(r) * m_s.lambda + c / B) * B + c % B] = std::uint8_t(A.at(r, c));
        const std::uint64_t blk = m_cfg.wgt_elem_bytes();
        if (p.gemm_scalar) {
            for (int d = 0; d < B; ++d) img[m_w.off + std::uint64_t(d) * B + d] = std::uint8_t(p.scalar);
        } else {
            const Matrix& W = p.B();
            const auto kb = keep(p.b_rows, W.rows);
            // Weight blocks are stored [BLOCK_OUT][BLOCK_IN] (vta_isa.md §3.2): out = inp . W^T.
            for (int k = 0; k < W.rows; ++k)
                if (kb[std::size_t(k)])
                    for (int n = 0; n < W.cols; ++n)
                        img[m_w.off + (std::uint64_t(k / B) * m_s.beta + n / B) * blk + std::uint64_t(n % B) * B + k % B] =
                            std::uint8_t(W.at(k, n));
        }
    }
    auto pack_acc = [&](const Matrix& M, const Region& r, const std::vector<RowRange>& rows) {
        const auto km = keep(rows, M.rows);
        for (int i = 0; i < M.rows; ++i)
            if (km[std::size_t(i)])
                for (int c = 0; c < M.cols; ++c) {
                    const std::uint32_t v = std::uint32_t(M.at(i, c));
                    std::uint8_t* d = img + r.off + ((std::uint64_t(i) * m_s.beta + c / B) * B + c % B) * 4;
                    d[0] = std::uint8_t(v);
                    d[1] = std::uint8_t(v >> 8);
                    d[2] = std::uint8_t(v >> 16);
                    d[3] = std::uint8_t(v >> 24);
                }
    };
    if (p.x >= 0) pack_acc(p.X(), m_x, p.x_rows);
    if (p.y >= 0) pack_acc(p.Y(), m_y, {});
    m_out.out_addr = m_out.dram_base + m_c.off;
}

void Codegen::emit_alu(const Step& st, std::vector<Insn>& cq, std::uint32_t uop_base) {
    const int B = m_B, tw = st.tw();
    const std::int64_t R0 = std::int64_t(st.i0) * B, R1 = std::min<std::int64_t>(std::int64_t(st.i1) * B, m_p.C().rows);
    const std::uint32_t acc_max = (1u << m_cfg.log_acc_depth()) - 1;
    struct Pending { Insn insn; std::vector<Uop> uops; };
    std::vector<Pending> ops;
    for (const AluOpSpec& o : m_p.alu) {
        if (o.op == AluOp::Mul && !m_cfg.alu_mul)
            throw InputError("ALU MUL is disabled in this VTA configuration (alu_mul: false)");
        Insn in;
        in.opcode = Opcode::Alu;
        in.alu_op = o.op;
        in.iter_in = std::uint32_t(tw);
        in.dst_factor_in = 1;
        in.src_factor_in = 1;
        if (o.kind == AluOpSpec::Kind::AddAcc) {  // C = X + Y, Y resident after the X tile
            const std::uint32_t y_off = std::uint32_t(st.th() * B * tw);
            in.iter_out = std::uint32_t(st.th() * B);
            in.dst_factor_out = std::uint32_t(tw);
            in.src_factor_out = std::uint32_t(tw);
            ops.push_back({in, {Uop{0, y_off, 0}}});
            continue;
        }
        const bool imm = o.kind == AluOpSpec::Kind::Immediate;
        in.use_imm = imm;
        in.imm = imm ? o.imm : 0;
        std::vector<Uop> seq;
        // Only the op's rows inside the resident tile [R0, R1): with a positive destination step
        // they are one index interval, found directly instead of scanning every row per tile.
        std::int64_t i_lo = 0, i_hi = o.count;
        if (o.dst_step > 0) {
            auto first_at_or_above = [&](std::int64_t row) {  // smallest i with dst_row(i) >= row
                return row <= o.dst ? 0 : (row - o.dst + o.dst_step - 1) / o.dst_step;
            };
            i_lo = std::min(o.count, first_at_or_above(R0));
            i_hi = std::min(o.count, first_at_or_above(R1));
        }
        for (std::int64_t i = i_lo; i < i_hi; ++i) {
            const std::int64_t d = o.dst_row(i);
            if (d < R0 || d >= R1) continue;
            const std::int64_t s = imm ? d : o.src_row(i);
            if (s < R0 || s >= R1) throw SimulationError("VTA compiler: ALU source row outside the resident tile");
            seq.push_back(Uop{std::uint32_t((d - R0) * tw), std::uint32_t((s - R0) * tw), 0});
        }
        if (seq.empty()) continue;
        // Arithmetic progressions become one micro-op and an outer loop (GEMM/ALU loop fields).
        bool regular = seq.size() <= ((1u << InsnLayout::kLoopIterBits) - 1);
        const std::int64_t dd = seq.size() > 1 ? std::int64_t(seq[1].dst) - seq[0].dst : 0;
        const std::int64_t sd = seq.size() > 1 ? std::int64_t(seq[1].src) - seq[0].src : 0;
        if (dd < 0 || sd < 0 || dd > acc_max || sd > acc_max) regular = false;
        for (std::size_t k = 1; regular && k < seq.size(); ++k)
            if (std::int64_t(seq[k].dst) - seq[k - 1].dst != dd || std::int64_t(seq[k].src) - seq[k - 1].src != sd) regular = false;
        if (regular) {
            in.iter_out = std::uint32_t(seq.size());
            in.dst_factor_out = std::uint32_t(dd);
            in.src_factor_out = std::uint32_t(sd);
            ops.push_back({in, {seq.front()}});
        } else {
            in.iter_out = 1;
            ops.push_back({in, seq});
        }
    }
    const std::uint32_t room = std::uint32_t(m_cfg.uop_depth()) - uop_base;
    std::size_t total = 0;
    for (const auto& o : ops) total += o.uops.size();
    if (total <= room) {  // one micro-op load for every ALU op of the tile
        std::vector<Uop> all;
        for (auto& o : ops) {
            o.insn.uop_bgn = uop_base + std::uint32_t(all.size());
            all.insert(all.end(), o.uops.begin(), o.uops.end());
            o.insn.uop_end = uop_base + std::uint32_t(all.size());
        }
        if (!all.empty()) cq.push_back(uop_load(uop_base, all));
        for (auto& o : ops) cq.push_back(o.insn);
        return;
    }
    for (auto& o : ops)  // per op, in chunks that fit the free part of the UOP buffer
        for (std::size_t b = 0; b < o.uops.size(); b += room) {
            const std::size_t e = std::min(o.uops.size(), b + room);
            cq.push_back(uop_load(uop_base, std::vector<Uop>(o.uops.begin() + std::ptrdiff_t(b), o.uops.begin() + std::ptrdiff_t(e))));
            Insn in = o.insn;
            in.uop_bgn = uop_base;
            in.uop_end = uop_base + std::uint32_t(e - b);
            cq.push_back(in);
        }
}

void Codegen::emit_step(std::size_t n, const Step& st) {
    const int B = m_B, th = st.th(), tw = st.tw();
    const bool gemm = m_op == OpCase::Gemm || m_op == OpCase::ScalarGemm;
    const bool scalar = m_op == OpCase::ScalarGemm;
    const int tk = scalar ? tw : st.tk();
    const std::size_t nsteps = m_out.partition.steps.size();
    const std::uint32_t half = std::uint32_t(n % std::size_t(m_reuse));
    const std::uint32_t ba = half * std::uint32_t(m_cap.inp * B);  // INP entries
    const std::uint32_t bb = scalar ? 0 : half * std::uint32_t(m_cap.wgt);
    std::vector<Insn> lq, cq, sq;
    // --- load module: A tile (one 2-D load per block row), B tile ---
    if (gemm) {
        const std::uint64_t a_elem = elem_addr(m_a, m_cfg.inp_elem_bytes());
        for (int i = 0; i < th; ++i)
            lq.push_back(mem(Opcode::Load, MemId::Inp, ba + std::uint32_t(i * B * tk),
                             a_elem + std::uint64_t(st.i0 + i) * B * m_s.lambda + std::uint64_t(scalar ? st.j0 : st.k0),
                             std::uint32_t(B), std::uint32_t(tk), std::uint32_t(m_s.lambda)));
        const std::uint64_t w_elem = elem_addr(m_w, m_cfg.wgt_elem_bytes());
        if (!scalar) lq.push_back(mem(Opcode::Load, MemId::Wgt, bb, w_elem + std::uint64_t(st.k0) * m_s.beta + std::uint64_t(st.j0),
                                      std::uint32_t(tk), std::uint32_t(tw), std::uint32_t(m_s.beta)));
        else if (n == 0) lq.push_back(mem(Opcode::Load, MemId::Wgt, 0, w_elem, 1, 1, 1));
        if (n >= std::size_t(m_reuse)) lq.front().dep.pop_next = true;  // WAR: g2l
        lq.back().dep.push_next = true;                                 // RAW: l2g
    }
    // --- compute module ---
    std::uint32_t uop_end = 0;
    if (gemm) {
        std::vector<Uop> u;
        if (scalar) {
            for (int r = 0; r < B; ++r) u.push_back(Uop{std::uint32_t(r * tw), ba + std::uint32_t(r * tw), 0});
        } else {
            for (int k = 0; k < tk; ++k)
                for (int r = 0; r < B; ++r)
                    u.push_back(Uop{std::uint32_t(r * tw), ba + std::uint32_t(r * tk + k), bb + std::uint32_t(k * tw)});
        }
        if (u.size() > std::size_t(m_cfg.uop_depth())) throw InputError("VTA compiler: GEMM micro-ops exceed the UOP buffer");
        cq.push_back(uop_load(0, u));
        uop_end = std::uint32_t(u.size());
    }
    auto gemm_insn = [&](bool reset) {
        Insn g;
        g.opcode = Opcode::Gemm;
        g.reset = reset;
        g.uop_bgn = 0;
        g.uop_end = reset ? std::uint32_t(B) : uop_end;
        g.iter_out = std::uint32_t(th);
        g.iter_in = std::uint32_t(tw);
        g.dst_factor_out = th > 1 ? std::uint32_t(B * tw) : 0;
        g.src_factor_out = th > 1 ? std::uint32_t(B * (scalar ? tw : tk)) : 0;
        g.dst_factor_in = tw > 1 ? 1 : 0;
        g.src_factor_in = scalar && tw > 1 ? 1 : 0;
        g.wgt_factor_in = !scalar && tw > 1 ? 1 : 0;
        return g;
    };
    if (st.first) {
        const std::size_t first_acc_write = cq.size();
        if (m_p.x >= 0) {
            const bool bias = m_p.X().rows == 1;
            const std::uint64_t x_elem = elem_addr(m_x, m_cfg.acc_elem_bytes());
            for (int i = 0; i < th; ++i)
                cq.push_back(mem(Opcode::Load, MemId::Acc, std::uint32_t(i * B * tw),
                                 x_elem + (bias ? 0 : std::uint64_t(st.i0 + i) * B * m_s.beta) + std::uint64_t(st.j0),
                                 std::uint32_t(B), std::uint32_t(tw), bias ? 0u : std::uint32_t(m_s.beta)));
            if (m_p.y >= 0) {
                const std::uint64_t y_elem = elem_addr(m_y, m_cfg.acc_elem_bytes());
                for (int i = 0; i < th; ++i)
                    cq.push_back(mem(Opcode::Load, MemId::Acc, std::uint32_t((th + i) * B * tw),
                                     y_elem + std::uint64_t(st.i0 + i) * B * m_s.beta + std::uint64_t(st.j0), std::uint32_t(B),
                                     std::uint32_t(tw), std::uint32_t(m_s.beta)));
            }
        } else {
            cq.push_back(gemm_insn(true));  // no X: zero the C tile (fsim reset semantics)
        }
        if (m_pending_s2g) cq[first_acc_write].dep.pop_next = true;  // WAR on the stored tile
        m_pending_s2g = false;
    }
    if (gemm) {
        Insn g = gemm_insn(false);
        g.dep.pop_prev = true;                                          // l2g
        if (n + std::size_t(m_reuse) < nsteps) g.dep.push_prev = true;  // g2l
        cq.push_back(g);
    }
    if (st.last) {
        emit_alu(st, cq, uop_end);
        cq.back().dep.push_next = true;  // g2s
        // --- store module: runs of stored rows inside this tile ---
        const std::int64_t R0 = std::int64_t(st.i0) * B, R1 = std::min<std::int64_t>(std::int64_t(st.i1) * B, m_p.C().rows);
        const std::uint64_t c_elem = elem_addr(m_c, m_cfg.out_elem_bytes());
        for (std::int64_t r = R0; r < R1;) {
            if (!m_store_mask[std::size_t(r)]) { ++r; continue; }
            std::int64_t e = r;
            while (e < R1 && m_store_mask[std::size_t(e)]) ++e;
            sq.push_back(mem(Opcode::Store, MemId::Out, std::uint32_t((r - R0) * tw), c_elem + std::uint64_t(r) * m_s.beta + std::uint64_t(st.j0),
                             std::uint32_t(e - r), std::uint32_t(tw), std::uint32_t(m_s.beta)));
            r = e;
        }
        if (sq.empty()) sq.push_back(mem(Opcode::Store, MemId::Out, 0, 0, 0, 0, 0));  // dependency carrier
        sq.front().dep.pop_prev = true;  // g2s
        sq.back().dep.push_prev = true;  // s2g
        m_pending_s2g = true;
    }
    push(lq);
    push(cq);
    push(sq);
}

CompiledProgram Codegen::run() {
    check_compiler_config(m_cfg);
    if (m_opt.dram_base % CompileOptions::kPageBytes != 0) throw InputError("VTA compiler: dram_base must be page aligned");
    m_out.cfg = m_cfg;
    m_out.name = m_p.name;
    m_out.dram_base = m_opt.dram_base;
    choose_partition();
    allocate_and_pack();
    m_out.stored_rows = m_p.stored_rows();
    m_store_mask.assign(std::size_t(m_p.C().rows), false);
    for (std::int64_t r : m_out.stored_rows) m_store_mask[std::size_t(r)] = true;
    m_out.out_rows = m_p.C().rows;
    m_out.out_cols = m_p.C().cols;
    m_out.out_row_vectors = m_s.beta;
    for (std::size_t n = 0; n < m_out.partition.steps.size(); ++n) emit_step(n, m_out.partition.steps[n]);
    // Final synchronisation (runtime Synchronize()): a compute no-op pops the last s2g, then FINISH.
    Insn nop = mem(Opcode::Load, MemId::Uop, 0, 0, 0, 0, 0);
    nop.dep.pop_next = true;
    m_insns.push_back(nop);
    Insn fin;
    fin.opcode = Opcode::Finish;
    m_insns.push_back(fin);
    // UOP and INSN regions are allocated after generation (Compilation and Execution of an Embeddable YOLO-NAS on the VTA DRAM allocation order).
    std::uint64_t off = m_out.image.size();
    const std::uint64_t uop_off = off;
    const std::uint64_t uop_bytes = m_uop_words.size() * VtaConfig::kUopBytes;
    m_out.regions.push_back(DramRegion{"UOP", m_out.dram_base + uop_off, uop_bytes});
    off = page_up(off + uop_bytes);
    const std::uint64_t insn_off = off;
    const std::uint64_t insn_bytes = m_insns.size() * VtaConfig::kInsnBytes;
    m_out.regions.push_back(DramRegion{"INSN", m_out.dram_base + insn_off, insn_bytes});
    off = page_up(off + insn_bytes);
    m_out.image.resize(off, 0);
    for (std::size_t i = 0; i < m_uop_words.size(); ++i)
        for (int b = 0; b < 4; ++b) m_out.image[uop_off + 4 * i + std::size_t(b)] = std::uint8_t(m_uop_words[i] >> (8 * b));
    const std::uint64_t uop_elem = (m_out.dram_base + uop_off) / VtaConfig::kUopBytes;
    CompileStats& s = m_out.stats;
    for (std::size_t n = 0; n < m_insns.size(); ++n) {
        Insn& in = m_insns[n];
        if (in.opcode == Opcode::Load && in.mem_type == MemId::Uop && in.x_size > 0) {
            if (uop_elem + in.dram_base > 0xFFFFFFFFull) throw InputError("VTA program does not fit the 32-bit DRAM element address field");
            in.dram_base = std::uint32_t(uop_elem + in.dram_base);
        }
        const InsnWord w = m_layout.encode(in);
        for (int h = 0; h < 2; ++h)
            for (int b = 0; b < 8; ++b)
                m_out.image[insn_off + 16 * n + std::size_t(8 * h + b)] = std::uint8_t(w.w[std::size_t(h)] >> (8 * b));
    }
    s = count_program(m_insns, m_cfg);
    s.steps = m_out.partition.steps.size();
    s.uops = m_uop_words.size();
    m_out.insn_addr = m_out.dram_base + insn_off;
    m_out.insn_count = std::uint32_t(m_insns.size());
    m_out.insns = std::move(m_insns);
    return std::move(m_out);
}

CompiledProgram compile_threads(const Program& p, const VtaConfig& cfg, const CompileOptions& opt) {
    if (p.strategy != 0 || !p.has_gemm) return checked_queues(Codegen(p, cfg, opt).run(), opt);
    // STRATEGY "auto": rank the four strategies by estimated cycles, then DMA bytes. With two
    // virtual threads every candidate is partitioned for the halved INP/WGT capacities and its
    // estimate replays the overlapped stream, so the ranking is that of the halved buffers.
    const EstimateParams& est = opt.estimate;
    auto dma = [](const CompiledProgram& c) {
        const auto& s = c.stats;
        return s.inp_bytes + s.wgt_bytes + s.acc_bytes + s.uop_bytes + s.out_bytes;
    };
    std::optional<CompiledProgram> best;
    std::uint64_t best_cycles = 0;
    std::string last_error;
    for (int s = 1; s <= 4; ++s) {
        Program q = p;
        q.strategy = s;
        try {
            CompiledProgram c = checked_queues(Codegen(q, cfg, opt).run(), opt);
            const std::uint64_t cyc = estimate_cycles(c, est).total;
            if (!best || cyc < best_cycles || (cyc == best_cycles && dma(c) < dma(*best))) {
                best_cycles = cyc;
                best = std::move(c);
            }
        } catch (const InputError& e) {
            last_error = e.what();  // this strategy cannot map the program; try the others
        }
    }
    if (!best) throw InputError(last_error);
    return std::move(*best);
}

}  // namespace

CompiledProgram checked_queues(CompiledProgram c, const CompileOptions& opt) {
    if (!opt.estimate.hw.valid()) return c;
    const VtaTiming& v = opt.estimate.hw.vta;
    const QueueCheck q = check_queues(c.insns, v.cmd_queue_depth, v.token_queue_depth);
    if (q.completes) return c;
    const std::string what = "the program of " + c.name + " (strategy " + std::to_string(c.strategy) +
                             (c.virtual_threads > 1 ? ", double buffering" : "") + ") cannot reach FINISH";
    if (!q.full_queue) throw SimulationError("VTA compiler: " + what + ": " + q.state);
    throw InputError("vta.token_queue_depth: " + what + " with vta.cmd_queue_depth " + std::to_string(v.cmd_queue_depth) +
                     " and vta.token_queue_depth " + std::to_string(v.token_queue_depth) + " (" + q.state +
                     "); raise vta.token_queue_depth or vta.cmd_queue_depth");
}

void check_compiler_config(const VtaConfig& cfg, const std::string& where) {
    if (cfg.batch() != 1)
        throw InputError(where + "vta.log_batch: the VTA compiler supports only BATCH = 1 (log_batch 0), found log_batch " +
                         std::to_string(cfg.log_batch));
}

CompiledProgram compile(const Program& p, const VtaConfig& cfg, const CompileOptions& opt) {
    cfg.validate("vta");
    if (!opt.double_buffer) return compile_threads(p, cfg, opt);
    try {
        return compile_threads(p, cfg, opt);
    } catch (const InputError&) {
        // The halves cannot hold the program's blocks (or a strategy's fixed part): one thread.
        CompileOptions single = opt;
        single.double_buffer = false;
        return compile_threads(p, cfg, single);
    }
}

}  // namespace vp::mapper::vta
