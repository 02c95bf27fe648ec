#pragma once
// NoC-only platform: synthetic traffic (Bernoulli injection, uniform / transpose /
// bit-complement / hotspot) on the cycle-accurate mesh, with warm-up, measurement and
// drain windows. The routers step themselves (no SystemC process is needed).
#include <memory>

#include "models/noc/noc_trace.h"
#include "models/noc/synthetic_run.h"
#include "platform/builders/platform.h"

namespace vp::platform {

class NocPlatform final : public Platform {
public:
    explicit NocPlatform(RunContext& ctx);
    bool needs_kernel() const override { return false; }
    void run_untimed(const std::function<std::uint64_t(std::uint64_t)>& at_cycle) override;
    sc_core::sc_time untimed_end() const override;
    void finish() override {}
    void check_invariants() const override;
    void summary(std::ostream& os) const override;

private:
    RunContext& m_ctx;
    noc::NocParams m_noc;
    noc::TrafficParams m_traffic;
    std::unique_ptr<noc::SyntheticRun> m_run;
    std::unique_ptr<noc::NocTrace> m_trace;
    noc::TrafficResult m_result;
};

}  // namespace vp::platform
