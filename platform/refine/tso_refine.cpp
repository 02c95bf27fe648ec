#include "platform/refine/tso_refine.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "mapper/common/errors.h"
#include "mapper/tso/tile_walker.h"
#include "mapper/tso/tle_slicing.h"
#include "platform/refine/candidate_sim.h"
#include "platform/refine/child_runner.h"
#include "platform/refine/mesh_refine.h"

namespace vp::refine {

using mapper::tso::ChoiceCost;
using mapper::tso::same_choice;
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
    c.tle = mapper::tso::tle_slicing(c.best.slicing, c.conv.P, c.conv.M, c.conv.N, n_tle);
    c.tlt.clear();
    for (const auto& sl : c.tle) c.tlt.push_back(mapper::tso::tlt_filter_split(sl.filters, n_tlt));
}

// A fingerprint of the operation sequence a choice makes every TLE run (FNV-1a over every
// field of every TileOp of walk_tle, the generator the NMP model replays): two choices with the
// same sequence are the same simulation (e.g. IS and OS when all of a TLT's filters fit one
// chunk), so a layer's candidates that share it are simulated once.
std::uint64_t op_fingerprint(const mapper::tso::ConvShape& conv, const mapper::tso::NmpParams& hw, const ChoiceCost& c) {
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&h](std::uint64_t v) {
        for (int b = 0; b < 8; ++b, v >>= 8) h = (h ^ (v & 0xff)) * 1099511628211ULL;
    };
    const auto slices = mapper::tso::tle_slicing(c.slicing, conv.P, conv.M, conv.N, hw.n_tle);
    for (std::size_t t = 0; t < slices.size(); ++t) {
        mix(0xfeedULL + t);
        const auto tlts = mapper::tso::tlt_filter_split(slices[t].filters, hw.n_tlt);
        mapper::tso::walk_tle(conv, int(t), slices[t], tlts, c.schedule, c.tile, hw.macs_per_cycle,
                              [&](const mapper::tso::TileOp& op) {
                                  for (long long v : {(long long)op.kind, (long long)op.tlt, (long long)op.group,
                                                      (long long)op.c0, (long long)op.cn, (long long)op.h0,
                                                      (long long)op.hn, (long long)op.w0, (long long)op.wn,
                                                      (long long)op.m0, (long long)op.mn, (long long)op.r0,
                                                      (long long)op.rn, (long long)op.q0, (long long)op.qn,
                                                      (long long)op.mac_cycles})
                                      mix(std::uint64_t(v));
                              });
    }
    return h;
}

// The context of a layer in the network is more than its predecessor (the refresh phase of
// the DRAM depends on the time of every earlier layer), so the per-layer picks are checked in
// the whole network: the unrefined mapping is simulated once, the refined one per round, both
// with every layer's cycles. A layer whose refined choice differs from the unrefined one and is
// slower in the network is reverted to the unrefined choice, and the network is simulated
// again, until no changed layer is slower (a fixed point: every round reverts at least one
// layer, so it ends; fully reverted is the unrefined mapping) or kNetworkRounds refined
// simulations were spent. The refined mapping is kept only when the whole network is not
// slower. Layers that keep the unrefined choice can still differ in the network (their start
// time, hence the refresh phase, moved): reported, not reverted (nothing to revert).
constexpr int kNetworkRounds = 6;  // refined whole-network simulations at most (bound of the fixed point)

