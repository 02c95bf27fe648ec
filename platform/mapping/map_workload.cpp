#include "platform/mapping/map_workload.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "mapper/common/errors.h"
#include "mapper/tso/tso.h"
#include "mapper/tso/tso_report.h"
#include "mapper/waving/mapping_report.h"
#include "mapper/waving/waving_mapper.h"
#include "platform/refine/child_runner.h"
#include "platform/refine/mesh_refine.h"
#include "platform/refine/trust.h"
#include "platform/refine/tso_refine.h"
#include "platform/run/dram_fit.h"

namespace vp::platform {

namespace {
const mapper::Network& require_network(const config::PlatformSpec& spec, const workload::Workload& wl) {
    if (wl.kind != workload::WorkloadKind::Network)
        throw InputError(wl.path + ": platform " + config::to_string(spec.kind) + " (" + spec.source +
                         ") maps network workloads (a \"layers\" list)");
    return wl.network;
}

// The mappers' layer errors do not name the file: named here as vp-run names them
// (nmp_platform.cpp: the errors with a layer's JSON pointer; mesh_platform.cpp: all).
template <class F>
auto naming_file(const workload::Workload& wl, bool layer_errors_only, F&& map) {
    try {
        return map();
    } catch (const InputError& e) {
        const std::string m = e.what();
        if (layer_errors_only && m.rfind("at /layers/", 0) != 0) throw;
        throw InputError(wl.path + ": " + m);
    }
}
}  // namespace

MappingReport map_workload(const config::PlatformSpec& spec, const workload::Workload& wl) {
    run::check_tensors_fit_dram(spec, wl);  // as vp-run: before the mapping (also for the vta, which vp-map does not map)
    MappingReport r;
    std::ostringstream table;
    switch (spec.kind) {
    case config::PlatformKind::Nmp: {
        auto opt = spec.tso.options(spec.sim.threads);
        opt.keep_candidates = std::max(1, spec.mapper.refine);
        auto res = naming_file(wl, true, [&] { return mapper::tso::run_tso(require_network(spec, wl), spec.nmp.arch, opt); });
        if (spec.mapper.refine > 0) {  // simulation in the loop (vp-run next to vp-map)
            const auto ref = refine::refine_tso(res, wl, spec, refine::sibling_program("vp-run"));
            r.json = mapper::tso::to_json(res);
            for (std::size_t i = 0; i < res.convs.size(); ++i) r.json["convs"][i]["refine"] = ref.per_conv[i];
            const auto tr = refine::trust_of(ref.pick_est, ref.pick_sim, ref.cand_est, ref.cand_sim);
            r.json["refine"] = ref.k;
            r.json["refine_network"] = ref.network;
            r.json["trust"] = tr.to_json();
            mapper::tso::print_table(table, res);
            char line[256];
            std::snprintf(line, sizeof line,
                          "refined: %d candidates per layer simulated after the predecessor's pick; |sim/est - 1| over layers: "
                          "median %.1f %%, worst %.1f %%; Spearman rho over %zu candidates %s\n",
                          ref.k, 100 * tr.median_abs_err, 100 * tr.worst_abs_err, tr.candidates, tr.rho_text().c_str());
            table << line;
        } else {
            r.json = mapper::tso::to_json(res);
            r.json["trust"] = nullptr;  // nothing simulated
            mapper::tso::print_table(table, res);
        }
        break;
    }
    case config::PlatformKind::Mesh: {
        const auto opt = refine::mesh_mapper_options(spec);
        auto res = naming_file(
            wl, false, [&] { return mapper::waving::map_network(require_network(spec, wl), spec.core, spec.mesh, spec.energy, opt); });
        if (spec.mapper.refine > 0) {  // simulation in the loop (vp-run next to vp-map)
            const auto ref = refine::refine_mesh(res, wl, spec, refine::sibling_program("vp-run"));
            r.json = mapper::waving::to_json(res);
            std::vector<double> pick_est, pick_sim;
            for (std::size_t i = 0; i < res.layers.size(); ++i) {
                if (ref.per_layer[i].is_null()) continue;
                r.json["layers"][i]["refine"] = ref.per_layer[i];
                const auto& c = ref.per_layer[i]["candidates"][ref.per_layer[i]["used"].get<std::size_t>()];
                pick_est.push_back(c["estimated_cycles"].get<double>());
                pick_sim.push_back(c["simulated_cycles"].get<double>());
            }
            const auto tr = refine::trust_of(pick_est, pick_sim, ref.cand_est, ref.cand_sim);
            r.json["refine"] = ref.k;
            r.json["refine_network"] = ref.network;
            r.json["trust"] = tr.to_json();
            mapper::waving::print_table(table, res);
            char line[256];
            std::snprintf(line, sizeof line,
                          "refined: %d (T, k) candidates per distinct shape simulated on their own; |sim/est - 1| over "
                          "layers: median %.1f %%, worst %.1f %%; Spearman rho over %zu candidates %s\n",
                          ref.k, 100 * tr.median_abs_err, 100 * tr.worst_abs_err, tr.candidates, tr.rho_text().c_str());
            table << line;
        } else {
            r.json = mapper::waving::to_json(res);
            r.json["trust"] = nullptr;  // nothing simulated
            mapper::waving::print_table(table, res);
        }
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
