#include "mapper/vta/functional_core.h"

#include "mapper/common/errors.h"

namespace vp::mapper::vta {

FunctionalCore::FunctionalCore(const VtaConfig& cfg)
    : m_cfg(cfg), m_layout(cfg), m_B(cfg.block()), m_vec(cfg.batch() * cfg.block()),
      m_uop(std::size_t(cfg.uop_depth()), 0),
      m_inp(std::size_t(cfg.inp_depth()) * std::size_t(m_vec), 0),
      m_wgt(std::size_t(cfg.wgt_depth()) * std::size_t(m_B) * std::size_t(m_B), 0),
      m_acc(std::size_t(cfg.acc_depth()) * std::size_t(m_vec), 0) {}

int FunctionalCore::elem_bytes(MemId id) const {
    switch (id) {
        case MemId::Uop: return VtaConfig::kUopBytes;
        case MemId::Wgt: return m_cfg.wgt_elem_bytes();
        case MemId::Inp: return m_cfg.inp_elem_bytes();
        case MemId::Acc: return m_cfg.acc_elem_bytes();
        case MemId::Out: return m_cfg.out_elem_bytes();
        case MemId::Acc8Bit: return m_vec;
    }
    return 1;
}

std::uint64_t FunctionalCore::depth(MemId id) const {
    switch (id) {
        case MemId::Uop: return std::uint64_t(m_cfg.uop_depth());
        case MemId::Wgt: return std::uint64_t(m_cfg.wgt_depth());
        case MemId::Inp: return std::uint64_t(m_cfg.inp_depth());
        case MemId::Acc:
        case MemId::Acc8Bit: return std::uint64_t(m_cfg.acc_depth());
        case MemId::Out: return std::uint64_t(m_cfg.out_depth());
    }
    return 0;
}

void FunctionalCore::fail(const Insn& in, const std::string& what) const {
    throw SimulationError("VTA: " + what + " in instruction " + in.to_string());
}

void FunctionalCore::zero_elems(MemId id, std::uint64_t s, std::uint64_t n) {
    if (n == 0) return;
    switch (id) {
        case MemId::Uop: std::fill_n(m_uop.begin() + std::ptrdiff_t(s), n, 0u); break;
        case MemId::Wgt: std::fill_n(m_wgt.begin() + std::ptrdiff_t(s * m_B * m_B), n * m_B * m_B, std::int8_t(0)); break;
        case MemId::Inp: std::fill_n(m_inp.begin() + std::ptrdiff_t(s * m_vec), n * m_vec, std::int8_t(0)); break;
        case MemId::Acc:
        case MemId::Acc8Bit: std::fill_n(m_acc.begin() + std::ptrdiff_t(s * m_vec), n * m_vec, 0); break;
        case MemId::Out: break;
    }
}

void FunctionalCore::write_elems(MemId id, std::uint32_t s, const std::uint8_t* b, std::uint32_t n) {
    switch (id) {
        case MemId::Uop:
            for (std::uint32_t i = 0; i < n; ++i)
                m_uop[s + i] = std::uint32_t(b[4 * i]) | (std::uint32_t(b[4 * i + 1]) << 8) |
                               (std::uint32_t(b[4 * i + 2]) << 16) | (std::uint32_t(b[4 * i + 3]) << 24);
            break;
        case MemId::Wgt: std::memcpy(&m_wgt[std::size_t(s) * m_B * m_B], b, std::size_t(n) * m_B * m_B); break;
        case MemId::Inp: std::memcpy(&m_inp[std::size_t(s) * m_vec], b, std::size_t(n) * m_vec); break;
        case MemId::Acc: {
            std::int32_t* d = &m_acc[std::size_t(s) * m_vec];
            for (std::size_t i = 0; i < std::size_t(n) * m_vec; ++i)
                d[i] = std::int32_t(std::uint32_t(b[4 * i]) | (std::uint32_t(b[4 * i + 1]) << 8) |
                                    (std::uint32_t(b[4 * i + 2]) << 16) | (std::uint32_t(b[4 * i + 3]) << 24));
            break;
        }
        case MemId::Acc8Bit: {
            std::int32_t* d = &m_acc[std::size_t(s) * m_vec];
            for (std::size_t i = 0; i < std::size_t(n) * m_vec; ++i) d[i] = std::int8_t(b[i]);
            break;
        }
        case MemId::Out: break;
    }
}

void FunctionalCore::read_out_elems(std::uint32_t s, std::uint8_t* b, std::uint32_t n) const {
    const std::int32_t* a = &m_acc[std::size_t(s) * m_vec];
    for (std::size_t i = 0; i < std::size_t(n) * m_vec; ++i) b[i] = std::uint8_t(std::uint32_t(a[i]) & 0xFFu);
}

void FunctionalCore::decode_uops(const Insn& in) {
    if (in.uop_end > std::uint32_t(m_cfg.uop_depth()) || in.uop_bgn > in.uop_end) fail(in, "micro-op range outside the UOP buffer");
    m_dec.resize(in.uop_end - in.uop_bgn);  // capacity reaches the UOP depth once: no allocation in steady state
    for (std::uint32_t u = in.uop_bgn; u < in.uop_end; ++u) m_dec[u - in.uop_bgn] = m_layout.decode_uop(m_uop[u]);
}

void FunctionalCore::gemm(const Insn& in) {
    // Whole instruction in bulk (micro-ops decoded once, not per loop iteration).
    const std::uint64_t acc_d = std::uint64_t(m_cfg.acc_depth()), inp_d = std::uint64_t(m_cfg.inp_depth()),
                        wgt_d = std::uint64_t(m_cfg.wgt_depth());
    decode_uops(in);
    const int B = m_B, nb = m_cfg.batch();
    for (std::uint32_t o = 0; o < in.iter_out; ++o)
        for (std::uint32_t i = 0; i < in.iter_in; ++i)
            for (const Uop& uop : m_dec) {
                const std::uint64_t a = uop.dst + std::uint64_t(o) * in.dst_factor_out + std::uint64_t(i) * in.dst_factor_in;
                if (a >= acc_d) fail(in, "accumulator index " + std::to_string(a) + " out of range");
                std::int32_t* acc = &m_acc[a * m_vec];
                if (in.reset) {
                    std::fill_n(acc, m_vec, 0);
                    continue;
                }
                const std::uint64_t x = uop.src + std::uint64_t(o) * in.src_factor_out + std::uint64_t(i) * in.src_factor_in;
                const std::uint64_t w = uop.wgt + std::uint64_t(o) * in.wgt_factor_out + std::uint64_t(i) * in.wgt_factor_in;
                if (x >= inp_d) fail(in, "input index " + std::to_string(x) + " out of range");
                if (w >= wgt_d) fail(in, "weight index " + std::to_string(w) + " out of range");
                const std::int8_t* inp = &m_inp[x * m_vec];
                const std::int8_t* wgt = &m_wgt[w * B * B];
                for (int b = 0; b < nb; ++b) {
                    const std::int8_t* ir = inp + b * B;
                    std::int32_t* d = acc + b * B;
                    for (int oc = 0; oc < B; ++oc) {
                        std::int32_t sum = 0;  // |sum| < 2^21: no overflow (HLS sum_T is 21 bits)
                        const std::int8_t* wr = wgt + oc * B;
                        for (int ic = 0; ic < B; ++ic) sum += std::int32_t(ir[ic]) * std::int32_t(wr[ic]);
                        d[oc] = std::int32_t(std::uint32_t(d[oc]) + std::uint32_t(sum));
                    }
                }
            }
    if (!in.reset) m_cnt.gemm_uops += std::uint64_t(in.iter_out) * in.iter_in * (in.uop_end - in.uop_bgn);
}

namespace {
inline std::int32_t alu_apply(AluOp op, std::int32_t x, std::int32_t y) {
    switch (op) {
        case AluOp::Min: return x < y ? x : y;
        case AluOp::Max: return x > y ? x : y;
        case AluOp::Add: return std::int32_t(std::uint32_t(x) + std::uint32_t(y));
        case AluOp::Mul: return std::int32_t(std::uint32_t(x) * std::uint32_t(y));
        case AluOp::Shr:
            // fsim: y >= 0 arithmetic right shift, y < 0 left shift by -y (distance saturated at 31).
            if (y >= 0) return x >> (y > 31 ? 31 : y);
            return std::int32_t(std::uint32_t(x) << (y < -31 ? 31 : -y));
    }
    return x;
}
}  // namespace

void FunctionalCore::alu(const Insn& in) {
    if (in.alu_op == AluOp::Mul && !m_cfg.alu_mul) fail(in, "ALU MUL is disabled (alu_mul: false)");
    const std::uint64_t acc_d = std::uint64_t(m_cfg.acc_depth());
    decode_uops(in);
    for (std::uint32_t o = 0; o < in.iter_out; ++o)
        for (std::uint32_t i = 0; i < in.iter_in; ++i)
            for (const Uop& uop : m_dec) {
                const std::uint64_t d = uop.dst + std::uint64_t(o) * in.dst_factor_out + std::uint64_t(i) * in.dst_factor_in;
                const std::uint64_t s = uop.src + std::uint64_t(o) * in.src_factor_out + std::uint64_t(i) * in.src_factor_in;
                if (d >= acc_d || (!in.use_imm && s >= acc_d)) fail(in, "ALU accumulator index out of range");
                std::int32_t* dst = &m_acc[d * m_vec];
                const std::int32_t* src = &m_acc[(in.use_imm ? d : s) * m_vec];
                for (int k = 0; k < m_vec; ++k) dst[k] = alu_apply(in.alu_op, dst[k], in.use_imm ? in.imm : src[k]);
            }
    m_cnt.alu_uops += std::uint64_t(in.iter_out) * in.iter_in * (in.uop_end - in.uop_bgn);
}

}  // namespace vp::mapper::vta
