#include "mapper/tso/time_model.h"

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
