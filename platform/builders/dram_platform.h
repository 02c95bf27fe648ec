#pragma once
// DRAM-only platform: traffic generators, or a DRAM trace player, -> DRAM controller.
#include <memory>
#include <string>
#include <vector>

#include "models/dram/dram_controller.h"
#include "models/tgen/trace_player.h"
#include "models/tgen/traffic_generator.h"
#include "platform/builders/platform.h"

namespace vp::platform {

class DramPlatform final : public Platform {
public:
    explicit DramPlatform(RunContext& ctx);
    void finish() override;
    void check_invariants() const override;
    void summary(std::ostream& os) const override;

private:
    RunContext& m_ctx;
    stats::Group m_streams;  // "tgen": the streams' statistics, apart from the controller's "dram"
    std::unique_ptr<dram::DramController> m_dram;
    std::vector<std::unique_ptr<tgen::TrafficGenerator>> m_gens;
    std::vector<std::string> m_unchecked;  // streams whose data check skips other streams' write ranges
    std::unique_ptr<tgen::TracePlayer> m_player;
};

}  // namespace vp::platform
