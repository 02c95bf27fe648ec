#pragma once
// Waveform signals of the NoC for the shared VCD writer (models/common/trace.h):
// <prefix>.router[x][y].occupancy (flits buffered) and .flits_out (flits sent this cycle).
// The hook is installed only if at least one signal passes the tracer's filter, so a run
// without tracing pays nothing per cycle.
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/trace.h"
#include "models/noc/network.h"

namespace vp::noc {

class NocTrace : public TraceHook {
public:
    // period_ps: NoC clock period in picoseconds (cycle c is traced at c * period_ps).
    NocTrace(vp::trace::Tracer& tracer, const std::string& prefix, Network& net, std::uint64_t period_ps);
    void router_changed(unsigned router, std::uint64_t cycle, std::uint32_t occupancy, std::uint32_t flits_out) override;
    bool active() const { return m_active; }

private:
    std::vector<vp::trace::Signal*> m_occ, m_flits;
    std::uint64_t m_period_ps;
    bool m_active = false;
};

}  // namespace vp::noc
