#include "platform/mapping/map_workload.h"

#include <sstream>

#include "mapper/common/errors.h"
#include "mapper/tso/tso.h"
#include "mapper/tso/tso_report.h"
#include "mapper/waving/mapping_report.h"
#include "mapper/waving/waving_mapper.h"

namespace vp::platform {

namespace {
const mapper::Network& require_network(const config::PlatformSpec& spec, const workload::Workload& wl) {
    if (wl.kind != workload::WorkloadKind::Network)
        throw InputError(wl.path + ": platform " + config::to_string(spec.kind) + " (" + spec.source +
                         ") maps network workloads (a \"layers\" list)");
    return wl.network;
}
}  // namespace

MappingReport map_workload(const config::PlatformSpec& spec, const workload::Workload& wl) {
    MappingReport r;
    std::ostringstream table;
    switch (spec.kind) {
    case config::PlatformKind::Nmp: {
        auto res = mapper::tso::run_tso(require_network(spec, wl), spec.nmp.arch, spec.tso.options(spec.sim.threads));
        r.json = mapper::tso::to_json(res);
        mapper::tso::print_table(table, res);
        break;
    }
    case config::PlatformKind::Mesh: {
        mapper::waving::MapperOptions opt;
        opt.objective = spec.mapper.objective;
        opt.mode = spec.mapper.mode;
        opt.threads = int(spec.sim.threads);
        auto res = mapper::waving::map_network(require_network(spec, wl), spec.core, spec.mesh, spec.energy, opt);
        r.json = mapper::waving::to_json(res);
        mapper::waving::print_table(table, res);
        break;
    }
    default:
        throw InputError(spec.source + ": platform " + config::to_string(spec.kind) +
                         " has no stand-alone mapper in vp-map (use vp-run)");
    }
    r.table = table.str();
    return r;
}

}  // namespace vp::platform
