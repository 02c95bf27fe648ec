#pragma once
// The resolved platform description: plain structs parsed once from YAML (+ --set),
// validated, and handed to the builders. Nothing below platform/ reads YAML.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mapper/tiling/asip_params.h"
#include "mapper/tiling/tiling.h"
#include "mapper/tso/time_model.h"
#include "mapper/tso/tso_types.h"
#include "mapper/vta/network_driver.h"
#include "mapper/waving/energy_model.h"
#include "mapper/waving/layer_mapping.h"
#include "mapper/waving/mesh_map_params.h"
#include "models/common/epoch_sampler.h"
#include "models/common/trace.h"
#include "models/dram/dram_params.h"
#include "models/nmp/nmp_model_params.h"
#include "models/noc/noc_params.h"
#include "models/noc/traffic_params.h"
#include "models/vta/vta_params.h"

namespace vp::config {

enum class PlatformKind { Dram, Nmp, Mesh, Vta, Noc };
const char* to_string(PlatformKind k);

struct SimParams {
    double max_time_ms = 0.0;      // stop with exit code 3 past this simulated time (0: no limit)
    double progress_s = 1.0;       // progress line period in wall seconds (terminals only)
    unsigned threads = 2;          // OpenMP threads for the mappers
    bool check_tlm = false;        // a TLM-2.0 base-protocol checker on every AT binding
    void validate(const std::string& prefix) const;
};

// TSO mapper choices (Tensor Slicing and Optimization for Multicore NPUs): time model and the paper's fixed-partitioning ablations.
struct TsoConfig {
    std::string dram_model = "calibrated";  // time model by name (mapper/tso/time_model.h registry)
    // Calibration file of the calibrated model (vp-calibrate), relative to the config file;
    // "none": the coefficients below. After loading: the resolved path.
    std::string calibration = "none";
    mapper::tso::TsoCoefficients coefficients;
    std::string fixed_slicing = "none";   // none | KS | KS&OFM | OFM | IFM-CH
    std::string fixed_schedule = "none";  // none | IS | OS | WS
    std::string fixed_tile = "none";      // none | "T_M,T_N,T_R,T_C" (needs both fixed_* above)
    // none | "LAYER=SLICING/SCHEDULE/T_M,T_N,T_R,T_C;...": those layers mapped with exactly that
    // choice (how --refine simulates a candidate after its predecessor's pick)
    std::string fixed_layers = "none";
    // Also search the IFM-channel slicing (partial sums reduced over the ring); off: the
    // paper's KS, KS&OFM, OFM only (today's mappings).
    bool ifm_channel_slicing = false;
    void validate(const std::string& prefix) const;
    mapper::tso::TsoOptions options(unsigned threads) const;
};

// Mapper choices shared by the platforms (objective and mode: mesh, Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect).
struct MeshMapperConfig {
    // Simulation in the loop: simulate the `refine` best candidates of every distinct layer
    // shape on their own and keep the fastest (0: off; at most kMaxRefine).
    static constexpr int kMaxRefine = 64;
    int refine = 0;
    mapper::tiling::Objective objective = mapper::tiling::Objective::MinComp;
    mapper::waving::MapMode mode = mapper::waving::MapMode::Waving;
    // Mesh time model by name (mapper/waving/mesh_time_model.h registry): phased-pages
    // (default) | phased-engine | phased | phased-serial | phased-slices | calibrated | queueing | paper.
    std::string mesh_model = "phased-pages";
    // Calibration file of the calibrated mesh model (vp-calibrate), relative to the config
    // file; "none": the coefficients below. After loading: the resolved path.
    std::string calibration = "none";
    mapper::waving::MeshCoefficients coefficients;
    std::string fixed_slices = "none";  // none | "T_of,T_ox,k": map every layer with exactly that choice
    // none | "LAYER=T_of,T_ox,k;...": those layers with exactly that choice (whole-network refinement)
    std::string fixed_layers = "none";
    // Near ties: candidates estimated within this fraction of the best count as tied, and the
    // one with the fewest cores, then the most even slices, is picked (0: the best estimate, ties
    // by T_of, T_ox, k). The models that rank by Eq. 23 (`paper`) ignore it. Default 0.005 since
    // 2026-12-05 (docs/mesh.md, "Calibration").
    double near_tie = 0.005;
    // route-share (default since 2026-12-06): unequal blocks of slices sorted onto the cores by
    // their share of the DRAM interface when a fluid model of the routers' round robin says the
    // layer finishes sooner; waving: block i on the i-th nearest core, the placement before
    // (docs/mesh.md, "Placement of unequal blocks").
    mapper::waving::Placement placement = mapper::waving::Placement::RouteShare;
    void validate(const std::string& prefix) const;
    mapper::waving::SliceChoice fixed() const;  // parsed fixed_slices (unset for none)
    std::vector<std::pair<std::string, mapper::waving::SliceChoice>> fixed_by_layer() const;  // parsed fixed_layers
};

struct PlatformSpec {
    std::string source;            // config file path
    std::string name;              // free text
    PlatformKind kind = PlatformKind::Dram;
    std::uint64_t seed = 1;
    SimParams sim;
    stats::EpochParams stats;      // epoch statistics and the timeline
    trace::TraceParams trace;
    dram::DramParams dram;
    nmp::NmpModelParams nmp;           // platform nmp
    TsoConfig tso;
    mapper::waving::MeshMapParams mesh;  // platform mesh
    mapper::tiling::AsipParams core;
    mapper::waving::EnergyParams energy;
    MeshMapperConfig mapper;
    noc::NocParams noc;                // mesh and noc: router model (size and flit width from `mesh`)
    noc::TrafficParams traffic;        // platform noc: synthetic traffic defaults
    vta::VtaParams vta;                // platform vta
    mapper::vta::DriverOptions vta_compiler;
};

// Loads a YAML platform file, applies "--set key=value" overrides, validates.
// Throws vp::InputError with file:line:col, key path and what was expected. An override of a
// key the chosen platform does not read (platform_keys.h) is an error unless allow_unused.
PlatformSpec load_platform(const std::string& path, const std::vector<std::string>& overrides,
                           bool allow_unused = false);
// The same from the file's text; `path` names it in errors and anchors relative paths.
// calibrations = false: the calibration files (tso.calibration, mapper.calibration,
// vta_compiler.calibration) are neither read nor checked and the three keys are set to "none"
// (vp-calibrate, which writes such a file, possibly for a DRAM preset that has none yet).
PlatformSpec parse_platform(const std::string& text, const std::string& path, const std::vector<std::string>& overrides,
                            bool allow_unused = false, bool calibrations = true);
PlatformSpec load_platform_uncalibrated(const std::string& path, const std::vector<std::string>& overrides);
// A calibration key's value with "{dram.preset}" replaced by the configuration's DRAM preset, so
// that one configuration names a file per preset (configs/nmp.yaml: calibration/nmp-{dram.preset}.yaml).
// Any other "{...}" is an InputError naming `key`.
std::string expand_calibration_path(const std::string& value, const std::string& key, const std::string& dram_preset);
// The calibration file the chosen platform's time model reads, or "none": tso.calibration for
// nmp's calibrated model, mapper.calibration for the mesh models but `paper`,
// vta_compiler.calibration for the VTA's calibrated estimate.
std::string calibration_in_use(const PlatformSpec& spec);
// The clocks of the chosen platform by name ("noc", "core", "dram", "vta"; the VTA's clock answers
// to "vta" and "core") and their periods in ps: the clocks its models, and the statistics they
// sample, advance on (stats.epoch's "N <clock> cycles", the timeseries dictionary).
std::map<std::string, double> clock_periods_ps(const PlatformSpec& spec);
// "dram, nmp, mesh, vta, noc": every platform, for messages.
std::string platform_names();
// The resolved configuration as YAML (every parameter, defaults included).
std::string to_yaml(const PlatformSpec& spec);

}  // namespace vp::config
