#include "mapper/vta/direct_conv.h"

#include <algorithm>
#include <map>

#include "mapper/common/errors.h"
#include "mapper/vta/vta_timing.h"

namespace vp::mapper::vta {

namespace {

constexpr int kMaxPad = (1 << InsnLayout::kPadBits) - 1;
constexpr std::int64_t kMaxIter = (1 << InsnLayout::kLoopIterBits) - 1;
int cdiv(int a, int b) { return (a + b - 1) / b; }

struct Dims {
    int C, K, H, W, R, S, P, Q, sh, sw, pt, pl, Cb, Kb, RS;
    Dims(const Layer& l, int B)
        : C(l.C), K(l.K), H(l.H), W(l.W), R(l.R), S(l.S), P(l.P()), Q(l.Q()), sh(l.stride_h), sw(l.stride_w), pt(l.pad_top),
          pl(l.pad_left), Cb(cdiv(l.C, B)), Kb(cdiv(l.K, B)), RS(l.R * l.S) {}
    int th(int tp) const { return (tp - 1) * sh + R; }  // input rows of a tile of tp output rows (halo included)
    int tw(int tq) const { return (tq - 1) * sw + S; }
};

// ALU micro-ops the tile epilogue keeps in the UOP buffer next to the GEMM ones.
constexpr int kAluUops = 2;

struct Caps {
    int inp, wgt, wgt_full, acc, uop;
};
Caps caps(const VtaConfig& cfg, bool dbuf) {
    const int h = dbuf ? 2 : 1;
    return Caps{cfg.inp_depth() / h, cfg.wgt_depth() / h, cfg.wgt_depth(), cfg.acc_depth(), cfg.uop_depth()};
}
// Every weight block of the layer stays in the WGT buffer (one load for the whole program).
bool resident(const Dims& d, const DirectTiling& t, const Caps& c) {
    return t.tk == d.Kb && t.tc == d.Cb && std::int64_t(d.Kb) * d.Cb * d.RS <= c.wgt_full;
}
bool fits(const Dims& d, const DirectTiling& t, const Caps& c) {
    const std::int64_t inp = std::int64_t(t.tc) * d.th(t.tp) * d.tw(t.tq);
    const std::int64_t wgt = std::int64_t(t.tk) * t.tc * d.RS;
    const std::int64_t acc = std::int64_t(t.tk) * t.tp * t.tq + t.tk;
    return inp <= c.inp && (wgt <= c.wgt || resident(d, t, c)) && acc <= c.acc && wgt + kAluUops <= c.uop &&
           std::int64_t(t.tk) * t.tp <= kMaxIter && t.tq <= kMaxIter && std::int64_t(t.tp) * t.tq <= kMaxIter;
}

// Closed-form cycles of a tiling: per step the INP/WGT loads (bytes over the DMA port's bus,
// one cycle per padding vector, a fixed latency per instruction) against the GEMM micro-ops
// (overlapped with two virtual threads, serial with one); per tile the reset, the ALU
// epilogue (2 cycles per micro-op) and the store.
double tiling_cost(const Dims& d, const DirectTiling& t, const Caps& c, const VtaConfig& cfg, bool dbuf) {
    const double bus = double(VtaTiming::kDmaBusBits / 8), lat = 24.0;
    const int nP = cdiv(d.P, t.tp), nQ = cdiv(d.Q, t.tq), nK = cdiv(d.Kb, t.tk), nC = cdiv(d.Cb, t.tc);
    const bool res = resident(d, t, c);
    const double vec = double(cfg.inp_elem_bytes()), blk = double(cfg.wgt_elem_bytes());
    const double th = d.th(t.tp), tw = d.tw(t.tq);
    const double in_load = t.tc * (th * tw * vec / bus + lat);
    const double w_load = res ? 0.0 : t.tk * t.tc * d.RS * blk / bus + lat;
    const double gemm = double(t.tk) * t.tc * d.RS * t.tp * t.tq + 5.0 * t.tk;
    const double step = dbuf ? std::max(in_load + w_load, gemm) : in_load + w_load + gemm;
    const double outv = double(t.tk) * t.tp * t.tq;
    const double tile = outv * (1.0 + 2.0 * 6.0) + outv * double(cfg.out_elem_bytes()) / bus * 0.5 + 60.0;
    double total = double(nP) * nQ * nK * (nC * step + tile);
    if (res) total += d.Kb * d.Cb * d.RS * blk / bus;
    return total;
}

// Candidate tile extents: ceil(n / k) for every k (the sizes that split n evenly).
std::vector<int> extents(int n) {
    std::vector<int> v;
    for (int k = 1; k <= n; ++k) {
        const int e = cdiv(n, k);
        if (v.empty() || v.back() != e) v.push_back(e);
    }
    return v;
}

class DirectCodegen {
public:
    DirectCodegen(const Layer& l, const VtaConfig& cfg, const CompileOptions& opt, const DirectTiling& t)
        : m_l(l), m_cfg(cfg), m_opt(opt), m_layout(cfg), m_B(cfg.block()), m_d(l, cfg.block()), m_t(t),
          m_caps(caps(cfg, opt.double_buffer)) {}

