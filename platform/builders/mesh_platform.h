#pragma once
// Mesh platform (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect): the waving mapping of a network simulated on ASIP cores that talk
// through the cycle-accurate mesh NoC (models/noc) to DRAM interface node(s) in front of one
// shared DRAM controller (models/dram); a master core starts and synchronises the layers.
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "mapper/waving/layer_mapping.h"
#include "models/asip/asip_core.h"
#include "models/asip/master_core.h"
#include "models/common/invariant_check.h"
#include "models/dram/dram_controller.h"
#include "models/noc/dram_interface.h"
#include "models/noc/network_interface.h"
#include "models/noc/noc_stats.h"
#include "models/noc/noc_system.h"
#include "models/noc/noc_trace.h"
#include "platform/builders/platform.h"
#include "platform/refine/mesh_refine.h"
#include "platform/refine/trust.h"

namespace vp::platform {

// The router parameters of the mesh run: spec.noc with the mesh size and the flit format taken
// from spec.mesh, so that mapper and NoC agree on F(p). Validated (throws InputError "noc.*").
noc::NocParams noc_params_for(const config::PlatformSpec& spec);

// Byte addresses of every layer's tensors (ifmap, weights, ofmap; 4 KiB aligned), allocated one
// after the other and wrapped to 0 when the DRAM is full (ASSUMPTION: no data is computed, so
// layers may share addresses). Throws InputError if a single layer does not fit the DRAM.
std::vector<mapper::tiling::DramLayout> layout_tensors(const mapper::waving::NetworkMapping& m,
                                                       int word_bytes, std::uint64_t dram_bytes);

class MeshPlatform final : public Platform {
public:
    explicit MeshPlatform(RunContext& ctx);
    ~MeshPlatform() override;
    void finish() override;
    void check_invariants() const override;
    // Records every end-of-run conservation law of the run in chk (check_invariants throws on
    // the broken ones). Public for tests.
    void collect_invariants(InvariantCheck& chk) const;
    // Test-only: makes one recorded invariant report a wrong actual figure (InvariantCheck::Fault).
    void set_invariant_fault_for_test(const InvariantCheck::Fault& f) { m_fault = f; }
    void summary(std::ostream& os) const override;
    void write_outputs(const run::OutputDir& out) const override;
    std::vector<std::string> layer_names() const override;
    double estimated_time_ps() const override;
    nlohmann::json layer_report() const override;
    double peak_macs_per_s() const override;
    nlohmann::json node_roles() const override;

    // Per simulated (mapped) layer, for tests and reports.
    struct LayerResult {
        std::size_t map_index = 0;         // index into mapping().layers
        double sim_cycles = 0;             // core cycles from start sync to the last done sync
        std::uint64_t sim_flits = 0;       // flits of the packets the layer's DMA traffic created
        std::uint64_t sim_flits_carried = 0;  // flits drained at NIs during the layer (syncs excluded)
        std::uint64_t sim_packets = 0;     // packets the layer's DMA traffic created
        std::uint64_t sim_flit_hops = 0;   // router-to-router link traversals of those flits
        asip::CoreLayerCounts counts;      // summed over the active cores
        mapper::waving::EnergyEstimate energy;     // energy model on the simulated counts
    };
    const mapper::waving::NetworkMapping& mapping() const { return m_map; }
    std::vector<LayerResult> results() const;
    // Median / worst |sim/est - 1| over the layers and Spearman's rho (refinement candidates, or layers).
    refine::Trust trust() const;

private:
    struct LayerStats;
    std::uint64_t router_link_flits() const;
    bool quiescent() const;
    std::uint64_t sync_flits() const;

    RunContext& m_ctx;
    noc::NocParams m_np;
    mapper::waving::NetworkMapping m_map;
    std::optional<refine::MeshRefinement> m_refine;  // with mapper.refine > 0
    std::vector<std::size_t> m_mapped;  // indices of the mapped layers (the master's sequence)
    std::vector<mapper::tiling::DramLayout> m_layouts;
    std::uint64_t m_workload_macs = 0;  // conv + fc MACs of the network, from the layers
    std::vector<mapper::waving::MeshNode> m_core_nodes;

    stats::Group m_mesh_stats, m_noc_group;
    std::unique_ptr<noc::NocSystem> m_noc;
    std::unique_ptr<dram::DramController> m_dram;
    std::vector<std::unique_ptr<noc::DramInterface>> m_difs;
    std::vector<std::unique_ptr<noc::NetworkInterface>> m_nis;
    std::unique_ptr<noc::NetworkInterface> m_master_ni;
    std::vector<std::unique_ptr<asip::AsipCore>> m_cores;
    std::unique_ptr<asip::MasterCore> m_master;
    std::unique_ptr<noc::NocStats> m_noc_stats;
    std::unique_ptr<noc::NocTrace> m_noc_trace;
    std::deque<LayerStats> m_layer_stats;
    InvariantCheck::Fault m_fault;
    stats::Scalar m_total_cycles, m_total_est_cycles, m_total_energy_pj, m_total_est_energy_pj;
};

}  // namespace vp::platform
