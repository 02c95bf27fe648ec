#include "mapper/waving/waving_mapper.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>

#include <omp.h>

#include "mapper/common/errors.h"
#include "mapper/tiling/tiling_cost.h"
#include "mapper/waving/core_placement.h"
#include "mapper/waving/mesh_profile.h"

namespace vp::mapper::waving {

using tiling::ConvShape;
using tiling::SliceRun;
using tiling::Tiling;
using tiling::TilingResult;

const char* to_string(MapMode m) {
    switch (m) {
    case MapMode::Waving: return "waving";
    case MapMode::AllCores: return "all-cores";
    case MapMode::WholeLayer: return "whole-layer";
    }
    return "?";
}

double LayerMapping::runner_up_over_pick() const {
    const double pick = ranked.empty() ? 0.0 : ranked.front().score;
    return runner_up.k > 0 && pick > 0 ? runner_up_score / pick : 0.0;
}

bool LayerMapping::near_tie() const {
    return mapped && runner_up.k > 0 && !ranked.empty() && mapper::near_tie(ranked.front().score, runner_up_score);
}

std::vector<std::string> NetworkMapping::near_tied() const {
    std::vector<std::string> out;
    for (const auto& l : layers)
        if (l.near_tie()) out.push_back(l.name);
    return out;
}

double NetworkMapping::total_est_cycles() const {
    double t = 0;
    for (const auto& l : layers) t += l.est_cycles;
    return t;
}
std::uint64_t NetworkMapping::total_flits() const {
    std::uint64_t t = 0;
    for (const auto& l : layers) t += l.flits;
    return t;
}
std::uint64_t NetworkMapping::total_dram_bytes() const {
    std::uint64_t t = 0;
    for (const auto& l : layers) t += l.dram_bytes;
    return t;
}
double NetworkMapping::total_energy_pj() const {
    double t = 0;
    for (const auto& l : layers) t += l.energy.total_pj();
    return t;
}

int nearest_dram_if(const MeshMapParams& mesh, const MeshNode& n) { return nearest_of(mesh.dram_ifs, n); }

std::vector<int> waving_order(const MeshMapParams& mesh) {
    const std::vector<MeshNode> cores = mesh.resolved_cores();
    std::vector<int> dist(cores.size());
    for (std::size_t i = 0; i < cores.size(); ++i) dist[i] = hops(cores[i], mesh.dram_ifs[nearest_dram_if(mesh, cores[i])]);
    std::vector<int> order(cores.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return dist[a] < dist[b]; });
    return order;
}

std::vector<int> core_counts(int n_cores, MapMode mode) {
    std::vector<int> ks;
    if (mode == MapMode::AllCores) return {n_cores};
    if (mode == MapMode::WholeLayer) return {1};
    for (int k = 1; k < n_cores; k *= 2) ks.push_back(k);
    ks.push_back(n_cores);
    return ks;
}