    CompiledProgram run(const std::vector<std::int8_t>& in, const std::vector<std::int8_t>& w, const std::vector<std::int32_t>& bias,
                        const Requant& q);

private:
    struct Region { std::uint64_t off = 0; };
    Insn mem(Opcode op, MemId id, std::uint32_t sram, std::uint64_t dram_elem, std::uint32_t y, std::uint32_t x,
             std::uint32_t stride) const {
        if (dram_elem > 0xFFFFFFFFull) throw InputError("VTA program does not fit the 32-bit DRAM element address field");
        if (stride > 0xFFFF) throw InputError("layer " + m_l.name + ": DRAM row stride exceeds the 16-bit x_stride field");
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
    std::uint64_t elem(const Region& r, int eb) const { return (m_out.dram_base + r.off) / std::uint64_t(eb); }
    // Micro-ops into the UOP buffer: returns their SRAM index; a set already resident is not
    // loaded again (the compute module runs in order, so a reload only affects later insns).
    std::uint32_t uops(const std::vector<Uop>& u, std::vector<Insn>& cq);
    void pack(const std::vector<std::int8_t>& in, const std::vector<std::int8_t>& w, const std::vector<std::int32_t>& bias);
    void emit_tile(int p0, int q0, int kb0, const std::vector<AluOpSpec>& requant);
    void push(std::vector<Insn>& q) {
        for (auto& i : q) m_insns.push_back(i);
        q.clear();
    }

    const Layer& m_l;
    const VtaConfig& m_cfg;
    const CompileOptions& m_opt;
    InsnLayout m_layout;
    int m_B;
    Dims m_d;
    DirectTiling m_t;
    Caps m_caps;
    bool m_resident = false;
    int m_reuse = 1;
    std::size_t m_step = 0, m_nsteps = 0;
    bool m_pending_s2g = false;
    CompiledProgram m_out;
    Region m_a, m_w, m_x, m_c;
    std::vector<Insn> m_insns;
    std::vector<std::uint32_t> m_uop_words;  // DRAM UOP region
    std::map<std::vector<std::uint32_t>, std::uint32_t> m_uop_dram;
    std::map<std::vector<std::uint32_t>, std::uint32_t> m_uop_sram;  // resident sets -> SRAM index
    std::uint32_t m_uop_top = 0;
};

std::uint32_t DirectCodegen::uops(const std::vector<Uop>& u, std::vector<Insn>& cq) {
    std::vector<std::uint32_t> w;
    w.reserve(u.size());
    for (const Uop& x : u) w.push_back(m_layout.encode(x));
    if (auto it = m_uop_sram.find(w); it != m_uop_sram.end()) return it->second;
    if (w.size() > std::size_t(m_cfg.uop_depth())) throw InputError("layer " + m_l.name + ": micro-ops exceed the UOP buffer");
    if (m_uop_top + w.size() > std::size_t(m_cfg.uop_depth())) {
        m_uop_sram.clear();
        m_uop_top = 0;
    }
    std::uint32_t dram = 0;
    if (auto it = m_uop_dram.find(w); it != m_uop_dram.end()) {
        dram = it->second;
    } else {
        dram = std::uint32_t(m_uop_words.size());
        m_uop_words.insert(m_uop_words.end(), w.begin(), w.end());
        m_uop_dram.emplace(w, dram);
    }
    // dram_base is an index into the UOP region until run() adds the region's address.
    cq.push_back(mem(Opcode::Load, MemId::Uop, m_uop_top, dram, 1, std::uint32_t(w.size()), std::uint32_t(w.size())));
    const std::uint32_t at = m_uop_top;
    m_uop_sram.emplace(std::move(w), at);
    m_uop_top += std::uint32_t(u.size());
    return at;
}

void DirectCodegen::pack(const std::vector<std::int8_t>& in, const std::vector<std::int8_t>& w, const std::vector<std::int32_t>& bias) {
    const Dims& d = m_d;
    const int B = m_B;
    std::uint64_t off = 0;
    auto alloc = [&](Region& r, std::uint64_t bytes, const char* name) {
        r.off = off;
        m_out.regions.push_back(DramRegion{name, m_out.dram_base + off, bytes});
        off = page_up(off + bytes);
    };
    alloc(m_a, std::uint64_t(d.Cb) * d.H * d.W * std::uint64_t(m_cfg.inp_elem_bytes()), "INP");
    alloc(m_w, std::uint64_t(d.Kb) * d.Cb * d.RS * std::uint64_t(m_cfg.wgt_elem_bytes()), "WGT");
    alloc(m_x, std::uint64_t(d.Kb) * std::uint64_t(m_cfg.acc_elem_bytes()), "ACC");
    alloc(m_c, std::uint64_t(d.Kb) * d.P * d.Q * std::uint64_t(m_cfg.out_elem_bytes()), "OUT");
    m_out.image.assign(off, 0);
    std::uint8_t* img = m_out.image.data();
    // Activations: [C/B][H][W][B] (TVM's packed NCHWnc layout with BATCH = 1).
    for (int c = 0; c < d.C; ++c)
        for (int y = 0; y < d.H; ++y)
            for (int x = 0; x < d.W; ++x)
                img[m_a.off + ((std::uint64_t(c / B) * d.H + y) * d.W + x) * B + c % B] =
                    std::uint8_t(in[(std::size_t(c) * d.H + y) * d.W + x]);
    // Weights: [K/B][C/B][R][S] blocks of [BLOCK_OUT][BLOCK_IN].
    const std::uint64_t blk = std::uint64_t(m_cfg.wgt_elem_bytes());
    for (int k = 0; k < d.K; ++k)
        for (int c = 0; c < d.C; ++c)
            for (int rs = 0; rs < d.RS; ++rs)
                img[m_w.off + ((std::uint64_t(k / B) * d.Cb + c / B) * d.RS + rs) * blk + std::uint64_t(k % B) * B + c % B] =
                    std::uint8_t(w[(std::size_t(k) * d.C + c) * d.RS + rs]);
    for (int k = 0; k < d.K; ++k) {
        const std::uint32_t v = std::uint32_t(bias[std::size_t(k)]);
        for (int b = 0; b < 4; ++b) img[m_x.off + std::uint64_t(k) * 4 + b] = std::uint8_t(v >> (8 * b));
    }
    m_out.out_addr = m_out.dram_base + m_c.off;
}

void DirectCodegen::emit_tile(int p0, int q0, int kb0, const std::vector<AluOpSpec>& requant) {
    const Dims& d = m_d;
    const int tp = std::min(m_t.tp, d.P - p0), tq = std::min(m_t.tq, d.Q - q0), tk = std::min(m_t.tk, d.Kb - kb0);
    const int TH = d.th(tp), TW = d.tw(tq), PQ = tp * tq;
    const int y_lo = p0 * d.sh - d.pt, x_lo = q0 * d.sw - d.pl;
    const int yp0 = std::max(0, -y_lo), yp1 = std::max(0, y_lo + TH - d.H), xp0 = std::max(0, -x_lo), xp1 = std::max(0, x_lo + TW - d.W);
    if (yp0 > kMaxPad || yp1 > kMaxPad || xp0 > kMaxPad || xp1 > kMaxPad || TH - yp0 - yp1 < 1 || TW - xp0 - xp1 < 1)
        throw InputError("layer " + m_l.name + ": a direct-convolution tile needs padding beyond the LOAD pad fields");
    const std::uint64_t a_elem = elem(m_a, m_cfg.inp_elem_bytes()), w_elem = elem(m_w, m_cfg.wgt_elem_bytes());
    std::vector<Insn> lq, cq, sq;
    // --- tile prologue (compute): bias vectors after the tile, zeroed accumulators ---
    const std::uint32_t bias_at = std::uint32_t(tk * PQ);
    cq.push_back(mem(Opcode::Load, MemId::Acc, bias_at, elem(m_x, m_cfg.acc_elem_bytes()) + std::uint64_t(kb0), 1, std::uint32_t(tk),
                     std::uint32_t(tk)));
    if (m_pending_s2g) cq.front().dep.pop_next = true;  // WAR: the previous tile's store has read the ACC
    m_pending_s2g = false;
    {
        Insn r;
        r.opcode = Opcode::Gemm;
        r.reset = true;
        r.uop_bgn = uops({Uop{0, 0, 0}}, cq);
        r.uop_end = r.uop_bgn + 1;
        r.iter_out = std::uint32_t(tk * tp);
        r.iter_in = std::uint32_t(tq);
        r.dst_factor_out = std::uint32_t(tq);
        r.dst_factor_in = 1;
        cq.push_back(r);
    }
    for (int cb0 = 0; cb0 < d.Cb; cb0 += m_t.tc, ++m_step) {
        const int tc = std::min(m_t.tc, d.Cb - cb0);
        const std::uint32_t half = std::uint32_t(m_step % std::size_t(m_reuse));
        const std::uint32_t ba = half * std::uint32_t(m_caps.inp), bb = m_resident ? 0 : half * std::uint32_t(m_caps.wgt);
        // --- load module: the input tile with its halo, one 2-D padded load per C block ---
        for (int c = 0; c < tc; ++c) {
            Insn in = mem(Opcode::Load, MemId::Inp, ba + std::uint32_t(c * TH * TW),
                          a_elem + (std::uint64_t(cb0 + c) * d.H + std::uint64_t(y_lo + yp0)) * d.W + std::uint64_t(x_lo + xp0),
                          std::uint32_t(TH - yp0 - yp1), std::uint32_t(TW - xp0 - xp1), std::uint32_t(d.W));
            in.y_pad0 = std::uint32_t(yp0);
            in.y_pad1 = std::uint32_t(yp1);
            in.x_pad0 = std::uint32_t(xp0);
            in.x_pad1 = std::uint32_t(xp1);
            lq.push_back(in);
        }
        if (m_resident && m_step == 0)
            lq.push_back(mem(Opcode::Load, MemId::Wgt, 0, w_elem, 1, std::uint32_t(d.Kb * d.Cb * d.RS), std::uint32_t(d.Kb * d.Cb * d.RS)));
        else if (!m_resident)
            lq.push_back(mem(Opcode::Load, MemId::Wgt, bb, w_elem + (std::uint64_t(kb0) * d.Cb + std::uint64_t(cb0)) * d.RS,
                             std::uint32_t(tk), std::uint32_t(tc * d.RS), std::uint32_t(d.Cb * d.RS)));
        if (m_step >= std::size_t(m_reuse)) lq.front().dep.pop_next = true;  // WAR: g2l of the step that used this half
        lq.back().dep.push_next = true;                                      // RAW: l2g
        // --- compute: micro-ops per (C block, r, s), loops over the tile's rows and columns ---
        std::vector<Uop> u;
        u.reserve(std::size_t(tk) * tc * d.RS);
        for (int k = 0; k < tk; ++k)
            for (int c = 0; c < tc; ++c)
                for (int r = 0; r < d.R; ++r)
                    for (int s = 0; s < d.S; ++s) {
                        const std::uint32_t wi = m_resident
                                                     ? std::uint32_t(((kb0 + k) * d.Cb + cb0 + c) * d.RS + r * d.S + s)
                                                     : bb + std::uint32_t((k * tc + c) * d.RS + r * d.S + s);
                        u.push_back(Uop{std::uint32_t(k * PQ), ba + std::uint32_t((c * TH + r) * TW + s), wi});
                    }
        const std::uint32_t u0 = uops(u, cq);
        const std::uint32_t per = std::uint32_t(tc * d.RS);
        for (int k = 0; k < tk; ++k) {
            Insn g;
            g.opcode = Opcode::Gemm;
            g.uop_bgn = u0 + std::uint32_t(k) * per;
            g.uop_end = g.uop_bgn + per;
            g.iter_out = std::uint32_t(tp);
            g.iter_in = std::uint32_t(tq);
            g.dst_factor_out = std::uint32_t(tq);
            g.dst_factor_in = 1;
            g.src_factor_out = std::uint32_t(d.sh * TW);
            g.src_factor_in = std::uint32_t(d.sw);
            if (k == 0) g.dep.pop_prev = true;  // l2g
            if (k == tk - 1 && m_step + std::size_t(m_reuse) < m_nsteps) g.dep.push_prev = true;  // g2l
            cq.push_back(g);
        }
        push(lq);
        if (cb0 + m_t.tc < d.Cb) push(cq);
    }
    // --- tile epilogue: bias (ALU ADD broadcast), requantisation, store ---
    const std::uint32_t ua = uops({Uop{0, bias_at, 0}, Uop{0, 0, 0}}, cq);
    Insn add;
    add.opcode = Opcode::Alu;
    add.alu_op = AluOp::Add;
    add.uop_bgn = ua;
    add.uop_end = ua + 1;
    add.iter_out = std::uint32_t(tk);
    add.dst_factor_out = std::uint32_t(PQ);
    add.src_factor_out = 1;
    add.iter_in = std::uint32_t(PQ);
    add.dst_factor_in = 1;
    cq.push_back(add);
    for (const AluOpSpec& o : requant) {
        if (o.op == AluOp::Mul && !m_cfg.alu_mul) throw InputError("ALU MUL is disabled in this VTA configuration (alu_mul: false)");
        Insn a;
        a.opcode = Opcode::Alu;
        a.alu_op = o.op;
        a.use_imm = true;
        a.imm = o.imm;
        a.uop_bgn = ua + 1;
        a.uop_end = ua + 2;
        a.iter_out = std::uint32_t(tk * tp);
        a.dst_factor_out = a.src_factor_out = std::uint32_t(tq);
        a.iter_in = std::uint32_t(tq);
        a.dst_factor_in = a.src_factor_in = 1;
        cq.push_back(a);
    }
    cq.back().dep.push_next = true;  // g2s
    const std::uint64_t c_elem = elem(m_c, m_cfg.out_elem_bytes());
    for (int k = 0; k < tk; ++k)
        sq.push_back(mem(Opcode::Store, MemId::Out, std::uint32_t(k * PQ),
                         c_elem + (std::uint64_t(kb0 + k) * d.P + std::uint64_t(p0)) * d.Q + std::uint64_t(q0), std::uint32_t(tp),
                         std::uint32_t(tq), std::uint32_t(d.Q)));
    sq.front().dep.pop_prev = true;  // g2s
    sq.back().dep.push_prev = true;  // s2g
    m_pending_s2g = true;
    push(cq);
    push(sq);
}

CompiledProgram DirectCodegen::run(const std::vector<std::int8_t>& in, const std::vector<std::int8_t>& w,
                                   const std::vector<std::int32_t>& bias, const Requant& q) {
    const Dims& d = m_d;
    check_compiler_config(m_cfg);
    if (m_opt.dram_base % CompileOptions::kPageBytes != 0) throw InputError("VTA compiler: dram_base must be page aligned");
    if (in.size() != std::size_t(d.C) * d.H * d.W || w.size() != std::size_t(d.K) * d.C * d.RS || bias.size() != std::size_t(d.K))
        throw InputError("layer " + m_l.name + ": tensor sizes do not match the layer shape");
    if (q.mul < -32768 || q.mul > 32767 || q.shift < 0 || q.shift > 15)
        throw InputError("layer " + m_l.name + ": requantisation multiplier must fit int16 and shift 0..15");
    if (!fits(d, m_t, m_caps)) throw InputError("layer " + m_l.name + ": direct tiling " + m_t.to_string() + " does not fit the buffers");
    m_out.cfg = m_cfg;
    m_out.name = "_" + m_l.name;
    m_out.dram_base = m_opt.dram_base;
    m_out.virtual_threads = m_opt.double_buffer ? 2 : 1;
    m_out.lowering = "direct " + m_t.to_string();
    m_reuse = m_opt.double_buffer ? 2 : 1;
    m_resident = resident(d, m_t, m_caps);
    m_nsteps = std::size_t(cdiv(d.P, m_t.tp)) * cdiv(d.Q, m_t.tq) * cdiv(d.Kb, m_t.tk) * cdiv(d.Cb, m_t.tc);
    pack(in, w, bias);
    m_out.out_rows = d.P * d.Q;
    m_out.out_cols = d.K;
    m_out.out_row_vectors = d.Kb;
    m_out.out_blocked = true;
    m_out.stored_rows.resize(std::size_t(d.P) * d.Q);
    for (std::size_t r = 0; r < m_out.stored_rows.size(); ++r) m_out.stored_rows[r] = std::int64_t(r);
    std::vector<AluOpSpec> requant;
    append_requant(requant, q, 1);
    for (int p0 = 0; p0 < d.P; p0 += m_t.tp)
        for (int q0 = 0; q0 < d.Q; q0 += m_t.tq)
            for (int kb0 = 0; kb0 < d.Kb; kb0 += m_t.tk) emit_tile(p0, q0, kb0, requant);
    // Final synchronisation (runtime Synchronize()): a compute no-op pops the last s2g, then FINISH.
    Insn nop = mem(Opcode::Load, MemId::Uop, 0, 0, 0, 0, 0);
    nop.dep.pop_next = true;
    m_insns.push_back(nop);
    Insn fin;
    fin.opcode = Opcode::Finish;
    m_insns.push_back(fin);
    std::uint64_t off = m_out.image.size();
    const std::uint64_t uop_off = off, uop_bytes = m_uop_words.size() * VtaConfig::kUopBytes;
    m_out.regions.push_back(DramRegion{"UOP", m_out.dram_base + uop_off, uop_bytes});
    off = page_up(off + uop_bytes);
    const std::uint64_t insn_off = off, insn_bytes = m_insns.size() * VtaConfig::kInsnBytes;
    m_out.regions.push_back(DramRegion{"INSN", m_out.dram_base + insn_off, insn_bytes});
    off = page_up(off + insn_bytes);
    m_out.image.resize(off, 0);
    for (std::size_t i = 0; i < m_uop_words.size(); ++i)
        for (int b = 0; b < 4; ++b) m_out.image[uop_off + 4 * i + std::size_t(b)] = std::uint8_t(m_uop_words[i] >> (8 * b));
    const std::uint64_t uop_elem = (m_out.dram_base + uop_off) / VtaConfig::kUopBytes;
    for (std::size_t n = 0; n < m_insns.size(); ++n) {
        Insn& ins = m_insns[n];
        if (ins.opcode == Opcode::Load && ins.mem_type == MemId::Uop && ins.x_size > 0) {
            if (uop_elem + ins.dram_base > 0xFFFFFFFFull) throw InputError("VTA program does not fit the 32-bit DRAM element address field");
            ins.dram_base = std::uint32_t(uop_elem + ins.dram_base);
        }
        const InsnWord wd = m_layout.encode(ins);
        for (int h = 0; h < 2; ++h)
            for (int b = 0; b < 8; ++b)
                m_out.image[insn_off + 16 * n + std::size_t(8 * h + b)] = std::uint8_t(wd.w[std::size_t(h)] >> (8 * b));
    }
    m_out.stats = count_program(m_insns, m_cfg);
    m_out.stats.steps = m_nsteps;
    m_out.stats.uops = m_uop_words.size();
    m_out.insn_addr = m_out.dram_base + insn_off;
    m_out.insn_count = std::uint32_t(m_insns.size());
    m_out.insns = std::move(m_insns);
    return std::move(m_out);
}

}  // namespace

std::string DirectTiling::to_string() const {
    return std::to_string(tp) + "x" + std::to_string(tq) + " outputs, " + std::to_string(tk) + " K-blocks, " + std::to_string(tc) +
           " C-blocks per step";
}

bool direct_conv_supported(const Layer& l, std::string* why) {
    auto no = [&](const std::string& m) {
        if (why) *why = m;
        return false;
    };
    if (l.kind != LayerKind::Conv) return no("not a convolution");
    if (l.groups != 1) return no("grouped / depthwise convolution");
    if (l.zero_insert_h != 1 || l.zero_insert_w != 1) return no("transposed convolution");
    if (l.dilation_h != 1 || l.dilation_w != 1) return no("dilated convolution");
    if (l.stride_h < 1 || l.stride_w < 1 || l.R < 1 || l.S < 1) return no("bad shape");
    if (l.pad_top > kMaxPad || l.pad_bottom > kMaxPad || l.pad_left > kMaxPad || l.pad_right > kMaxPad)
        return no("padding beyond the 4-bit LOAD pad fields");
    if (l.pad_top >= l.R || l.pad_bottom >= l.R || l.pad_left >= l.S || l.pad_right >= l.S)
        return no("padding as large as the kernel (a tile could lie in the padding only)");
    return true;
}

DirectTiling choose_direct_tiling(const Layer& l, const VtaConfig& cfg, bool double_buffer) {
    const Dims d(l, cfg.block());
    const Caps c = caps(cfg, double_buffer);
    DirectTiling best{0, 0, 0, 0};
    double best_cost = 0;
    const auto eP = extents(d.P), eQ = extents(d.Q), eK = extents(d.Kb), eC = extents(d.Cb);
    for (int tc : eC)
        for (int tk : eK) {
            if (std::int64_t(tk) * tc * d.RS > std::max(c.wgt, c.wgt_full) || std::int64_t(tk) * tc * d.RS + kAluUops > c.uop) continue;
            for (int tq : eQ) {
                if (std::int64_t(tc) * d.tw(tq) * d.R > c.inp) continue;
                for (int tp : eP) {
                    const DirectTiling t{tp, tq, tk, tc};
                    if (!fits(d, t, c)) continue;
                    const double cost = tiling_cost(d, t, c, cfg, double_buffer);
                    if (best.tp == 0 || cost < best_cost) {
                        best = t;
                        best_cost = cost;
                    }
                }
            }
        }
    if (best.tp == 0)
        throw InputError("layer " + l.name + ": no direct-convolution tile fits the VTA buffers" + (double_buffer ? " (halved for two virtual threads)" : ""));
    return best;
}

CompiledProgram compile_direct_conv(const Layer& l, const std::vector<std::int8_t>& input, const std::vector<std::int8_t>& weights,
                                    const std::vector<std::int32_t>& bias, const Requant& q, const VtaConfig& cfg,
                                    const CompileOptions& opt, DirectTiling tiling) {
    cfg.validate("vta");
    std::string why;
    if (!direct_conv_supported(l, &why)) throw InputError("layer " + l.name + ": no direct convolution (" + why + ")");
    if (tiling.tp == 0) tiling = choose_direct_tiling(l, cfg, opt.double_buffer);
    return checked_queues(DirectCodegen(l, cfg, opt, tiling).run(input, weights, bias, q), opt);
}

}  // namespace vp::mapper::vta