void network_check(TsoRefinement& r, mapper::tso::TsoResult& map, const workload::Workload& wl,
                   const config::PlatformSpec& spec, SimSetup setup) {
    // The layers renamed l<j> (j = index in the document), batch kept: conv i of the mapping
    // (an index into the expanded network) is network_child_layer_name(i, document layers).
    const json doc = network_child_workload(wl.doc);
    const std::size_t n_doc = wl.doc.at("layers").size();
    const std::size_t n = map.convs.size();
    auto child_name = [&](const mapper::tso::ConvMapping& c) {
        return network_child_layer_name(std::size_t(c.layer_index), n_doc);
    };
    auto fixed = [&](bool refined) {
        std::string f;
        for (const auto& c : map.convs)
            f += (f.empty() ? "" : ";") + child_name(c) + "=" + choice_text(refined ? c.best : c.ranked[0]);
        return "tso.fixed_layers=" + f;
    };
    setup.stat_path = "nmp.cycles";
    setup.extra_stats.clear();
    for (const auto& c : map.convs) setup.extra_stats.push_back("nmp.layer[" + child_name(c) + "].cycles");
    auto run = [&](std::vector<CandidateJob> jobs) {
        const auto res = simulate_candidates(spec, setup, jobs);
        for (const auto& x : res)
            if (!x.ok) throw SimulationError("refinement: simulation of the whole network: " + x.error);
        return res;
    };
    std::vector<bool> reverted(n, false);
    std::vector<CandidateResult> res = run({{doc, {fixed(true)}}, {doc, {fixed(false)}}});
    const CandidateResult unref = res[1];
    CandidateResult ref = res[0];
    json rounds = json::array();
    int sims = 1;
    for (;;) {
        std::vector<std::size_t> slower;
        for (std::size_t i = 0; i < n; ++i)
            if (!same_choice(map.convs[i].best, map.convs[i].ranked[0]) && ref.extras[i] > unref.extras[i]) slower.push_back(i);
        json names = json::array();
        for (std::size_t i : slower) names.push_back(map.convs[i].layer_name);
        rounds.push_back({{"refined_cycles", ref.value}, {"changed_layers_slower", names}});
        if (slower.empty() || sims >= kNetworkRounds) break;
        for (std::size_t i : slower) {
            set_choice(map.convs[i], map.convs[i].ranked[0], map.hw.n_tle, map.hw.n_tlt);
            reverted[i] = true;
        }
        ref = run({{doc, {fixed(true)}}})[0];
        ++sims;
    }
    const bool keep = ref.value <= unref.value;
    int changed = 0, changed_slower = 0, same_slower = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const bool ch = !same_choice(map.convs[i].best, map.convs[i].ranked[0]);
        changed += ch;
        if (ref.extras[i] > unref.extras[i]) (ch ? changed_slower : same_slower) += 1;
    }
    r.network = {{"refined_cycles", ref.value},
                 {"unrefined_cycles", unref.value},
                 {"kept", keep ? "refined" : "unrefined"},
                 {"refined_simulations", sims},
                 {"rounds", rounds},
                 {"changed_layers", changed},
                 {"changed_layers_slower", changed_slower},
                 {"unchanged_layers_slower", same_slower},
                 {"fixed_point", changed_slower == 0}};
    for (std::size_t i = 0; i < n; ++i) {
        const bool use_pick = keep && !reverted[i];
        r.per_conv[i]["used"] = use_pick ? r.per_conv[i]["pick"] : json(0);
        if (reverted[i]) r.per_conv[i]["reverted"] = true;
        r.per_conv[i]["network_cycles"] = {{"refined", ref.extras[i]}, {"unrefined", unref.extras[i]}};
        if (!use_pick) {
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
    r.per_conv.assign(map.convs.size(), json());
    r.pick_est.assign(map.convs.size(), 0);
    r.pick_sim.assign(map.convs.size(), 0);
    if (map.convs.empty()) return r;  // nothing mapped, nothing to refine (network stays null)
    // A layer with fewer than K candidates has all of them simulated; a K that no layer has
    // (a typo such as 40 for 4) is refused, naming the largest count.
    const auto most = std::max_element(map.convs.begin(), map.convs.end(), [](const auto& a, const auto& b) {
        return a.ranked.size() < b.ranked.size();
    });
    if (std::size_t(k) > most->ranked.size())
        throw InputError(wl.path + ": mapper.refine = " + std::to_string(k) + ": beyond every layer's candidate count (the most: " +
                         std::to_string(most->ranked.size()) + ", layer \"" + most->layer_name + "\")");
    SimSetup setup;
    setup.vp_run = vp_run;
    setup.stat_path = "nmp.layer[cand].cycles";  // the candidate layer only, not its predecessor
    setup.parallel = parallel_limit(spec.sim.threads);
    // Layer i of the mapping is an index into the network with its batch copies expanded; the
    // document lists one sample (mapper::expand_batch repeats it).
    const std::size_t n_doc = wl.doc.at("layers").size();
    // A layer's simulated time depends on the DRAM state its predecessor leaves, so every
    // candidate runs after the previous conv/fc layer mapped with that layer's (refined) pick,
    // in network order. Equal (predecessor shape and pick, layer shape) contexts are the same
    // simulation: simulated once.
    std::map<std::string, std::vector<double>> memo;
    std::map<std::string, std::string> memo_layer;  // context -> first layer simulated in it
    std::string prev_key;
    for (std::size_t i = 0; i < map.convs.size(); ++i) {
        auto& c = map.convs[i];
        const json& layer = wl.doc.at("layers").at(std::size_t(c.layer_index) % n_doc);
        // K best, or every candidate of a layer that has fewer (a 1x1 fc may have one)
        const int kc = std::min(k, int(c.ranked.size()));
        const std::string shape = wl.network.layers.at(std::size_t(c.layer_index)).shape_key();
        const mapper::tso::ConvMapping* prev = i > 0 ? &map.convs[i - 1] : nullptr;
        const std::string key = (prev ? prev_key + "=" + choice_text(prev->best) + " > " : "") + shape;
        auto it = memo.find(key);
        if (it == memo.end()) {
            json doc = wl.doc;
            doc["name"] = wl.doc.value("name", std::string("workload")) + "/" + c.layer_name;
            doc["layers"] = json::array();
            doc.erase("batch");  // the pair once: the candidate after its predecessor
            if (prev)
                doc["layers"].push_back(child_layer(wl.doc.at("layers").at(std::size_t(prev->layer_index) % n_doc), "pred"));
            doc["layers"].push_back(child_layer(layer, "cand"));
            std::vector<CandidateJob> jobs;
            std::vector<std::size_t> job_of(static_cast<std::size_t>(kc));  // candidate -> job (same operations: same job)
            std::vector<std::uint64_t> prints;
            for (int j = 0; j < kc; ++j) {
                const std::uint64_t fp = op_fingerprint(c.conv, map.hw, c.ranked[std::size_t(j)]);
                const auto same = std::find(prints.begin(), prints.end(), fp);
                if (same != prints.end()) {
                    job_of[std::size_t(j)] = std::size_t(same - prints.begin());
                    continue;
                }
                job_of[std::size_t(j)] = jobs.size();
                prints.push_back(fp);
                std::string fixed = "cand=" + choice_text(c.ranked[std::size_t(j)]);
                if (prev) fixed = "pred=" + choice_text(prev->best) + ";" + fixed;
                jobs.push_back({doc, {"tso.fixed_layers=" + fixed}});
            }
            const auto res = simulate_candidates(spec, setup, jobs);
            std::vector<double> sim;
            for (int j = 0; j < kc; ++j) {
                const CandidateResult& x = res[job_of[std::size_t(j)]];
                if (!x.ok)
                    throw SimulationError("refinement of layer \"" + c.layer_name + "\", candidate " + std::to_string(j) +
                                          ": " + x.error);
                sim.push_back(x.value);
            }
            it = memo.emplace(key, sim).first;
            memo_layer.emplace(key, c.layer_name);
        }
        const std::vector<double>& s = it->second;
        int pick = 0;
        json cands = json::array();
        for (int j = 0; j < kc; ++j) {
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
