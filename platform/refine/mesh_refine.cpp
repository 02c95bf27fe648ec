#include "platform/refine/mesh_refine.h"

#include <map>

#include "mapper/common/errors.h"
#include "mapper/waving/waving_mapper.h"
#include "platform/refine/candidate_sim.h"
#include "platform/refine/child_runner.h"

namespace vp::refine {

namespace wv = mapper::waving;
using nlohmann::json;

wv::MapperOptions mesh_mapper_options(const config::PlatformSpec& spec) {
    wv::MapperOptions opt;
    opt.objective = spec.mapper.objective;
    opt.mode = spec.mapper.mode;
    opt.threads = int(spec.sim.threads);
    opt.model = wv::make_mesh_model(spec.mapper.mesh_model, spec.mapper.coefficients);
    opt.keep_candidates = std::max(1, spec.mapper.refine);
    opt.fixed = spec.mapper.fixed();
    return opt;
}

std::string mesh_choice_set(const wv::SliceChoice& c) {
    return "mapper.fixed_slices=" + std::to_string(c.t_of) + "," + std::to_string(c.t_ox) + "," + std::to_string(c.k);
}

MeshRefinement refine_mesh(wv::NetworkMapping& map, const workload::Workload& wl, const config::PlatformSpec& spec,
                           const std::string& vp_run) {
    MeshRefinement r;
    r.k = spec.mapper.refine;
    const int k = r.k;
    if (k < 1) throw InputError("mapper.refine: expected a number of candidates >= 1");
    const auto& layers = wl.network.layers;
    const std::size_t n_doc = wl.doc.at("layers").size();
    // One job per candidate of every distinct mapped shape (its first layer).
    std::vector<CandidateJob> jobs;
    std::vector<std::pair<std::size_t, int>> job_of;  // (layer index, candidate)
    std::map<std::string, std::size_t> first;        // shape key -> layer index
    std::vector<std::size_t> owner(map.layers.size());
    for (std::size_t i = 0; i < map.layers.size(); ++i) {
        const auto ins = first.emplace(layers[i].shape_key(), i);
        owner[i] = ins.first->second;
        const wv::LayerMapping& l = map.layers[i];
        if (!ins.second || !l.mapped) continue;
        if (int(l.ranked.size()) < k)
            throw InputError("mapper.refine = " + std::to_string(k) + ": layer \"" + l.name + "\" has only " +
                             std::to_string(l.ranked.size()) + " (T, k) candidate(s)");
        const json layer_wl = single_layer_workload(wl.doc, i % n_doc);
        for (int j = 0; j < k; ++j) {
            jobs.push_back({layer_wl, {mesh_choice_set(l.ranked[std::size_t(j)].choice)}});
            job_of.emplace_back(i, j);
        }
    }
    SimSetup setup;
    setup.vp_run = vp_run;
    setup.stat_path = "mesh.cycles";
    setup.parallel = parallel_limit(spec.sim.threads);
    const auto res = simulate_candidates(spec, setup, jobs);
    std::map<std::size_t, std::vector<double>> sim;  // layer index -> simulated cycles per candidate
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (!res[j].ok)
            throw SimulationError("refinement of layer \"" + map.layers[job_of[j].first].name + "\", candidate " +
                                  std::to_string(job_of[j].second) + ": " + res[j].error);
        sim[job_of[j].first].push_back(res[j].value);
    }
    r.per_layer.assign(map.layers.size(), json());
    std::map<std::size_t, wv::LayerMapping> picked;  // owner layer -> refined mapping
    wv::MapperOptions opt = mesh_mapper_options(spec);
    for (auto& [i, s] : sim) {
        const wv::LayerMapping& l = map.layers[i];
        int pick = 0;
        json cands = json::array();
        for (int j = 0; j < k; ++j) {
            const wv::RankedChoice& c = l.ranked[std::size_t(j)];
            if (s[std::size_t(j)] < s[std::size_t(pick)]) pick = j;  // ties keep the better estimate
            cands.push_back({{"T_of", c.choice.t_of},
                             {"T_ox", c.choice.t_ox},
                             {"k", c.choice.k},
                             {"estimated_cycles", c.est_cycles},
                             {"simulated_cycles", s[std::size_t(j)]}});
            r.cand_est.push_back(c.est_cycles);
            r.cand_sim.push_back(s[std::size_t(j)]);
        }
        r.per_layer[i] = {{"candidates", cands}, {"pick", pick}};
        // The pick mapped exactly as its child simulation mapped it.
        wv::MapperOptions o = opt;
        o.fixed = l.ranked[std::size_t(pick)].choice;
        o.keep_candidates = 1;
        wv::LayerMapping m = wv::map_layer(layers[i], spec.core, spec.mesh, spec.energy, o);
        m.ranked = l.ranked;
        picked.emplace(i, std::move(m));
    }
    // Every layer of a shape takes its shape's pick.
    for (std::size_t i = 0; i < map.layers.size(); ++i) {
        const auto it = picked.find(owner[i]);
        if (it == picked.end()) continue;
        const std::string name = map.layers[i].name;
        map.layers[i] = it->second;
        map.layers[i].name = name;
        map.layers[i].shape.name = name;
        r.per_layer[i] = r.per_layer[owner[i]];
        if (owner[i] != i) r.per_layer[i]["shared_with"] = map.layers[owner[i]].name;
    }
    return r;
}

}  // namespace vp::refine