namespace {

// Per-slice work of each class: [of class: full / last narrower][ox class: full / last narrower].
struct ClassCost {
    std::uint64_t compute = 0, filter_flits = 0, other_flits = 0;
};

struct Geometry {
    int groups = 1, n_of = 1, q = 1, t_of = 1, t_ox = 1, s_of = 1, s_ox = 1, rem_of = 0, rem_ox = 0;
    int n() const { return groups * s_of * s_ox; }
};

Geometry make_geometry(const ConvShape& s, int t_of, int t_ox) {
    Geometry g;
    g.groups = s.groups;
    g.n_of = s.n_of;
    g.q = s.Q;
    g.t_of = t_of;
    g.t_ox = t_ox;
    g.s_of = (s.n_of + t_of - 1) / t_of;  // Eq. 27
    g.s_ox = (s.Q + t_ox - 1) / t_ox;     // Eq. 27 (S_ix = S_ox)
    g.rem_of = s.n_of % t_of;
    g.rem_ox = s.Q % t_ox;
    return g;
}

// Calls f(group, of_slice, ox_slice_begin, ox_slice_end) for the row segments of linear block [a, b).
template <class F>
void for_each_segment(const Geometry& g, int a, int b, F&& f) {
    int i = a;
    while (i < b) {
        const int row = i / g.s_ox, j0 = i - row * g.s_ox;
        const int j1 = std::min(g.s_ox, j0 + (b - i));
        f(row / g.s_of, row % g.s_of, j0, j1);
        i += j1 - j0;
    }
}

// OpProfile::bank_factor of k cores, each starting at its first slice (blocks of n / k slices,
// as the assignment cuts them), from the entries `smp` sampled on the slice at the origin.
double bank_factor_of(const ConvShape& s, const Geometry& g, int k, const BankSampler& smp,
                      const tiling::AsipParams& asip, const MeshMapParams& mesh) {
    if (k < 2 || smp.entries().empty()) return 1.0;
    std::vector<TensorOffsets> offs;
    const int n = g.n();
    for (int c = 0; c < k; ++c) {
        const int a = int(std::int64_t(c) * n / k);
        for_each_segment(g, a, a + 1, [&](int grp, int of, int j0, int) {
            offs.push_back(tensor_offsets(s, grp, of * g.t_of, j0 * g.t_ox, asip));
        });
    }
    return lockstep_bank_factor(smp.entries(), offs, mesh.hw.dram);
}

// The loads of the slice at the origin (group 0, the first T_of x T_ox slice), sampled (BankSampler).
BankSampler sample_origin(const ConvShape& s, const Geometry& g, const Tiling& t, const tiling::AsipParams& asip,
                          const MeshMapParams& mesh) {
    BankSampler smp;
    const SliceRun run{0, 0, std::min(g.t_of, s.n_of), 0, std::min(g.t_ox, s.Q), g.t_ox};
    profile_run(s, run, t, asip, mesh.packet, mesh.hw.dram.burst_bytes, nullptr, nullptr, nullptr, nullptr, &smp);
    return smp;
}

// One (T, k) of a slice set: Eq. 23 and, with a cycle-ranking model, the model's cycles.
struct KScore {
    int k = 0;
    double eq23 = 0, cycles = 0;
};

struct Candidate {
    bool ok = false;
    std::vector<KScore> ks;  // distinct effective k, ascending
    TilingResult full, rem;
    std::uint64_t evaluated = 0;
};

Candidate evaluate_slice_set(const ConvShape& s, int t_of, int t_ox, const tiling::AsipParams& asip,
                             const MeshMapParams& mesh, const tiling::CostContext& ctx, const MapperOptions& opt,
                             const std::vector<int>& ks, const std::vector<int>& hops_by_rank,
                             const std::vector<double>& sync_by_rank) {
    Candidate c;
    const Geometry g = make_geometry(s, t_of, t_ox);
    if (!tiling::optimize_tiling(s.slice(t_of, t_ox), ctx, opt.objective, &c.full)) return c;
    c.evaluated = c.full.evaluated;
    if (g.rem_of) {
        if (!tiling::optimize_tiling(s.slice(g.rem_of, t_ox), ctx, opt.objective, &c.rem)) return c;
        c.evaluated += c.rem.evaluated;
    }
    const MeshTimeModel* model = opt.model && opt.model->ranks_by_cycles() ? opt.model.get() : nullptr;
    ClassCost cls[2][2];
    // Profiles per class: the filter loads (once per stitched run) and the rest (per slice).
    OpProfile prof_filter[2][2], prof_other[2][2];
    // phased-pages: the loads of the origin slice, for the cores' bank factor at each k.
    BankSampler sampler;
    const bool banks = model && model->replays_pages();
    for (int oc = 0; oc < (g.rem_of ? 2 : 1); ++oc)
        for (int xc = 0; xc < (g.rem_ox ? 2 : 1); ++xc) {
            const int w = oc ? g.rem_of : t_of, width = xc ? g.rem_ox : t_ox;
            const SliceRun run{0, 0, w, 0, width, t_ox};
            const Tiling& t = oc ? c.rem.tiling : c.full.tiling;
            RunTotals r;
            if (model) {  // one walk for the totals and the profiles
                profile_run(s, run, t, asip, mesh.packet, mesh.hw.dram.burst_bytes, &prof_filter[oc][xc],
                            &prof_other[oc][xc], &r, model->replays_pages() ? &mesh.hw.dram : nullptr,
                            banks && oc == 0 && xc == 0 ? &sampler : nullptr);
                prof_filter[oc][xc].compact();
                prof_other[oc][xc].compact();
            } else {
                r = measure_run(s, run, t, asip, mesh.packet);
            }
            cls[oc][xc] = ClassCost{r.compute_cycles(), r.noc_filters.flits, r.noc.flits - r.noc_filters.flits};
        }
    const int n = g.n();
    const int max_h = hops_by_rank.empty() ? 0 : *std::max_element(hops_by_rank.begin(), hops_by_rank.end());
    // Memos of a core's cycles per (profile, hops), one per distinct sharing factor at one k.
    std::vector<std::pair<double, std::vector<double>>> memos;
    std::vector<double> work, sharing;
    for (int k_req : ks) {
        const int k = std::min(k_req, n);
        if (!c.ks.empty() && c.ks.back().k == k) continue;
        std::uint64_t max_compute = 0, flits = 0;
        double max_cycles = 0;
        memos.clear();
        auto cyc = [&](int which, const OpProfile& p, int h, double share) {  // which: 0..7 = (filter/other, oc, xc)
            auto it = std::find_if(memos.begin(), memos.end(), [&](const auto& m) { return m.first == share; });
            if (it == memos.end()) {
                memos.emplace_back(share, std::vector<double>(std::size_t(8 * (max_h + 1)), -1.0));
                it = memos.end() - 1;
            }
            double& v = it->second[std::size_t(which * (max_h + 1) + h)];
            if (v < 0) v = model->core_cycles(p, CoreContext{h, k, share}, asip, mesh);
            return v;
        };
        if (banks) {
            const double f = bank_factor_of(s, g, k, sampler, asip, mesh);
            for (int oc = 0; oc < 2; ++oc)
                for (int xc = 0; xc < 2; ++xc) prof_filter[oc][xc].bank_factor = prof_other[oc][xc].bank_factor = f;
        }
        double shared_memo[8];
        std::fill(std::begin(shared_memo), std::end(shared_memo), -1.0);
        auto shr = [&](int which, const OpProfile& p) {
            double& v = shared_memo[which];
            if (v < 0) v = model->shared_cycles(p, asip, mesh, k);
            return v;
        };
        // First the cores' compute, flits and demand on the shared side (their sharing factors
        // depend on every core's demand), then each core's cycles.
        double shared = 0;
        work.assign(std::size_t(k), 0.0);
        for (int core = 0; core < k; ++core) {
            const int a = int(std::int64_t(core) * n / k), b = int(std::int64_t(core + 1) * n / k);
            std::uint64_t compute = 0;
            double w = 0;
            for_each_segment(g, a, b, [&](int, int of, int j0, int j1) {
                const int oc = (g.rem_of && of == g.s_of - 1) ? 1 : 0;
                const int nrem = (g.rem_ox && j1 == g.s_ox) ? 1 : 0;
                const int nfull = j1 - j0 - nrem;
                compute += std::uint64_t(nfull) * cls[oc][0].compute + std::uint64_t(nrem) * cls[oc][1].compute;
                flits += cls[oc][0].filter_flits + std::uint64_t(nfull) * cls[oc][0].other_flits +
                         std::uint64_t(nrem) * cls[oc][1].other_flits;
                if (model) {
                    const int fx = nfull ? 0 : 1;
                    w += shr(0 + oc * 2 + fx, prof_filter[oc][fx]);
                    if (nfull) w += double(nfull) * shr(4 + oc * 2 + 0, prof_other[oc][0]);
                    if (nrem) w += double(nrem) * shr(4 + oc * 2 + 1, prof_other[oc][1]);
                }
            });
            work[std::size_t(core)] = w;
            shared += w;
            max_compute = std::max(max_compute, compute);
        }
        double first_sync = 0;
        if (model) {
            if (model->shares_by_work()) sharing = sharing_by_work(work);
            else sharing.assign(std::size_t(k), sharing_of(n, k));
            first_sync = std::numeric_limits<double>::max();
            for (int core = 0; core < k; ++core) {
                const int a = int(std::int64_t(core) * n / k), b = int(std::int64_t(core + 1) * n / k);
                const int h = hops_by_rank[std::size_t(core)];
                const double share = sharing[std::size_t(core)];
                double cycles = 0;
                for_each_segment(g, a, b, [&](int, int of, int j0, int j1) {
                    const int oc = (g.rem_of && of == g.s_of - 1) ? 1 : 0;
                    const int nrem = (g.rem_ox && j1 == g.s_ox) ? 1 : 0;
                    const int nfull = j1 - j0 - nrem;
                    // The filter loads of a stitched run are those of its first slice's class.
                    const int fx = nfull ? 0 : 1;
                    cycles += cyc(0 + oc * 2 + fx, prof_filter[oc][fx], h, share);
                    if (nfull) cycles += double(nfull) * cyc(4 + oc * 2 + 0, prof_other[oc][0], h, share);
                    if (nrem) cycles += double(nrem) * cyc(4 + oc * 2 + 1, prof_other[oc][1], h, share);
                });
                // Block b gets the b-th start sync (model_cycles; placement may move it later).
                const double sync = sync_by_rank[std::size_t(core)];
                first_sync = std::min(first_sync, sync);
                max_cycles = std::max(max_cycles, sync + cycles);
            }
        }
        KScore sc;
        sc.k = k;
        sc.eq23 = double(max_compute) + mesh.flit_weight * double(flits);  // Eq. 23
        sc.cycles = model ? std::max(max_cycles, first_sync + shared) + model->layer_overhead() : 0.0;
        c.ks.push_back(sc);
    }
    c.ok = true;
    return c;
}

std::vector<int> slice_sizes(int n, int p) {  // Eq. 25 (+ the full dimension, see header)
    std::vector<int> v;
    for (int t = p; t <= n; t += p) v.push_back(t);
    if (n % p != 0) v.push_back(n);
    return v;
}

}  // namespace

