#pragma once
// MACs of the VTA GEMM unit as an epoch-sampled statistic. A GEMM instruction lasts up to
// thousands of cycles, so a counter added at its end would put its MACs into the epoch where it
// ends; here a sample counts the running instruction's micro-ops issued so far (one per
// gemm_cycles_per_uop after its start), and the value (stats.json) is the completed MACs. The
// samples never decrease and equal the value whenever no GEMM runs, so the epoch sums equal the
// end-of-run total and the report's MAC utilisation over time follows the unit.
#include <algorithm>
#include <cstdint>

#include "models/common/stats.h"

namespace vp::vta {

class GemmMacStat final : public stats::Stat {
public:
    GemmMacStat(stats::Group& parent, std::string name, std::string desc, std::string unit, std::uint64_t macs_per_uop,
                std::uint64_t ps_per_uop)
        : Stat(parent, std::move(name), std::move(desc), std::move(unit)), m_mpu(macs_per_uop),
          m_ps_per_uop(std::max<std::uint64_t>(ps_per_uop, 1)) {
        set_sampled();
    }
    // A GEMM of `uops` micro-ops issues its first micro-op at now_ps.
    void start(std::uint64_t now_ps, std::uint64_t uops) {
        m_t0 = now_ps;
        m_running = uops;
    }
    void end() {
        m_done += m_running * m_mpu;
        m_running = 0;
    }
    std::uint64_t value() const { return m_done; }
    nlohmann::json to_json() const override { return {{"desc", desc()}, {"unit", unit()}, {"value", m_done}}; }
    void to_flat(std::vector<std::pair<std::string, double>>& out) const override { out.emplace_back("", double(m_done)); }
    void sample(std::uint64_t now_ps, double* out) const override {
        const std::uint64_t issued = now_ps > m_t0 ? std::min(m_running, (now_ps - m_t0) / m_ps_per_uop) : 0;
        out[0] = double(m_done + issued * m_mpu);
    }

private:
    std::uint64_t m_mpu, m_ps_per_uop;
    std::uint64_t m_done = 0, m_running = 0, m_t0 = 0;
};

}  // namespace vp::vta
