#pragma once
// The DRAM controller: an approximately-timed TLM-2.0 target (4-phase base protocol)
// in front of one DramChannel per channel, with a sparse backing store.
//
// BEGIN_REQ is accepted at once (TLM_ACCEPTED) into a peq_with_cb_and_phase; END_REQ
// is sent when the channel queue has room (backpressure by delaying END_REQ);
// BEGIN_RESP is sent when the last data beat has been transferred, never a second
// one on a socket before END_RESP. b_transport is a fixed-latency fallback and
// transport_dbg is functional only.
//
// The scheduler runs once per memory-clock edge that has work (tick); a request accepted
// during cycle t is schedulable from t + 1. Requests accepted during cycle t enter the channel
// queues at the first tick after t, all together, ordered by arrival time, then socket port
// (ports that tie take turns, round robin), then arrival on that port: whatever order the
// kernel ran their initiators in (docs/dram.md, "One instant, one order").
//
// Optional attachments, all off the hot path when unused: the independent protocol checker (check_protocol), waveforms of commands
// and bank states (tracing), and a recording of the request stream (record_trace).
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/dram/address_mapper.h"
#include "models/dram/backing_store.h"
#include "models/dram/dram_channel.h"
#include "models/dram/dram_params.h"
#include "models/dram/dram_trace_io.h"
#include "models/dram/dram_waves.h"
#include "models/dram/protocol_monitor.h"
#include "models/dram/timing_table.h"

namespace vp::dram {

class DramController : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<DramController> socket;

    SC_HAS_PROCESS(DramController);
    DramController(sc_core::sc_module_name name, const DramParams& p, stats::Group& parent,
                   trace::Tracer* tracer = nullptr);
    ~DramController() override;

