#pragma once
// The architectural state of one VTA core (UOP/INP/WGT/ACC SRAMs) and the semantics of
// each instruction (vta_isa.md §3: fsim sim_driver.cc is the golden reference). Used by the
// untimed executor and by the SystemC model, which adds timing around the same calls.
#include <cstdint>
#include <cstring>
#include <vector>

#include "mapper/vta/isa.h"

namespace vp::mapper::vta {

// fsim-style work counters (Profiler): bytes per buffer type, micro-op executions.
struct CoreCounters {
    std::uint64_t inp_load_bytes = 0, wgt_load_bytes = 0, acc_load_bytes = 0, uop_load_bytes = 0, out_store_bytes = 0;
    std::uint64_t gemm_uops = 0, alu_uops = 0;
};

class FunctionalCore {
public:
    explicit FunctionalCore(const VtaConfig& cfg);

    const VtaConfig& cfg() const { return m_cfg; }
    const InsnLayout& layout() const { return m_layout; }
    CoreCounters& counters() { return m_cnt; }
    const CoreCounters& counters() const { return m_cnt; }

    // Bytes of one element of a memory type in DRAM (and in SRAM).
    int elem_bytes(MemId id) const;

    // 2-D LOAD (fsim SRAM::Load): zero-fills the padding and calls
    // row(dram_byte_addr, sram_index, elems) for each of the y_size data rows; the callee
    // then provides the bytes through write_elems(). Throws SimulationError on bounds.
    template <class F>
    void plan_load(const Insn& in, F&& row);
    // 2-D STORE: row(dram_byte_addr, sram_index, elems) for each row; read_out_elems() narrows.
    template <class F>
    void plan_store(const Insn& in, F&& row);

    // Copy `elems` DRAM elements of `id` into SRAM from `sram`. ACC_8BIT sign-extends.
    void write_elems(MemId id, std::uint32_t sram, const std::uint8_t* bytes, std::uint32_t elems);
    // Narrows `elems` ACC rows from `sram` to OUT bytes (low 8 bits, no saturation).
    void read_out_elems(std::uint32_t sram, std::uint8_t* bytes, std::uint32_t elems) const;

    void gemm(const Insn& in);  // GEMM incl. reset (fsim: reset writes 0, counts nothing)
    void alu(const Insn& in);

    // Raw views (tests, debug).
    const std::vector<std::int32_t>& acc() const { return m_acc; }

private:
    void zero_elems(MemId id, std::uint64_t sram, std::uint64_t elems);
    void decode_uops(const Insn& in);  // checks the range, fills m_dec
    std::uint64_t depth(MemId id) const;
    [[noreturn]] void fail(const Insn& in, const std::string& what) const;

    VtaConfig m_cfg;
    InsnLayout m_layout;
    int m_B;  // BLOCK
    int m_vec;  // BATCH * BLOCK (lanes of an INP/ACC/OUT element)
    std::vector<std::uint32_t> m_uop;
    std::vector<Uop> m_dec;  // micro-ops of the current GEMM/ALU instruction, decoded once
    std::vector<std::int8_t> m_inp, m_wgt;
    std::vector<std::int32_t> m_acc;
    CoreCounters m_cnt;
};

template <class F>
void FunctionalCore::plan_load(const Insn& in, F&& row) {
    if (in.x_size == 0) return;  // dependency carrier (fsim: x_size = 0 is a no-op)
    const MemId id = in.mem_type;
    if (id == MemId::Out) fail(in, "LOAD into the OUT buffer is not supported");
    const std::uint64_t xt = std::uint64_t(in.x_pad0) + in.x_size + in.x_pad1;
    const std::uint64_t yt = std::uint64_t(in.y_pad0) + in.y_size + in.y_pad1;
    if (in.sram_base + xt * yt > depth(id)) fail(in, "SRAM range exceeds the buffer depth");
    const std::uint64_t eb = std::uint64_t(id == MemId::Acc8Bit ? 1 : elem_bytes(id));
    std::uint64_t s = in.sram_base;
    zero_elems(id, s, xt * in.y_pad0);
    s += xt * in.y_pad0;
    for (std::uint32_t y = 0; y < in.y_size; ++y) {
        zero_elems(id, s, in.x_pad0);
        s += in.x_pad0;
        row((std::uint64_t(in.dram_base) + std::uint64_t(y) * in.x_stride) * eb, std::uint32_t(s), in.x_size);
        s += in.x_size;
        zero_elems(id, s, in.x_pad1);
        s += in.x_pad1;
    }
    zero_elems(id, s, xt * in.y_pad1);
    const std::uint64_t bytes = std::uint64_t(in.x_size) * in.y_size * eb;
    switch (id) {
        case MemId::Inp: m_cnt.inp_load_bytes += bytes; break;
        case MemId::Wgt: m_cnt.wgt_load_bytes += bytes; break;
        case MemId::Acc:
        case MemId::Acc8Bit: m_cnt.acc_load_bytes += bytes; break;
        case MemId::Uop: m_cnt.uop_load_bytes += bytes; break;
        case MemId::Out: break;
    }
}

template <class F>
void FunctionalCore::plan_store(const Insn& in, F&& row) {
    if (in.x_size == 0) return;
    if (in.mem_type != MemId::Out) fail(in, "STORE accepts only memory type OUT");
    if (in.y_pad0 || in.y_pad1 || in.x_pad0 || in.x_pad1) fail(in, "STORE with padding");
    if (in.sram_base + std::uint64_t(in.x_size) * in.y_size > depth(MemId::Out)) fail(in, "SRAM range exceeds the OUT depth");
    const std::uint64_t eb = std::uint64_t(elem_bytes(MemId::Out));
    for (std::uint32_t y = 0; y < in.y_size; ++y)
        row((std::uint64_t(in.dram_base) + std::uint64_t(y) * in.x_stride) * eb, in.sram_base + y * in.x_size, in.x_size);
    m_cnt.out_store_bytes += std::uint64_t(in.x_size) * in.y_size * eb;
}

}  // namespace vp::mapper::vta
