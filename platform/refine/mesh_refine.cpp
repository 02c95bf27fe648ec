#include "platform/refine/mesh_refine.h"

#include <algorithm>
#include <map>

#include "mapper/common/errors.h"
#include "mapper/waving/waving_mapper.h"
#include "platform/refine/candidate_sim.h"
#include "platform/refine/child_runner.h"

namespace vp::refine {

namespace wv = mapper::waving;
using nlohmann::json;

namespace {

bool same_choice(const wv::LayerMapping& a, const wv::LayerMapping& b) {
    return a.t_of == b.t_of && a.t_ox == b.t_ox && a.k == b.k;
}

std::string choice_text(const wv::LayerMapping& l) {
    return std::to_string(l.t_of) + "," + std::to_string(l.t_ox) + "," + std::to_string(l.k);
}

// The whole-network check (the NMP's, tso_refine.cpp): the unrefined mapping is simulated once,
// the refined one per round, both with every layer's cycles; changed layers slower in the
// network go back to their unrefined choice and the network is simulated again, until no
// changed layer is slower (every round reverts at least one layer, so it ends; fully reverted
// is the unrefined mapping) or kMeshNetworkRounds refined simulations were spent. The refined
// mapping is kept only when the whole network is not slower. Layers that kept their choice can
// still differ (their neighbours changed the DRAM state and the refresh phase): reported.
void network_check(MeshRefinement& r, wv::NetworkMapping& map, const std::vector<wv::LayerMapping>& unref,
                   const workload::Workload& wl, const config::PlatformSpec& spec, SimSetup setup) {
    const json doc = network_child_workload(wl.doc);
    const std::size_t n_doc = wl.doc.at("layers").size();
    std::vector<std::size_t> mapped;
    for (std::size_t i = 0; i < map.layers.size(); ++i)
        if (map.layers[i].mapped) mapped.push_back(i);
    auto fixed = [&](bool refined) {
        std::string f;
        for (std::size_t i : mapped)
            f += (f.empty() ? "" : ";") + network_child_layer_name(i, n_doc) + "=" +
                 choice_text(refined ? map.layers[i] : unref[i]);
        return "mapper.fixed_layers=" + f;
    };
    setup.stat_path = "mesh.cycles";
    setup.extra_stats.clear();
    for (std::size_t i : mapped) setup.extra_stats.push_back("mesh.layer[" + network_child_layer_name(i, n_doc) + "].cycles");
    auto run = [&](const std::vector<CandidateJob>& jobs) {
        const auto res = simulate_candidates(spec, setup, jobs);
        for (const auto& x : res)
            if (!x.ok) throw SimulationError("refinement: simulation of the whole network: " + x.error);
        return res;
    };
    auto changed = [&](std::size_t m) { return !same_choice(map.layers[mapped[m]], unref[mapped[m]]); };
    std::vector<bool> reverted(map.layers.size(), false);
    const std::vector<CandidateResult> first = run({{doc, {fixed(true)}}, {doc, {fixed(false)}}});
    const CandidateResult unref_res = first[1];
    CandidateResult ref = first[0];
    json rounds = json::array();
    int sims = 1;
    for (;;) {
        std::vector<std::size_t> slower;
        for (std::size_t m = 0; m < mapped.size(); ++m)
            if (changed(m) && ref.extras[m] > unref_res.extras[m]) slower.push_back(m);
        json names = json::array();
        for (std::size_t m : slower) names.push_back(map.layers[mapped[m]].name);
        rounds.push_back({{"refined_cycles", ref.value}, {"changed_layers_slower", names}});
        if (slower.empty() || sims >= kMeshNetworkRounds) break;
        for (std::size_t m : slower) {
            const std::size_t i = mapped[m];
            map.layers[i] = unref[i];
            reverted[i] = true;
        }
        ref = run({{doc, {fixed(true)}}})[0];
        ++sims;
    }
    const bool keep = ref.value <= unref_res.value;
    int n_changed = 0, changed_slower = 0, same_slower = 0;
    for (std::size_t m = 0; m < mapped.size(); ++m) {
        const bool ch = changed(m);
        n_changed += ch;
        if (ref.extras[m] > unref_res.extras[m]) (ch ? changed_slower : same_slower) += 1;
    }
    r.network = {{"refined_cycles", ref.value},
                 {"unrefined_cycles", unref_res.value},
                 {"kept", keep ? "refined" : "unrefined"},
                 {"refined_simulations", sims},
                 {"rounds", rounds},
                 {"changed_layers", n_changed},
                 {"changed_layers_slower", changed_slower},
                 {"unchanged_layers_slower", same_slower},
                 {"fixed_point", changed_slower == 0}};
    for (std::size_t m = 0; m < mapped.size(); ++m) {
        const std::size_t i = mapped[m];
        if (r.per_layer[i].is_null()) continue;
        const bool use_pick = keep && !reverted[i];
        r.per_layer[i]["used"] = use_pick ? r.per_layer[i]["pick"] : json(0);
        if (reverted[i]) r.per_layer[i]["reverted"] = true;
        r.per_layer[i]["network_cycles"] = {{"refined", ref.extras[m]}, {"unrefined", unref_res.extras[m]}};
        if (!keep) map.layers[i] = unref[i];
    }
}

}  // namespace

json network_child_workload(const json& doc) {
    json d = doc;
    auto& layers = d.at("layers");
    for (std::size_t j = 0; j < layers.size(); ++j) {
        layers[j]["name"] = "l" + std::to_string(j);
        layers[j].erase("inputs");
    }
    return d;
}

std::string network_child_layer_name(std::size_t layer, std::size_t doc_layers) {
    const std::size_t b = layer / doc_layers;
    return "l" + std::to_string(layer % doc_layers) + (b ? "@b" + std::to_string(b) : "");
}

wv::MapperOptions mesh_mapper_options(const config::PlatformSpec& spec) {
    wv::MapperOptions opt;
    opt.objective = spec.mapper.objective;
    opt.mode = spec.mapper.mode;
    opt.threads = int(spec.sim.threads);
    opt.model = wv::make_mesh_model(spec.mapper.mesh_model, spec.mapper.coefficients);
    opt.keep_candidates = std::max(1, spec.mapper.refine);
    opt.fixed = spec.mapper.fixed();
    opt.fixed_layers = spec.mapper.fixed_by_layer();
    opt.near_tie = spec.mapper.near_tie;
    opt.placement = spec.mapper.placement;
    // place_blocks' fluid model follows XY routes and round robin per router input; with another
    // routing or arbitration the waving order stays.
    if (spec.noc.routing != "xy" || spec.noc.arbitration != "round_robin") opt.placement = wv::Placement::Waving;
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
    r.per_layer.assign(map.layers.size(), json());
    if (std::none_of(map.layers.begin(), map.layers.end(), [](const wv::LayerMapping& l) { return l.mapped; }))
        return r;  // nothing mapped, nothing to refine (network stays null)
    // A shape with fewer than K candidates has all of them simulated; a K that no layer has
    // (a typo such as 40 for 4) is refused, naming the largest count.
    {
        const wv::LayerMapping* most = nullptr;
        for (const auto& l : map.layers)
            if (l.mapped && (!most || l.ranked.size() > most->ranked.size())) most = &l;
        if (std::size_t(k) > most->ranked.size())
            throw InputError(wl.path + ": mapper.refine = " + std::to_string(k) + ": beyond every layer's (T, k) candidate count (the most: " +
                             std::to_string(most->ranked.size()) + ", layer \"" + most->name + "\")");
    }
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
        const json layer_wl = single_layer_workload(wl.doc, i % n_doc);
        // K best, or every candidate of a shape that has fewer (a 1x1 fc may have one)
        for (int j = 0; j < std::min(k, int(l.ranked.size())); ++j) {
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
    const std::vector<wv::LayerMapping> unrefined = map.layers;
    std::map<std::size_t, wv::LayerMapping> picked;  // owner layer -> refined mapping
    wv::MapperOptions opt = mesh_mapper_options(spec);
    for (auto& [i, s] : sim) {
        const wv::LayerMapping& l = map.layers[i];
        int pick = 0;
        json cands = json::array();
        for (int j = 0; j < int(s.size()); ++j) {
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
    network_check(r, map, unrefined, wl, spec, setup);
    return r;
}

}  // namespace vp::refine
