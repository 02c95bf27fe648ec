#include "platform/refine/tso_refine.h"

#include <map>

#include "mapper/common/errors.h"
#include "mapper/tso/tle_slicing.h"
#include "platform/refine/candidate_sim.h"
#include "platform/refine/child_runner.h"

namespace vp::refine {

using mapper::tso::ChoiceCost;
using nlohmann::json;

namespace {

std::string tile_text(const mapper::tso::Tile& t) {
    return std::to_string(t.t_m) + "," + std::to_string(t.t_n) + "," + std::to_string(t.t_r) + "," +
           std::to_string(t.t_c);
}

std::string choice_text(const ChoiceCost& c) {
    return std::string(to_string(c.slicing)) + "/" + to_string(c.schedule) + "/" + tile_text(c.tile);
}

// The layer as a child workload layer named `name` (producers dropped: the child has no graph).
json child_layer(const json& layer, const char* name) {
    json l = layer;
    l["name"] = name;
    l.erase("inputs");
    return l;
}

void set_choice(mapper::tso::ConvMapping& c, const ChoiceCost& choice, int n_tle, int n_tlt) {
    c.best = choice;
    c.tle = mapper::tso::tle_slicing(c.best.slicing, c.conv.P, c.conv.M, n_tle);
    c.tlt.clear();
    for (const auto& sl : c.tle) c.tlt.push_back(mapper::tso::tlt_filter_split(sl.filters, n_tlt));
}

// The context of a layer in the network is more than its predecessor (the refresh phase of
// the DRAM depends on the time of every earlier layer), so the refined mapping is simulated in
// full next to the unrefined one and kept only when it is not slower.
void network_check(TsoRefinement& r, mapper::tso::TsoResult& map, const workload::Workload& wl,
                   const config::PlatformSpec& spec, SimSetup setup) {
    json doc = wl.doc;
    auto& layers = doc.at("layers");
    for (std::size_t i = 0; i < layers.size(); ++i) layers[i] = child_layer(layers[i], ("l" + std::to_string(i)).c_str());
    std::string refined, unrefined;
    for (const auto& c : map.convs) {
        const std::string n = (refined.empty() ? "l" : ";l") + std::to_string(c.layer_index) + "=";
        refined += n + choice_text(c.best);
        unrefined += n + choice_text(c.ranked[0]);
    }
    setup.stat_path = "nmp.cycles";
    const auto res = simulate_candidates(spec, setup, {{doc, {"tso.fixed_layers=" + refined}},
                                                       {doc, {"tso.fixed_layers=" + unrefined}}});
    for (const auto& x : res)
        if (!x.ok) throw SimulationError("refinement: simulation of the whole network: " + x.error);
    const bool keep = res[0].value <= res[1].value;
    r.network = {{"refined_cycles", res[0].value},
                 {"unrefined_cycles", res[1].value},
                 {"kept", keep ? "refined" : "unrefined"}};
    for (std::size_t i = 0; i < map.convs.size(); ++i) {
        r.per_conv[i]["used"] = keep ? r.per_conv[i]["pick"] : json(0);
        if (!keep) {
            set_choice(map.convs[i], map.convs[i].ranked[0], map.hw.n_tle, map.hw.n_tlt);
            r.pick_est[i] = map.convs[i].ranked[0].times.total_cycles;
            r.pick_sim[i] = r.per_conv[i]["candidates"][0]["simulated_cycles"].get<double>();
        }
    }
}

}  // namespace

std::vector<std::string> tso_choice_sets(const ChoiceCost& c) {
    return {std::string("tso.fixed_slicing=") + to_string(c.slicing),
            std::string("tso.fixed_schedule=") + to_string(c.schedule), "tso.fixed_tile=" + tile_text(c.tile)};
}

TsoRefinement refine_tso(mapper::tso::TsoResult& map, const workload::Workload& wl, const config::PlatformSpec& spec,
                         const std::string& vp_run) {
    TsoRefinement r;
    r.k = spec.mapper.refine;
    const int k = r.k;
    if (k < 1) throw InputError("mapper.refine: expected a number of candidates >= 1");
    for (const auto& c : map.convs)
        if (int(c.ranked.size()) < k)
            throw InputError("mapper.refine = " + std::to_string(k) + ": layer \"" + c.layer_name + "\" has only " +
                             std::to_string(c.ranked.size()) + " candidate(s)");
    SimSetup setup;
    setup.vp_run = vp_run;
    setup.stat_path = "nmp.layer[cand].cycles";  // the candidate layer only, not its predecessor
    setup.parallel = parallel_limit(spec.sim.threads);
    r.per_conv.assign(map.convs.size(), json());
    r.pick_est.assign(map.convs.size(), 0);
    r.pick_sim.assign(map.convs.size(), 0);
    // A layer's simulated time depends on the DRAM state its predecessor leaves, so every
    // candidate runs after the previous conv/fc layer mapped with that layer's (refined) pick,
    // in network order. Equal (predecessor shape and pick, layer shape) contexts are the same
    // simulation: simulated once.
    std::map<std::string, std::vector<double>> memo;
    std::map<std::string, std::string> memo_layer;  // context -> first layer simulated in it
    std::string prev_key;
    for (std::size_t i = 0; i < map.convs.size(); ++i) {
        auto& c = map.convs[i];
        const json& layer = wl.doc.at("layers").at(std::size_t(c.layer_index));
        const std::string shape = wl.network.layers.at(std::size_t(c.layer_index)).shape_key();
        const mapper::tso::ConvMapping* prev = i > 0 ? &map.convs[i - 1] : nullptr;
        const std::string key = (prev ? prev_key + "=" + choice_text(prev->best) + " > " : "") + shape;
        auto it = memo.find(key);
        if (it == memo.end()) {
            json doc = wl.doc;
            doc["name"] = wl.doc.value("name", std::string("workload")) + "/" + c.layer_name;
            doc["layers"] = json::array();
            if (prev) doc["layers"].push_back(child_layer(wl.doc.at("layers").at(std::size_t(prev->layer_index)), "pred"));
            doc["layers"].push_back(child_layer(layer, "cand"));
            std::vector<CandidateJob> jobs;
            for (int j = 0; j < k; ++j) {
                std::string fixed = "cand=" + choice_text(c.ranked[std::size_t(j)]);
                if (prev) fixed = "pred=" + choice_text(prev->best) + ";" + fixed;
                jobs.push_back({doc, {"tso.fixed_layers=" + fixed}});
            }
            const auto res = simulate_candidates(spec, setup, jobs);
            std::vector<double> sim;
            for (int j = 0; j < k; ++j) {
                if (!res[std::size_t(j)].ok)
                    throw SimulationError("refinement of layer \"" + c.layer_name + "\", candidate " + std::to_string(j) +
                                          ": " + res[std::size_t(j)].error);
                sim.push_back(res[std::size_t(j)].value);
            }
            it = memo.emplace(key, sim).first;
            memo_layer.emplace(key, c.layer_name);
        }
        const std::vector<double>& s = it->second;
        int pick = 0;
        json cands = json::array();
        for (int j = 0; j < k; ++j) {
            const ChoiceCost& cc = c.ranked[std::size_t(j)];
            if (s[std::size_t(j)] < s[std::size_t(pick)]) pick = j;  // ties keep the better estimate
            cands.push_back({{"slicing", to_string(cc.slicing)},
                             {"schedule", to_string(cc.schedule)},
                             {"tile", {cc.tile.t_m, cc.tile.t_n, cc.tile.t_r, cc.tile.t_c}},
                             {"estimated_cycles", cc.times.total_cycles},
                             {"simulated_cycles", s[std::size_t(j)]}});
            r.cand_est.push_back(cc.times.total_cycles);
            r.cand_sim.push_back(s[std::size_t(j)]);
        }
        r.per_conv[i] = {{"candidates", cands},
                         {"pick", pick},
                         {"after", prev ? json(prev->layer_name) : json(nullptr)}};
        if (memo_layer.at(key) != c.layer_name) r.per_conv[i]["same_simulation_as"] = memo_layer.at(key);
        r.pick_est[i] = c.ranked[std::size_t(pick)].times.total_cycles;
        r.pick_sim[i] = s[std::size_t(pick)];
        set_choice(c, c.ranked[std::size_t(pick)], map.hw.n_tle, map.hw.n_tlt);
        prev_key = shape;
    }
    network_check(r, map, wl, spec, setup);
    return r;
}

}  // namespace vp::refine
