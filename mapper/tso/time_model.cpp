#include "mapper/tso/time_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "mapper/common/errors.h"
#include "mapper/tso/calibrated_model.h"
#include "mapper/tso/paper_models.h"
#include "mapper/tso/tlt_tiling.h"

namespace vp::mapper::tso {

void TsoCoefficients::validate(const std::string& p) const {
    auto req = [&](double v, double lo, double hi, const char* f) {
        if (!std::isfinite(v) || v < lo || v > hi)
            throw InputError(p + "." + f + ": expected a number in [" + std::to_string(lo) + ", " +
                             std::to_string(hi) + "]");
    };
    req(latency_scale, 0, 100, "latency_scale");
    req(bus_scale, 0, 100, "bus_scale");
    req(contention, 0, 100, "contention");
    req(txn_ns, -1000, 1000, "txn_ns");
    req(compute_scale, 0, 100, "compute_scale");
    req(sync, 0, 1, "sync");
    req(turnaround_ns, 0, 10000, "turnaround_ns");
    req(lockstep_transfers, 0, 1e6, "lockstep_transfers");
    req(queue_scale, 0, 100, "queue_scale");
}

double ring_time_s(const CostCounts& k, const NmpParams& hw) {
    if (k.ring_bytes == 0 && k.reduce_cycles == 0) return 0.0;
    const double w = double(hw.ring.width_bytes);
    const double flits = double(std::max(k.tle_ring_bytes, k.ring_link_bytes_max)) / w;
    // Plus the owner's wait, owned x (sent / messages / width + 2 (packet_flits + hop_cycles)):
    // the partial tiles of each tile it owns (owned = messages / (active TLEs - 1)) arrive one
    // message transfer (the critical TLE's average message) over up to 2 hops after the senders
    // reach the tile.
    const double own = k.active_tles > 1 ? double(k.tle_ring_msgs) / double(k.active_tles - 1) : 0.0;
    const double per_msg = k.tle_ring_msgs > 0 ? double(k.tle_ring_bytes) / double(k.tle_ring_msgs) / w : 0.0;
    const double wait = own * (per_msg + 2.0 * double(hw.ring.packet_flits + hw.ring.hop_cycles));
    return (flits + double(k.tle_ring_msgs) * double(hw.ring.hop_cycles) + double(k.reduce_cycles) + wait) *
           hw.cycle_s();
}

double sw_time_s(const CostCounts& k, const NmpParams& hw) {
    const double cyc = hw.cycle_s();
    const auto& c = hw.control;
    double extra = 0.0;
    if (!c.is_default())
        extra = (double(k.sw_instr) * double(c.loop_cycles) + double(k.tlt_syncs) * double(c.sync_cycles) +
                 double(k.tle_transfers + k.tle_ring_msgs) * double(c.dma_issue_cycles)) * cyc;
    return double(k.sw_instr) * double(hw.sw_cycles_per_instr) * cyc + extra;
}

double fabric_extra_s(const CostCounts& k, const NmpParams& hw, double t_dram_s) {
    const FabricParams& f = hw.fabric;
    if (!f.enabled) return 0.0;
    const double cyc = hw.cycle_s(), w = double(f.bytes_per_cycle);
    const double load = double(k.port_load_bytes) / w * cyc;
    return std::max(0.0, load - t_dram_s) + double(k.port_store_bytes) / w * cyc +
           double(k.tlt_syncs) * double(f.latency_cycles) * cyc;
}

CostTimes TimeModel::replay(const ConvShape&, const NmpParams& hw, const ChoiceCost& c) const {
    return screen(c.counts, hw);
}

namespace {

using Factory = std::function<std::shared_ptr<const TimeModel>(const TsoCoefficients&)>;

// The registry (STYLE rule 4): one table, in the order the names are listed.
const std::vector<std::pair<std::string, Factory>>& registry() {
    static const std::vector<std::pair<std::string, Factory>> r = {
        {"calibrated", [](const TsoCoefficients& c) { return std::make_shared<CalibratedModel>(c); }},
        {"burst", [](const TsoCoefficients&) { return std::make_shared<PaperBurstModel>(); }},
        {"noburst", [](const TsoCoefficients&) { return std::make_shared<PaperNoBurstModel>(); }},
    };
    return r;
}

}  // namespace

std::vector<std::string> time_model_names() {
    std::vector<std::string> n;
    for (const auto& e : registry()) n.push_back(e.first);
    return n;
}

std::shared_ptr<const TimeModel> make_time_model(const std::string& name, const TsoCoefficients& coef,
                                                 const std::string& what) {
    for (const auto& e : registry())
        if (e.first == name) return e.second(coef);
    std::string known;
    for (const auto& e : registry()) known += (known.empty() ? "" : ", ") + e.first;
    throw InputError(what + ": unknown cost model \"" + name + "\" (known: " + known + ")");
}

}  // namespace vp::mapper::tso
