#include "models/tgen/trace_player.h"

#include "models/tgen/traffic_params.h"  // pattern_byte

namespace vp::tgen {

using namespace sc_core;
using namespace tlm;

TracePlayer::TracePlayer(sc_module_name name, const TracePlayerParams& p, std::uint64_t requests,
                         std::uint64_t default_clock_ps, PayloadPool& pool, SimControl& ctrl, stats::Group& parent,
                         trace::Tracer* tracer)
    : sc_module(name),
      socket("socket"),
      m_p(p),
      m_format(dram::resolve_trace_format(p.path, p.format, p.name + ": format")),
      m_clock_ps(p.clock_ps ? p.clock_ps : default_clock_ps),
      m_pool(pool),
      m_ctrl(ctrl),
      m_peq(this, &TracePlayer::peq_cb),
      m_req([this](tlm_generic_payload& t) { on_response(t); }),
      m_slots(p.max_outstanding),
      m_stats(parent, p.name),
      m_issued(m_stats, "issued", "transactions issued", "count"),
      m_completed(m_stats, "completed", "transactions completed", "count"),
      m_reads(m_stats, "reads", "read transactions", "count"),
      m_writes(m_stats, "writes", "write transactions", "count"),
      m_bytes(m_stats, "bytes", "bytes requested", "B"),
      m_mismatches(m_stats, "data_mismatches", "read bytes that differ from the trace's last write", "count"),
      m_errors(m_stats, "error_responses", "responses with an error status", "count"),
      m_latency(m_stats, "latency", "request issue to response, seen by the initiator", "ns", 5.0, 400),
      m_read_latency(m_stats, "read_latency", "read issue to response, seen by the initiator", "ns", 5.0, 400),
      m_bandwidth(m_stats, "bandwidth", "bytes / (last response - first issue)", "GB/s", [this]() {
          double t = double(m_last_ps - m_first_ps) * 1e-12;
          return t > 0 ? double(m_bytes.value()) / t * 1e-9 : 0.0;
      }) {
    socket.register_nb_transport_bw(this, &TracePlayer::nb_transport_bw);
    if (tracer) m_sig_outstanding = tracer->add(m_stats.path() + ".outstanding", 16);
    ctrl.begin();
    ctrl.add_total(requests);
    ctrl.set_unit("requests");
    SC_METHOD(step);  // runs at time 0 (initialisation), as the thread it replaces did
}

std::uint64_t TracePlayer::now_ps() const { return sc_time_stamp().value() / sc_time(1, SC_PS).value(); }

// The issuing process, an SC_METHOD run as a state machine (as TrafficGenerator::step): each
// activation issues trace requests until it must wait, for the end of a request phase, a
// request's time stamp (timed STL), a free slot or, after the last request, the last response,
// on the same events at the same times as the loop
//   for each request: wait for its time stamp; wait for a free slot; issue; wait for END_REQ
// of an SC_THREAD would.
void TracePlayer::step() {
    if (!m_reader) {
        m_reader = std::make_unique<dram::TraceReader>(m_p.path, m_format, m_p.bytes);
        m_first_ps = now_ps();
    }
    const bool timed = m_p.timed && m_format == dram::TraceFormat::Stl;
    for (;;) {
        if (m_req.pending()) {
            next_trigger(m_req.end_req_event());
            return;
        }
        if (!m_have && !m_eof) {
            if (m_reader->next(m_r)) {
                m_have = true;
                if (timed) {
                    const sc_time at = sc_time::from_value(m_r.cycle * m_clock_ps * sc_time(1, SC_PS).value());
                    if (at > sc_time_stamp()) {
                        next_trigger(at - sc_time_stamp());
                        return;
                    }
                }
            } else {
                m_eof = true;
            }
        }
        if (!may_issue(m_eof, m_outstanding, m_p.max_outstanding, m_resp_ev, m_ctrl)) return;
        m_have = false;
        issue(m_r);
    }
}

void TracePlayer::issue(const dram::TraceRequest& r) {
    if (m_seq == 0) m_first_ps = now_ps();
    tlm_generic_payload* t = m_pool.acquire(r.write ? TLM_WRITE_COMMAND : TLM_READ_COMMAND, r.addr, r.bytes);
    IssueSlots::Slot& slot = m_slots.take(t, now_ps());  // m_outstanding < max_outstanding
    if (!r.write) {
        ++m_reads;
        if (m_p.verify) {
            slot.expected.resize(r.bytes);
            m_shadow.read(r.addr, slot.expected.data(), r.bytes);
        }
    } else {
        ++m_writes;
        unsigned char* d = t->get_data_ptr();
        for (unsigned b = 0; b < r.bytes; ++b) d[b] = pattern_byte(r.addr + b, m_seq);
        if (m_p.verify) m_shadow.write(r.addr, d, r.bytes);
    }
    ++m_seq;
    ++m_issued;
    m_bytes += r.bytes;
    ++m_outstanding;
    if (m_sig_outstanding) m_sig_outstanding->set(m_outstanding, now_ps());
    m_req.start(*socket.operator->(), *t);
}

tlm_sync_enum TracePlayer::nb_transport_bw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
    m_peq.notify(t, ph, d);
    return TLM_ACCEPTED;
}

void TracePlayer::peq_cb(tlm_generic_payload& t, const tlm_phase& ph) {
    m_req.on_backward(*socket.operator->(), t, ph, "vp/trace_player");
}

void TracePlayer::on_response(tlm_generic_payload& t) {
    IssueSlots::Slot& slot = m_slots.of(t);
    if (t.get_response_status() != TLM_OK_RESPONSE) ++m_errors;
    else if (m_p.verify && t.is_read()) {
        const unsigned char* d = t.get_data_ptr();
        for (unsigned b = 0; b < t.get_data_length(); ++b)
            if (d[b] != slot.expected[b]) ++m_mismatches;
    }
    m_last_ps = now_ps();
    m_latency.sample(double(m_last_ps - slot.issue_ps) * 1e-3);
    if (t.is_read()) m_read_latency.sample(double(m_last_ps - slot.issue_ps) * 1e-3);
    m_slots.release(slot);
    t.release();
    --m_outstanding;
    ++m_completed;
    m_ctrl.add_done();
    if (m_sig_outstanding) m_sig_outstanding->set(m_outstanding, m_last_ps);
    m_resp_ev.notify();
}

}  // namespace vp::tgen
