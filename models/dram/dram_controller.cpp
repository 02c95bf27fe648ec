#include "models/dram/dram_controller.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <initializer_list>
#include <string>

#include "mapper/common/errors.h"

namespace vp::dram {

using namespace sc_core;
using namespace tlm;

struct DramController::TxnExt : tlm_extension<DramController::TxnExt> {
    int port = 0;
    std::uint64_t arrival_ps = 0;
    std::uint64_t port_seq = 0;  // BEGIN_REQs on this port before it
    std::uint64_t accept = 0;    // the cycle it was accepted in
    dram::DramAddress first;     // its first burst, decoded when staged (one channel only)
    unsigned parts_left = 0;
    std::uint64_t done_cycle = 0;
    tlm_extension_base* clone() const override { return new TxnExt(*this); }
    void copy_from(const tlm_extension_base& e) override { *this = static_cast<const TxnExt&>(e); }
};

struct DramController::ChannelStats {
    ChannelStats(stats::Group& parent, unsigned index, const DramChannel& ch, const DramParams& p,
                 const DramController& ctl)
        : g(parent, "channel[" + std::to_string(index) + "]"),
          bytes_read(g, "bytes_read", "bytes read", "B", &ch.counters().bytes_read),
          bytes_written(g, "bytes_written", "bytes written", "B", &ch.counters().bytes_written),
          row_hits(g, "row_hits", "bursts served from the open row", "count", &ch.counters().row_hits),
          row_misses(g, "row_misses", "bursts that needed an ACT to a closed bank", "count", &ch.counters().row_misses),
          row_conflicts(g, "row_conflicts", "bursts that needed PRE and ACT", "count", &ch.counters().row_conflicts),
          busy(g, "data_bus_busy_cycles", "cycles the data bus transferred data", "tCK",
               &ch.counters().data_bus_busy_cycles),
          turnarounds(g, "bus_turnarounds", "column commands in the other direction than the previous one", "count",
                      &ch.counters().bus_turnarounds),
          queue(g, "queue_occupancy_integral", "transactions queued, summed over cycles", "request tCK",
                [&ch, &ctl, index] {
                    const std::uint64_t c = ctl.live_cycle();
                    return double(ch.occupancy_integral_at(c) + ctl.staged_integral(index, c));
                }) {
        queue.set_sampled();
        for (unsigned r = 0; r < p.ranks; ++r)
            for (unsigned b = 0; b < p.banks(); ++b) {
                const std::size_t i = std::size_t(r) * p.banks() + b;
                banks.emplace_back(g, p.ranks > 1 ? "rank[" + std::to_string(r) + "].bank[" + std::to_string(b) + "]"
                                                  : "bank[" + std::to_string(b) + "]");
                activates.emplace_back(banks.back(), "activates", "ACT commands to the bank", "count",
                                       &ch.counters().bank_activates[i]);
                bursts.emplace_back(banks.back(), "bursts", "read and write bursts of the bank", "count",
                                    &ch.counters().bank_bursts[i]);
            }
    }
    stats::Group g;
    stats::CounterRef bytes_read, bytes_written, row_hits, row_misses, row_conflicts, busy, turnarounds;
    stats::Formula queue;
    std::deque<stats::Group> banks;
    std::deque<stats::CounterRef> activates, bursts;
};

namespace {
template <typename F>
std::function<double()> sum_over(const std::vector<std::unique_ptr<DramChannel>>& chans, F f) {
    return [&chans, f]() {
        double s = 0;
        for (const auto& c : chans) s += double(f(c->counters()));
        return s;
    };
}
}  // namespace

DramController::DramController(sc_module_name name, const DramParams& p, stats::Group& parent,
                               trace::Tracer* tracer)
    : sc_module(name),
      socket("socket"),
      m_p(p),
      m_map(m_p),
      m_table(m_p),
      m_peq(this, &DramController::peq_cb),
      m_tck(double(p.tck_ps), SC_PS),
      m_ps_unit(sc_time(1, SC_PS).value()),
      m_stats(parent, basename()),
      m_reads(m_stats, "reads", "read transactions completed", "count",
              sum_over(m_channels, [](const ChannelCounters& c) { return c.reads; })),
      m_writes(m_stats, "writes", "write transactions completed", "count",
               sum_over(m_channels, [](const ChannelCounters& c) { return c.writes; })),
      m_bytes_read(m_stats, "bytes_read", "bytes read", "B",
                   sum_over(m_channels, [](const ChannelCounters& c) { return c.bytes_read; })),
      m_bytes_written(m_stats, "bytes_written", "bytes written", "B",
                      sum_over(m_channels, [](const ChannelCounters& c) { return c.bytes_written; })),
      m_row_hits(m_stats, "row_hits", "bursts served from the open row", "count",
                 sum_over(m_channels, [](const ChannelCounters& c) { return c.row_hits; })),
      m_row_misses(m_stats, "row_misses", "bursts that needed an ACT to a closed bank", "count",
                   sum_over(m_channels, [](const ChannelCounters& c) { return c.row_misses; })),
      m_row_conflicts(m_stats, "row_conflicts", "bursts that needed PRE and ACT (other row open)", "count",
                      sum_over(m_channels, [](const ChannelCounters& c) { return c.row_conflicts; })),
      m_activates(m_stats, "activates", "ACT commands", "count",
                  sum_over(m_channels, [](const ChannelCounters& c) { return c.activates; })),
      m_precharges(m_stats, "precharges", "PRE commands (incl. auto-precharge)", "count",
                   sum_over(m_channels, [](const ChannelCounters& c) { return c.precharges; })),
      m_refreshes(m_stats, "refreshes", "REF commands", "count",
                  sum_over(m_channels, [](const ChannelCounters& c) { return c.refreshes; })),
      m_starvation_caps(m_stats, "starvation_caps", "oldest requests served first because younger ones reached the starvation cap",
                        "count", sum_over(m_channels, [](const ChannelCounters& c) { return c.starvation_caps; })),
      m_turnarounds(m_stats, "bus_turnarounds",
                    "column commands in the other direction than the previous one (read after write or write after read)",
                    "count", sum_over(m_channels, [](const ChannelCounters& c) { return c.bus_turnarounds; })),
      m_busy_cycles(m_stats, "data_bus_busy_cycles", "cycles the data bus transferred data (all channels)", "tCK",
                    sum_over(m_channels, [](const ChannelCounters& c) { return c.data_bus_busy_cycles; })),
      m_bandwidth(m_stats, "bandwidth", "achieved bandwidth over the simulated time", "GB/s",
                  [this]() {
                      double t = double(m_end_cycle) * double(m_p.tck_ps) * 1e-12;
                      return t > 0 ? (m_bytes_read.value() + m_bytes_written.value()) / t * 1e-9 : 0.0;
                  }),
      m_utilisation(m_stats, "bus_utilisation", "data bus busy fraction", "ratio",
                    [this]() {
                        double c = double(m_end_cycle) * double(m_p.channels);
                        return c > 0 ? m_busy_cycles.value() / c : 0.0;
                    }),
      m_row_hit_rate(m_stats, "row_hit_rate", "row hits / bursts", "ratio",
                     [this]() {
                         double b = m_row_hits.value() + m_row_misses.value() + m_row_conflicts.value();
                         return b > 0 ? m_row_hits.value() / b : 0.0;
                     }),
      m_avg_queue(m_stats, "queue_occupancy_avg", "time-averaged transactions queued per channel", "count",
                  [this]() {
                      double s = 0;
                      for (const auto& c : m_channels) s += double(c->counters().occupancy_integral);
                      double cyc = double(m_end_cycle) * double(m_p.channels);
                      return cyc > 0 ? s / cyc : 0.0;
                  }),
      m_max_queue(m_stats, "queue_occupancy_max", "largest queue length of any channel", "count",
                  [this]() {
                      std::uint64_t m = 0;
                      for (const auto& c : m_channels) m = std::max(m, c->counters().max_occupancy);
                      return double(m);
                  }),
      m_queue_integral(m_stats, "queue_occupancy_integral", "transactions queued in all channels, summed over cycles",
                       "request tCK",
                       [this]() {
                           double s = 0;
                           for (std::size_t c = 0; c < m_channels.size(); ++c)
                               s += double(m_channels[c]->occupancy_integral_at(live_cycle()) +
                                           staged_integral(unsigned(c), live_cycle()));
                           return s;
                       }),
      m_act_util(m_stats, "activation_utilisation",
                 "row activations over the most the four-activation window and ACT-to-ACT spacing allow "
                 "(activates x activation_interval / (simulated tCK x channels))",
                 "ratio",
                 [this]() {
                     const double c = double(m_end_cycle) * double(m_p.channels);
                     return c > 0 ? m_activates.value() * m_act_interval.value() / c : 0.0;
                 }),
      m_peak_bw(m_stats, "peak_bandwidth", "theoretical peak bandwidth", "GB/s"),
      m_act_interval(m_stats, "activation_interval",
                     "shortest mean interval between ACTs of one channel: max(tFAW / 4, tRRD_S) / ranks", "tCK"),
      m_errors(m_stats, "address_errors", "transactions rejected (address out of range or too long)", "count"),
      m_blocking(m_stats, "blocking_accesses", "b_transport calls (fixed-latency fallback)", "count"),
      m_backpressure(m_stats, "backpressure_events", "BEGIN_REQ whose END_REQ was delayed (queue full)", "count"),
      m_latency(m_stats, "latency", "BEGIN_REQ to BEGIN_RESP", "ns", 5.0, 400) {
    socket.register_nb_transport_fw(this, &DramController::nb_transport_fw);
    socket.register_b_transport(this, &DramController::b_transport);
    socket.register_transport_dbg(this, &DramController::transport_dbg);
    for (unsigned c = 0; c < m_p.channels; ++c) m_channels.emplace_back(new DramChannel(m_p, m_map, m_table, c));
    m_staged_parts.assign(m_p.channels, 0);
    m_peak_bw.set(m_p.peak_bandwidth_bytes_per_s() * 1e-9);
    m_act_interval.set(std::max(double(m_p.t.tFAW) / 4.0, double(m_p.t.tRRD_S)) / double(std::max(1u, m_p.ranks)));
    for (stats::Stat* s : std::initializer_list<stats::Stat*>{&m_reads, &m_writes, &m_bytes_read, &m_bytes_written,
                                                              &m_row_hits, &m_row_misses, &m_row_conflicts, &m_activates,
                                                              &m_precharges, &m_refreshes, &m_turnarounds, &m_busy_cycles,
                                                              &m_queue_integral})
        s->set_sampled();
    for (unsigned c = 0; c < m_p.channels; ++c)
        m_chan_stats.push_back(std::make_unique<ChannelStats>(m_stats, c, *m_channels[c], m_p, *this));
    if (tracer) {
        m_sig_queue = tracer->add(m_stats.path() + ".queue_depth", 16);
        m_sig_inflight = tracer->add(m_stats.path() + ".in_flight", 16);
        m_sig_bus = tracer->add(m_stats.path() + ".data_bus_busy", 1);
        if (tracer->enabled()) {
            m_waves = std::make_unique<DramWaves>(m_p, m_stats.path(), *tracer);
            if (m_waves->active()) add_observer(m_waves.get());
            else m_waves.reset();
        }
    }
    if (m_p.check_protocol) {
        m_monitor = std::make_unique<ProtocolMonitor>(m_p, [] { sc_core::sc_stop(); });
        add_observer(m_monitor.get());
    }
    if (!m_p.record_trace.empty()) {
        const TraceFormat f = resolve_trace_format(m_p.record_trace, m_p.record_trace_format, "dram.record_trace_format");
        m_recorder = std::make_unique<TraceWriter>(
            m_p.record_trace, f, m_p.burst_bytes(),
            "DRAM request stream of " + m_stats.path() + " (" + m_p.preset + "): cycles of tCK = " +
                std::to_string(m_p.tck_ps) + " ps; replay with the trace player clock at the DRAM command clock");
    }
    SC_METHOD(tick);
    sensitive << m_wake;
    dont_initialize();
}

DramController::~DramController() = default;

// A DRAM refreshes while no request comes: without a request the controller would first tick at the
// first arrival and owe every refresh of the idle time before it (more than the 8 a rank may
// postpone when the first request comes after 9 tREFI, as on the VTA behind layers the host runs).
// The first tick is at the first refresh, from which each tick schedules the next.
void DramController::start_of_simulation() {
    std::uint64_t wake = ~std::uint64_t(0);
    for (auto& ch : m_channels) wake = std::min(wake, ch->next_wake(0));
    if (wake == ~std::uint64_t(0)) return;
    m_wake.notify(cycles_to_time(wake));
    m_tick_at = wake;
}

void DramController::add_observer(CommandObserver* o) {
    m_fanout.to.push_back(o);
    CommandObserver* target = m_fanout.to.size() == 1 ? o : &m_fanout;
    for (auto& ch : m_channels) ch->set_observer(target);
}

std::uint64_t DramController::bytes_served() const {
    std::uint64_t b = 0;
    for (const auto& c : m_channels) b += c->counters().bytes_read + c->counters().bytes_written;
    return b;
}

std::uint64_t DramController::cycle_now() const {
    std::uint64_t ps = sc_time_stamp().value() / m_ps_unit;
    return (ps + m_p.tck_ps - 1) / m_p.tck_ps;
}

DramController::TxnExt* DramController::ext_of(tlm_generic_payload& t) const {
    TxnExt* e = nullptr;
    t.get_extension(e);
    return e;
}

tlm_sync_enum DramController::nb_transport_fw(int port, tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
    if (ph == BEGIN_REQ) {
        TxnExt* e;
        if (m_ext_free.empty()) {
            m_ext_pool.emplace_back(new TxnExt);
            e = m_ext_pool.back().get();
        } else {
            e = m_ext_free.back();
            m_ext_free.pop_back();
        }
        e->port = port;
        e->arrival_ps = (sc_time_stamp() + d).value() / m_ps_unit;
        if (m_port_seq.size() <= std::size_t(port)) m_port_seq.resize(std::size_t(port) + 1, 0);
        e->port_seq = m_port_seq[std::size_t(port)]++;
        e->parts_left = 0;
        e->done_cycle = 0;
        t.set_extension(e);
        t.acquire();
        ++m_in_flight;
        m_peq.notify(t, ph, d);
        return TLM_ACCEPTED;
    }
    if (ph == END_RESP) {
        // Without a delay and with no other response waiting for the port, the end of the
        // response changes only bookkeeping: done here, one delta cycle sooner than through the PEQ.
        const TxnExt* e = ext_of(t);
        if (d == SC_ZERO_TIME && std::size_t(e->port) < m_resp_queue.size() && m_resp_queue[e->port].empty())
            end_response(t);
        else
            m_peq.notify(t, ph, d);
        return TLM_COMPLETED;
    }
    SC_REPORT_FATAL("vp/dram", "illegal phase on the forward path (base protocol violation)");
    return TLM_COMPLETED;
}

bool DramController::check_request(tlm_generic_payload& t) const {
    if (t.get_data_length() == 0 || t.get_data_length() > m_p.max_request_bytes ||
        t.get_address() + t.get_data_length() > m_p.capacity_bytes() || t.get_byte_enable_ptr() ||
        (t.get_command() != TLM_READ_COMMAND && t.get_command() != TLM_WRITE_COMMAND))
        return false;
    return true;
}

bool DramController::before(tlm_generic_payload* a, tlm_generic_payload* b) const {
    const TxnExt* x = ext_of(*a);
    const TxnExt* y = ext_of(*b);
    if (x->accept != y->accept) return x->accept < y->accept;
    if (x->arrival_ps != y->arrival_ps) return x->arrival_ps < y->arrival_ps;
    if (x->port != y->port) return x->port < y->port;
    return x->port_seq < y->port_seq;
}

void DramController::parts_per_channel(const tlm_generic_payload& t, std::vector<unsigned>& need) const {
    if (m_channels.size() == 1) {
        ++need[0];
        return;
    }
    // Runs of consecutive bursts that map to one channel (as enqueue() splits the transaction).
    const std::uint64_t bb = m_p.burst_bytes();
    const std::uint64_t addr = t.get_address();
    const std::uint64_t len = t.get_data_length();
    unsigned last = ~0u;
    for (std::uint64_t a = addr; a < addr + len; a = std::min<std::uint64_t>(addr + len, (a / bb + 1) * bb)) {
        const unsigned ch = m_map.decode(a).channel;
        if (ch != last) ++need[ch];
        last = ch;
    }
}

bool DramController::has_room(tlm_generic_payload& t) const {
    if (m_channels.size() == 1) return m_channels[0]->occupancy() + m_staged_parts[0] < m_p.queue_depth;
    m_need.assign(m_channels.size(), 0);
    parts_per_channel(t, m_need);
    for (std::size_t c = 0; c < m_channels.size(); ++c) {
        if (!m_need[c]) continue;
        const std::size_t used = m_channels[c]->occupancy() + m_staged_parts[c];
        // A request with more parts in a channel than its queue holds (channels interleaved
        // below the request size, e.g. row_col_bank: a 512-B request is 4 parts per channel of
        // 2) could never be admitted: it enters an empty queue, which it then holds alone,
        // beyond queue_depth, until its parts drain.
        if (used + m_need[c] > m_p.queue_depth && !(m_need[c] > m_p.queue_depth && used == 0)) return false;
    }
    return true;
}

void DramController::stage(tlm_generic_payload& t, std::uint64_t accept) {
    TxnExt* e = ext_of(t);
    e->accept = accept;
    if (m_channels.size() == 1) {
        const std::uint64_t bb = m_p.burst_bytes();
        e->first = m_map.decode(t.get_address() / bb * bb);
    }
    m_staged.push_back(&t);
    parts_per_channel(t, m_staged_parts);
}

std::uint64_t DramController::staged_wake(tlm_generic_payload& t) const {
    const std::uint64_t accept = ext_of(t)->accept;
    if (m_channels.size() > 1) return accept + 1 + m_p.frontend_latency_ck;  // its readiness
    return m_channels[0]->first_issue_bound(t.get_command() == TLM_WRITE_COMMAND, ext_of(t)->first, accept);
}

std::uint64_t DramController::staged_integral(unsigned channel, std::uint64_t cycle) const {
    std::uint64_t s = 0;
    std::vector<unsigned> need(m_channels.size(), 0);
    for (tlm_generic_payload* t : m_staged) {
        const std::uint64_t a = ext_of(*t)->accept;
        if (cycle <= a) continue;
        std::fill(need.begin(), need.end(), 0u);
        parts_per_channel(*t, need);
        s += need[channel] * (cycle - a);
    }
    return s;
}

void DramController::flush_staged(std::uint64_t now) {
    // Staged requests are accepted in non-decreasing cycles; those of cycles before `now` are
    // complete (every arrival of those cycles lies before this edge), so their order is final.
    std::size_t n = 0;
    while (n < m_staged.size() && ext_of(*m_staged[n])->accept < now) ++n;
    if (n == 0) return;
    // Insertion sort (stable): they arrived in time order, only same-instant ones may move.
    for (std::size_t i = 1; i < n; ++i)
        for (std::size_t j = i; j > 0 && before(m_staged[j], m_staged[j - 1]); --j) std::swap(m_staged[j], m_staged[j - 1]);
    // Ports that tie (one instant) take turns: round robin from the port after the one that
    // went first at the previous tie, as an interconnect's arbiter would (fixed port priority
    // would always put the lockstep DMA engines of the NMP in the same order).
    const unsigned ports = unsigned(socket.size());
    for (std::size_t b = 0; b < n;) {
        const TxnExt* first = ext_of(*m_staged[b]);
        std::size_t e = b + 1;
        while (e < n && ext_of(*m_staged[e])->accept == first->accept && ext_of(*m_staged[e])->arrival_ps == first->arrival_ps)
            ++e;
        if (ports > 1 && ext_of(*m_staged[e - 1])->port != first->port) {  // sorted by port: several ports
            auto turn = [&](tlm_generic_payload* t) { return (unsigned(ext_of(*t)->port) + ports - m_rr_next) % ports; };
            for (std::size_t i = b + 1; i < e; ++i)
                for (std::size_t j = i; j > b && turn(m_staged[j]) < turn(m_staged[j - 1]); --j)
                    std::swap(m_staged[j], m_staged[j - 1]);
            m_rr_next = (unsigned(ext_of(*m_staged[b])->port) + 1) % ports;
        }
        b = e;
    }
    for (std::size_t i = 0; i < n; ++i) {
        tlm_generic_payload& t = *m_staged[i];
        // Recorded with its arrival cycle (a request held back by a full queue keeps the cycle it
        // arrived in), in the order the channels take the requests, ties between ports included:
        // one initiator replaying the file presents them in that order again. (Admissions keep
        // arrival order, so the cycles never decrease.)
        if (m_recorder)
            m_recorder->write({cycle_of(ext_of(t)->arrival_ps), t.get_command() == TLM_WRITE_COMMAND, t.get_address(),
                               t.get_data_length()});
        enqueue(t, ext_of(t)->accept);
    }
    m_staged.erase(m_staged.begin(), m_staged.begin() + std::ptrdiff_t(n));
    if (m_channels.size() == 1) {
        m_staged_parts[0] = unsigned(m_staged.size());
        return;
    }
    std::fill(m_staged_parts.begin(), m_staged_parts.end(), 0u);
    for (tlm_generic_payload* t : m_staged) parts_per_channel(*t, m_staged_parts);
}

void DramController::enqueue(tlm_generic_payload& t, std::uint64_t accept) {
    TxnExt* e = ext_of(t);
    const bool write = t.get_command() == TLM_WRITE_COMMAND;
    const std::uint64_t addr = t.get_address();
    const unsigned len = t.get_data_length();
    if (m_channels.size() == 1) {
        e->parts_left = 1;
        m_channels[0]->enqueue(&t, write, addr, len, accept, e->first);
        return;
    }
    // Split the transaction into runs of consecutive bursts that map to one channel.
    const std::uint64_t bb = m_p.burst_bytes();
    struct Seg {
        unsigned ch;
        std::uint64_t a;
        unsigned n;
    };
    std::vector<Seg> segs;
    for (std::uint64_t a = addr; a < addr + len;) {
        std::uint64_t end = std::min<std::uint64_t>(addr + len, (a / bb + 1) * bb);
        unsigned ch = m_map.decode(a).channel;
        if (!segs.empty() && segs.back().ch == ch) segs.back().n += unsigned(end - a);
        else segs.push_back({ch, a, unsigned(end - a)});
        a = end;
    }
    e->parts_left = unsigned(segs.size());
    for (const Seg& s : segs) m_channels[s.ch]->enqueue(&t, write, s.a, s.n, accept);
}

void DramController::peq_cb(tlm_generic_payload& t, const tlm_phase& ph) {
    if (ph == BEGIN_REQ) {
        m_bytes_requested += t.get_data_length();
        if (!check_request(t)) {
            ++m_errors;
            t.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
            tlm_phase p = END_REQ;
            sc_time d = SC_ZERO_TIME;
            socket[ext_of(t)->port]->nb_transport_bw(t, p, d);
            m_peq.notify(t, BEGIN_RESP, m_tck);
            return;
        }
        // Accepted in the cycle that contains this instant; schedulable from the next one.
        const std::uint64_t accept = cycle_of(sc_time_stamp().value() / m_ps_unit);
        ext_of(t)->accept = accept;  // the arrival cycle until admitted (the order of m_blocked)
        if (!m_blocked.empty() || !has_room(t)) {
            ++m_backpressure;
            // In canonical order (arrivals come in time order: only those of this instant move).
            auto it = m_blocked.end();
            while (it != m_blocked.begin() && before(&t, *(it - 1))) --it;
            m_blocked.insert(it, &t);
            return;
        }
        stage(t, accept);
        tlm_phase p = END_REQ;
        sc_time d = SC_ZERO_TIME;
        socket[ext_of(t)->port]->nb_transport_bw(t, p, d);
        trace_queue();
        // Wake no later than the request can first issue a command (it enters its channel queue
        // at the first tick after `accept`, whatever that tick was for).
        std::uint64_t wake = accept + 1 + m_p.frontend_latency_ck;  // its readiness, a first bound
        if (wake < m_tick_at) wake = staged_wake(t);
        if (wake < m_tick_at) {
            m_wake.notify(cycles_to_time(wake) - sc_time_stamp());
            m_tick_at = wake;
        }
    } else if (ph == BEGIN_RESP) {
        TxnExt* e = ext_of(t);
        if (m_port_busy.size() <= std::size_t(e->port)) {
            m_port_busy.resize(e->port + 1, false);
            m_resp_queue.resize(e->port + 1);
        }
        if (m_port_busy[e->port]) m_resp_queue[e->port].push_back(&t);
        else send_response(t);
    } else if (ph == END_RESP) {
        end_response(t);
    }
}

void DramController::end_response(tlm_generic_payload& t) {
    TxnExt* e = ext_of(t);
    int port = e->port;
    t.clear_extension(e);
    m_ext_free.push_back(e);
    t.release();
    --m_in_flight;
    --m_inflight_trace;
    trace_queue();
    m_port_busy[port] = false;
    if (!m_resp_queue[port].empty()) {
        tlm_generic_payload* n = m_resp_queue[port].front();
        m_resp_queue[port].pop_front();
        send_response(*n);
    }
}

void DramController::send_response(tlm_generic_payload& t) {
    TxnExt* e = ext_of(t);
    if (t.get_response_status() == TLM_INCOMPLETE_RESPONSE) t.set_response_status(TLM_OK_RESPONSE);
    std::uint64_t now_ps = sc_time_stamp().value() / m_ps_unit;
    m_latency.sample(double(now_ps - e->arrival_ps) * 1e-3);
    m_port_busy[e->port] = true;
    ++m_inflight_trace;
    tlm_phase p = BEGIN_RESP;
    sc_time d = SC_ZERO_TIME;
    tlm_sync_enum r = socket[e->port]->nb_transport_bw(t, p, d);
    if (r == TLM_COMPLETED || (r == TLM_UPDATED && p == END_RESP)) m_peq.notify(t, END_RESP, d);
}

void DramController::do_functional(tlm_generic_payload& t) {
    if (t.get_command() == TLM_WRITE_COMMAND) m_store.write(t.get_address(), t.get_data_ptr(), t.get_data_length());
    else m_store.read(t.get_address(), t.get_data_ptr(), t.get_data_length());
}

void DramController::tick() {
    const std::uint64_t now = cycle_now();
    const sc_time aligned = cycles_to_time(now);
    if (aligned != sc_time_stamp()) {  // woken between clock edges: act on the next edge
        next_trigger(aligned - sc_time_stamp());
        m_tick_at = now;
        return;
    }
    if (!m_staged.empty()) flush_staged(now);
    bool freed = false;
    for (auto& ch : m_channels) {
        ch->step(now);
        auto& done = ch->completions();
        for (const auto& c : done) {
            auto* t = static_cast<tlm_generic_payload*>(c.tag);
            TxnExt* e = ext_of(*t);
            e->done_cycle = std::max(e->done_cycle, c.cycle);
            freed = true;
            if (--e->parts_left == 0) {
                // Data moves in column-command order, which is the order the DRAM sees.
                do_functional(*t);
                m_peq.notify(*t, BEGIN_RESP, cycles_to_time(e->done_cycle - now));
            }
        }
        done.clear();
    }
    if (freed) {
        while (!m_blocked.empty() && has_room(*m_blocked.front())) {
            tlm_generic_payload* t = m_blocked.front();
            m_blocked.pop_front();
            stage(*t, now);
            tlm_phase p = END_REQ;
            sc_time d = SC_ZERO_TIME;
            socket[ext_of(*t)->port]->nb_transport_bw(*t, p, d);
        }
        trace_queue();
    }
    std::uint64_t wake = ~std::uint64_t(0);
    for (auto& ch : m_channels) wake = std::min(wake, ch->next_wake(now));
    // Requests accepted in this cycle (admitted above, or arrived at this edge) enter the queues
    // at the edge at which they can first issue.
    for (tlm_generic_payload* t : m_staged) wake = std::min(wake, std::max(staged_wake(*t), now + 1));
    if (m_waves) {
        m_waves->advance(now);
        wake = std::min(wake, m_waves->next_event());
    }
    if (m_sig_bus) {
        // Only when traced: also wake when a data bus goes idle, so the signal falls on time.
        bool busy = false;
        for (auto& ch : m_channels) {
            if (ch->bus_free() > now) {
                busy = true;
                wake = std::min(wake, ch->bus_free());
            }
        }
        m_sig_bus->set(busy ? 1 : 0, now * m_p.tck_ps);
    }
    if (wake == ~std::uint64_t(0)) next_trigger(m_wake);
    else next_trigger(cycles_to_time(wake - now), m_wake);
    m_tick_at = wake;
}

void DramController::trace_queue() {
    if (!m_sig_queue && !m_sig_inflight) return;
    std::size_t q = m_staged.size();
    for (auto& ch : m_channels) q += ch->occupancy();
    std::uint64_t t = sc_time_stamp().value() / m_ps_unit;
    if (m_sig_queue) m_sig_queue->set(q, t);
    if (m_sig_inflight) m_sig_inflight->set(m_in_flight, t);
}

void DramController::b_transport(int, tlm_generic_payload& t, sc_time& d) {
    ++m_blocking;
    if (!check_request(t)) {
        t.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    do_functional(t);
    // Fixed latency: a row miss plus the bursts on the bus (no contention modelled).
    std::uint64_t bursts = (t.get_data_length() + m_p.burst_bytes() - 1) / m_p.burst_bytes();
    d += m_tck * double(m_p.t.tRCD + m_p.t.CL + bursts * m_p.burst_cycles());
    t.set_response_status(TLM_OK_RESPONSE);
}

unsigned DramController::transport_dbg(int, tlm_generic_payload& t) {
    if (t.get_address() + t.get_data_length() > m_p.capacity_bytes()) return 0;
    do_functional(t);
    return t.get_data_length();
}

void DramController::finish(const sc_time& end) {
    const std::uint64_t ps = end.value() / m_ps_unit;
    m_end_cycle = (ps + m_p.tck_ps - 1) / m_p.tck_ps;
    for (auto& ch : m_channels) ch->finish(m_end_cycle);
    if (m_recorder) m_recorder->close();
    if (m_monitor && !m_monitor->finish(m_end_cycle))
        throw SimulationError("DRAM protocol violation (" + std::to_string(m_monitor->violations()) +
                              " command(s) broke a rule; the run stopped at the first): " +
                              m_monitor->first().message);
}

}  // namespace vp::dram
