#include "models/noc/noc_trace.h"

namespace vp::noc {

NocTrace::NocTrace(vp::trace::Tracer& tracer, const std::string& prefix, Network& net, std::uint64_t period_ps)
    : m_period_ps(period_ps) {
    const NocParams& p = net.params();
    unsigned occ_bits = 1;
    while ((1u << occ_bits) <= kNumPorts * p.num_vcs * p.buffer_depth) ++occ_bits;
    for (unsigned i = 0; i < p.num_nodes(); ++i) {
        const std::string base = prefix + ".router[" + std::to_string(i % p.width) + "][" + std::to_string(i / p.width) + "]";
        m_occ.push_back(tracer.add(base + ".occupancy", occ_bits));
        m_flits.push_back(tracer.add(base + ".flits_out", 3));
        m_active = m_active || m_occ.back() || m_flits.back();
    }
    if (m_active) net.set_trace_hook(this);
}

void NocTrace::router_changed(unsigned r, std::uint64_t cycle, std::uint32_t occupancy, std::uint32_t flits_out) {
    const std::uint64_t t = cycle * m_period_ps;
    if (m_occ[r]) m_occ[r]->set(occupancy, t);
    if (m_flits[r]) m_flits[r]->set(flits_out, t);
}

}  // namespace vp::noc
