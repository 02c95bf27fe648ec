#include "models/nmp/nmp_system.h"

#include "mapper/common/errors.h"

namespace vp::nmp {

using namespace sc_core;


NmpSystem::NmpSystem(sc_module_name name, const NmpModelParams& p, std::vector<mapper::tso::ConvMapping> layers,
                     PayloadPool& pool, SimControl& ctrl, stats::Group& parent, trace::Tracer* tracer)
    : sc_module(name),
      m_p(p),
      m_layers(std::move(layers)),
      m_ctrl(ctrl),
      m_stats(parent, basename()),
      m_macs_total(m_stats, "macs", "MACs executed by all TLTs", "MAC"),
      m_layers_stat(m_stats, "layers", "layers completed", "count"),
      m_cycles(m_stats, "cycles", "TLT clock cycles from start to the end of the last layer", "cycles") {
    p.validate(basename());
    for (const auto& l : m_layers) {
        if (l.tle.size() != std::size_t(p.arch.n_tle) || l.tlt.empty() || l.tlt[0].size() != std::size_t(p.arch.n_tlt))
            throw InputError(std::string(basename()) + ": the mapping of layer \"" + l.layer_name +
                             "\" was made for another number of TLEs/TLTs");
        // Every layer reuses the same DRAM region: IN, then W, then OUT.
        const LayerAddresses a = mapper::tso::layer_addresses(l.conv, p.dram_base);
        m_addr.push_back(a);
        m_layer_groups.push_back(std::make_unique<stats::Group>(m_stats, "layer[" + l.layer_name + "]"));
        m_layer_stats.push_back(std::make_unique<stats::Scalar>(*m_layer_groups.back(), "cycles",
                                                                "simulated TLT cycles of the layer", "cycles"));
        m_layer_stats.push_back(std::make_unique<stats::Scalar>(
            *m_layer_groups.back(), "estimate_cycles", "TSO estimate of the layer", "cycles"));
        m_layer_stats.back()->set(l.best.times.total_cycles);
    }
    m_start.assign(m_layers.size(), SC_ZERO_TIME);
    m_end.assign(m_layers.size(), SC_ZERO_TIME);
    m_ring = std::make_unique<Ring>("ring", p.arch.n_tle, p.arch.ring, p.arch.cycle_s(), m_stats, tracer);
    for (int t = 0; t < p.arch.n_tle; ++t) {
        m_tles.push_back(
            std::make_unique<Tle>(("tle_" + std::to_string(t)).c_str(), t, p, *this, pool, m_stats, tracer));
        m_tles.back()->dma().ring_socket.bind(*m_ring->in[std::size_t(t)]);  // partial tiles into the ring
        m_ring->out[std::size_t(t)]->bind(m_tles.back()->ring_in);             // and out of it at their owner
    }
    if (tracer) m_sig_layer = tracer->add(m_stats.path() + ".layer", 16);
    ctrl.begin();
    ctrl.add_total(m_layers.size());
    ctrl.set_unit("layers");
    if (m_layers.empty()) ctrl.end();
}

void NmpSystem::layer_barrier(std::size_t layer) {
    if (++m_arrived < int(m_tles.size())) {
        // Wait for *this* layer's completion: the notification of the previous layer's may
        // still be pending when a TLE with no work in this layer arrives in the same delta.
        while (m_layers_done <= layer) wait(m_layer_done_ev);
        return;
    }
    m_arrived = 0;
    m_end[layer] = sc_time_stamp();
    if (layer + 1 < m_layers.size()) m_start[layer + 1] = sc_time_stamp();
    if (m_sig_layer) m_sig_layer->set(layer + 1, sc_time_stamp().value() / sc_time(1, SC_PS).value());
    const double cyc = m_p.arch.cycle_s();
    m_layer_stats[2 * layer]->set((m_end[layer] - m_start[layer]).to_seconds() / cyc);
    ++m_layers_done;
    ++m_layers_stat;
    m_ctrl.add_done();
    m_layer_done_ev.notify(SC_ZERO_TIME);
    if (m_layers_done == m_layers.size()) m_ctrl.end();
}

std::uint64_t NmpSystem::macs() const {
    std::uint64_t m = 0;
    for (const auto& t : m_tles) m += t->macs();
    return m;
}

std::uint64_t NmpSystem::expected_macs() const {
    std::uint64_t m = 0;
    for (const auto& l : m_layers) m += l.conv.macs();
    return m;
}

std::uint64_t NmpSystem::dram_bytes_requested() const {
    std::uint64_t b = 0;
    for (const auto& t : m_tles) b += t->dma().bytes_read() + t->dma().bytes_written();
    return b;
}

std::uint64_t NmpSystem::dma_transactions() const {
    std::uint64_t n = 0;
    for (const auto& t : m_tles) n += t->dma().transactions();
    return n;
}

void NmpSystem::finish() {
    // A run stopped before the last layer ended (a failure, an interrupt) ends now.
    const sc_time span = m_layers.empty() ? SC_ZERO_TIME : done() ? m_end.back() : sc_core::sc_time_stamp();
    for (auto& t : m_tles) t->finish(span);
    m_ring->finish(span);
    m_cycles.set(span.to_seconds() / m_p.arch.cycle_s());
    m_macs_total.set(macs());
    const std::string me = basename();
    if (!done())
        throw SimulationError(me + ": only " + std::to_string(m_layers_done) + " of " +
                              std::to_string(m_layers.size()) + " layers finished");
    if (macs() != expected_macs())
        throw SimulationError(me + ": simulated MACs " + std::to_string(macs()) + " != workload MACs " +
                              std::to_string(expected_macs()));
    if (m_order_errors != 0)
        throw SimulationError(me + ": " + std::to_string(m_order_errors) +
                              " layer start(s) of a TLE before the previous layer ended on every TLE");
    if (m_ring->bytes_delivered() != m_ring->bytes_sent() || m_ring->packets_in_flight() != 0)
        throw SimulationError(me + ": ring delivered " + std::to_string(m_ring->bytes_delivered()) + " of " +
                              std::to_string(m_ring->bytes_sent()) + " B sent");
    for (const auto& t : m_tles) {
        if (t->partials_pending() != 0) throw SimulationError(me + ": partial OUT tiles left unreduced");
        if (t->dma().outstanding() != 0) throw SimulationError(me + ": DMA transactions left in flight");
        if (t->dma().errors() != 0) throw SimulationError(me + ": DRAM returned error responses");
    }
}

}  // namespace vp::nmp
