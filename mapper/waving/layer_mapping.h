#pragma once
// Results of the many-core mapping of Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect (Section VI): per layer, the slice
// parameters T = (T_of, T_ox), the single-core tilings, the number k of active cores,
// which slices each core runs, and the estimates (cycles, flits, DRAM traffic, energy).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mapper/common/near_tie.h"
#include "mapper/tiling/conv_shape.h"
#include "mapper/tiling/single_core_optimizer.h"
#include "mapper/tiling/tiling.h"
#include "mapper/waving/energy_model.h"
#include "mapper/waving/mesh_map_params.h"
#include "mapper/waving/mesh_time_model.h"
#include "mapper/waving/run_totals.h"

namespace vp::mapper::waving {

// Waving: Section VI heuristic. AllCores: the paper's baseline (all cores for every layer).
// WholeLayer: no slicing, one core runs the whole layer with the single-core optimum
// (the paper's 3x1 single-core experiment, Fig. 3).
enum class MapMode { Waving, AllCores, WholeLayer };
// Which core runs which block of slices (core_placement.h): RouteShare lets place_blocks sort
// unequal blocks onto the cores by their route share of the DRAM interface when its fluid
// makespan gains; Waving keeps block i on the i-th nearest core.
enum class Placement { RouteShare, Waving };
const char* to_string(MapMode m);

// A (T, k) choice: slice parameters T = (T_of, T_ox) and active cores k.
struct SliceChoice {
    int t_of = 0, t_ox = 0, k = 0;
    bool set() const { return t_of > 0; }
};

struct MapperOptions {
    tiling::Objective objective = tiling::Objective::MinComp;
    MapMode mode = MapMode::Waving;
    int threads = 0;  // OpenMP threads over slice sets; 0 = OpenMP default
    // Time model (mesh_time_model.h); null = the paper model.
    std::shared_ptr<const MeshTimeModel> model;
    int keep_candidates = 1;  // best (T, k) candidates recorded per layer (LayerMapping::ranked)
    SliceChoice fixed;        // when set: map every layer with exactly this (T, k) (one candidate on its own)
    // Per layer, by name: map that layer with exactly this (T, k) (whole-network refinement
    // runs); the other layers are searched (or take `fixed`).
    std::vector<std::pair<std::string, SliceChoice>> fixed_layers;
    // Ranking by the model's cycles: candidates within (1 + near_tie) of the best estimate are
    // tied, and the one with the fewest cores, then the most even slices (slice_evenness), goes
    // first (0: off).
    double near_tie = 0;
    Placement placement = Placement::RouteShare;
};

// One ranked (T, k) candidate of a layer.
struct RankedChoice {
    SliceChoice choice;
    double score = 0;       // what the ranking used: the model's cycles, or Eq. 23 (paper)
    double est_cycles = 0;  // the layer estimate of this choice (as LayerMapping::est_cycles)
};

// One active core's share of a layer.
struct CoreWork {
    int core = 0;          // index into MeshMapParams::resolved_cores()
    MeshNode node;
    int dram_if = 0;       // index of the DRAM interface it talks to (the nearest)
    int hops = 0;          // XY hops to that interface
    int first_slice = 0, end_slice = 0;  // linear slices [first, end) in (group, of, ox) order
    std::vector<tiling::SliceRun> runs;  // stitched runs of ox-adjacent slices
    std::vector<tiling::Tiling> run_tilings;
    RunTotals totals;      // from the loop nest (exact)
    double cycles_with_dram = 0;  // Eqs. 12-18 on this core's totals
};

struct LayerMapping {
    std::string name;
    bool mapped = false;
    std::string skip_reason;  // for layers without MACs
    tiling::ConvShape shape;

    // Slice parameters (Eqs. 25, 27) and slice counts.
    int t_of = 0, t_ox = 0, s_of = 0, s_ox = 0, n_slices = 0;
    // Single-core optimum of a T_of x T_ox slice (Eq. 26) and of the narrower last of slice.
    tiling::Tiling tiling_full;
    tiling::TilingCost cost_full;
    bool has_rem_of = false;
    tiling::Tiling tiling_rem;
    tiling::TilingCost cost_rem;

    int k = 0;                 // active cores
    double cost = 0;           // Eq. 23
    std::vector<CoreWork> cores;
    // Which core runs which block (place_blocks): false the waving order (block i on the i-th
    // nearest core), true the blocks sorted onto the cores by route share.
    bool placed_by_share = false;

    std::uint64_t max_core_cycles_wo_dram = 0;  // first term of Eq. 23
    std::uint64_t flits = 0, packets = 0, flit_hops = 0;
    std::uint64_t dram_bytes = 0, dram_init_bytes = 0, dram_read_bytes = 0, dram_write_bytes = 0;
    std::uint64_t macs = 0, sram_words = 0;
    double est_cycles = 0;     // max(slowest core with DRAM, busiest DRAM interface's flits / clock ratio)
    double bank_factor = 1.0;  // phased-pages: the cores' OpProfile::bank_factor (lockstep_bank_factor)
    EnergyEstimate energy;

    std::vector<RankedChoice> ranked;     // best candidates, best first (MapperOptions::keep_candidates)
    // The choice ranked after the pick and its score (what the ranking used; the pick's is
    // ranked.front().score); k = 0 when the layer had one candidate. A score within
    // kNearTieReport of the pick's is a near tie.
    SliceChoice runner_up;
    double runner_up_score = 0;
    double runner_up_over_pick() const;  // 0 without a runner-up
    bool near_tie() const;
    std::uint64_t slice_sets = 0;         // |T| examined
    std::uint64_t tilings_evaluated = 0;  // closed-form single-core evaluations
};

struct NetworkMapping {
    std::string network;
    tiling::Objective objective = tiling::Objective::MinComp;
    MapMode mode = MapMode::Waving;
    std::string model = "paper";  // time model of the estimates
    int n_cores = 0;
    double core_mhz = 0, noc_mhz = 0;
    std::vector<LayerMapping> layers;

    double total_est_cycles() const;
    // The mapped layers whose runner-up is scored within kNearTieReport of the pick.
    std::vector<std::string> near_tied() const;
    std::uint64_t total_flits() const;
    std::uint64_t total_dram_bytes() const;
    double total_energy_pj() const;
};

}  // namespace vp::mapper::waving