    BackingStore& store() { return m_store; }
    const DramParams& params() const { return m_p; }
    const AddressMapper& mapper() const { return m_map; }
    // Transactions accepted (BEGIN_REQ seen) and not yet completed (END_RESP seen).
    std::size_t in_flight() const { return m_in_flight; }
    std::uint64_t bytes_requested() const { return m_bytes_requested; }
    std::uint64_t bytes_served() const;
    // Closes time-weighted statistics at `end` (the end of the workload) and the trace
    // recording; call once. Throws SimulationError when the protocol checker found a
    // violation (the run was stopped at the first one).
    void finish(const sc_core::sc_time& end);
    const TimingTable& timing_table() const { return m_table; }
    // Another receiver of every DRAM command (call before the simulation starts).
    void add_observer(CommandObserver* o);
    // The protocol checker, when dram.check_protocol is on (else nullptr).
    const ProtocolMonitor* protocol_monitor() const { return m_monitor.get(); }

private:
    struct TxnExt;
    tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                       sc_core::sc_time& d);
    void b_transport(int port, tlm::tlm_generic_payload& t, sc_core::sc_time& d);
    unsigned transport_dbg(int port, tlm::tlm_generic_payload& t);
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph);
    void tick();
    void start_of_simulation() override;
    // Room for t in every channel it touches, counting the requests staged for the next edge.
    bool has_room(tlm::tlm_generic_payload& t) const;
    // Accepts t in cycle `accept` (END_REQ is the caller's): staged until the first tick after it.
    void stage(tlm::tlm_generic_payload& t, std::uint64_t accept);
    // Moves the staged requests accepted before `now` into the channel queues, in canonical order.
    void flush_staged(std::uint64_t now);
    void enqueue(tlm::tlm_generic_payload& t, std::uint64_t accept);
    // The first cycle at which staged t could issue a command (a lower bound, see DramChannel).
    std::uint64_t staged_wake(tlm::tlm_generic_payload& t) const;
    // Orders requests of one instant: arrival time, then port, then arrival on the port.
    bool before(tlm::tlm_generic_payload* a, tlm::tlm_generic_payload* b) const;
    // Staged requests' share of a channel's queue integral up to `cycle` (epoch samples mid-run).
    std::uint64_t staged_integral(unsigned channel, std::uint64_t cycle) const;
    // Parts (runs of consecutive bursts) of t per channel, added to `need`.
    void parts_per_channel(const tlm::tlm_generic_payload& t, std::vector<unsigned>& need) const;
    void send_response(tlm::tlm_generic_payload& t);
    void do_functional(tlm::tlm_generic_payload& t);
    bool check_request(tlm::tlm_generic_payload& t) const;
    std::uint64_t cycle_now() const;         // the current clock edge, or the next one
    std::uint64_t cycle_of(std::uint64_t ps) const { return ps / m_p.tck_ps; }  // the cycle containing ps
    // A duration of n memory cycles, built from integers (no floating point per transaction).
    sc_core::sc_time cycles_to_time(std::uint64_t n) const {
        return sc_core::sc_time::from_value(n * m_p.tck_ps * m_ps_unit);
    }
    TxnExt* ext_of(tlm::tlm_generic_payload& t) const;
    void trace_queue();
    void end_response(tlm::tlm_generic_payload& t);  // END_RESP: frees the transaction and the port

    // Forwards each command to several observers.
    struct Fanout : CommandObserver {
        std::vector<CommandObserver*> to;
        void on_command(const CommandRecord& r) override {
            for (CommandObserver* o : to) o->on_command(r);
        }
    };

    DramParams m_p;
    AddressMapper m_map;
    TimingTable m_table;
    std::vector<std::unique_ptr<DramChannel>> m_channels;
    BackingStore m_store;
    tlm_utils::peq_with_cb_and_phase<DramController> m_peq;
    sc_core::sc_event m_wake;
    std::uint64_t m_tick_at = ~std::uint64_t(0);  // the cycle tick() runs at next without m_wake (none: never)
    sc_core::sc_time m_tck;
    std::uint64_t m_ps_unit;  // kernel time units per picosecond

    std::deque<tlm::tlm_generic_payload*> m_blocked;  // waiting for END_REQ (queue full), canonical order
    std::vector<tlm::tlm_generic_payload*> m_staged;  // accepted, not yet in a channel queue
    std::vector<unsigned> m_staged_parts;             // their parts per channel
    std::vector<std::uint64_t> m_port_seq;            // BEGIN_REQs seen per port
    unsigned m_rr_next = 0;                           // the port that goes first at the next tie
    mutable std::vector<unsigned> m_need;  // scratch of has_room()
    std::vector<bool> m_port_busy;                    // BEGIN_RESP sent, END_RESP pending
    std::vector<std::deque<tlm::tlm_generic_payload*>> m_resp_queue;
    std::vector<std::unique_ptr<TxnExt>> m_ext_pool;
    std::vector<TxnExt*> m_ext_free;
    std::size_t m_in_flight = 0;
    std::uint64_t m_bytes_requested = 0;
    std::uint64_t m_end_cycle = 0;
    std::size_t m_inflight_trace = 0;
    std::unique_ptr<ProtocolMonitor> m_monitor;
    std::unique_ptr<DramWaves> m_waves;
    std::unique_ptr<TraceWriter> m_recorder;
    Fanout m_fanout;

    // Per channel and per bank, registered by address (sampled per epoch): dram.channel[c]...
    struct ChannelStats;
    std::uint64_t live_cycle() const { return m_end_cycle ? m_end_cycle : cycle_now(); }

    stats::Group m_stats;
    std::vector<std::unique_ptr<ChannelStats>> m_chan_stats;
    stats::Formula m_reads, m_writes, m_bytes_read, m_bytes_written, m_row_hits, m_row_misses, m_row_conflicts,
        m_activates, m_precharges, m_refreshes, m_starvation_caps, m_turnarounds, m_busy_cycles, m_bandwidth, m_utilisation, m_row_hit_rate,
        m_avg_queue, m_max_queue, m_queue_integral, m_act_util;
    stats::Scalar m_peak_bw, m_act_interval;
    stats::Counter m_errors, m_blocking, m_backpressure;
    stats::Histogram m_latency;

    trace::Signal* m_sig_queue = nullptr;     // transactions queued in the channels
    trace::Signal* m_sig_inflight = nullptr;  // transactions accepted and not yet completed
    trace::Signal* m_sig_bus = nullptr;       // a data bus transfers (or will, for issued commands)
};

}  // namespace vp::dram
