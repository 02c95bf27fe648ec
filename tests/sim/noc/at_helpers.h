#pragma once
// Test-only AT blocks for the NoC scenarios: a fixed-latency memory target and a core
// initiator that runs a list of transactions one at a time and records their times.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/payload_pool.h"

namespace noc_test {

// 4-phase AT memory: END_REQ at once, BEGIN_RESP `latency` after BEGIN_REQ, one at a time.
class MemStub : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<MemStub> socket;
    std::vector<unsigned char> mem;
    sc_core::sc_time latency;
    unsigned served = 0;

    SC_HAS_PROCESS(MemStub);
    MemStub(sc_core::sc_module_name n, sc_core::sc_time lat, std::size_t bytes)
        : sc_core::sc_module(n), socket("socket"), mem(bytes, 0), latency(lat), m_peq(this, &MemStub::cb) {
        socket.register_nb_transport_fw(this, &MemStub::fw);
    }

private:
    tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        if (ph == tlm::BEGIN_REQ) {
            m_peq.notify(t, tlm::BEGIN_RESP, d + latency);
            ph = tlm::END_REQ;
            return tlm::TLM_UPDATED;
        }
        if (ph == tlm::END_RESP) {
            m_busy = false;
            if (!m_q.empty()) {
                auto* n = m_q.front();
                m_q.pop_front();
                send(*n);
            }
            return tlm::TLM_COMPLETED;
        }
        return tlm::TLM_COMPLETED;
    }
    void cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase&) {
        const auto a = t.get_address();
        if (a + t.get_data_length() > mem.size()) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        } else {
            if (t.is_write()) std::copy(t.get_data_ptr(), t.get_data_ptr() + t.get_data_length(), mem.begin() + a);
            else std::copy(mem.begin() + a, mem.begin() + a + t.get_data_length(), t.get_data_ptr());
            t.set_response_status(tlm::TLM_OK_RESPONSE);
        }
        if (m_busy) m_q.push_back(&t);
        else send(t);
    }
    void send(tlm::tlm_generic_payload& t) {
        m_busy = true;
        ++served;
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        if (socket->nb_transport_bw(t, ph, d) == tlm::TLM_COMPLETED) m_busy = false;
    }
    tlm_utils::peq_with_cb_and_phase<MemStub> m_peq;
    std::deque<tlm::tlm_generic_payload*> m_q;
    bool m_busy = false;
};

struct Op {
    bool write;
    std::uint64_t addr;
    std::vector<unsigned char> data;  // write data, or expected read data (empty: no check)
};

// Issues ops one at a time on core-clock edges: BEGIN_REQ, waits END_REQ and BEGIN_RESP,
// answers END_RESP (TLM_COMPLETED), next op on the following edge.
class Core : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<Core> socket;
    std::vector<Op> ops;
    std::vector<sc_core::sc_time> begin_req, begin_resp;
    unsigned errors = 0, done = 0;

    SC_HAS_PROCESS(Core);
    Core(sc_core::sc_module_name n, sc_core::sc_time period) : sc_core::sc_module(n), socket("socket"), m_period(period) {
        socket.register_nb_transport_bw(this, &Core::bw);
        SC_THREAD(run);
    }

private:
    void run() {
        std::vector<unsigned char> buf;
        for (const Op& op : ops) {
            const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_period.value();
            if (now % per) wait(sc_core::sc_time::from_value(per - now % per));
            buf.assign(op.data.size(), 0);
            if (op.write) buf = op.data;
            tlm::tlm_generic_payload t;
            t.set_command(op.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
            t.set_address(op.addr);
            t.set_data_ptr(buf.data());
            t.set_data_length(unsigned(buf.size()));
            t.set_streaming_width(unsigned(buf.size()));
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            sc_core::sc_time d = sc_core::SC_ZERO_TIME;
            m_got_resp = false;
            begin_req.push_back(sc_core::sc_time_stamp());
            socket->nb_transport_fw(t, ph, d);
            while (!m_got_resp) wait(m_resp_ev);
            begin_resp.push_back(m_resp_time);
            if (t.get_response_status() != tlm::TLM_OK_RESPONSE) ++errors;
            if (!op.write && buf != op.data) ++errors;
            ++done;
            wait(m_period);
        }
    }
    tlm::tlm_sync_enum bw(tlm::tlm_generic_payload&, tlm::tlm_phase& ph, sc_core::sc_time&) {
        if (ph == tlm::BEGIN_RESP) {
            m_got_resp = true;
            m_resp_time = sc_core::sc_time_stamp();
            m_resp_ev.notify(sc_core::SC_ZERO_TIME);
            return tlm::TLM_COMPLETED;
        }
        return tlm::TLM_ACCEPTED;  // END_REQ
    }
    sc_core::sc_time m_period, m_resp_time;
    sc_core::sc_event m_resp_ev;
    bool m_got_resp = false;
};

// Streams ops on core-clock edges with up to `max_outstanding` in flight (payloads from its own
// pool; one BEGIN_REQ per edge, the next after END_REQ). Read data is not checked (requests may
// overtake each other on adaptive routes).
class StreamCore : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<StreamCore> socket;
    std::vector<Op> ops;
    unsigned max_outstanding = 4;
    unsigned errors = 0, done = 0;

    SC_HAS_PROCESS(StreamCore);
    StreamCore(sc_core::sc_module_name n, sc_core::sc_time period)
        : sc_core::sc_module(n), socket("socket"), m_period(period), m_peq(this, &StreamCore::cb) {
        socket.register_nb_transport_bw(this, &StreamCore::bw);
        SC_THREAD(run);
    }
    unsigned in_flight() const { return m_in_flight; }

private:
    void run() {
        for (const Op& op : ops) {
            while (m_in_flight >= max_outstanding) wait(m_ev);
            const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_period.value();
            if (now % per) wait(sc_core::sc_time::from_value(per - now % per));
            tlm::tlm_generic_payload* t = m_pool.acquire(op.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND,
                                                        op.addr, unsigned(op.data.size()));
            if (op.write) std::copy(op.data.begin(), op.data.end(), t->get_data_ptr());
            ++m_in_flight;
            m_req_busy = true;
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            sc_core::sc_time d = sc_core::SC_ZERO_TIME;
            if (socket->nb_transport_fw(*t, ph, d) != tlm::TLM_ACCEPTED) ++errors;  // the NI accepts, END_REQ later
            while (m_req_busy) wait(m_ev);
            wait(m_period);
        }
    }
    tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        m_peq.notify(t, ph, d);
        if (ph == tlm::BEGIN_RESP) {
            ph = tlm::END_RESP;
            return tlm::TLM_COMPLETED;
        }
        return tlm::TLM_ACCEPTED;
    }
    void cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph) {
        if (ph == tlm::END_REQ) {
            m_req_busy = false;
        } else if (ph == tlm::BEGIN_RESP) {
            if (t.get_response_status() != tlm::TLM_OK_RESPONSE) ++errors;
            --m_in_flight;
            ++done;
            t.release();
        }
        m_ev.notify(sc_core::SC_ZERO_TIME);
    }
    sc_core::sc_time m_period;
    vp::PayloadPool m_pool;
    tlm_utils::peq_with_cb_and_phase<StreamCore> m_peq;
    sc_core::sc_event m_ev;
    unsigned m_in_flight = 0;
    bool m_req_busy = false;
};

inline int check(bool ok, const char* what) {
    if (!ok) std::fprintf(stderr, "FAILED: %s\n", what);
    return ok ? 0 : 1;
}

}  // namespace noc_test
