#pragma once
// Replays a DRAM request trace (DRAMSys STL or Ramulator 2 LoadStoreTrace, see
// models/dram/dram_trace_io.h) as an approximately-timed initiator (4-phase base
// protocol), reading the file one line at a time. Writes carry a deterministic pattern
// and reads are checked against the trace's own earlier writes.
#include <cstdint>
#include <memory>
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
#include "models/dram/dram_trace_io.h"
#include "models/tgen/trace_player_params.h"

namespace vp::tgen {

class TracePlayer : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<TracePlayer> socket;

    SC_HAS_PROCESS(TracePlayer);
    // `requests`: the number of requests in the file (from a first validating pass: the progress total);
    // `default_clock_ps`: the STL cycle when p.clock_ps is 0.
    TracePlayer(sc_core::sc_module_name name, const TracePlayerParams& p, std::uint64_t requests,
                std::uint64_t default_clock_ps, PayloadPool& pool, SimControl& ctrl, stats::Group& parent,
                trace::Tracer* tracer = nullptr);

    std::uint64_t completed() const { return m_completed.value(); }
    std::uint64_t mismatches() const { return m_mismatches.value(); }
    std::uint64_t bytes_requested() const { return m_bytes.value(); }
    unsigned outstanding() const { return m_outstanding; }

private:
    void step();
    void issue(const dram::TraceRequest& r);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
    void on_response(tlm::tlm_generic_payload& t);
    std::uint64_t now_ps() const;

    TracePlayerParams m_p;
    dram::TraceFormat m_format;
    std::uint64_t m_clock_ps;
    PayloadPool& m_pool;
    SimControl& m_ctrl;
    tlm_utils::peq_with_cb_and_phase<TracePlayer> m_peq;
    AtRequestPhase m_req;
    sc_core::sc_event m_resp_ev;
    unsigned m_outstanding = 0;
    dram::BackingStore m_shadow;
    IssueSlots m_slots;
    std::uint64_t m_first_ps = 0, m_last_ps = 0;
    std::unique_ptr<dram::TraceReader> m_reader;  // opened by the first activation
    dram::TraceRequest m_r;                       // read from the trace, not issued yet (m_have)
    std::uint64_t m_seq = 0;                      // requests issued
    bool m_have = false, m_eof = false;

    stats::Group m_stats;
    stats::Counter m_issued, m_completed, m_reads, m_writes, m_bytes, m_mismatches, m_errors;
    stats::Histogram m_latency, m_read_latency;
    stats::Formula m_bandwidth;
    trace::Signal* m_sig_outstanding = nullptr;
};

}  // namespace vp::tgen
