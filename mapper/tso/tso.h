#pragma once
// Algorithm 19 of Tensor Slicing and Optimization for Multicore NPUs: TSO over all convs of a network, one OpenMP task per distinct
// conv shape (layers with equal Layer::shape_key() are solved once).
#include <string>
#include <vector>

#include "mapper/tso/conv_shape.h"
#include "mapper/tso/nmp_params.h"
#include "mapper/tso/time_model.h"
#include "mapper/tso/tlt_tiling.h"
#include "mapper/tso/tso_types.h"
#include "mapper/workload/network.h"

namespace vp::mapper::tso {

struct ConvMapping {
    int layer_index = -1;        // index in Network::layers
    std::string layer_name;
    std::string shared_with;     // first layer of the same shape when deduplicated, else ""
    ConvShape conv;
    ChoiceCost best;             // chosen slicing, schedule, tile, counts, times
    std::vector<TleSlice> tle;                // per TLE: rows and filters (Algorithm 13)
    std::vector<std::vector<Range>> tlt;      // per TLE, per TLT: filters
    // Best time of every (slicing, schedule) pair, [slicing][schedule]; < 0 when infeasible
    // or excluded by a fixed mode.
    double candidates_s[kNumSlicings][3] = {{-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}};
    bool fallback = false;       // fixed mode infeasible for this conv: unconstrained best used
    // The best TsoOptions::keep_candidates choices by the final estimate; ranked[0] == best is
    // the pick without refinement (also when more candidates than the model's shortlist are
    // kept), the rest best first. Simulation in the loop picks among them.
    std::vector<ChoiceCost> ranked;
};

struct TsoResult {
    std::string network;
    int precision_bits = 16;
    NmpParams hw;
    TsoOptions options;
    std::vector<ConvMapping> convs;          // conv and fc layers in network order
    std::vector<std::string> skipped;        // other layers (pool, eltwise): not TSO's job
    int unique_shapes = 0;

    double total_s() const;
    std::uint64_t total_macs() const;
};

// The body of one Algorithm 19 task. Throws vp::InputError when no tile fits.
ConvMapping map_conv(const ConvShape& conv, const NmpParams& hw, const TsoOptions& opt);
// Same with the unpruned tile search (reference; slow).
ConvMapping map_conv_brute_force(const ConvShape& conv, const NmpParams& hw, const TsoOptions& opt);

// The time model of the options (the default calibrated model when none is set).
std::shared_ptr<const TimeModel> model_of(const TsoOptions& opt);

// Validates hw and options (vp::InputError), then maps every conv/fc layer.
TsoResult run_tso(const Network& net, const NmpParams& hw, const TsoOptions& opt);

// Throws the vp::InputError that run_tso() would throw for these inputs before or instead of a
// mapping (hw and options, tso.fixed_layers, a layer no choice fits: "at /layers/<i>: layer ...:
// no TLT tile fits ..."), without searching: per distinct shape, Eq. 2 for the smallest tile of
// each slicing and schedule the search tries, or the fixed tile (vp-run --check).
void check_mappable(const Network& net, const NmpParams& hw, const TsoOptions& opt);

}  // namespace vp::mapper::tso
