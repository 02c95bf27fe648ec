#include "platform/builders/platform.h"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "mapper/common/errors.h"
#include "platform/builders/dram_platform.h"
#include "platform/builders/mesh_platform.h"
#include "platform/builders/nmp_platform.h"
#include "platform/builders/noc_platform.h"
#include "platform/builders/vta_platform.h"

namespace vp::platform {

std::string calibration_note(const config::PlatformSpec& spec) {
    const std::string file = config::calibration_in_use(spec);
    if (file == "none") return "";
    const auto slash = file.rfind('/');
    return " (calibration " + (slash == std::string::npos ? file : file.substr(slash + 1)) + ")";
}

void dram_timing_summary(std::ostream& os, const stats::Registry& stats) {
    const stats::Group* g = nullptr;
    for (const stats::Group* c : stats.children())
        if (c->name() == "dram") g = c;
    if (!g) return;
    const nlohmann::json d = g->to_json();
    auto v = [&](const char* k) { return d.contains(k) ? d[k].value("value", 0.0) : 0.0; };
    std::ostringstream line;
    line << std::fixed << std::setprecision(1) << "  DRAM timing    data bus " << 100.0 * v("bus_utilisation")
         << " % busy, row activations " << 100.0 * v("activation_utilisation") << " % of the rate tFAW and tRRD allow, "
         << std::setprecision(0) << v("bus_turnarounds") << " read/write turnarounds\n";
    os << line.str();
}

void Platform::check_tlm_quiescent() const {
    for (std::size_t i = 0; i < m_tlm.size(); ++i)
        if (m_tlm[i].in_flight() != 0)
            throw SimulationError(std::string(m_tlm[i].name()) + ": " + std::to_string(m_tlm[i].in_flight()) +
                                  " transaction(s) still in flight at the end of the run (TLM-2.0 base protocol)");
}

std::unique_ptr<Platform> build_platform(RunContext& ctx) {
    switch (ctx.spec.kind) {
    case config::PlatformKind::Dram: return std::make_unique<DramPlatform>(ctx);
    case config::PlatformKind::Nmp: return std::make_unique<NmpPlatform>(ctx);
    case config::PlatformKind::Mesh: return std::make_unique<MeshPlatform>(ctx);
    case config::PlatformKind::Vta: return std::make_unique<VtaPlatform>(ctx);
    case config::PlatformKind::Noc: return std::make_unique<NocPlatform>(ctx);
    default:
        throw InputError(ctx.spec.source + ": platform: " + config::to_string(ctx.spec.kind) +
                         " is not available in this build (available: dram, nmp, mesh, vta, noc)");
    }
}

}  // namespace vp::platform
