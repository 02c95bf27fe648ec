#pragma once
// NMP platform (Tensor Slicing and Optimization for Multicore NPUs): the TSO mapping of a network simulated on the approximately
// timed multi-TLE NPU, all TLE DMA engines sharing one DRAM controller.
#include <memory>

#include <optional>

#include "mapper/tso/tso.h"
#include "platform/refine/trust.h"
#include "platform/refine/tso_refine.h"
#include "models/dram/dram_controller.h"
#include "models/nmp/nmp_system.h"
#include "platform/builders/platform.h"

namespace vp::platform {

class NmpPlatform final : public Platform {
public:
    explicit NmpPlatform(RunContext& ctx);
    void finish() override;
    void check_invariants() const override;
    void summary(std::ostream& os) const override;
    void write_outputs(const run::OutputDir& out) const override;
    std::vector<std::string> layer_names() const override;
    double estimated_time_ps() const override;
    nlohmann::json layer_report() const override;
    double peak_macs_per_s() const override;

private:
    double layer_sim_cycles(std::size_t i) const;
    refine::Trust trust() const;

    RunContext& m_ctx;
    mapper::tso::TsoResult m_map;
    std::optional<refine::TsoRefinement> m_refine;  // with mapper.refine > 0
    std::uint64_t m_workload_macs = 0;  // conv + fc MACs of the network, computed from the layers
    std::unique_ptr<dram::DramController> m_dram;
    std::unique_ptr<nmp::NmpSystem> m_nmp;
};

}  // namespace vp::platform
