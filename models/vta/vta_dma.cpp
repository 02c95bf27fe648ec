#include "models/vta/vta_dma.h"

#include "mapper/common/errors.h"

namespace vp::vta {

using namespace sc_core;
using namespace tlm;

VtaDma::VtaDma(sc_module_name name, PayloadPool& pool, unsigned burst_bytes, unsigned outstanding, unsigned bus_bytes,
               sc_time clock)
    : sc_module(name), socket("socket"), m_pool(pool), m_burst(burst_bytes), m_max_out(outstanding),
      m_bus_bytes(bus_bytes), m_clock(clock), m_peq(this, &VtaDma::peq_cb), m_slots(outstanding) {
    socket.register_nb_transport_bw(this, &VtaDma::nb_transport_bw);
}

void VtaDma::read(const std::vector<Row>& rows, unsigned unit, const Chunk& deliver) { transfer(true, rows, unit, deliver); }
void VtaDma::write(const std::vector<Row>& rows, unsigned unit, const Chunk& fill) { transfer(false, rows, unit, fill); }

void VtaDma::transfer(bool read, const std::vector<Row>& rows, unsigned unit, const Chunk& cb) {
    (void)unit;  // rows arrive pre-split (VtaDma::split) so that tag == row index
    m_deliver = &cb;
    for (std::uint32_t tag = 0; tag < rows.size(); ++tag) issue(read, rows[tag].addr, rows[tag].bytes, tag, cb);
    while (m_outstanding > 0) wait(m_changed);
    m_deliver = nullptr;
}

void VtaDma::issue(bool read, std::uint64_t addr, unsigned bytes, std::uint32_t tag, const Chunk& cb) {
    while (m_outstanding >= m_max_out || m_req_busy) wait(m_changed);
    tlm_generic_payload* t = m_pool.acquire(read ? TLM_READ_COMMAND : TLM_WRITE_COMMAND, addr, bytes);
    if (!read) cb(tag, t->get_data_ptr(), bytes);
    for (Slot& s : m_slots)
        if (!s.t) {
            s.t = t;
            s.tag = tag;
            s.read = read;
            break;
        }
    ++m_outstanding;
    ++m_txns;
    m_req_busy = true;
    m_req_current = t;
    tlm_phase ph = BEGIN_REQ;
    sc_time d = SC_ZERO_TIME;
    const tlm_sync_enum r = socket->nb_transport_fw(*t, ph, d);
    if (r == TLM_UPDATED) {
        m_peq.notify(*t, ph, d);
    } else if (r == TLM_COMPLETED) {
        m_req_busy = false;
        complete(*t);
    }
}

tlm_sync_enum VtaDma::nb_transport_bw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
    m_peq.notify(t, ph, d);
    return TLM_ACCEPTED;
}

void VtaDma::peq_cb(tlm_generic_payload& t, const tlm_phase& ph) {
    if (ph == END_REQ) {
        m_req_busy = false;
        m_changed.notify(SC_ZERO_TIME);
    } else if (ph == BEGIN_RESP) {
        // BEGIN_RESP implies END_REQ for its own transaction only (others may be in flight).
        if (m_req_busy && &t == m_req_current) {
            m_req_busy = false;
            m_changed.notify(SC_ZERO_TIME);
        }
        // Hold END_RESP for the data beats on the bus.
        const unsigned beats = (t.get_data_length() + m_bus_bytes - 1) / m_bus_bytes;
        m_peq.notify(t, END_RESP, sc_time::from_value(m_clock.value() * beats));  // integer ps: no double ctor per beat
    } else if (ph == END_RESP) {  // self-scheduled: data transferred
        tlm_phase p = END_RESP;
        sc_time d = SC_ZERO_TIME;
        socket->nb_transport_fw(t, p, d);
        complete(t);
    }
}

void VtaDma::complete(tlm_generic_payload& t) {
    if (t.is_response_error())
        throw SimulationError(std::string("VTA DMA: DRAM error response for ") + (t.is_read() ? "read" : "write") +
                              " at address " + std::to_string(t.get_address()) + ": " + t.get_response_string());
    for (Slot& s : m_slots)
        if (s.t == &t) {
            if (s.read) {
                m_bytes_read += t.get_data_length();
                if (m_deliver) (*m_deliver)(s.tag, t.get_data_ptr(), t.get_data_length());
            } else {
                m_bytes_written += t.get_data_length();
            }
            s.t = nullptr;
            break;
        }
    t.release();
    --m_outstanding;
    m_changed.notify(SC_ZERO_TIME);
}

}  // namespace vp::vta
