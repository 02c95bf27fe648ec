#include "platform/builders/platform.h"

#include "mapper/common/errors.h"
#include "platform/builders/dram_platform.h"
#include "platform/builders/mesh_platform.h"
#include "platform/builders/nmp_platform.h"
#include "platform/builders/noc_platform.h"
#include "platform/builders/vta_platform.h"

namespace vp::platform {

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
