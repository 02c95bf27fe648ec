#include "mapper/waving/mesh_time_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "mapper/common/errors.h"

namespace vp::mapper::waving {

void MeshCoefficients::validate(const std::string& p) const {
    auto req = [&](double v, double lo, double hi, const char* f) {
        if (!std::isfinite(v) || v < lo || v > hi)
            throw InputError(p + "." + f + ": expected a number in [" + std::to_string(lo) + ", " +
                             std::to_string(hi) + "]");
    };
    req(latency_scale, 0, 100, "latency_scale");
    req(dram_scale, 0, 100, "dram_scale");
    req(conflict, 0, 100, "conflict");
    req(contention, 0, 100, "contention");
    req(shared_scale, 0, 100, "shared_scale");
    req(port_scale, 0, 100, "port_scale");
    req(layer_cycles, -1e6, 1e6, "layer_cycles");
    req(wait_scale, 0, 100, "wait_scale");
    req(slot_scale, 0, 100, "slot_scale");
}

// Data-bus time lost per request to row conflicts between the streams of `active` cores: a
// conflict costs a precharge and an activate (tRP + tRCD); `conflict` requests in one conflict
// when the streams of many cores interleave, (1 - 1/k) of that with k streams (none with one).
double CalibratedMeshModel::conflict_cycles(const MeshHwFigures& hw, double tck, int active) const {
    const double k = double(std::max(active, 1));
    return m_c.conflict * (1.0 - 1.0 / k) * double(hw.dram.tRP + hw.dram.tRCD) * tck;
}

double CalibratedMeshModel::core_cycles(const OpProfile& p, const CoreContext& c, const tiling::AsipParams& asip,
                                        const MeshMapParams& mesh) const {
    const MeshHwFigures& hw = mesh.hw;
    if (!hw.valid())
        throw InputError("mapper.mesh_model: the calibrated model needs the DRAM and NoC figures of the platform");
    const double core_ns = 1000.0 / asip.core_mhz;       // one core cycle [ns]
    const double flit = asip.core_mhz / mesh.noc_mhz;    // one NoC cycle in core cycles
    const double tck = hw.dram.tck_ns / core_ns;         // one DRAM clock in core cycles
    // Unloaded DRAM access of a request (row miss: activate, CAS, the data burst) and the
    // NoC round trip: the request's head and the response's head over hops + 1 routers each way.
    const double dram_lat = double(hw.dram.frontend_latency_ck + hw.dram.tRCD + hw.dram.CL + hw.dram.burst_cycles) * tck;
    const double noc_lat = 2.0 * double(c.hops + 1) * double(hw.hop_cycles) * flit;
    const double lat = m_c.latency_scale * (dram_lat + noc_lat);
    const double lat_wait = m_c.wait_scale * (dram_lat + noc_lat);
    const double slot = m_c.slot_scale * dram_lat;  // time a request holds a slot of the interface's cap
    // Cores that compete with this one on the shared side: k^contention (1: every other core
    // always competes, 0: none; the active cores are not all moving data at the same time).
    const double keff = std::pow(double(std::max(c.active, 1)), m_c.contention);
    const double t_burst = double(hw.dram.burst_cycles) * tck * m_c.dram_scale;
    const double t_conf = conflict_cycles(hw, tck, c.active);
    const double out = double(std::max(asip.dma_max_outstanding, 1));
    const double cap = double(hw.dram_if_outstanding);
    const double setup = double(asip.dma_setup_cycles);
    // A transfer's own time after its latency L: one request per core cycle, the DMA engine's
    // outstanding limit (Little), one stream through the routers, and its own demand on the
    // shared side (the interface's port, the DRAM data bus, the interface's request slots).
    // The k_eff competing cores' demand on the shared side is served while this core waits
    // out its latency, so it is not added to L: the entry takes max(L + own, k_eff x shared).
    auto shared_of = [&](const XferFeatures& x) {
        const double n = double(x.transfers);
        const double f = double(std::max(x.flits_in, x.flits_out));
        return std::max({f * flit, double(x.bursts) * t_burst + n * t_conf, n * slot / cap});
    };
    auto own_of = [&](const XferFeatures& x, double l) {
        const double n = double(x.transfers);
        const double f = double(std::max(x.flits_in, x.flits_out));
        return std::max({n, n * l / out, m_c.port_scale * f * flit, shared_of(x)});
    };
    double t = 0;
    for (const ProfileEntry& e : p.entries) {
        double d = 0;
        if (e.x.transfers) {
            const double l = e.wait ? lat_wait : lat;
            d = std::max(l + own_of(e.x, lat), keff * shared_of(e.x));
        }
        const double one = setup * double(e.x.dma_ops) + (e.wait ? d : std::max(double(e.compute), d));
        t += one * double(e.count);
    }
    return t;
}

double CalibratedMeshModel::shared_cycles(const OpProfile& p, const tiling::AsipParams& asip,
                                          const MeshMapParams& mesh, int active) const {
    const MeshHwFigures& hw = mesh.hw;
    if (!hw.valid() || m_c.shared_scale == 0.0) return 0.0;
    const double core_ns = 1000.0 / asip.core_mhz;
    const double flit = asip.core_mhz / mesh.noc_mhz;
    const double tck = hw.dram.tck_ns / core_ns;
    const double dram_lat = double(hw.dram.frontend_latency_ck + hw.dram.tRCD + hw.dram.CL + hw.dram.burst_cycles) * tck;
    const double t_burst = double(hw.dram.burst_cycles) * tck * m_c.dram_scale;
    const double t_conf = conflict_cycles(hw, tck, active);
    const double cap = double(hw.dram_if_outstanding);
    const double slot = m_c.slot_scale * dram_lat;
    double t = 0;
    for (const ProfileEntry& e : p.entries) {
        const double f = double(std::max(e.x.flits_in, e.x.flits_out)) * flit;
        const double n = double(e.x.transfers);
        const double d = std::max({f, double(e.x.bursts) * t_burst + n * t_conf, n * slot / cap});
        t += d * double(e.count);
    }
    return m_c.shared_scale * t;
}

namespace {

using Factory = std::function<std::shared_ptr<const MeshTimeModel>(const MeshCoefficients&)>;

// The registry (STYLE rule 4): one table, in the order the names are listed.
const std::vector<std::pair<std::string, Factory>>& registry() {
    static const std::vector<std::pair<std::string, Factory>> r = {
        {"calibrated", [](const MeshCoefficients& c) { return std::make_shared<CalibratedMeshModel>(c); }},
        {"paper", [](const MeshCoefficients&) { return std::make_shared<PaperMeshModel>(); }},
    };
    return r;
}

}  // namespace

std::vector<std::string> mesh_model_names() {
    std::vector<std::string> n;
    for (const auto& e : registry()) n.push_back(e.first);
    return n;
}

std::shared_ptr<const MeshTimeModel> make_mesh_model(const std::string& name, const MeshCoefficients& coef,
                                                     const std::string& what) {
    for (const auto& e : registry())
        if (e.first == name) return e.second(coef);
    std::string known;
    for (const auto& e : registry()) known += (known.empty() ? "" : ", ") + e.first;
    throw InputError(what + ": unknown cost model \"" + name + "\" (known: " + known + ")");
}

}  // namespace vp::mapper::waving