double slice_evenness(const ConvShape& s, int t_of, int t_ox) {
    const Geometry g = make_geometry(s, t_of, t_ox);  // rem_*: the last, narrower chunk (0: none)
    return double(g.rem_of ? g.rem_of : t_of) / double(t_of) * double(g.rem_ox ? g.rem_ox : t_ox) / double(t_ox);
}

namespace {

// Fills m (slices, tilings, per-core work, estimates, energy) for slice set (t_of, t_ox) with
// tilings full / rem and k active cores.
void build_layer(LayerMapping& m, int t_of, int t_ox, int k, const TilingResult& full, const TilingResult& rem,
                 const tiling::AsipParams& asip, const MeshMapParams& mesh, const EnergyParams& energy,
                 const MapperOptions& opt) {
    const ConvShape& s = m.shape;
    const tiling::CostContext ctx = tiling::make_cost_context(asip, mesh.packet.flit_bits, mesh.noc_mhz);
    const std::vector<MeshNode> cores = mesh.resolved_cores();
    const std::vector<int> order = waving_order(mesh);
    m.t_of = t_of;
    m.t_ox = t_ox;
    const Geometry g = make_geometry(s, m.t_of, m.t_ox);
    m.s_of = g.s_of;
    m.s_ox = g.s_ox;
    m.n_slices = g.n();
    m.tiling_full = full.tiling;
    m.cost_full = full.cost;
    m.has_rem_of = g.rem_of != 0;
    if (m.has_rem_of) {
        m.tiling_rem = rem.tiling;
        m.cost_rem = rem.cost;
    }
    m.k = k;
    m.cores.clear();
    m.max_core_cycles_wo_dram = 0;
    m.flits = m.packets = m.flit_hops = 0;
    m.dram_bytes = m.dram_init_bytes = m.dram_read_bytes = m.dram_write_bytes = 0;
    m.macs = m.sram_words = 0;
    const MeshTimeModel* model = opt.model && opt.model->ranks_by_cycles() ? opt.model.get() : nullptr;

    // Build the assignment and measure every block's runs with the loop nest; then place the
    // blocks on the k cores of the waving order (place_blocks).
    std::vector<std::uint64_t> if_flits(mesh.dram_ifs.size(), 0);
    double max_core = 0;
    std::vector<OpProfile> profiles;  // with a model: every core's, for model_cycles
    std::vector<double> compute, shared;
    // The cores' bank factor (phased-pages) depends on the blocks, not on where they run.
    const double bank_factor = model && model->replays_pages() ? layer_bank_factor(m, asip, mesh) : 1.0;
    for (int a = 0; a < m.k; ++a) {
        CoreWork w;
        w.first_slice = int(std::int64_t(a) * m.n_slices / m.k);
        w.end_slice = int(std::int64_t(a + 1) * m.n_slices / m.k);
        OpProfile prof;
        for_each_segment(g, w.first_slice, w.end_slice, [&](int grp, int of, int j0, int j1) {
            SliceRun r{grp, of * g.t_of, std::min(of * g.t_of + g.t_of, s.n_of), j0 * g.t_ox,
                       std::min(j1 * g.t_ox, s.Q), g.t_ox};
            const Tiling t = (g.rem_of && of == g.s_of - 1) ? m.tiling_rem : m.tiling_full;
            w.runs.push_back(r);
            w.run_tilings.push_back(t);
            if (model)
                profile_run(s, r, t, asip, mesh.packet, mesh.hw.dram.burst_bytes, &prof, &prof, &w.totals,
                            model->replays_pages() ? &mesh.hw.dram : nullptr);
            else w.totals += measure_run(s, r, t, asip, mesh.packet);
        });
        compute.push_back(double(w.totals.compute_cycles()));
        if (model) {
            prof.compact();
            prof.bank_factor = bank_factor;
            shared.push_back(model->shared_cycles(prof, asip, mesh, m.k));
            profiles.push_back(std::move(prof));
        }
        m.cores.push_back(std::move(w));
    }
    std::vector<MeshNode> active;
    for (int a = 0; a < m.k; ++a) active.push_back(cores[std::size_t(order[std::size_t(a)])]);
    std::vector<int> place(std::size_t(m.k));
    std::iota(place.begin(), place.end(), 0);
    if (model && opt.placement == Placement::RouteShare) place = place_blocks(active, mesh.dram_ifs, compute, shared);
    m.placed_by_share = !std::is_sorted(place.begin(), place.end());
    for (int a = 0; a < m.k; ++a) {
        CoreWork& w = m.cores[std::size_t(a)];
        w.core = order[std::size_t(place[std::size_t(a)])];
        w.node = cores[std::size_t(w.core)];
        w.dram_if = nearest_dram_if(mesh, w.node);
        w.hops = hops(w.node, mesh.dram_ifs[std::size_t(w.dram_if)]);
        w.cycles_with_dram = cycles_with_dram(w.totals, ctx.bw_dram, asip.word_bytes());
        max_core = std::max(max_core, w.cycles_with_dram);
        m.max_core_cycles_wo_dram = std::max(m.max_core_cycles_wo_dram, w.totals.compute_cycles());
        m.flits += w.totals.noc.flits;
        m.packets += w.totals.noc.packets;
        m.flit_hops += w.totals.noc.flits * std::uint64_t(w.hops);
        m.dram_bytes += w.totals.dram_bytes();
        m.dram_init_bytes += w.totals.dram_init_bytes;
        m.dram_read_bytes += w.totals.dram_read_bytes;
        m.dram_write_bytes += w.totals.dram_write_bytes;
        m.macs += w.totals.macs;
        m.sram_words += w.totals.sram_reads + w.totals.sram_writes;
        if_flits[std::size_t(w.dram_if)] += w.totals.noc.flits;
    }
    m.cost = recompute_cost(m, mesh);  // Eq. 23
    if (model) {
        m.bank_factor = bank_factor;
        m.est_cycles = model_cycles(m, profiles, *model, asip, mesh);
    } else {
        // The busiest DRAM interface ejects/injects one flit per NoC cycle at best.
        const double ratio = mesh.noc_mhz / asip.core_mhz;
        double if_bound = 0;
        for (std::uint64_t f : if_flits) if_bound = std::max(if_bound, double(f) / ratio);
        m.est_cycles = std::max(max_core, if_bound);
    }

    const std::vector<MeshNode> all = mesh.resolved_cores();
    EnergyInputs ein;
    ein.macs = m.macs;
    ein.sram_words = m.sram_words;
    ein.dram_bytes = m.dram_bytes;
    ein.flit_hops = m.flit_hops;
    ein.active_cores = m.k;
    ein.idle_cores = int(all.size()) - m.k;
    ein.runtime_ns = m.est_cycles / asip.core_mhz * 1000.0;
    m.energy = estimate_energy(energy, ein);
}

// The checks of map_layer() before its search (shared with check_mappable()): the smallest tile
// in a core's SRAM (it does not depend on the slice: optimize_tiling on a 1 x 1 slice tries the
// one tiling 1 x 1 x 1, whose footprint, Eq. 19, is that of every slice set's smallest tile), and
// a fixed slice set among the layer's slice sets with a core count k in range.
void check_layer(const ConvShape& s, const tiling::AsipParams& asip, const MeshMapParams& mesh, const MapperOptions& opt) {
    const tiling::CostContext ctx = tiling::make_cost_context(asip, mesh.packet.flit_bits, mesh.noc_mhz);
    tiling::optimize_tiling_or_throw(s.slice(1, 1), ctx, opt.objective, s.name);
    if (!opt.fixed.set()) return;
    const bool whole = opt.mode == MapMode::WholeLayer;
    const std::vector<int> tofs = whole ? std::vector<int>{s.n_of} : slice_sizes(s.n_of, asip.p_of);
    const std::vector<int> toxs = whole ? std::vector<int>{s.Q} : slice_sizes(s.Q, asip.p_ox);
    const SliceChoice& f = opt.fixed;
    const auto has = [](const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); };
    if (!has(tofs, f.t_of) || !has(toxs, f.t_ox))
        throw InputError("layer \"" + s.name + "\": mapper.fixed_slices T_of=" + std::to_string(f.t_of) +
                         ", T_ox=" + std::to_string(f.t_ox) + " is not a slice set of this layer");
    const int n = make_geometry(s, f.t_of, f.t_ox).n(), n_cores = int(mesh.resolved_cores().size());
    if (f.k < 1 || f.k > n_cores || f.k > n)
        throw InputError("layer \"" + s.name + "\": mapper.fixed_slices k=" + std::to_string(f.k) +
                         " is not in [1, min(cores, slices) = " + std::to_string(std::min<int>(n_cores, n)) + "]");
}

}  // namespace

