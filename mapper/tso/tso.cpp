#include "mapper/tso/tso.h"

#include <algorithm>
#include <exception>
#include <map>

#include "mapper/common/errors.h"
#include "mapper/tso/tle_slicing.h"

namespace vp::mapper::tso {

namespace {

using Search = void (*)(const ConvCostModel&, TltSchedule, const TimeModel&, const NmpParams&, TopChoices&);

// Lines 7-18 of Algorithm 19, keeping the `keep` best choices by the model's screen.
std::vector<ChoiceCost> search(const ConvShape& conv, const NmpParams& hw, const TimeModel& model, int keep,
                               bool ifm_ch, const std::optional<TleSlicing>& fp, const std::optional<TltSchedule>& fq,
                               Search fn, double (*cand)[3], std::vector<ChoiceCost>* pair_best = nullptr) {
    TopChoices all(keep);
    for (TleSlicing p : kAllSlicingsExt) {
        // IFM_CH only when asked for (tso.ifm_channel_slicing) or fixed.
        if (p == TleSlicing::IFM_CH && !ifm_ch && !(fp && *fp == p)) continue;
        if (fp && *fp != p) continue;
        const ConvCostModel cm(conv, hw, p);  // TLESlicing (Algorithm 13)
        for (TltSchedule q : kAllSchedules) {
            if (fq && *fq != q) continue;
            TopChoices top(keep, &all);
            fn(cm, q, model, hw, top);  // TLTTiling (Algorithm 14)
            if (top.list().empty()) continue;
            if (cand) cand[int(p)][int(q)] = top.list().front().times.total_s;
            if (pair_best) pair_best->push_back(top.list().front());
            for (const auto& c : top.list()) all.consider(c);
        }
    }
    return all.list();
}

// The errors of map_with() when no choice fits, shared with check_mappable().
InputError fixed_tile_error(const ConvShape& conv, const TsoOptions& opt) {
    const Tile& t = *opt.fixed_tile;
    return InputError("layer \"" + conv.name + "\": tso.fixed_tile " + std::to_string(t.t_m) + "," +
                      std::to_string(t.t_n) + "," + std::to_string(t.t_r) + "," + std::to_string(t.t_c) +
                      " (T_M,T_N,T_R,T_C) does not fit the layer or the TLT memories under " +
                      to_string(*opt.fixed_slicing) + "/" + to_string(*opt.fixed_schedule));
}

InputError no_tile_error(const ConvShape& conv, const NmpParams& hw) {
    const int in_h = std::min(conv.window_h(), conv.H), in_w = std::min(conv.window_w(), conv.W);
    const long long in_min = (long long)in_h * in_w * conv.elem_bytes;
    return InputError("layer \"" + conv.name + "\": no TLT tile fits the TLT memories (nmp.mb0_bytes=" +
                      std::to_string(hw.mb0_bytes) + ", nmp.mb1_bytes=" + std::to_string(hw.mb1_bytes) +
                      ", nmp.mb2_bytes=" + std::to_string(hw.mb2_bytes) + "); the smallest IN tile (1 channel of " +
                      std::to_string(in_h) + "x" + std::to_string(in_w) + ") needs " + std::to_string(in_min) +
                      " B and the smallest W tile as many" +
                      (hw.double_buffer ? std::string(" (nmp.double_buffer: half of MB0/MB1 per tile)") : std::string()));
}

// Whether map_with() finds a choice, without searching (check_mappable()): the searches of
// map_with() (the fixed slicing or schedule, then all of them) together try every schedule
// under every slicing they allow, and tlt_tiling() adds a choice for (slicing, schedule)
// exactly when the smallest tile, 1 filter x 1 channel x 1 x 1 OUT, passes Eq. 2 (ConvCostModel::fits;
// every bound of its loops grows with the tile). A fixed tile: that tile under its choice.
bool some_choice_fits(const ConvShape& conv, const NmpParams& hw, const TsoOptions& opt) {
    if (opt.fixed_tile) {
        static const std::shared_ptr<const TimeModel> screen_only = make_time_model("noburst", TsoCoefficients{});
        return evaluate_choice(conv, hw, *opt.fixed_slicing, *opt.fixed_schedule, *opt.fixed_tile, *screen_only).found;
    }
    Tile smallest;
    smallest.t_m = smallest.t_n = smallest.t_r = smallest.t_c = 1;
    for (TleSlicing p : kAllSlicingsExt) {
        const bool tried = p != TleSlicing::IFM_CH || opt.ifm_channel_slicing ||
                           (opt.fixed_slicing && *opt.fixed_slicing == TleSlicing::IFM_CH);
        if (!tried) continue;
        const ConvCostModel cm(conv, hw, p);
        for (TltSchedule q : kAllSchedules)
            if (cm.fits(q, smallest)) return true;
    }
    return false;
}

ConvMapping map_with(const ConvShape& conv, const NmpParams& hw, const TsoOptions& opt, Search fn) {
    ConvMapping r;
    r.conv = conv;
    r.layer_name = conv.name;
    if (opt.fixed_tile) {  // one given choice, no search
        const Tile& t = *opt.fixed_tile;
        r.best = evaluate_choice(conv, hw, *opt.fixed_slicing, *opt.fixed_schedule, t, *model_of(opt));
        if (!r.best.found) throw fixed_tile_error(conv, opt);
        r.candidates_s[int(r.best.slicing)][int(r.best.schedule)] = r.best.times.total_s;
        r.ranked = {r.best};
        r.tle = tle_slicing(r.best.slicing, conv.P, conv.M, conv.N, hw.n_tle);
        for (const auto& s : r.tle) r.tlt.push_back(tlt_filter_split(s.filters, hw.n_tlt));
        return r;
    }
    const auto model = model_of(opt);
    const int keep = std::max({1, opt.keep_candidates, model->shortlist()});
    std::vector<ChoiceCost> pair_best;
    r.ranked = search(conv, hw, *model, keep, opt.ifm_channel_slicing, opt.fixed_slicing, opt.fixed_schedule, fn,
                      r.candidates_s, &pair_best);
    if (r.ranked.empty() && (opt.fixed_slicing || opt.fixed_schedule)) {
        r.fallback = true;
        r.ranked = search(conv, hw, *model, keep, opt.ifm_channel_slicing, std::nullopt, std::nullopt, fn, nullptr);
    }
    if (r.ranked.empty()) throw no_tile_error(conv, hw);
    if (model->shortlist() > 0) {  // final estimate of the shortlist: the replay
        // The screen's shortlist can leave out a whole (slicing, schedule) pair whose best the
        // replay rates first: the closed form does not see what only the walk finds (the other
        // TLEs' bursts in the same bank groups, the lockstep). Each pair's best is replayed too.
        const std::size_t n_short = std::min(r.ranked.size(), std::size_t(model->shortlist()));
        std::vector<bool> in_pick(r.ranked.size(), false);
        std::fill(in_pick.begin(), in_pick.begin() + std::ptrdiff_t(n_short), true);
        if (opt.replay_pair_bests)
            for (const auto& b : pair_best) {
                const auto it = std::find_if(r.ranked.begin(), r.ranked.end(),
                                             [&](const ChoiceCost& c) { return same_choice(c, b); });
                if (it == r.ranked.end()) {
                    r.ranked.push_back(b);
                    in_pick.push_back(true);
                } else {
                    in_pick[std::size_t(it - r.ranked.begin())] = true;
                }
            }
        for (auto& c : r.ranked) c.times = model->replay(conv, hw, c);
        // The pick without refinement is the best replay of the screen's shortlist and the pairs'
        // bests, whatever the number of candidates kept; when more are kept (refinement with
        // K > shortlist) it stays first, so that it is always among the simulated candidates and
        // the refined pick can only be faster.
        std::size_t pick = 0;
        for (std::size_t i = 1; i < r.ranked.size(); ++i)
            if (in_pick[i] && r.ranked[i].times.total_s < r.ranked[pick].times.total_s) pick = i;
        std::rotate(r.ranked.begin(), r.ranked.begin() + std::ptrdiff_t(pick), r.ranked.begin() + std::ptrdiff_t(pick) + 1);
        std::stable_sort(r.ranked.begin() + 1, r.ranked.end(),
                         [](const ChoiceCost& a, const ChoiceCost& b) { return a.times.total_s < b.times.total_s; });
    }
    if (int(r.ranked.size()) > std::max(1, opt.keep_candidates)) r.ranked.resize(std::size_t(std::max(1, opt.keep_candidates)));
    r.best = r.ranked.front();
    r.tle = tle_slicing(r.best.slicing, conv.P, conv.M, conv.N, hw.n_tle);
    for (const auto& s : r.tle) r.tlt.push_back(tlt_filter_split(s.filters, hw.n_tlt));
    return r;
}

// The options and the distinct shapes of a network (run_tso(), check_mappable()).
struct ShapePlan {
    std::vector<int> layer_of_unique;  // the first layer of each distinct shape
    std::vector<int> unique_of_conv;   // per conv/fc layer in order, its distinct shape
    std::vector<int> fixed_of_unique;  // index into opt.fixed_layers, -1: searched
    std::vector<ConvShape> shapes;     // per distinct shape
};

ShapePlan plan_shapes(const Network& net, const NmpParams& hw, const TsoOptions& opt) {
    hw.validate("nmp");
    if (opt.threads < 1 || opt.threads > 1024) throw InputError("tso.threads: expected an integer in [1, 1024]");
    if (opt.fixed_tile && (!opt.fixed_slicing || !opt.fixed_schedule))
        throw InputError("tso.fixed_tile: needs tso.fixed_slicing and tso.fixed_schedule");
    // Layers mapped with a given choice (tso.fixed_layers), by name.
    std::map<std::string, std::size_t> fixed_of;
    for (std::size_t f = 0; f < opt.fixed_layers.size(); ++f) {
        const std::string& n = opt.fixed_layers[f].layer;
        const auto it = std::find_if(net.layers.begin(), net.layers.end(), [&](const Layer& l) { return l.name == n; });
        if (it == net.layers.end() || !is_tso_layer(*it))
            throw InputError("tso.fixed_layers: the workload has no conv or fc layer named \"" + n + "\"");
        if (!fixed_of.emplace(n, f).second)
            throw InputError("tso.fixed_layers: layer \"" + n + "\" given twice");
    }
    // Distinct shapes (with their fixed choice, if any) in order of first appearance.
    ShapePlan p;
    std::map<std::string, int> first_of_key;
    for (std::size_t i = 0; i < net.layers.size(); ++i) {
        const Layer& l = net.layers[i];
        if (!is_tso_layer(l)) continue;
        const auto fx = fixed_of.find(l.name);
        const int fixed = fx == fixed_of.end() ? -1 : int(fx->second);
        auto ins = first_of_key.emplace(l.shape_key() + (fixed < 0 ? "" : "#fixed" + std::to_string(fixed)),
                                        int(p.layer_of_unique.size()));
        if (ins.second) {
            p.layer_of_unique.push_back(int(i));
            p.fixed_of_unique.push_back(fixed);
        }
        p.unique_of_conv.push_back(ins.first->second);
    }
    // Shapes are checked before any task starts so that errors come in layer order.
    for (int li : p.layer_of_unique) p.shapes.push_back(make_conv_shape(net.layers[std::size_t(li)], net.bytes_per_elem()));
    return p;
}

// The options of distinct shape u: a layer of tso.fixed_layers has its choice.
TsoOptions options_of(const TsoOptions& opt, const ShapePlan& p, std::size_t u) {
    const int f = p.fixed_of_unique[u];
    if (f < 0) return opt;
    TsoOptions one = opt;
    const auto& c = opt.fixed_layers[std::size_t(f)];
    one.fixed_slicing = c.slicing;
    one.fixed_schedule = c.schedule;
    one.fixed_tile = c.tile;
    return one;
}

// "at /layers/<i>: <what>", i the first layer of distinct shape u (run_tso(), check_mappable()).
InputError at_layer(const ShapePlan& p, std::size_t u, const std::string& what) {
    return InputError("at /layers/" + std::to_string(p.layer_of_unique[u]) + ": " + what);
}

}  // namespace

std::shared_ptr<const TimeModel> model_of(const TsoOptions& opt) {
    if (opt.model) return opt.model;
    static const std::shared_ptr<const TimeModel> def = make_time_model("calibrated", TsoCoefficients{});
    return def;
}

double TsoResult::total_s() const {
    double t = 0;
    for (const auto& c : convs) t += c.best.times.total_s;
    return t;
}

std::uint64_t TsoResult::total_macs() const {
    std::uint64_t m = 0;
    for (const auto& c : convs) m += c.best.counts.macs;
    return m;
}

ConvMapping map_conv(const ConvShape& conv, const NmpParams& hw, const TsoOptions& opt) {
    return map_with(conv, hw, opt, &tlt_tiling);
}

ConvMapping map_conv_brute_force(const ConvShape& conv, const NmpParams& hw, const TsoOptions& opt) {
    return map_with(conv, hw, opt, &tlt_tiling_brute_force);
}

TsoResult run_tso(const Network& net, const NmpParams& hw, const TsoOptions& opt) {
    const ShapePlan plan = plan_shapes(net, hw, opt);
    const std::vector<int>& layer_of_unique = plan.layer_of_unique;
    const std::vector<int>& unique_of_conv = plan.unique_of_conv;
    const std::vector<ConvShape>& shapes = plan.shapes;
    TsoResult res;
    res.network = net.name;
    res.precision_bits = net.precision_bits;
    res.hw = hw;
    res.options = opt;
    for (std::size_t i = 0; i < net.layers.size(); ++i) {
        const Layer& l = net.layers[i];
        if (!is_tso_layer(l)) {
            res.skipped.push_back(l.name);
            continue;
        }
        ConvMapping cm;
        cm.layer_index = int(i);
        cm.layer_name = l.name;
        const int u = unique_of_conv[res.convs.size()];
        if (layer_of_unique[std::size_t(u)] != int(i)) cm.shared_with = net.layers[std::size_t(layer_of_unique[std::size_t(u)])].name;
        res.convs.push_back(std::move(cm));
    }

    const int n_unique = int(shapes.size());
    std::vector<ConvMapping> solved(static_cast<std::size_t>(n_unique));
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n_unique));
    // Algorithm 19, lines 2-5: thread pool, one creator, one task per conv.
