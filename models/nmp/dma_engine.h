#pragma once
// The DMA engine of one TLE (Tensor Slicing and Optimization for Multicore NPUs: "a single DMA engine per TLE which has to serve
// all 8 TLT cores"): an approximately-timed TLM-2.0 initiator (4-phase base protocol,
// pooled payloads) that moves a box of a tensor: `planes` planes of `rows` rows of
// `row_bytes` bytes. Whole-row windows are one contiguous run per plane, other windows
// one run per row (the plane rule of the TSO burst model); each run is cut into
// transactions of at most `txn_bytes`. On the TLT side it has one initiator socket per TLT
// of its TLE (`tlt_socket[j]`, bound to Tlt::socket): a loaded tile is written into the
// TLT's MB0 / MB1 and an OUT tile read out of its MB2, one blocking transaction per tile.
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "mapper/tso/dma_box.h"
#include "models/common/at_request_phase.h"
#include "models/common/payload_pool.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/nmp/ring.h"
#include "models/nmp/tlt.h"

namespace vp::nmp {

using mapper::tso::Box;

class DmaEngine : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<DmaEngine> socket;                                // to the DRAM
    tlm_utils::simple_initiator_socket<DmaEngine> ring_socket;                           // to its ring node (Ring::in)
    std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<DmaEngine>>> tlt_socket;  // per TLT

    SC_HAS_PROCESS(DmaEngine);
    // `tracer` (may be null) gets the signal <stats path>.in_flight (transactions in flight).
    DmaEngine(sc_core::sc_module_name name, unsigned max_outstanding, unsigned txn_bytes, PayloadPool& pool,
              stats::Group& parent, int n_tlt, trace::Tracer* tracer = nullptr);

    // One tile transaction on TLT j's socket: write `bytes` at `addr` (Tlt::kMb0 / kMb1: a
    // loaded tile) or read them (Tlt::kMb2: an OUT tile; `ring`: a partial tile for the
    // ring). No delay; an error response throws vp::SimulationError; 0 bytes: no transaction.
    void tile(int j, bool write, std::uint64_t addr, std::uint64_t bytes, bool ring = false);
    // Sends a partial OUT tile of `bytes` to TLE `dst` over the ring (IFM-channel slicing):
    // blocking, returns when its last packet has left this node. An error response throws.
    void ring_send(int dst, std::uint64_t bytes, std::uint64_t tag);

    // Moves the box (read: DRAM -> TLT memories, write: back). Blocking: call from an
    // SC_THREAD; returns when every transaction has completed. Returns the transactions.
    std::uint64_t transfer(bool write, const Box& b);
    unsigned outstanding() const { return m_outstanding; }
    std::uint64_t transactions() const { return m_txns.value(); }
    std::uint64_t bytes_read() const { return m_bytes_read.value(); }
    std::uint64_t bytes_written() const { return m_bytes_written.value(); }
    std::uint64_t errors() const { return m_errors.value(); }

private:
    void issue(bool write, std::uint64_t addr, unsigned len);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
    void complete(tlm::tlm_generic_payload& t);
    void trace_in_flight();

    unsigned m_max_outstanding, m_txn_bytes;
    PayloadPool& m_pool;
    tlm_utils::peq_with_cb_and_phase<DmaEngine> m_peq;
    AtRequestPhase m_req;
    sc_core::sc_event m_resp_ev;
    unsigned m_outstanding = 0;

    stats::Group m_stats;
    stats::Counter m_txns, m_reads, m_writes, m_bytes_read, m_bytes_written, m_errors;
    trace::Signal* m_sig_in_flight = nullptr;  // null when tracing is off
    RingPartial m_ring_mark;                    // on m_txn while a ring partial leaves MB2
    RingMessage m_ring_msg;                     // on m_txn while a ring message is sent
    tlm::tlm_generic_payload m_txn;             // the TLT-side and ring transactions (blocking, one at a time)
    std::vector<unsigned char> m_scratch;       // their data array (the model carries no tensor values)
};

}  // namespace vp::nmp
