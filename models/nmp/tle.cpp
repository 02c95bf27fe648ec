#include "models/nmp/tle.h"

#include <algorithm>

#include "mapper/tso/tile_walker.h"
#include "mapper/tso/tle_slicing.h"
#include "models/nmp/nmp_system.h"

namespace vp::nmp {

using namespace sc_core;
using mapper::tso::OpKind;
using mapper::tso::TileOp;

Tle::Tle(sc_module_name name, int id, const NmpModelParams& p, NmpSystem& sys, PayloadPool& pool,
         stats::Group& parent, trace::Tracer* tracer)
    : sc_module(name),
      ring_in("ring_in"),
      m_id(id),
      m_p(p),
      m_sys(sys),
      m_stats(parent, "tle[" + std::to_string(id) + "]"),
      m_layers(m_stats, "layers", "layers completed", "count"),
      m_wait_cycles(m_stats, "dma_wait_cycles", "cycles the controller waited for a busy TLT before a load/store",
                    "cycles"),
      m_load_cycles(m_stats, "load_cycles", "cycles the controller waited for DMA loads (IN multicast + W)", "cycles"),
      m_store_cycles(m_stats, "store_cycles", "cycles the controller waited for DMA stores (OUT)", "cycles"),
      m_barrier_cycles(m_stats, "barrier_cycles", "cycles at the end of a layer waiting for the other TLEs",
                       "cycles"),
      m_ring_cycles(m_stats, "ring_send_cycles",
                    "cycles the controller sent partial OUT tiles over the ring (IFM-channel slicing)", "cycles"),
      m_reduce_wait_cycles(m_stats, "reduce_wait_cycles",
                           "cycles the controller waited for the other TLEs' partial tiles of a tile it owns", "cycles"),
      m_ring_msgs(m_stats, "ring_messages", "partial OUT tiles sent over the ring", "count"),
      m_ring_bytes(m_stats, "ring_bytes", "payload bytes of the partial OUT tiles sent over the ring", "B"),
      m_owned_stores(m_stats, "reduced_stores", "OUT tiles this TLE reduced and stored (IFM-channel slicing)",
                     "count"),
      m_dma_time(m_stats, "dma_state", "time the TLE's DMA engine moves a load (IN/W) or a store (OUT) box",
                 {"idle", "load", "store"}) {
    m_dma = std::make_unique<DmaEngine>("dma", p.max_outstanding(), p.txn_bytes(), pool, m_stats, p.arch.n_tlt, tracer);
    for (int j = 0; j < p.arch.n_tlt; ++j) {
        const std::string tn = "tlt[" + std::to_string(j) + "]";
        m_tlts.push_back(std::make_unique<Tlt>(("tlt_" + std::to_string(j)).c_str(), m_stats, tn, p.arch));
        m_dma->tlt_socket[std::size_t(j)]->bind(m_tlts.back()->socket);
        m_sig_state.push_back(tracer ? tracer->add(m_stats.path() + "." + tn + ".state", 2) : nullptr);
        m_trace = m_trace || m_sig_state.back();
    }
    if (p.arch.fabric.enabled) {
        m_fabric = std::make_unique<Fabric>(m_stats, p.arch.n_tlt, p.arch.fabric, p.arch.cycle_s(), tracer);
        m_trace = m_trace || m_fabric->traced();
    }
    m_dma_state.assign(m_tlts.size(), TltState::Idle);
    ring_in.register_b_transport(this, &Tle::ring_delivery);
    SC_THREAD(run);
    if (m_trace) {  // tracing off: no process, no event, nothing on the hot path
        SC_METHOD(trace_states);
        sensitive << m_trace_ev;
        dont_initialize();
    }
}

void Tle::set_dma_state(std::size_t j, TltState s) {
    m_tlts[j]->set_dma_state(unsigned(s), sc_time_stamp().value() / sc_time(1, SC_PS).value());
    if (!m_trace) return;
    m_dma_state[j] = s;
    m_trace_ev.notify(SC_ZERO_TIME);
}

void Tle::set_dma_busy(unsigned s) { m_dma_time.set(s, sc_time_stamp().value() / sc_time(1, SC_PS).value()); }

// The TLT compute intervals are time-stamped ahead by the controller, so the state is
// sampled here at every change: now, and when the next MAC unit becomes free.
void Tle::trace_states() {
    const sc_time now = sc_time_stamp();
    const std::uint64_t ps = now.value() / sc_time(1, SC_PS).value();
    sc_time next = SC_ZERO_TIME;
    for (std::size_t j = 0; j < m_tlts.size(); ++j) {
        const Tlt& t = *m_tlts[j];
        TltState s = m_dma_state[j];
        if (s == TltState::Idle && t.busy_from() <= now && now < t.busy_until()) s = TltState::Compute;
        if (m_sig_state[j]) m_sig_state[j]->set(std::uint64_t(s), ps);
        if (t.busy_until() > now && (next == SC_ZERO_TIME || t.busy_until() < next)) next = t.busy_until();
    }
    if (m_fabric && m_fabric->traced()) {
        const sc_time f = m_fabric->trace(now);
        if (f != SC_ZERO_TIME && (next == SC_ZERO_TIME || f < next)) next = f;
    }
    if (next == SC_ZERO_TIME) next_trigger(m_trace_ev);
    else next_trigger(next - now, m_trace_ev);
}

std::uint64_t Tle::macs() const {
    std::uint64_t m = 0;
    for (const auto& t : m_tlts) m += t->macs();
    return m;
}

void Tle::finish(const sc_time& span) {
    for (auto& t : m_tlts) t->finish(span);
    const double cyc = m_p.arch.cycle_s();
    m_load_cycles.set(m_load_t.to_seconds() / cyc);
    m_store_cycles.set(m_store_t.to_seconds() / cyc);
    m_barrier_cycles.set(m_barrier_t.to_seconds() / cyc);
    m_ring_cycles.set(m_ring_t.to_seconds() / cyc);
    m_reduce_wait_cycles.set(m_reduce_wait_t.to_seconds() / cyc);
    if (m_fabric) m_fabric->finish();
}

// Loads stream through the fabric as their DRAM data arrives (cut-through); the controller
// does not wait for the delivery (the DMA engine buffers what the ports cannot take yet,
// ASSUMPTION: without a size limit), the TLTs' next computes do.
void Tle::deliver(FabricKind kind, const std::vector<int>& ports, std::uint64_t bytes, const sc_time& t0) {
    const Fabric::Xfer x = m_fabric->transfer(kind, ports, bytes, t0, sc_time_stamp());
    for (int j : ports) m_tlts[std::size_t(j)]->data_ready(x.ready);
    if (m_trace) m_trace_ev.notify(SC_ZERO_TIME);
}

// Stores are store-and-forward (ASSUMPTION): the OUT tile is read out of MB2 through the port
// into the DMA engine, which then writes it to DRAM (or sends it over the ring).
void Tle::drain(int j, std::uint64_t bytes) {
    const Fabric::Xfer x = m_fabric->transfer(FabricKind::Store, {j}, bytes, sc_time_stamp());
    if (m_trace) m_trace_ev.notify(SC_ZERO_TIME);
    wait(x.ready - sc_time_stamp());
}

void Tle::ring_delivery(tlm::tlm_generic_payload& t, sc_time&) {
    const RingMessage* m = t.get_extension<RingMessage>();
    if (!t.is_write() || !m) {
        t.set_response_status(t.is_write() ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    partial_arrived(m->tag);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Tle::partial_arrived(std::uint64_t tag) {
    ++m_partials[tag];
    m_partial_ev.notify(SC_ZERO_TIME);
}

// The controller programs a DMA transfer (NmpParams::control.dma_issue_cycles): counted in the
// transfer's load / store time.
void Tle::dma_issue() {
    if (m_p.arch.control.dma_issue_cycles > 0) wait(double(m_p.arch.control.dma_issue_cycles) * m_p.arch.cycle_s(), SC_SEC);
}

void Tle::wait_until(const sc_time& t) {
    if (t > sc_time_stamp()) {
        m_wait_cycles += std::uint64_t((t - sc_time_stamp()).to_seconds() / m_p.arch.cycle_s() + 0.5);
        wait(t - sc_time_stamp());
    }
}

void Tle::run() {
    for (std::size_t li = 0; li < m_sys.layers().size(); ++li) {
        m_sys.layer_begin(li);
        execute(li, m_sys.layers()[li], m_sys.addresses(li));
        ++m_layers;
        const sc_time t0 = sc_time_stamp();
        m_sys.layer_barrier(li);
        m_barrier_t += sc_time_stamp() - t0;
    }
}

void Tle::execute(std::size_t layer, const mapper::tso::ConvMapping& m, const LayerAddresses& a) {
    const auto& c = m.conv;
    const std::size_t t = std::size_t(m_id);
    const auto& tlts = m.tlt[t];
    auto all_free = [&]() {
        sc_time r = SC_ZERO_TIME;
        for (std::size_t j = 0; j < tlts.size(); ++j)
            if (tlts[j].count > 0) r = std::max(r, m_tlts[j]->busy_until());
        return r;
    };
    // IFM-channel slicing: every OUT tile has an owner that adds the others' partial tiles
    // and stores the sum; the others send theirs over the ring (mapper/tso/tle_slicing.h).
    const std::vector<int> active = mapper::tso::ifm_ch_active(m.tle);
    const bool reduce = m.best.slicing == mapper::tso::TleSlicing::IFM_CH && active.size() > 1;
    std::uint64_t store_k = 0;
    const bool db = m_p.arch.double_buffer;
    sc_time in_release = SC_ZERO_TIME;
    std::vector<sc_time> w_release(tlts.size(), SC_ZERO_TIME);
    mapper::tso::walk_tle(c, m_id, m.tle[t], tlts, m.best.schedule, m.best.tile, m_p.arch.macs_per_cycle,
                          [&](const TileOp& op) {
        switch (op.kind) {
        case OpKind::LoadIn: {  // MULTICAST: one DRAM read, delivered to every TLT of the TLE
            // Single-buffered MB0: wait for every TLT; double-buffered: for the computes on the
            // IN tile before the current one (the half this load overwrites).
            if (db) {
                wait_until(in_release);
                in_release = all_free();
            } else {
                wait_until(all_free());
            }
            const Box b = mapper::tso::op_box(op, c, a);
            std::vector<int> ports;
            for (std::size_t j = 0; j < tlts.size(); ++j)
                if (tlts[j].count > 0) {
                    m_dma->tile(int(j), true, Tlt::kMb0, b.bytes());
                    set_dma_state(j, TltState::Load);
                    ports.push_back(int(j));
                }
            const sc_time t0 = sc_time_stamp();
            set_dma_busy(1);
            dma_issue();
            const sc_time t_req = sc_time_stamp();
            if (m_fabric && b.bytes() > 0 && m_trace) {
                m_fabric->announce(ports, t_req);
                m_trace_ev.notify(SC_ZERO_TIME);
            }
            if (b.bytes() > 0) m_dma->transfer(false, b);
            if (m_fabric && b.bytes() > 0) deliver(FabricKind::Multicast, ports, b.bytes(), t_req);
            set_dma_busy(0);
            m_load_t += sc_time_stamp() - t0;
            for (std::size_t j = 0; j < tlts.size(); ++j)
                if (tlts[j].count > 0) {
                    set_dma_state(j, TltState::Idle);
                    m_tlts[j]->note_transfer();
                }
            break;
        }
        case OpKind::LoadW: {
            Tlt& tl = *m_tlts[std::size_t(op.tlt)];
            if (db) {  // MB1 half of the W tile before the current one
                wait_until(w_release[std::size_t(op.tlt)]);
                w_release[std::size_t(op.tlt)] = tl.busy_until();
            } else {
                wait_until(tl.busy_until());
            }
            const Box b = mapper::tso::op_box(op, c, a);
            m_dma->tile(op.tlt, true, Tlt::kMb1, b.bytes());
            set_dma_state(std::size_t(op.tlt), TltState::Load);
            const sc_time t0 = sc_time_stamp();
            set_dma_busy(1);
            dma_issue();
            const sc_time t_req = sc_time_stamp();
            if (m_fabric && b.bytes() > 0 && m_trace) {
                m_fabric->announce({op.tlt}, t_req);
                m_trace_ev.notify(SC_ZERO_TIME);
            }
            m_dma->transfer(false, b);
            if (m_fabric && b.bytes() > 0) deliver(FabricKind::Load, {op.tlt}, b.bytes(), t_req);
            set_dma_busy(0);
            m_load_t += sc_time_stamp() - t0;
            set_dma_state(std::size_t(op.tlt), TltState::Idle);
            tl.note_transfer();
            break;
        }
        case OpKind::Compute:
            m_tlts[std::size_t(op.tlt)]->compute(op);
            if (m_trace) m_trace_ev.notify(SC_ZERO_TIME);
            break;
        case OpKind::StoreOut: {
            Tlt& tl = *m_tlts[std::size_t(op.tlt)];
            const Box b = mapper::tso::op_box(op, c, a);
            if (reduce) {
                const std::uint64_t k = store_k++;
                const int owner = active[std::size_t(k % active.size())];
                const std::uint64_t tag = (std::uint64_t(layer) << 40) | k;
                if (owner != m_id) {  // the DMA engine moves the partial tile from MB2 to the ring
                    wait_until(tl.busy_until());
                    m_dma->tile(op.tlt, false, Tlt::kMb2, b.bytes(), true);
                    set_dma_state(std::size_t(op.tlt), TltState::Store);
                    const sc_time t0 = sc_time_stamp();
                    set_dma_busy(2);
                    dma_issue();
                    if (m_fabric && b.bytes() > 0) drain(op.tlt, b.bytes());
                    m_dma->ring_send(owner, b.bytes(), tag);
                    set_dma_busy(0);
                    tl.note_transfer();
                    m_ring_t += sc_time_stamp() - t0;
                    ++m_ring_msgs;
                    m_ring_bytes += b.bytes();
                    set_dma_state(std::size_t(op.tlt), TltState::Idle);
                    break;
                }
                // Owner: wait for the others' partial tiles, add them on the TLT, store the sum.
                const sc_time t0 = sc_time_stamp();
                while (m_partials[tag] < active.size() - 1) wait(m_partial_ev);
                m_partials.erase(tag);
                m_reduce_wait_t += sc_time_stamp() - t0;
                tl.reduce(b.bytes() / std::uint64_t(c.elem_bytes), active.size() - 1);
                ++m_owned_stores;
                if (m_trace) m_trace_ev.notify(SC_ZERO_TIME);
            }
            wait_until(tl.busy_until());
            m_dma->tile(op.tlt, false, Tlt::kMb2, b.bytes());
            set_dma_state(std::size_t(op.tlt), TltState::Store);
            const sc_time t0 = sc_time_stamp();
            set_dma_busy(2);
            dma_issue();
            if (m_fabric && b.bytes() > 0) drain(op.tlt, b.bytes());
            m_dma->transfer(true, b);
            set_dma_busy(0);
            m_store_t += sc_time_stamp() - t0;
            tl.note_transfer();
            set_dma_state(std::size_t(op.tlt), TltState::Idle);
            break;
        }
        }
    });
    wait_until(all_free());
}

}  // namespace vp::nmp