LayerMapping map_layer(const Layer& layer, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                       const EnergyParams& energy, const MapperOptions& opt) {
    LayerMapping m;
    m.name = layer.name;
    if (!ConvShape::from_layer(layer, &m.shape)) {
        m.skip_reason = std::string(to_string(layer.kind)) + " layer: no MACs, not mapped onto the mesh cores";
        return m;
    }
    const ConvShape& s = m.shape;
    const tiling::CostContext ctx = tiling::make_cost_context(asip, mesh.packet.flit_bits, mesh.noc_mhz);
    check_layer(s, asip, mesh, opt);  // fail early with a clear message

    const std::vector<MeshNode> cores = mesh.resolved_cores();
    const std::vector<int> order = waving_order(mesh);
    // Per rank of the waving order: the hops to its DRAM interface, and the master's syncs of the
    // rank-th core started (the same for every candidate).
    std::vector<int> hops_by_rank;
    std::vector<double> sync_by_rank;
    for (int c : order) {
        const MeshNode& n = cores[std::size_t(c)];
        hops_by_rank.push_back(hops(n, mesh.dram_ifs[std::size_t(nearest_dram_if(mesh, n))]));
        sync_by_rank.push_back(opt.model ? opt.model->sync_cycles(int(sync_by_rank.size()), hops(n, mesh.master), asip, mesh) : 0.0);
    }
    std::vector<int> ks = core_counts(int(cores.size()), opt.mode);
    const bool whole = opt.mode == MapMode::WholeLayer;
    std::vector<int> tofs = whole ? std::vector<int>{s.n_of} : slice_sizes(s.n_of, asip.p_of);
    std::vector<int> toxs = whole ? std::vector<int>{s.Q} : slice_sizes(s.Q, asip.p_ox);
    if (opt.fixed.set()) {  // one candidate on its own: exactly this (T, k), checked by check_layer()
        const SliceChoice& f = opt.fixed;
        tofs = {f.t_of};
        toxs = {f.t_ox};
        ks = {f.k};
    }
    const int n_sets = int(tofs.size() * toxs.size());
    std::vector<Candidate> cand(static_cast<std::size_t>(n_sets));
    const int threads = opt.threads > 0 ? opt.threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (int i = 0; i < n_sets; ++i)
        cand[std::size_t(i)] = evaluate_slice_set(s, tofs[std::size_t(i) / toxs.size()], toxs[std::size_t(i) % toxs.size()],
                                                  asip, mesh, ctx, opt, ks, hops_by_rank, sync_by_rank);
    // All-cores mode ("using all cores all of the time", Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect Section VI): only slice sets
    // with at least one slice per core, unless the layer has no such slice set.
    std::vector<char> eligible(static_cast<std::size_t>(n_sets), 1);
    if (opt.mode == MapMode::AllCores && !opt.fixed.set()) {
        bool any = false;
        for (int i = 0; i < n_sets; ++i) {
            const Geometry gi = make_geometry(s, tofs[std::size_t(i) / toxs.size()], toxs[std::size_t(i) % toxs.size()]);
            eligible[std::size_t(i)] = gi.n() >= int(cores.size());
            any = any || (eligible[std::size_t(i)] && cand[std::size_t(i)].ok);
        }
        if (!any) std::fill(eligible.begin(), eligible.end(), 1);
    }
    // Every (T, k), ranked by the model's cycles (or Eq. 23); ties: smaller T_of, T_ox, k.
    const bool by_cycles = opt.model && opt.model->ranks_by_cycles();
    struct Entry {
        double score;
        int set, k;
    };
    std::vector<Entry> all;
    for (int i = 0; i < n_sets; ++i) {
        m.tilings_evaluated += cand[std::size_t(i)].evaluated;
        if (!cand[std::size_t(i)].ok || !eligible[std::size_t(i)]) continue;
        for (const KScore& k : cand[std::size_t(i)].ks) all.push_back({by_cycles ? k.cycles : k.eq23, i, k.k});
    }
    m.slice_sets = std::uint64_t(n_sets);
    if (all.empty()) throw InputError("layer \"" + s.name + "\": no slice set fits the core SRAM");
    std::stable_sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) {
        if (a.score != b.score) return a.score < b.score;
        if (a.set != b.set) return a.set < b.set;
        return a.k < b.k;
    });
    if (by_cycles && opt.near_tie > 0) {
        // Near ties: the fewest cores first, then the most even slices (slice_evenness), the rest
        // in rank order.
        const double band = all.front().score * (1 + opt.near_tie);
        auto even = [&](const Entry& e) {
            return slice_evenness(s, tofs[std::size_t(e.set) / toxs.size()], toxs[std::size_t(e.set) % toxs.size()]);
        };
        std::size_t pick = 0;
        for (std::size_t r = 1; r < all.size() && all[r].score <= band; ++r)
            if (all[r].k < all[pick].k || (all[r].k == all[pick].k && even(all[r]) > even(all[pick]))) pick = r;
        std::rotate(all.begin(), all.begin() + std::ptrdiff_t(pick), all.begin() + std::ptrdiff_t(pick) + 1);
    }
    const std::size_t keep = std::min(all.size(), std::size_t(std::max(opt.keep_candidates, 1)));
    auto tof_of = [&](int i) { return tofs[std::size_t(i) / toxs.size()]; };
    auto tox_of = [&](int i) { return toxs[std::size_t(i) % toxs.size()]; };
    for (std::size_t r = 1; r < keep; ++r) {  // the runners-up, each estimated as a full mapping
        const Entry& e = all[r];
        LayerMapping alt = m;
        build_layer(alt, tof_of(e.set), tox_of(e.set), e.k, cand[std::size_t(e.set)].full, cand[std::size_t(e.set)].rem,
                    asip, mesh, energy, opt);
        m.ranked.push_back({SliceChoice{alt.t_of, alt.t_ox, alt.k}, e.score, alt.est_cycles});
    }
    const Entry& best = all.front();
    if (all.size() > 1) {
        m.runner_up = SliceChoice{tof_of(all[1].set), tox_of(all[1].set), all[1].k};
        m.runner_up_score = all[1].score;
    }
    build_layer(m, tof_of(best.set), tox_of(best.set), best.k, cand[std::size_t(best.set)].full,
                cand[std::size_t(best.set)].rem, asip, mesh, energy, opt);
    m.ranked.insert(m.ranked.begin(), RankedChoice{SliceChoice{m.t_of, m.t_ox, m.k}, best.score, m.est_cycles});
    m.mapped = true;
    return m;
}

