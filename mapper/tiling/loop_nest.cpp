#include "mapper/tiling/loop_nest.h"

#include <algorithm>
#include <stdexcept>

#include "mapper/common/int_math.h"

namespace vp::mapper::tiling {

const char* to_string(OpKind k) {
    switch (k) {
    case OpKind::LoadFilter: return "load_filter";
    case OpKind::LoadIfmap: return "load_ifmap";
    case OpKind::LoadPsum: return "load_psum";
    case OpKind::Compute: return "compute";
    case OpKind::StorePsum: return "store_psum";
    case OpKind::StoreOfmap: return "store_ofmap";
    }
    return "?";
}


LoopNest::LoopNest(const ConvShape& shape, const SliceRun& run, const Tiling& t, const AsipParams& asip,
                   const DramLayout& layout)
    : m_shape(shape), m_run(run), m_t(t), m_layout(layout), m_p_ox(asip.p_ox), m_p_of(asip.p_of),
      m_bw_sram(asip.bw_sram_words()), m_wb(asip.word_bytes()) {
    if (run.group < 0 || run.group >= shape.groups || run.of_begin < 0 || run.of_end > shape.n_of ||
        run.of_begin >= run.of_end || run.ox_begin < 0 || run.ox_end > shape.Q || run.ox_begin >= run.ox_end ||
        run.ox_chunk < 1)
        throw std::invalid_argument("LoopNest: slice run outside the layer " + shape.name);
    if (t.t_of < 1 || t.t_if < 1 || t.t_ox < 1) throw std::invalid_argument("LoopNest: tile sizes must be >= 1");
    m_new_rows = std::min(shape.sy, shape.wky());
    reset();
}

void LoopNest::reset() {
    start_of_tile(m_run.of_begin);
    m_phase = Phase::Filter;
}

void LoopNest::start_of_tile(int of0) {
    m_of0 = of0;
    m_tof = std::min(m_t.t_of, m_run.of_end - of0);
    start_if_tile(0);
}

void LoopNest::start_if_tile(int if0) {
    m_if0 = if0;
    m_tif = std::min(m_t.t_if, m_shape.n_if - if0);
    start_ox_tile(m_run.ox_begin, m_run.ox_begin);
}

void LoopNest::start_ox_tile(int chunk0, int ox0) {
    m_chunk0 = chunk0;
    m_ox0 = ox0;
    int chunk_end = std::min(chunk0 + m_run.ox_chunk, m_run.ox_end);
    m_tox = std::min(m_t.t_ox, chunk_end - ox0);
    m_oy = 0;
    m_sub = 0;
}

bool LoopNest::advance_ox_tile() {
    int chunk_end = std::min(m_chunk0 + m_run.ox_chunk, m_run.ox_end);
    int next0 = m_ox0 + m_tox;
    if (next0 < chunk_end) {
        start_ox_tile(m_chunk0, next0);
        return true;
    }
    if (chunk_end < m_run.ox_end) {
        start_ox_tile(chunk_end, chunk_end);
        return true;
    }
    return false;
}

void LoopNest::set_dma(Op& op, OpKind kind, bool wait, std::uint64_t addr, std::uint64_t seg_bytes,
                       std::uint32_t n_segs, std::uint64_t stride) const {
    op = Op{};
    op.kind = kind;
    op.wait = wait;
    if (n_segs > 1 && stride == seg_bytes) {  // contiguous segments: one transfer
        seg_bytes *= n_segs;
        n_segs = 1;
    }
    op.dram_addr = addr;
    op.seg_bytes = seg_bytes;
    op.n_segs = n_segs;
    op.seg_stride = n_segs > 1 ? stride : 0;
    const std::uint64_t words = op.bytes() / std::uint64_t(m_wb);
    if (op.is_load())
        op.sram_writes = words;
    else
        op.sram_reads = words;
    op.of_begin = m_of0;
    op.if_begin = m_if0;
    op.ox_begin = m_ox0;
    op.n_of = m_tof;
    op.n_if = m_tif;
    op.n_ox = m_tox;
}

void LoopNest::make_ifmap_row(Op& op, int iy, bool wait) const {
    const std::uint64_t wb = std::uint64_t(m_wb);
    const std::uint64_t c = std::uint64_t(m_run.group) * m_shape.n_if + m_if0;
    const std::uint64_t hw = std::uint64_t(m_shape.padded_h) * m_shape.padded_w;
    const std::uint64_t ix0 = std::uint64_t(m_ox0) * m_shape.sx;
    const std::uint64_t tix = std::uint64_t(m_tox - 1) * m_shape.sx + m_shape.wkx();
    const std::uint64_t addr = m_layout.ifmap_base + ((c * m_shape.padded_h + iy) * m_shape.padded_w + ix0) * wb;
    set_dma(op, OpKind::LoadIfmap, wait, addr, tix * wb, std::uint32_t(m_tif), hw * wb);
    op.oy = iy;  // for ifmap loads: the ifmap row
}

void LoopNest::make_out_row(Op& op, OpKind kind, int oy, bool wait) const {
    const std::uint64_t wb = std::uint64_t(m_wb);
    const std::uint64_t k = std::uint64_t(m_run.group) * m_shape.n_of + m_of0;
    const std::uint64_t pq = std::uint64_t(m_shape.P) * m_shape.Q;
    const std::uint64_t addr = m_layout.ofmap_base + ((k * m_shape.P + oy) * m_shape.Q + m_ox0) * wb;
    set_dma(op, kind, wait, addr, std::uint64_t(m_tox) * wb, std::uint32_t(m_tof), pq * wb);
    op.oy = oy;
}

bool LoopNest::next(Op& op) {
    const int noy = m_shape.P;
    for (;;) {
        switch (m_phase) {
        case Phase::Filter: {
            const std::uint64_t wb = std::uint64_t(m_wb);
            const std::uint64_t k2 = std::uint64_t(m_shape.kx) * m_shape.ky;
            const std::uint64_t k = std::uint64_t(m_run.group) * m_shape.n_of + m_of0;
            const std::uint64_t addr = m_layout.weight_base + ((k * m_shape.n_if + m_if0) * k2) * wb;
            set_dma(op, OpKind::LoadFilter, true, addr, std::uint64_t(m_tif) * k2 * wb, std::uint32_t(m_tof),
                    std::uint64_t(m_shape.n_if) * k2 * wb);
            m_phase = Phase::InitIfmap;
            m_sub = 0;
            return true;
        }
        case Phase::InitIfmap:
            if (m_sub < m_shape.wky()) {
                make_ifmap_row(op, m_sub, true);
                ++m_sub;
                return true;
            }
            m_phase = Phase::InitPsum;
            break;
        case Phase::InitPsum:
            m_phase = Phase::PfPsum;
            m_oy = 0;
            if (m_if0 > 0) {
                make_out_row(op, OpKind::LoadPsum, 0, true);
                return true;
            }
            break;
        case Phase::PfPsum:
            m_phase = Phase::PfIfmap;
            m_sub = 0;
            if (m_oy + 1 < noy && m_if0 > 0) {
                make_out_row(op, OpKind::LoadPsum, m_oy + 1, false);
                return true;
            }
            break;
        case Phase::PfIfmap:
            if (m_oy + 1 < noy && m_sub < m_new_rows) {
                // Rows of oy+1 not yet on chip: [max(oy*s + W_ky, (oy+1)*s), (oy+1)*s + W_ky), W_ky the
                // window's rows ((N_ky - 1) dilation + 1).
                const int first = std::max(m_oy * m_shape.sy + m_shape.wky(), (m_oy + 1) * m_shape.sy);
                make_ifmap_row(op, first + m_sub, false);
                ++m_sub;
                return true;
            }
            m_phase = Phase::Compute;
            break;
        case Phase::Compute: {
            op = Op{};
            op.kind = OpKind::Compute;
            const std::uint64_t k2 = std::uint64_t(m_shape.kx) * m_shape.ky;
            const std::uint64_t tof = std::uint64_t(m_tof), tox = std::uint64_t(m_tox), tif = std::uint64_t(m_tif);
            op.macs = tof * tox * tif * k2;
            op.comp_cycles = ceil_div(tof, m_p_of) * ceil_div(tox, m_p_ox) * tif * k2;
            op.pfetch_cycles = m_if0 > 0 ? ceil_div(tof * tox, std::uint64_t(m_bw_sram)) : 0;
            // ASSUMPTION (energy only): each vALU cycle reads one P_ox ifmap vector and one P_of
            // weight vector; the psum row is read once (if prefetched) and the result row written once.
            op.sram_reads = op.comp_cycles * std::uint64_t(m_p_ox + m_p_of) + (m_if0 > 0 ? tof * tox : 0);
            op.sram_writes = tof * tox;
            op.of_begin = m_of0;
            op.if_begin = m_if0;
            op.ox_begin = m_ox0;
            op.oy = m_oy;
            op.n_of = m_tof;
            op.n_if = m_tif;
            op.n_ox = m_tox;
            m_phase = Phase::Store;
            return true;
        }
        case Phase::Store: {
            const bool last_if = m_if0 + m_tif >= m_shape.n_if;
            make_out_row(op, last_if ? OpKind::StoreOfmap : OpKind::StorePsum, m_oy, m_oy + 1 == noy);
            if (++m_oy < noy) {
                m_phase = Phase::PfPsum;
            } else if (advance_ox_tile()) {
                m_phase = Phase::InitIfmap;
            } else if (m_if0 + m_tif < m_shape.n_if) {
                start_if_tile(m_if0 + m_tif);
                m_phase = Phase::Filter;
            } else if (m_of0 + m_tof < m_run.of_end) {
                start_of_tile(m_of0 + m_tof);
                m_phase = Phase::Filter;
            } else {
                m_phase = Phase::Done;
            }
            return true;
        }
        case Phase::Done: return false;
        }
    }
}

}  // namespace vp::mapper::tiling
