#pragma once
// The initiator side of the TLM-2.0 base protocol shared by the simple AT initiators (traffic
// generator, NMP DMA engine): one request in the request phase at a time (the next BEGIN_REQ
// waits for END_REQ, which the target may delay for backpressure), END_RESP answered at once on
// BEGIN_RESP, and every finished transaction handed to the owner's completion function.
// The owner keeps its socket and its peq_with_cb_and_phase and forwards the backward-path
// phases from its peq callback to on_backward().
#include <functional>

#include <systemc>
#include <tlm>

namespace vp {

class AtRequestPhase {
public:
    using Completion = std::function<void(tlm::tlm_generic_payload&)>;
    explicit AtRequestPhase(Completion done) : m_done(std::move(done)) {}

    // From an SC_THREAD: sends BEGIN_REQ and returns once the request phase has ended.
    void request(tlm::tlm_fw_transport_if<>& fw, tlm::tlm_generic_payload& t) {
        start(fw, t);
        while (m_pending) sc_core::wait(m_end_req_ev);
    }

    // From any process (an SC_METHOD's state machine): sends BEGIN_REQ and returns at once;
    // the request phase is open while pending(), and end_req_event() is notified (immediately,
    // in the same evaluation phase as for request()) when it ends.
    void start(tlm::tlm_fw_transport_if<>& fw, tlm::tlm_generic_payload& t) {
        using namespace tlm;
        m_pending = true;
        m_current = &t;
        tlm_phase ph = BEGIN_REQ;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        const tlm_sync_enum r = fw.nb_transport_fw(t, ph, d);
        if (r == TLM_UPDATED && ph == END_REQ) {
            m_pending = false;
        } else if (r == TLM_UPDATED && ph == BEGIN_RESP) {
            on_backward(fw, t, ph, "vp/at_request_phase");
        } else if (r == TLM_COMPLETED) {
            m_pending = false;
            m_done(t);
        }
    }
    bool pending() const { return m_pending; }
    const sc_core::sc_event& end_req_event() const { return m_end_req_ev; }

    // A phase that arrived on the backward path (called from the owner's peq callback).
    void on_backward(tlm::tlm_fw_transport_if<>& fw, tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph,
                     const char* who) {
        using namespace tlm;
        if (ph == END_REQ) {
            end_request();
        } else if (ph == BEGIN_RESP) {
            // BEGIN_RESP implies END_REQ, but only for its own transaction: with several in
            // flight, the response of an older one says nothing about the request phase.
            if (m_pending && &t == m_current) end_request();
            tlm_phase p = END_RESP;
            sc_core::sc_time d = sc_core::SC_ZERO_TIME;
            fw.nb_transport_fw(t, p, d);
            m_done(t);
        } else {
            SC_REPORT_FATAL(who, "illegal phase on the backward path");
        }
    }

private:
    void end_request() {
        m_pending = false;
        m_current = nullptr;
        m_end_req_ev.notify();
    }
    Completion m_done;
    sc_core::sc_event m_end_req_ev;
    bool m_pending = false;
    const tlm::tlm_generic_payload* m_current = nullptr;  // the transaction in its request phase
};

}  // namespace vp
