#pragma once
// The DMA descriptor queue of the ASIP core (plain C++, no SystemC): DMA operations of the
// loop nest (mapper/tiling/loop_nest.h) in issue order, cut into NoC-sized transfers exactly
// as waving::for_each_transfer does (one transfer = one request packet + one response /
// ack packet), and the completion bookkeeping the replay contract needs:
//   * a waited-for operation (N_dram_init, Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect) is complete when all its transfers are;
//   * "all loads up to sequence number s are complete" (the async prefetch of row oy+1 must
//     be there before row oy+1 is computed) and the same for stores (the write-back buffer
//     must be free before the next waited-for operation completes: triple buffering, Eq. 19).
// Operations carry sequence numbers 1, 2, ... in push order. Fixed capacity, no allocation
// after construction.
#include <cstdint>
#include <vector>

#include "mapper/tiling/loop_nest.h"

namespace vp::asip {

struct DmaTransfer {
    std::uint64_t addr = 0;
    std::uint32_t bytes = 0;
    bool write = false;
    unsigned slot = 0;  // queue slot of the operation (pass it back to complete())
};

class DmaQueue {
public:
    // max_payload_bytes: bytes per transfer (packet payload); capacity: operations held.
    DmaQueue(std::uint32_t max_payload_bytes, unsigned capacity);

    bool full() const { return m_count == m_ops.size(); }
    bool empty() const { return m_count == 0; }
    // Appends a DMA operation; returns its sequence number. Precondition: !full(), op.is_dma().
    std::uint64_t push(const mapper::tiling::Op& op);
    // Transfers in issue order: the next one not yet issued.
    bool has_transfer() const { return m_issue_op < m_count; }
    DmaTransfer next_transfer() const;
    void pop_transfer();
    // One transfer of the operation in `slot` finished; returns true if that completed the operation.
    bool complete(unsigned slot);

    // Every load (store) with sequence number <= s is complete.
    bool loads_done_upto(std::uint64_t s) const { return first_open(true) > s; }
    bool stores_done_upto(std::uint64_t s) const { return first_open(false) > s; }
    bool op_done(std::uint64_t seq) const;
    std::uint64_t last_seq() const { return m_next_seq - 1; }
    std::uint64_t transfers_issued() const { return m_issued; }
    std::uint64_t transfers_completed() const { return m_completed; }

private:
    struct OpState {
        std::uint64_t seq = 0;
        std::uint64_t addr = 0, seg_bytes = 0, stride = 0;
        std::uint32_t n_segs = 0;
        std::uint32_t seg = 0;        // issue position: segment ...
        std::uint64_t off = 0;        // ... and offset inside it
        std::uint64_t remaining = 0;  // transfers not yet completed
        bool load = false;
    };
    unsigned index(unsigned i) const { return (m_head + i) % unsigned(m_ops.size()); }
    std::uint64_t first_open(bool load) const;  // smallest seq of an incomplete op of that kind (or next seq)
    void retire();
    void skip_empty();

    std::uint64_t m_maxp;
    std::vector<OpState> m_ops;  // ring
    unsigned m_head = 0, m_count = 0;
    unsigned m_issue_op = 0;     // position (from head) of the op being issued
    std::uint64_t m_next_seq = 1;
    std::uint64_t m_issued = 0, m_completed = 0;
};

}  // namespace vp::asip