#pragma omp parallel num_threads(opt.threads)
#pragma omp single
    for (int u = 0; u < n_unique; ++u) {
#pragma omp task firstprivate(u)
        {
            try {
                solved[std::size_t(u)] = map_conv(shapes[std::size_t(u)], hw, options_of(opt, plan, std::size_t(u)));
            } catch (...) {
                errors[std::size_t(u)] = std::current_exception();
            }
        }
    }
    for (int u = 0; u < n_unique; ++u) {
        if (!errors[std::size_t(u)]) continue;
        try {
            std::rethrow_exception(errors[std::size_t(u)]);
        } catch (const InputError& e) {  // name the first layer of that shape by its JSON pointer
            throw at_layer(plan, std::size_t(u), e.what());
        }
    }

    for (std::size_t k = 0; k < res.convs.size(); ++k) {
        ConvMapping& cm = res.convs[k];
        const ConvMapping& s = solved[std::size_t(unique_of_conv[k])];
        const int idx = cm.layer_index;
        const std::string name = cm.layer_name, shared = cm.shared_with;
        cm = s;
        cm.layer_index = idx;
        cm.layer_name = name;
        cm.shared_with = shared;
        cm.conv.name = name;
    }
    res.unique_shapes = n_unique;
    return res;
}

void check_mappable(const Network& net, const NmpParams& hw, const TsoOptions& opt) {
    const ShapePlan plan = plan_shapes(net, hw, opt);
    for (std::size_t u = 0; u < plan.shapes.size(); ++u) {
        const TsoOptions o = options_of(opt, plan, u);
        if (some_choice_fits(plan.shapes[u], hw, o)) continue;
        throw at_layer(plan, u, (o.fixed_tile ? fixed_tile_error(plan.shapes[u], o) : no_tile_error(plan.shapes[u], hw)).what());
    }
}

}  // namespace vp::mapper::tso
