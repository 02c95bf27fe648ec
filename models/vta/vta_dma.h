#pragma once
// One DMA port of the VTA core: an approximately-timed TLM-2.0 initiator (4-phase base
// protocol, peq_with_cb_and_phase, pooled payloads). Transfers are split into transactions
// of at most dma_burst_bytes, up to dma_outstanding in flight; END_RESP is held for the
// beats the read/write data needs on a dma_bus_bits-wide bus (AXI data channel occupancy).
// Called from SC_THREADs: transfer() returns when all transactions have completed.
#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "mapper/vta/vta_timing.h"
#include "models/common/payload_pool.h"

namespace vp::vta {

class VtaDma : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<VtaDma> socket;

    // On read completion: deliver(chunk_index, data, bytes). On write issue: fill(chunk_index, data, bytes).
    using Chunk = std::function<void(std::uint32_t, unsigned char*, unsigned)>;

    SC_HAS_PROCESS(VtaDma);
    VtaDma(sc_core::sc_module_name name, PayloadPool& pool, unsigned burst_bytes, unsigned outstanding,
           unsigned bus_bytes, sc_core::sc_time clock);

    // One transaction: `bytes` at `addr` (callers split rows with max_chunk()).
    struct Row { std::uint64_t addr; std::uint32_t bytes; };
    // Largest transaction holding whole elements of `unit` bytes (one element if larger than a burst).
    unsigned max_chunk(unsigned unit) const { return mapper::vta::dma_chunk_bytes(m_burst, unit); }
    // Issues every row (in order, tag = index) and waits for all completions. Call from an SC_THREAD.
    void read(const std::vector<Row>& rows, unsigned unit, const Chunk& deliver);
    void write(const std::vector<Row>& rows, unsigned unit, const Chunk& fill);

    std::uint64_t bytes_read() const { return m_bytes_read; }
    std::uint64_t bytes_written() const { return m_bytes_written; }
    std::uint64_t transactions() const { return m_txns; }
    std::size_t in_flight() const { return m_outstanding; }

private:
    struct Slot { tlm::tlm_generic_payload* t = nullptr; std::uint32_t tag = 0; bool read = true; };
    void transfer(bool read, const std::vector<Row>& rows, unsigned unit, const Chunk& cb);
    void issue(bool read, std::uint64_t addr, unsigned bytes, std::uint32_t tag, const Chunk& cb);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
    void complete(tlm::tlm_generic_payload& t);

    PayloadPool& m_pool;
    unsigned m_burst, m_max_out, m_bus_bytes;
    sc_core::sc_time m_clock;
    tlm_utils::peq_with_cb_and_phase<VtaDma> m_peq;
    std::vector<Slot> m_slots;
    const Chunk* m_deliver = nullptr;
    std::size_t m_outstanding = 0;
    bool m_req_busy = false;  // BEGIN_REQ sent, END_REQ not yet seen
    const tlm::tlm_generic_payload* m_req_current = nullptr;  // the transaction in its request phase
    sc_core::sc_event m_changed;
    std::uint64_t m_bytes_read = 0, m_bytes_written = 0, m_txns = 0;
};

}  // namespace vp::vta
