#include "models/asip/asip_core.h"

#include <cmath>
#include <initializer_list>

#include "mapper/common/errors.h"
#include "models/noc/network_interface.h"

namespace vp::asip {

using mapper::tiling::Op;

AsipCore::AsipCore(sc_core::sc_module_name name, const mapper::tiling::AsipParams& p,
                   const mapper::waving::PacketFormat& fmt, unsigned master_node, std::vector<CoreLayerWork> work,
                   unsigned n_layers, PayloadPool& pool, stats::Group& parent, const std::string& stats_name,
                   trace::Tracer* tracer)
    : sc_core::sc_module(name), socket("socket"), m_p(p), m_fmt(fmt), m_master(master_node),
      m_work(std::move(work)), m_pool(pool),
      m_period(sc_core::sc_time::from_value(std::uint64_t(std::llround(1e6 / p.core_mhz)))),
      m_started(n_layers, false), m_dma(std::uint32_t(fmt.max_payload_bytes), kDmaQueueOps),
      m_in_flight(std::size_t(p.dma_max_outstanding)), m_peq(this, &AsipCore::peq_cb), m_layer(n_layers),
      m_stats(parent, stats_name),
      m_macs(m_stats, "macs", "useful multiply-accumulates", "MAC"),
      m_lane_cycles(m_stats, "lane_cycles", "vALU cycles x P_ox x P_of lanes", "MAC slots"),
      m_comp_cycles(m_stats, "comp_cycles", "vALU busy cycles (C_comp)", "cycles"),
      m_pfetch_cycles(m_stats, "pfetch_cycles", "psum prefetch cycles from SRAM (C_pfetch)", "cycles"),
      m_setup_cycles(m_stats, "dma_setup_cycles", "cycles programming DMA descriptors", "cycles"),
      m_stall_cycles(m_stats, "stall_cycles", "cycles waiting for DMA transfers", "cycles"),
      m_sram_reads(m_stats, "sram_reads", "SRAM words read", "words"),
      m_sram_writes(m_stats, "sram_writes", "SRAM words written", "words"),
      m_dram_read_bytes(m_stats, "dram_read_bytes", "bytes loaded from DRAM", "bytes"),
      m_dram_write_bytes(m_stats, "dram_write_bytes", "bytes stored to DRAM", "bytes"),
      m_transfers(m_stats, "transfers", "DMA transfers (TLM transactions, one request packet each)", "count"),
      m_layers(m_stats, "layers", "layers run", "count"),
      m_idle_cycles(m_stats, "idle_cycles", "cycles outside layers (waiting for the master)", "cycles"),
      m_total_cycles(m_stats, "total_cycles", "core cycles of the run", "cycles"),
      m_mac_util(m_stats, "mac_utilisation", "useful MACs / MAC slots of the busy vALU", "ratio",
                 [this] { return m_lane_cycles.value() ? double(m_macs.value()) / double(m_lane_cycles.value()) : 0.0; }),
      m_busy_frac(m_stats, "busy_fraction", "(comp + pfetch + setup) / total cycles", "ratio", [this] {
          const double busy = double(m_comp_cycles.value() + m_pfetch_cycles.value() + m_setup_cycles.value());
          return m_total_cycles.value() > 0 ? busy / m_total_cycles.value() : 0.0;
      }),
      m_state_time(m_stats, "state", "time per core state (compute includes DMA programming)",
                   {"idle", "compute", "stall"}) {
    if (m_period <= sc_core::SC_ZERO_TIME) throw vp::InputError("core.core_mhz: clock period below 1 ps");
    socket.register_nb_transport_bw(this, &AsipCore::nb_transport_bw);
    for (const CoreLayerWork& w : m_work)
        if (w.layer >= n_layers || !w.shape) throw std::invalid_argument("AsipCore: work for an unknown layer");
    for (stats::Stat* c : std::initializer_list<stats::Stat*>{&m_macs, &m_lane_cycles, &m_dram_read_bytes,
                                                              &m_dram_write_bytes, &m_transfers})
        c->set_sampled();
    if (tracer) m_sig_state = tracer->add(m_stats.path() + ".state", 2);
    SC_THREAD(run);
    SC_METHOD(dma_issue);
    sensitive << m_issue_ev;
    dont_initialize();
}

sc_core::sc_time AsipCore::to_next_edge() const {
    const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_period.value();
    return sc_core::sc_time::from_value(now % per ? per - now % per : 0);
}

void AsipCore::set_state(CoreState s) {
    if (s == m_state) return;
    m_state = s;
    const std::uint64_t ps = sc_core::sc_time_stamp().value() / sc_core::sc_time(1, sc_core::SC_PS).value();
    m_state_time.set(unsigned(s), ps);
    if (m_sig_state) m_sig_state->set(std::uint64_t(s), ps);
}

void AsipCore::deliver(unsigned, std::uint32_t, const noc::PacketInfo& info, std::uint64_t) {
    if (info.type != noc::PacketType::kSync || info.txn_id >= m_started.size()) {
        SC_REPORT_ERROR("vp/asip/core", "unexpected packet at a core (expected a start sync from the master)");
        return;
    }
    m_started[info.txn_id] = true;
    m_start_ev.notify(sc_core::SC_ZERO_TIME);
}

void AsipCore::run() {
    for (; m_next < m_work.size(); ++m_next) {
        set_state(CoreState::Idle);
        const CoreLayerWork& w = m_work[m_next];
        while (!m_started[w.layer]) wait(m_start_ev);
        const sc_core::sc_time e = to_next_edge();
        if (e > sc_core::SC_ZERO_TIME) wait(e);
        const sc_core::sc_time t0 = sc_core::sc_time_stamp();
        CoreLayerCounts& lc = m_layer[w.layer];
        replay(w, lc);
        lc.cycles = (sc_core::sc_time_stamp() - t0).value() / m_period.value();
        ++m_layers;
        post_sync(w.layer);
    }
    set_state(CoreState::Idle);
}

// The done sync: a posted write of the layer index to the master's mailbox, issued by the DMA
// engine's request channel (nothing else is in flight at the end of a layer).
void AsipCore::post_sync(std::uint32_t layer) {
    while (m_sync_tx) wait(m_sync_done_ev);
    m_sync_tx = m_pool.acquire(tlm::TLM_WRITE_COMMAND, noc::AddressMap::mailbox_address(m_master), 4);
    unsigned char* d = m_sync_tx->get_data_ptr();
    for (unsigned b = 0; b < 4; ++b) d[b] = static_cast<unsigned char>(layer >> (8 * b));
    m_sync_pending = true;
    m_issue_ev.notify(sc_core::SC_ZERO_TIME);
}

// One layer: every run of this core through the loop nest (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Algorithm 2).
void AsipCore::replay(const CoreLayerWork& w, CoreLayerCounts& lc) {
    for (std::size_t i = 0; i < w.runs.size(); ++i) {
        mapper::tiling::LoopNest nest(*w.shape, w.runs[i], w.tilings[i], m_p, w.layout);
        Op op;
        while (nest.next(op)) {
            lc.sram_reads += op.sram_reads;
            lc.sram_writes += op.sram_writes;
            m_sram_reads += op.sram_reads;
            m_sram_writes += op.sram_writes;
            if (op.is_dma()) {
                post_dma(op, lc);
                continue;
            }
            // The prefetch for this row was posted before the previous Compute (loop_nest.h contract).
            stall_until_loads(m_loads_before_prev_compute, lc);
            m_loads_before_prev_compute = m_last_load_seq;
            set_state(CoreState::Compute);
            const std::uint64_t cyc = op.comp_cycles + op.pfetch_cycles;
            const std::uint64_t lanes = op.comp_cycles * std::uint64_t(m_p.p_ox) * std::uint64_t(m_p.p_of);
            lc.macs += op.macs;
            lc.lane_cycles += lanes;
            lc.comp_cycles += op.comp_cycles;
            lc.pfetch_cycles += op.pfetch_cycles;
            m_macs += op.macs;
            m_lane_cycles += lanes;
            m_comp_cycles += op.comp_cycles;
            m_pfetch_cycles += op.pfetch_cycles;
            if (cyc) wait(sc_core::sc_time::from_value(m_period.value() * cyc));
        }
    }
    // The last op of a run is the waited-for drain of its last row: nothing is left in flight.
    stall_until_waited(m_dma.last_seq(), lc);
}

void AsipCore::post_dma(const Op& op, CoreLayerCounts& lc) {
    set_state(CoreState::Compute);  // programming the DMA keeps the core busy
    if (m_p.dma_setup_cycles > 0) {
        wait(sc_core::sc_time::from_value(m_period.value() * std::uint64_t(m_p.dma_setup_cycles)));
        lc.setup_cycles += std::uint64_t(m_p.dma_setup_cycles);
        m_setup_cycles += std::uint64_t(m_p.dma_setup_cycles);
    }
    if (m_dma.full()) {
        set_state(CoreState::Stall);
        const sc_core::sc_time t0 = sc_core::sc_time_stamp();
        while (m_dma.full()) wait(m_op_done_ev);
        const sc_core::sc_time e = to_next_edge();
        if (e > sc_core::SC_ZERO_TIME) wait(e);
        const std::uint64_t c = (sc_core::sc_time_stamp() - t0).value() / m_period.value();
        lc.stall_cycles += c;
        m_stall_cycles += c;
    }
    const std::uint64_t seq = m_dma.push(op);
    if (op.is_load()) m_last_load_seq = seq;
    const std::uint64_t b = op.bytes();
    const std::uint64_t maxp = std::uint64_t(m_fmt.max_payload_bytes);
    const std::uint64_t n = op.seg_bytes ? std::uint64_t(op.n_segs) * ((op.seg_bytes + maxp - 1) / maxp) : 0;
    (op.is_load() ? lc.dram_read_bytes : lc.dram_write_bytes) += b;
    (op.is_load() ? m_dram_read_bytes : m_dram_write_bytes) += b;
    lc.transfers += n;
    m_transfers += n;
    m_issue_ev.notify(sc_core::SC_ZERO_TIME);
    if (op.wait) stall_until_waited(seq, lc);
}

void AsipCore::stall_until_loads(std::uint64_t seq, CoreLayerCounts& lc) {
    if (m_dma.loads_done_upto(seq)) return;
    set_state(CoreState::Stall);
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    while (!m_dma.loads_done_upto(seq)) wait(m_op_done_ev);
    const sc_core::sc_time e = to_next_edge();
    if (e > sc_core::SC_ZERO_TIME) wait(e);
    const std::uint64_t c = (sc_core::sc_time_stamp() - t0).value() / m_period.value();
    lc.stall_cycles += c;
    m_stall_cycles += c;
}

// A waited-for op is done when it completed and every store posted before it did
// (the write-back buffer is free again: loop_nest.h replay contract).
void AsipCore::stall_until_waited(std::uint64_t seq, CoreLayerCounts& lc) {
    auto done = [&] { return m_dma.op_done(seq) && m_dma.stores_done_upto(seq); };
    if (done()) return;
    set_state(CoreState::Stall);
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    while (!done()) wait(m_op_done_ev);
    const sc_core::sc_time e = to_next_edge();
    if (e > sc_core::SC_ZERO_TIME) wait(e);
    const std::uint64_t c = (sc_core::sc_time_stamp() - t0).value() / m_period.value();
    lc.stall_cycles += c;
    m_stall_cycles += c;
}

// DMA engine: one BEGIN_REQ per core cycle on core edges, one outstanding BEGIN_REQ
// (END_REQ is the NI's backpressure), at most dma_max_outstanding transfers in flight.
// The pending done sync goes first.
void AsipCore::dma_issue() {
    if (m_req_busy) return;
    if (!m_sync_pending && (m_in_flight_n >= m_in_flight.size() || !m_dma.has_transfer())) return;
    const std::uint64_t now = sc_core::sc_time_stamp().value(), per = m_period.value();
    std::uint64_t t = now % per ? now + per - now % per : now;
    if (m_last_issue_ps != ~std::uint64_t(0) && t < m_last_issue_ps + per) t = m_last_issue_ps + per;
    if (t > now) {
        m_issue_ev.notify(sc_core::sc_time::from_value(t - now));
        return;
    }
    tlm::tlm_generic_payload* p = nullptr;
    if (m_sync_pending) {
        p = m_sync_tx;
        m_sync_pending = false;
    } else {
        const DmaTransfer x = m_dma.next_transfer();
        m_dma.pop_transfer();
        p = m_pool.acquire(x.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, x.addr, x.bytes);
        for (InFlight& f : m_in_flight)
            if (!f.t) {
                f.t = p;
                f.slot = x.slot;
                break;
            }
        ++m_in_flight_n;
    }
    m_req_busy = true;
    m_req_current = p;
    m_last_issue_ps = now;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = socket->nb_transport_fw(*p, ph, d);
    if (r == tlm::TLM_UPDATED) m_peq.notify(*p, ph, d);
    else if (r == tlm::TLM_COMPLETED) m_peq.notify(*p, tlm::BEGIN_RESP, d);
}

tlm::tlm_sync_enum AsipCore::nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    if (d > sc_core::SC_ZERO_TIME) {  // annotated: handle at its time
        m_peq.notify(t, ph, d);
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::END_REQ) {
        on_end_req();
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::BEGIN_RESP) {
        if (m_req_busy && m_req_current == &t) on_end_req();  // BEGIN_RESP implies END_REQ
        on_response(t);
        ph = tlm::END_RESP;
        return tlm::TLM_COMPLETED;
    }
    SC_REPORT_ERROR("vp/asip/core", "unexpected phase on the backward path");
    return tlm::TLM_COMPLETED;
}

