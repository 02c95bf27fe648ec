#pragma once
// VTA platform: host CPU -> VTA core (fetch/load/compute/store, four DMA ports) -> DRAM
// controller. Runs a VTA IR program (compiled with its STRATEGY, "auto" included) or a
// network (mapper::vta::NetworkDriver: a plain network JSON read as a chain, or the
// "vta_network" extension with explicit skip connections). Checks at the end that the timed
// outputs equal the untimed executor's bit for bit and that the simulated MACs equal the
// compiler's; writes mapping.json and OUT/outputs/<name>.bin + manifest.json.
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "mapper/vta/network_driver.h"
#include "models/dram/dram_controller.h"
#include "models/vta/vta_core.h"
#include "models/vta/vta_host.h"
#include "platform/builders/platform.h"
#include "platform/refine/trust.h"
#include "platform/refine/vta_refine.h"

namespace vp::platform {

class VtaPlatform final : public Platform {
public:
    explicit VtaPlatform(RunContext& ctx);
    ~VtaPlatform() override;
    void finish() override;
    void check_invariants() const override;
    void summary(std::ostream& os) const override;
    void write_outputs(const run::OutputDir& out) const override;
    std::vector<std::string> layer_names() const override;
    nlohmann::json layer_report() const override;
    double peak_macs_per_s() const override;

    // Compiler / host options: defaults of mapper::vta::DriverOptions until the YAML section
    // `vta_compiler:` exists (strategy, double_buffer, host_ns_per_byte, host_ns_per_program).
    static mapper::vta::DriverOptions driver_options(const config::PlatformSpec& spec);

private:
    struct Output {
        std::string name;
        std::vector<int> shape;
        std::vector<std::int8_t> data;
    };
    std::vector<Output> outputs() const;
    // The trust figures over the layers with programs (estimated against simulated cycles).
    refine::Trust trust() const;
    // Per-layer statistics (stats.json: vta_layers.layer[<name>].cycles ...), filled in finish().
    struct LayerStats {
        std::string name;  // the network's layer name
        stats::Group group;
        stats::Counter programs, cycles, est_cycles, dram_bytes, macs, host_ns;
        LayerStats(stats::Group& parent, const std::string& name);
    };

    RunContext& m_ctx;
    mapper::vta::DriverOptions m_opt;
    std::unique_ptr<dram::DramController> m_dram;
    std::unique_ptr<vta::VtaCore> m_core;
    std::unique_ptr<vta::VtaHost> m_host;
    std::unique_ptr<stats::Group> m_layer_root;
    std::vector<std::unique_ptr<LayerStats>> m_layer_stats;
    // Network mode
    std::unique_ptr<mapper::vta::NetworkDriver> m_driver;
    std::optional<refine::VtaRefinement> m_refine;  // --refine K
    // IR mode
    bool m_ir = false, m_ir_issued = false;
    mapper::vta::CompiledProgram m_ir_prog;
    std::optional<mapper::vta::CompiledProgram> m_single_prog;  // the program of a one-program network
    std::vector<std::int8_t> m_ir_out;
};

}  // namespace vp::platform
