#pragma once
// Many-core mapping of Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Section VI (Fig. 4):
//  1. slice parameter set T = {(T_of, T_ox)}: multiples of P_of / P_ox not above N_of / N_ox
//     (Eq. 25); ASSUMPTION: the full dimension is added when it is not such a multiple (so
//     that layers narrower than P_ox, e.g. fully connected ones, still have a slice set);
//  2. each slice solved by the exact single-core optimiser (Eq. 26); the last, narrower ox
//     slice reuses its of slice's tiling with T'_ox clamped (ASSUMPTION: keeps T'_of, T'_if
//     equal along a run so that stitched slices share filter tiles);
//  3. slice counts S_of = ceil(N_of/T_of), S_ox = S_ix = ceil(N_ox/T_ox) (Eq. 27), times groups;
//  4. waving: k = 1, 2, 4, ... (and finally all) active cores, the k nearest the DRAM interface
//     by XY hops (ties: lower core index = row-major position); slices in (group, of, ox)
//     order are cut into k contiguous blocks of equal count (+-1), so ox-adjacent slices
//     stay on one core and are stitched (no redundant filter loads);
//  5. cost (Eq. 23) = max_c C_tot_wo_dram(s_c) + flit_weight * sum of F(p) over all packets,
//     C_tot_wo_dram = sum over the core's slices of C_comp + C_pfetch (Eq. 24) and F(p) counted
//     exactly from the loop nest; the cheapest (T, k) wins (ties: smaller T_of, T_ox, k).
//  All-cores mode (the paper's baseline "using all cores all of the time"): k = all cores and
//  only slice sets with at least one slice per core (all slice sets if the layer has none).
// OpenMP parallelises over T; results are independent of the thread count.
#include <vector>

#include "mapper/tiling/asip_params.h"
#include "mapper/waving/layer_mapping.h"
#include "mapper/waving/mesh_profile.h"
#include "mapper/workload/network.h"

namespace vp::mapper::waving {

// Core indices (into resolved_cores()) sorted by hops to the nearest DRAM interface, ties by index.
std::vector<int> waving_order(const MeshMapParams& mesh);

// Index of the DRAM interface nearest to `n` (ties: lower index).
int nearest_dram_if(const MeshMapParams& mesh, const MeshNode& n);

// Active-core counts tried: 1, 2, 4, ... below n_cores, then n_cores (Waving); {n_cores} (AllCores).
std::vector<int> core_counts(int n_cores, MapMode mode);

// How even the slices of (T_of, T_ox) are: the smallest slice's share of a full one, (the last T_of
// chunk / T_of) x (the last T_ox chunk / T_ox), 1 when both divide the layer. Near ties
// (MapperOptions::near_tie) prefer, among the fewest cores, the most even slices: the cores then
// finish together and write the same output rows at the same pace (docs/mesh.md, Calibration, "the
// DRAM interface's port per request packet, and even slices among near ties").
double slice_evenness(const tiling::ConvShape& s, int t_of, int t_ox);

// Maps one layer. Throws vp::InputError if its smallest tile does not fit the SRAM.
// Parameters must have been validated.
LayerMapping map_layer(const Layer& layer, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                       const EnergyParams& energy, const MapperOptions& opt);

// Maps every layer (identical shapes are solved once). Validates the parameters first.
NetworkMapping map_network(const Network& net, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                           const EnergyParams& energy, const MapperOptions& opt);

// Throws the vp::InputError that map_network() would throw for these inputs before its search of
// any layer (the parameters, mapper.fixed_layers, a layer whose smallest tile exceeds a core's
// SRAM, a fixed slice set that is not one of the layer's), without searching (vp-run --check).
void check_mappable(const Network& net, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                    const EnergyParams& energy, const MapperOptions& opt);

// OpProfile::bank_factor of the layer's k cores (phased-pages; 1 for one core).
double layer_bank_factor(const LayerMapping& m, const tiling::AsipParams& asip, const MeshMapParams& mesh);
// The profile (mesh_profile.h) of every active core's runs, in m.cores order, with the row
// activations of its pages replayed (OpProfile::activations; each run from closed rows) and the
// layer's bank factor.
std::vector<OpProfile> core_profiles(const LayerMapping& m, const tiling::AsipParams& asip, const MeshMapParams& mesh);
// A time model's estimate of a mapped layer from its core profiles: slowest core + overhead.
double model_cycles(const LayerMapping& m, const std::vector<OpProfile>& profiles, const MeshTimeModel& model,
                    const tiling::AsipParams& asip, const MeshMapParams& mesh);

// The cost of Eq. 23 for given slice parameters and k, recomputed from scratch by running the
// loop nest over every core's runs (no per-class shortcut). For tests and reports.
double recompute_cost(const LayerMapping& m, const MeshMapParams& mesh);

}  // namespace vp::mapper::waving
