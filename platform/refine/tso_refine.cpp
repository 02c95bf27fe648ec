#include "platform/refine/tso_refine.h"

#include <map>

#include "mapper/common/errors.h"
#include "mapper/tso/tle_slicing.h"
#include "platform/refine/candidate_sim.h"
#include "platform/refine/child_runner.h"

namespace vp::refine {

using mapper::tso::ChoiceCost;
using nlohmann::json;

std::vector<std::string> tso_choice_sets(const ChoiceCost& c) {
    const auto& t = c.tile;
    return {std::string("tso.fixed_slicing=") + to_string(c.slicing),
            std::string("tso.fixed_schedule=") + to_string(c.schedule),
            "tso.fixed_tile=" + std::to_string(t.t_m) + "," + std::to_string(t.t_n) + "," + std::to_string(t.t_r) +
                "," + std::to_string(t.t_c)};
}

TsoRefinement refine_tso(mapper::tso::TsoResult& map, const workload::Workload& wl, const config::PlatformSpec& spec,
                         const std::string& vp_run) {
    TsoRefinement r;
    r.k = spec.mapper.refine;
    const int k = r.k;
    if (k < 1) throw InputError("mapper.refine: expected a number of candidates >= 1");
    // One job per candidate of every distinct shape (the first layer of each shape).
    std::vector<CandidateJob> jobs;
    std::vector<std::pair<std::size_t, int>> job_of;  // (conv index, candidate)
    std::map<std::string, std::size_t> first;        // layer name -> conv index
    for (std::size_t i = 0; i < map.convs.size(); ++i) {
        const auto& c = map.convs[i];
        first.emplace(c.layer_name, i);
        if (!c.shared_with.empty()) continue;
        if (int(c.ranked.size()) < k)
            throw InputError("mapper.refine = " + std::to_string(k) + ": layer \"" + c.layer_name + "\" has only " +
                             std::to_string(c.ranked.size()) + " candidate(s)");
        const json layer_wl = single_layer_workload(wl.doc, std::size_t(c.layer_index));
        for (int j = 0; j < k; ++j) {
            jobs.push_back({layer_wl, tso_choice_sets(c.ranked[std::size_t(j)])});
            job_of.emplace_back(i, j);
        }
    }
    SimSetup setup;
    setup.vp_run = vp_run;
    setup.stat_path = "nmp.cycles";
    setup.parallel = parallel_limit(spec.sim.threads);
    const auto res = simulate_candidates(spec, setup, jobs);
    std::map<std::size_t, std::vector<double>> sim;  // conv index -> simulated cycles per candidate
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (!res[j].ok)
            throw SimulationError("refinement of layer \"" + map.convs[job_of[j].first].layer_name + "\", candidate " +
                                  std::to_string(job_of[j].second) + ": " + res[j].error);
        sim[job_of[j].first].push_back(res[j].value);
    }
    r.per_conv.assign(map.convs.size(), json());
    r.pick_est.assign(map.convs.size(), 0);
    r.pick_sim.assign(map.convs.size(), 0);
    std::map<std::size_t, int> pick_of;
    for (auto& [i, s] : sim) {
        auto& c = map.convs[i];
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
        pick_of[i] = pick;
        r.per_conv[i] = {{"candidates", cands}, {"pick", pick}};
    }
    // Every layer of a shape takes its shape's pick.
    for (std::size_t i = 0; i < map.convs.size(); ++i) {
        auto& c = map.convs[i];
        const std::size_t u = c.shared_with.empty() ? i : first.at(c.shared_with);
        const int pick = pick_of.at(u);
        r.per_conv[i] = r.per_conv[u];
        if (!c.shared_with.empty()) r.per_conv[i]["shared_with"] = c.shared_with;
        r.pick_est[i] = c.ranked[std::size_t(pick)].times.total_cycles;
        r.pick_sim[i] = sim.at(u)[std::size_t(pick)];
        c.best = c.ranked[std::size_t(pick)];
        c.tle = mapper::tso::tle_slicing(c.best.slicing, c.conv.P, c.conv.M, map.hw.n_tle);
        c.tlt.clear();
        for (const auto& s : c.tle) c.tlt.push_back(mapper::tso::tlt_filter_split(s.filters, map.hw.n_tlt));
    }
    return r;
}

}  // namespace vp::refine