void AsipCore::peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph) {
    if (ph == tlm::END_REQ) {
        on_end_req();
    } else if (ph == tlm::BEGIN_RESP) {
        if (m_req_busy && m_req_current == &t) on_end_req();
        on_response(t);
        tlm::tlm_phase e = tlm::END_RESP;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        socket->nb_transport_fw(t, e, d);
    }
}

void AsipCore::on_end_req() {
    m_req_busy = false;
    m_req_current = nullptr;
    m_issue_ev.notify(sc_core::SC_ZERO_TIME);
}

void AsipCore::on_response(tlm::tlm_generic_payload& t) {
    if (t.get_response_status() != tlm::TLM_OK_RESPONSE)
        SC_REPORT_ERROR("vp/asip/core", ("DMA transfer failed: " + t.get_response_string()).c_str());
    if (&t == m_sync_tx) {
        m_sync_tx = nullptr;
        t.release();
        m_sync_done_ev.notify(sc_core::SC_ZERO_TIME);
        m_issue_ev.notify(sc_core::SC_ZERO_TIME);
        return;
    }
    unsigned slot = ~0u;
    for (InFlight& f : m_in_flight)
        if (f.t == &t) {
            slot = f.slot;
            f.t = nullptr;
            break;
        }
    if (slot == ~0u) {
        SC_REPORT_ERROR("vp/asip/core", "response for a transfer that is not in flight");
        return;
    }
    --m_in_flight_n;
    t.release();
    if (m_dma.complete(slot)) m_op_done_ev.notify(sc_core::SC_ZERO_TIME);
    m_issue_ev.notify(sc_core::SC_ZERO_TIME);
}

void AsipCore::finish(const sc_core::sc_time& end) {
    const std::uint64_t total = end.value() / m_period.value();
    m_total_cycles.set(double(total));
    const std::uint64_t busy =
        m_comp_cycles.value() + m_pfetch_cycles.value() + m_setup_cycles.value() + m_stall_cycles.value();
    m_idle_cycles.set(total > busy ? double(total - busy) : 0.0);
}

}  // namespace vp::asip
