#include "models/asip/dma_queue.h"

#include <stdexcept>

namespace vp::asip {

DmaQueue::DmaQueue(std::uint32_t max_payload_bytes, unsigned capacity) : m_maxp(max_payload_bytes), m_ops(capacity) {
    if (max_payload_bytes == 0 || capacity == 0) throw std::invalid_argument("DmaQueue: zero payload or capacity");
}

std::uint64_t DmaQueue::push(const mapper::tiling::Op& op) {
    if (full()) throw std::logic_error("DmaQueue: push on a full queue");
    OpState& s = m_ops[index(m_count)];
    s = OpState{};
    s.seq = m_next_seq++;
    s.addr = op.dram_addr;
    s.seg_bytes = op.seg_bytes;
    s.stride = op.seg_stride;
    s.n_segs = op.seg_bytes ? op.n_segs : 0;
    // Same segmentation as waving::for_each_transfer / op_flits: ceil(seg_bytes / max_payload) per segment.
    s.remaining = std::uint64_t(s.n_segs) * ((op.seg_bytes + m_maxp - 1) / m_maxp);
    s.load = op.is_load();
    ++m_count;
    skip_empty();  // an empty operation is complete at once
    retire();
    return s.seq;
}

DmaTransfer DmaQueue::next_transfer() const {
    const unsigned slot = index(m_issue_op);
    const OpState& s = m_ops[slot];
    DmaTransfer t;
    t.addr = s.addr + std::uint64_t(s.seg) * s.stride + s.off;
    const std::uint64_t left = s.seg_bytes - s.off;
    t.bytes = std::uint32_t(left < m_maxp ? left : m_maxp);
    t.write = !s.load;
    t.slot = slot;
    return t;
}

void DmaQueue::pop_transfer() {
    OpState& s = m_ops[index(m_issue_op)];
    ++m_issued;
    s.off += m_maxp;
    if (s.off >= s.seg_bytes) {
        s.off = 0;
        if (++s.seg >= s.n_segs) {
            ++m_issue_op;
            skip_empty();
        }
    }
}

void DmaQueue::skip_empty() {
    while (m_issue_op < m_count && m_ops[index(m_issue_op)].n_segs == 0) ++m_issue_op;
}

bool DmaQueue::complete(unsigned slot) {
    OpState& s = m_ops[slot];
    if (s.remaining == 0) throw std::logic_error("DmaQueue: completion of a finished operation");
    ++m_completed;
    if (--s.remaining) return false;
    retire();
    return true;
}

// Drops completed operations from the head (only fully issued ones can be complete).
void DmaQueue::retire() {
    while (m_count && m_ops[m_head].remaining == 0 && m_issue_op > 0) {
        m_head = (m_head + 1) % unsigned(m_ops.size());
        --m_count;
        --m_issue_op;
    }
}

std::uint64_t DmaQueue::first_open(bool load) const {
    for (unsigned i = 0; i < m_count; ++i) {
        const OpState& s = m_ops[index(i)];
        if (s.load == load && s.remaining) return s.seq;
    }
    return m_next_seq;
}

bool DmaQueue::op_done(std::uint64_t seq) const {
    for (unsigned i = 0; i < m_count; ++i) {
        const OpState& s = m_ops[index(i)];
        if (s.seq == seq) return s.remaining == 0;
    }
    return seq < m_next_seq;  // retired
}

}  // namespace vp::asip