double layer_bank_factor(const LayerMapping& m, const tiling::AsipParams& asip, const MeshMapParams& mesh) {
    if (m.k < 2 || m.t_of < 1 || m.t_ox < 1) return 1.0;
    const Geometry g = make_geometry(m.shape, m.t_of, m.t_ox);
    return bank_factor_of(m.shape, g, m.k, sample_origin(m.shape, g, m.tiling_full, asip, mesh), asip, mesh);
}

std::vector<OpProfile> core_profiles(const LayerMapping& m, const tiling::AsipParams& asip, const MeshMapParams& mesh) {
    const double bank_factor = layer_bank_factor(m, asip, mesh);
    std::vector<OpProfile> out;
    for (const CoreWork& w : m.cores) {
        OpProfile p;
        for (std::size_t i = 0; i < w.runs.size(); ++i)
            profile_run(m.shape, w.runs[i], w.run_tilings[i], asip, mesh.packet, mesh.hw.dram.burst_bytes, &p, &p, nullptr,
                        &mesh.hw.dram);
        p.compact();
        p.bank_factor = bank_factor;
        out.push_back(std::move(p));
    }
    return out;
}

double model_cycles(const LayerMapping& m, const std::vector<OpProfile>& profiles, const MeshTimeModel& model,
                    const tiling::AsipParams& asip, const MeshMapParams& mesh) {
    const std::size_t n = std::min(m.cores.size(), profiles.size());
    std::vector<double> work(n);
    double t = 0, shared = 0;
    for (std::size_t i = 0; i < n; ++i) {
        work[i] = model.shared_cycles(profiles[i], asip, mesh, m.k);
        shared += work[i];
    }
    const std::vector<double> sharing =
        model.shares_by_work() ? sharing_by_work(work) : std::vector<double>(n, sharing_of(m.n_slices, m.k));
    // The cores get their start syncs in this order (the master's layer list is m.cores).
    double first_sync = n ? std::numeric_limits<double>::max() : 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double sync = model.sync_cycles(int(i), hops(m.cores[i].node, mesh.master), asip, mesh);
        first_sync = std::min(first_sync, sync);
        t = std::max(t, sync + model.core_cycles(profiles[i], CoreContext{m.cores[i].hops, m.k, sharing[i]}, asip, mesh));
    }
    return std::max(t, first_sync + shared) + model.layer_overhead();
}

