#include "models/nmp/dma_engine.h"

#include <algorithm>

#include "mapper/common/errors.h"
#include "models/common/blocking_transport.h"

namespace vp::nmp {

using namespace sc_core;
using namespace tlm;

DmaEngine::DmaEngine(sc_module_name name, unsigned max_outstanding, unsigned txn_bytes, PayloadPool& pool,
                     stats::Group& parent, int n_tlt, trace::Tracer* tracer)
    : sc_module(name),
      socket("socket"),
      ring_socket("ring_socket"),
      m_max_outstanding(max_outstanding),
      m_txn_bytes(txn_bytes),
      m_pool(pool),
      m_peq(this, &DmaEngine::peq_cb),
      m_req([this](tlm_generic_payload& t) { complete(t); }),
      m_stats(parent, "dma"),
      m_txns(m_stats, "transactions", "TLM transactions issued (= bursts of the TSO model)", "count"),
      m_reads(m_stats, "reads", "read transactions", "count"),
      m_writes(m_stats, "writes", "write transactions", "count"),
      m_bytes_read(m_stats, "bytes_read", "bytes loaded from DRAM", "B"),
      m_bytes_written(m_stats, "bytes_written", "bytes stored to DRAM", "B"),
      m_errors(m_stats, "error_responses", "responses with an error status", "count") {
    socket.register_nb_transport_bw(this, &DmaEngine::nb_transport_bw);
    if (tracer) m_sig_in_flight = tracer->add(m_stats.path() + ".in_flight", 16);
    for (int j = 0; j < n_tlt; ++j)
        tlt_socket.push_back(std::make_unique<tlm_utils::simple_initiator_socket<DmaEngine>>(
            sc_gen_unique_name(("tlt_socket_" + std::to_string(j)).c_str())));
}

void DmaEngine::tile(int j, bool write, std::uint64_t addr, std::uint64_t bytes, bool ring) {
    if (bytes == 0) return;  // an empty box moves nothing (a TLM transaction has at least one byte)
    if (blocking_transport(*tlt_socket[std::size_t(j)], m_txn, write ? TLM_WRITE_COMMAND : TLM_READ_COMMAND, addr, bytes,
                           m_scratch, ring ? &m_ring_mark : nullptr) != TLM_OK_RESPONSE)
        throw SimulationError(m_stats.path() + ": tile transaction to TLT " + std::to_string(j) + " at address " +
                              std::to_string(addr) + ": " + m_txn.get_response_string());
}

void DmaEngine::ring_send(int dst, std::uint64_t bytes, std::uint64_t tag) {
    m_ring_msg.tag = tag;
    if (blocking_transport(ring_socket, m_txn, TLM_WRITE_COMMAND, std::uint64_t(dst), bytes, m_scratch, &m_ring_msg) !=
        TLM_OK_RESPONSE)
        throw SimulationError(m_stats.path() + ": ring message of " + std::to_string(bytes) + " B to node " +
                              std::to_string(dst) + ": " + m_txn.get_response_string());
}

void DmaEngine::trace_in_flight() {
    m_sig_in_flight->set(m_outstanding, sc_time_stamp().value() / sc_time(1, SC_PS).value());
}

std::uint64_t DmaEngine::transfer(bool write, const Box& b) {
    const std::uint64_t before = m_txns.value();
    mapper::tso::for_each_txn(b, m_txn_bytes, [&](std::uint64_t addr, std::uint64_t len) { issue(write, addr, unsigned(len)); });
    while (m_outstanding > 0) wait(m_resp_ev);
    return m_txns.value() - before;
}

void DmaEngine::issue(bool write, std::uint64_t addr, unsigned len) {
    while (m_outstanding >= m_max_outstanding) wait(m_resp_ev);
    tlm_generic_payload* t = m_pool.acquire(write ? TLM_WRITE_COMMAND : TLM_READ_COMMAND, addr, len);
    ++m_txns;
    if (write) {
        ++m_writes;
        m_bytes_written += len;
    } else {
        ++m_reads;
        m_bytes_read += len;
    }
    ++m_outstanding;
    if (m_sig_in_flight) trace_in_flight();
    m_req.request(*socket.operator->(), *t);  // one request in the request phase at a time
}

tlm_sync_enum DmaEngine::nb_transport_bw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
    m_peq.notify(t, ph, d);
    return TLM_ACCEPTED;
}

void DmaEngine::peq_cb(tlm_generic_payload& t, const tlm_phase& ph) {
    m_req.on_backward(*socket.operator->(), t, ph, "vp/nmp");
}

void DmaEngine::complete(tlm_generic_payload& t) {
    if (t.get_response_status() != TLM_OK_RESPONSE) ++m_errors;
    t.release();
    --m_outstanding;
    if (m_sig_in_flight) trace_in_flight();
    m_resp_ev.notify();
}

}  // namespace vp::nmp
