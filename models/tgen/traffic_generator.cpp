#include "models/tgen/traffic_generator.h"

#include <cstring>

namespace vp::tgen {

using namespace sc_core;
using namespace tlm;

TrafficGenerator::TrafficGenerator(sc_module_name name, const TrafficParams& p, PayloadPool& pool, SimControl& ctrl,
                                   stats::Group& parent, trace::Tracer* tracer)
    : sc_module(name),
      socket("socket"),
      m_p(p),
      m_pool(pool),
      m_ctrl(ctrl),
      m_peq(this, &TrafficGenerator::peq_cb),
      m_req([this](tlm_generic_payload& t) { on_response(t); }),
      m_rng(p.seed),
      m_interval(p.interval_ns, SC_NS),
      m_step(p.pattern == Pattern::Strided ? p.stride : p.bytes),
      m_span(p.pattern == Pattern::Strided ? (p.range - p.bytes) / p.stride + 1 : p.range / p.bytes),
      m_slots(p.max_outstanding),
      m_stats(parent, p.name),
      m_issued(m_stats, "issued", "transactions issued", "count"),
      m_completed(m_stats, "completed", "transactions completed", "count"),
      m_reads(m_stats, "reads", "read transactions", "count"),
      m_writes(m_stats, "writes", "write transactions", "count"),
      m_bytes(m_stats, "bytes", "bytes requested", "B"),
      m_mismatches(m_stats, "data_mismatches", "read bytes that differ from the stream's last write", "count"),
      m_errors(m_stats, "error_responses", "responses with an error status", "count"),
      m_latency(m_stats, "latency", "request issue to response, seen by the initiator", "ns", 5.0, 400),
      m_bandwidth(m_stats, "bandwidth", "bytes / (last response - first issue)", "GB/s", [this]() {
          double t = double(m_last_ps - m_first_ps) * 1e-12;
          return t > 0 ? double(m_bytes.value()) / t * 1e-9 : 0.0;
      }) {
    socket.register_nb_transport_bw(this, &TrafficGenerator::nb_transport_bw);
    for (stats::Counter* c : {&m_issued, &m_completed, &m_reads, &m_writes, &m_bytes}) c->set_sampled();
    if (tracer) m_sig_outstanding = tracer->add(m_stats.path() + ".outstanding", 16);
    ctrl.begin();
    ctrl.add_total(p.requests);
    ctrl.set_unit("requests");
    SC_METHOD(step);  // runs at time 0 (initialisation), as the thread it replaces did
}

std::uint64_t TrafficGenerator::now_ps() const { return sc_time_stamp().value() / m_ps_unit; }

std::uint64_t TrafficGenerator::next_address() {
    switch (m_p.pattern) {
    case Pattern::Sequential:
    case Pattern::Strided: {
        // Request i goes to slot i mod m_span, counted instead of divided.
        const std::uint64_t a = m_p.base + m_wrap * m_step;
        if (++m_wrap == m_span) m_wrap = 0;
        return a;
    }
    case Pattern::Random:
        return m_p.base + (m_rng() % m_span) * m_p.bytes;
    }
    return m_p.base;
}

// The issuing process, an SC_METHOD run as a state machine (a thread switches stacks for every
// request): each activation issues requests until it must wait, for the end of a request
// phase, the pacing interval, a free slot or, after the last request, the last response; it
// waits on the same events at the same times as the loop
//   for each request: wait for a free slot; issue; wait for END_REQ; wait out the interval
// of an SC_THREAD would, and so issues at the same instants.
void TrafficGenerator::step() {
    for (;;) {
        if (m_req.pending()) {
            next_trigger(m_req.end_req_event());
            return;
        }
        if (m_paced) {
            m_paced = false;
            // The interval paces the next request: after the last one the stream only waits for
            // its responses (the run does not last an interval longer).
            if (m_next == m_p.requests) continue;
            const sc_time due = m_issue_time + m_interval;
            if (sc_time_stamp() < due) {
                next_trigger(due - sc_time_stamp());
                return;
            }
        }
        if (!may_issue(m_next == m_p.requests, m_outstanding, m_p.max_outstanding, m_resp_ev, m_ctrl)) return;
        issue(m_next++);
    }
}

void TrafficGenerator::issue(std::uint64_t i) {
    m_issue_time = sc_time_stamp();
    const std::uint64_t addr = next_address();
    const bool read = m_uni(m_rng) < m_p.read_fraction;
    tlm_generic_payload* t = m_pool.acquire(read ? TLM_READ_COMMAND : TLM_WRITE_COMMAND, addr, m_p.bytes);
    IssueSlots::Slot& slot = m_slots.take(t, now_ps());  // m_outstanding < max_outstanding
    if (read) {
        ++m_reads;
        if (m_p.verify) {
            slot.expected.resize(m_p.bytes);
            m_shadow.read(addr, slot.expected.data(), m_p.bytes);
        }
    } else {
        ++m_writes;
        unsigned char* d = t->get_data_ptr();
        for (unsigned b = 0; b < m_p.bytes; ++b) d[b] = pattern_byte(addr + b, i);
        if (m_p.verify) m_shadow.write(addr, d, m_p.bytes);
    }
    ++m_issued;
    m_bytes += m_p.bytes;
    ++m_outstanding;
    if (m_sig_outstanding) m_sig_outstanding->set(m_outstanding, now_ps());
    m_paced = m_p.interval_ns > 0;
    m_req.start(*socket.operator->(), *t);
}

tlm_sync_enum TrafficGenerator::nb_transport_bw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
    m_peq.notify(t, ph, d);
    return TLM_ACCEPTED;
}

void TrafficGenerator::peq_cb(tlm_generic_payload& t, const tlm_phase& ph) {
    m_req.on_backward(*socket.operator->(), t, ph, "vp/tgen");
}

void TrafficGenerator::on_response(tlm_generic_payload& t) {
    IssueSlots::Slot& slot = m_slots.of(t);
    if (t.get_response_status() != TLM_OK_RESPONSE) ++m_errors;
    else if (m_p.verify && t.is_read()) {
        const unsigned char* d = t.get_data_ptr();
        const std::uint64_t a = t.get_address();
        auto foreign = [&](std::uint64_t x) {
            for (const auto& r : m_p.foreign_writes)
                if (x >= r.first && x < r.second) return true;
            return false;
        };
        for (unsigned b = 0; b < m_p.bytes; ++b)
            if (d[b] != slot.expected[b] && !foreign(a + b)) ++m_mismatches;
    }
    m_last_ps = now_ps();
    m_latency.sample(double(m_last_ps - slot.issue_ps) * 1e-3);
    m_slots.release(slot);
    t.release();
    --m_outstanding;
    ++m_completed;
    m_ctrl.add_done();
    if (m_sig_outstanding) m_sig_outstanding->set(m_outstanding, m_last_ps);
    m_resp_ev.notify();
}

}  // namespace vp::tgen