double recompute_cost(const LayerMapping& m, const MeshMapParams& mesh) {
    std::uint64_t max_compute = 0, flits = 0;
    for (const CoreWork& w : m.cores) {
        max_compute = std::max(max_compute, w.totals.compute_cycles());
        flits += w.totals.noc.flits;
    }
    return double(max_compute) + mesh.flit_weight * double(flits);
}

namespace {

// map_network()'s checks of the parameters and of mapper.fixed_layers; the layers with a choice
// of their own, by name (shared with check_mappable()).
std::map<std::string, SliceChoice> check_network_options(const Network& net, const tiling::AsipParams& asip,
                                                         const MeshMapParams& mesh, const EnergyParams& energy,
                                                         const MapperOptions& opt) {
    asip.validate("asip");
    mesh.validate("mesh");
    energy.validate("energy");
    std::map<std::string, SliceChoice> fixed_of;
    for (const auto& f : opt.fixed_layers) {
        const bool known = std::any_of(net.layers.begin(), net.layers.end(), [&](const Layer& l) { return l.name == f.first; });
        if (!known) throw InputError("mapper.fixed_layers: the workload has no layer named \"" + f.first + "\"");
        if (!fixed_of.emplace(f.first, f.second).second)
            throw InputError("mapper.fixed_layers: layer \"" + f.first + "\" given twice");
    }
    return fixed_of;
}

}  // namespace

