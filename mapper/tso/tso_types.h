#pragma once
// Vocabulary of the TSO mapper (Tensor Slicing and Optimization for Multicore NPUs): TLE slicings, TLT schedules, tiles, costs.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vp::mapper::tso {

// PART_TLE of Algorithm 19 (Algorithm 13), plus IFM_CH: the input channels divided among the
// TLEs, each computing partial sums of the whole OFM over its channel slice, reduced over the
// ring (the partitioning the paper names as possible but not explored, Section IV).
enum class TleSlicing { KS, KS_OFM, OFM, IFM_CH };
// PART_TLT of Algorithm 19 (Section IV-C): input, output, weight stationary.
enum class TltSchedule { IS, OS, WS };

// The paper's three (the default search) and all four (with tso.ifm_channel_slicing).
constexpr std::array<TleSlicing, 3> kAllSlicings{TleSlicing::KS, TleSlicing::KS_OFM, TleSlicing::OFM};
constexpr std::array<TleSlicing, 4> kAllSlicingsExt{TleSlicing::KS, TleSlicing::KS_OFM, TleSlicing::OFM,
                                                    TleSlicing::IFM_CH};
constexpr int kNumSlicings = 4;
constexpr std::array<TltSchedule, 3> kAllSchedules{TltSchedule::IS, TltSchedule::OS, TltSchedule::WS};

const char* to_string(TleSlicing p);
const char* to_string(TltSchedule q);
// Parse the names above ("KS", "KS&OFM", "OFM", "IFM-CH", "IS", "OS", "WS");
// throw vp::InputError naming `what` and the known names.
TleSlicing parse_slicing(const std::string& s, const std::string& what);
TltSchedule parse_schedule(const std::string& s, const std::string& what);

// A contiguous range [begin, begin + count).
struct Range {
    int begin = 0;
    int count = 0;
};

// Work of one TLE (Algorithm 13): OFM rows TLE_R and filters TLE_W; input channels `chans`
// (count 0: all of them; only IFM_CH divides them).
struct TleSlice {
    Range rows;
    Range filters;
    Range chans;
};

// Tile <T_M, T_N, T_R, T_C> of one TLT (Algorithm 14); t_h, t_l derived (IN tile rows/cols
// before clipping at the feature-map border, padding included).
struct Tile {
    int t_m = 0, t_n = 0, t_r = 0, t_c = 0;
    int t_h = 0, t_l = 0;
};

// Integer aggregates of one (slicing, schedule, tile) choice for the whole conv (all groups,
// all TLEs/TLTs). Every time below is a function of these integers only (see cost_model.h).
struct CostCounts {
    // alpha_in / alpha_w / alpha_out (Eqs. 3-5): tile loads/stores of the whole layer.
    // IN loads are counted once per TLE (MULTICAST to its TLTs), W/OUT once per TLT.
    std::uint64_t in_loads = 0, w_loads = 0, out_stores = 0;
    std::uint64_t in_bursts = 0, w_bursts = 0, out_bursts = 0;
    std::uint64_t in_bytes = 0, w_bytes = 0, out_bytes = 0;
    std::uint64_t mac_cycles = 0;   // critical TLT (Eqs. 7-8)
    std::uint64_t sw_instr = 0;     // nmp_conv2d instructions of the critical TLT (T_SW)
    std::uint64_t macs = 0;         // MACs of the whole layer (sanity: == Layer::macs())
    // The TLE that moves the most bytes: its DMA transfers, transactions (bursts of
    // burst_bytes) and bytes; and the number of TLEs with work.
    std::uint64_t tle_transfers = 0, tle_txns = 0, tle_bytes = 0;
    int active_tles = 0;
    // IFM_CH only: the partial-sum reduction over the ring. ring_bytes = payload of every
    // partial OUT tile sent to its owner ((active TLEs - 1) x OUT bytes); the busiest link's
    // payload; the critical TLE's sent bytes and messages; reduce_cycles = the partial-sum
    // additions of the busiest TLT (on its MAC unit, before the owner stores the tile).
    std::uint64_t ring_bytes = 0, ring_link_bytes_max = 0, tle_ring_bytes = 0, tle_ring_msgs = 0;
    std::uint64_t reduce_cycles = 0;
    // RISC-V control (NmpParams::control): transfers the critical TLE's controller issues
    // (tle_transfers plus its ring sends) and DMA completions its busiest TLT waits for.
    std::uint64_t tlt_syncs = 0;
    // The fabric (NmpParams::fabric): bytes through the busiest TLT port (the TLT with the most
    // filters of the TLE where the sum is largest): its TLE's IN multicasts plus its W loads
    // (port_load_bytes) and its OUT stores (port_store_bytes); its transfers are tlt_syncs.
    std::uint64_t port_load_bytes = 0, port_store_bytes = 0;

    std::uint64_t bursts() const { return in_bursts + w_bursts + out_bursts; }
    std::uint64_t bytes() const { return in_bytes + w_bytes + out_bytes; }
};

// Eq. 6 with its components in seconds.
struct CostTimes {
    double t_mac_s = 0, t_dram_s = 0, t_sw_s = 0, total_s = 0;
    double t_dram_cas_s = 0;      // CAS part of T_DRAM (0 for TSO-noburst)
    double t_ring_s = 0;          // IFM_CH: ring sends + partial-sum additions (an extension of Eq. 6)
    double t_fabric_s = 0;        // DMA engine -> TLT ports, when nmp.fabric.enabled (an extension of Eq. 6)
    double total_cycles = 0;      // total_s at the TLT clock
};

class TimeModel;

struct TsoOptions {
    // Time model (time_model.h registry); null = make_time_model("calibrated", defaults).
    std::shared_ptr<const TimeModel> model;
    std::optional<TleSlicing> fixed_slicing;   // ablation: fix PART_TLE (paper's "fixed TLE")
    std::optional<TltSchedule> fixed_schedule; // ablation: fix PART_TLT (paper's "fixed TLT")
    // With fixed_slicing and fixed_schedule: map every conv with exactly this tile (T_M,
    // T_N, T_R, T_C; t_h, t_l ignored). Used to simulate one candidate on its own.
    std::optional<Tile> fixed_tile;
    // Per layer (by name): map that conv with exactly this choice, the others as usual. Used to
    // simulate one candidate after its predecessor with the predecessor's chosen mapping.
    struct LayerChoice {
        std::string layer;
        TleSlicing slicing = TleSlicing::KS;
        TltSchedule schedule = TltSchedule::IS;
        Tile tile;
    };
    std::vector<LayerChoice> fixed_layers;
    int threads = 1;                           // OpenMP threads (Algorithm 19)
    // Also search TleSlicing::IFM_CH (tso.ifm_channel_slicing; off: the paper's three).
    bool ifm_channel_slicing = false;
    // Candidates kept per conv, best first by the final estimate (>= 1; simulation in the
    // loop asks for more).
    int keep_candidates = 1;
    // With a model that replays a shortlist (the calibrated one): also replay the screen's best
    // choice of every (slicing, schedule) pair that the shortlist leaves out, and pick the
    // replay's best of them all. Off: the shortlist alone (vp-calibrate's design ranks so).
    bool replay_pair_bests = true;
};

}  // namespace vp::mapper::tso
