#pragma once
// The network's table of packets in flight. Flits refer to their packet by index; the
// table keeps what the NIs and statistics need (creation/injection cycles, address,
// user pointer). Slots are recycled through a free list: no allocation per packet
// once the table has reached the peak number of packets alive.
#include <cstdint>
#include <vector>

#include "models/noc/flit.h"

namespace vp::noc {

struct PacketInfo {
    std::uint64_t serial = 0;        // creation order, unique over the run
    std::uint64_t create_cycle = 0;  // cycle the packet entered the source queue
    std::uint64_t inject_cycle = 0;  // cycle its head left the source NI
    std::uint64_t addr = 0;          // target address (requests), for the DRAM node
    void* user = nullptr;            // for the receiver (e.g. the TLM payload of a request)
    void* sender = nullptr;          // for the sender (e.g. the transaction a posted packet completes)
    std::uint32_t txn_id = 0;
    std::uint32_t payload_bytes = 0;
    std::uint32_t num_flits = 1;
    std::uint16_t src = 0, dst = 0;
    PacketType type = PacketType::kSynthetic;
    bool measured = false;           // created inside the measurement window
    bool notify_sent = false;        // tell the source endpoint when the tail has left its NI (PacketSink::sent)
};

class PacketTable {
public:
    std::uint32_t alloc() {
        if (m_free.empty()) {
            m_slots.emplace_back();
            return static_cast<std::uint32_t>(m_slots.size() - 1);
        }
        const std::uint32_t id = m_free.back();
        m_free.pop_back();
        return id;
    }
    void release(std::uint32_t id) { m_free.push_back(id); }
    PacketInfo& operator[](std::uint32_t id) { return m_slots[id]; }
    const PacketInfo& operator[](std::uint32_t id) const { return m_slots[id]; }
    std::size_t alive() const { return m_slots.size() - m_free.size(); }

private:
    std::vector<PacketInfo> m_slots;
    std::vector<std::uint32_t> m_free;
};

}  // namespace vp::noc