void check_mappable(const Network& net, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                    const EnergyParams& energy, const MapperOptions& opt) {
    const std::map<std::string, SliceChoice> fixed_of = check_network_options(net, asip, mesh, energy, opt);
    MapperOptions own = opt;
    own.fixed_layers.clear();
    for (const Layer& l : net.layers) {  // in layer order, as map_network() meets them
        ConvShape s;
        if (!ConvShape::from_layer(l, &s)) continue;
        const auto fx = fixed_of.find(l.name);
        MapperOptions o = own;
        if (fx != fixed_of.end()) o.fixed = fx->second;
        check_layer(s, asip, mesh, o);
    }
}

NetworkMapping map_network(const Network& net, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                           const EnergyParams& energy, const MapperOptions& opt) {
    const std::map<std::string, SliceChoice> fixed_of = check_network_options(net, asip, mesh, energy, opt);
    NetworkMapping out;
    out.network = net.name;
    out.objective = opt.objective;
    out.mode = opt.mode;
    out.model = opt.model ? opt.model->name() : "paper";
    out.n_cores = int(mesh.resolved_cores().size());
    out.core_mhz = asip.core_mhz;
    out.noc_mhz = mesh.noc_mhz;
    MapperOptions own = opt;
    own.fixed_layers.clear();
    std::map<std::string, std::size_t> solved;  // shape key (+ fixed choice) -> layer index (per layer, not a hot path)
    for (const Layer& l : net.layers) {
        const auto fx = fixed_of.find(l.name);
        std::string key = l.shape_key();
        if (fx != fixed_of.end())
            key += "|fixed=" + std::to_string(fx->second.t_of) + "," + std::to_string(fx->second.t_ox) + "," +
                   std::to_string(fx->second.k);
        auto it = solved.find(key);
        if (it != solved.end()) {
            LayerMapping copy = out.layers[it->second];
            copy.name = l.name;
            copy.shape.name = l.name;
            out.layers.push_back(std::move(copy));
            continue;
        }
        solved.emplace(key, out.layers.size());
        if (fx != fixed_of.end()) {
            MapperOptions o = own;
            o.fixed = fx->second;
            out.layers.push_back(map_layer(l, asip, mesh, energy, o));
        } else {
            out.layers.push_back(map_layer(l, asip, mesh, energy, own));
        }
    }
    return out;
}

}  // namespace vp::mapper::waving
