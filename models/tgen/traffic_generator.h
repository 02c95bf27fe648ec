#pragma once
// A traffic-generator initiator (approximately timed, 4-phase base protocol): issues
// sequential, strided or random reads/writes with an outstanding-request limit, and
// checks read data against the stream's own earlier writes.
#include <cstdint>
#include <random>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/common/at_request_phase.h"
#include "models/common/payload_pool.h"
#include "models/common/sim_control.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/dram/backing_store.h"
#include "models/tgen/issue_slots.h"
#include "models/tgen/traffic_params.h"

namespace vp::tgen {

class TrafficGenerator : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<TrafficGenerator> socket;

    SC_HAS_PROCESS(TrafficGenerator);
    TrafficGenerator(sc_core::sc_module_name name, const TrafficParams& p, PayloadPool& pool, SimControl& ctrl,
                     stats::Group& parent, trace::Tracer* tracer = nullptr);

    std::uint64_t completed() const { return m_completed.value(); }
    std::uint64_t mismatches() const { return m_mismatches.value(); }
    std::uint64_t bytes_requested() const { return m_bytes.value(); }
    unsigned outstanding() const { return m_outstanding; }

private:
    void step();
    void issue(std::uint64_t i);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
    void on_response(tlm::tlm_generic_payload& t);
    std::uint64_t next_address();  // of the next request (call once per request, in order)
    std::uint64_t now_ps() const;

    TrafficParams m_p;
    PayloadPool& m_pool;
    SimControl& m_ctrl;
    tlm_utils::peq_with_cb_and_phase<TrafficGenerator> m_peq;
    AtRequestPhase m_req;
    sc_core::sc_event m_resp_ev;
    unsigned m_outstanding = 0;
    std::mt19937_64 m_rng;
    std::uniform_real_distribution<double> m_uni{0.0, 1.0};
    const sc_core::sc_time m_interval;  // pacing: the earliest next issue after a request's issue
    const std::uint64_t m_step, m_span; // address step (sequential, strided), request slots in the range
    sc_core::sc_time m_issue_time;      // the latest request's issue
    std::uint64_t m_next = 0;           // the next request's index
    std::uint64_t m_wrap = 0;           // sequential / strided: the next request's slot (< m_span)
    bool m_paced = false;               // the latest request's pacing interval is still to be waited out
    dram::BackingStore m_shadow;
    IssueSlots m_slots;
    std::uint64_t m_first_ps = 0, m_last_ps = 0;
    const sc_core::sc_time::value_type m_ps_unit = sc_core::sc_time(1, sc_core::SC_PS).value();  // kernel ticks per ps

    stats::Group m_stats;
    stats::Counter m_issued, m_completed, m_reads, m_writes, m_bytes, m_mismatches, m_errors;
    stats::Histogram m_latency;
    stats::Formula m_bandwidth;
    trace::Signal* m_sig_outstanding = nullptr;
};

}  // namespace vp::tgen
