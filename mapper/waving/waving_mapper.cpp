#include "mapper/waving/waving_mapper.h"

#include <algorithm>
#include <map>
#include <numeric>

#include <omp.h>

#include "mapper/common/errors.h"
#include "mapper/tiling/tiling_cost.h"

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

int nearest_dram_if(const MeshMapParams& mesh, const MeshNode& n) {
    int best = 0;
    for (int i = 1; i < int(mesh.dram_ifs.size()); ++i)
        if (hops(n, mesh.dram_ifs[i]) < hops(n, mesh.dram_ifs[best])) best = i;
    return best;
}

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

struct Candidate {
    bool ok = false;
    double cost = 0;
    int k = 0;
    TilingResult full, rem;
    std::uint64_t evaluated = 0;
};

Candidate evaluate_slice_set(const ConvShape& s, int t_of, int t_ox, const tiling::AsipParams& asip,
                             const MeshMapParams& mesh, const tiling::CostContext& ctx, const MapperOptions& opt,
                             const std::vector<int>& ks) {
    Candidate c;
    const Geometry g = make_geometry(s, t_of, t_ox);
    if (!tiling::optimize_tiling(s.slice(t_of, t_ox), ctx, opt.objective, &c.full)) return c;
    c.evaluated = c.full.evaluated;
    if (g.rem_of) {
        if (!tiling::optimize_tiling(s.slice(g.rem_of, t_ox), ctx, opt.objective, &c.rem)) return c;
        c.evaluated += c.rem.evaluated;
    }
    ClassCost cls[2][2];
    for (int oc = 0; oc < (g.rem_of ? 2 : 1); ++oc)
        for (int xc = 0; xc < (g.rem_ox ? 2 : 1); ++xc) {
            const int w = oc ? g.rem_of : t_of, width = xc ? g.rem_ox : t_ox;
            const RunTotals r =
                measure_run(s, SliceRun{0, 0, w, 0, width, t_ox}, oc ? c.rem.tiling : c.full.tiling, asip, mesh.packet);
            cls[oc][xc] = ClassCost{r.compute_cycles(), r.noc_filters.flits, r.noc.flits - r.noc_filters.flits};
        }
    const int n = g.n();
    bool first = true;
    for (int k_req : ks) {
        const int k = std::min(k_req, n);
        std::uint64_t max_compute = 0, flits = 0;
        for (int core = 0; core < k; ++core) {
            const int a = int(std::int64_t(core) * n / k), b = int(std::int64_t(core + 1) * n / k);
            std::uint64_t compute = 0;
            for_each_segment(g, a, b, [&](int, int of, int j0, int j1) {
                const int oc = (g.rem_of && of == g.s_of - 1) ? 1 : 0;
                const int nrem = (g.rem_ox && j1 == g.s_ox) ? 1 : 0;
                const int nfull = j1 - j0 - nrem;
                compute += std::uint64_t(nfull) * cls[oc][0].compute + std::uint64_t(nrem) * cls[oc][1].compute;
                flits += cls[oc][0].filter_flits + std::uint64_t(nfull) * cls[oc][0].other_flits +
                         std::uint64_t(nrem) * cls[oc][1].other_flits;
            });
            max_compute = std::max(max_compute, compute);
        }
        const double cost = double(max_compute) + mesh.flit_weight * double(flits);  // Eq. 23
        if (first || cost < c.cost) {
            c.cost = cost;
            c.k = k;
            first = false;
        }
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
    // The smallest tile does not depend on the slice: fail early with a clear message.
    tiling::optimize_tiling_or_throw(s.slice(1, 1), ctx, opt.objective, s.name);

    const std::vector<MeshNode> cores = mesh.resolved_cores();
    const std::vector<int> order = waving_order(mesh);
    const std::vector<int> ks = core_counts(int(cores.size()), opt.mode);
    const bool whole = opt.mode == MapMode::WholeLayer;
    const std::vector<int> tofs = whole ? std::vector<int>{s.n_of} : slice_sizes(s.n_of, asip.p_of);
    const std::vector<int> toxs = whole ? std::vector<int>{s.Q} : slice_sizes(s.Q, asip.p_ox);
    const int n_sets = int(tofs.size() * toxs.size());
    std::vector<Candidate> cand(static_cast<std::size_t>(n_sets));
    const int threads = opt.threads > 0 ? opt.threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (int i = 0; i < n_sets; ++i)
        cand[std::size_t(i)] = evaluate_slice_set(s, tofs[std::size_t(i) / toxs.size()], toxs[std::size_t(i) % toxs.size()],
                                                  asip, mesh, ctx, opt, ks);
    // All-cores mode ("using all cores all of the time", seed 001 Section VI): only slice sets
    // with at least one slice per core, unless the layer has no such slice set.
    std::vector<char> eligible(static_cast<std::size_t>(n_sets), 1);
    if (opt.mode == MapMode::AllCores) {
        bool any = false;
        for (int i = 0; i < n_sets; ++i) {
            const Geometry gi = make_geometry(s, tofs[std::size_t(i) / toxs.size()], toxs[std::size_t(i) % toxs.size()]);
            eligible[std::size_t(i)] = gi.n() >= int(cores.size());
            any = any || (eligible[std::size_t(i)] && cand[std::size_t(i)].ok);
        }
        if (!any) std::fill(eligible.begin(), eligible.end(), 1);
    }
    int best = -1;
    for (int i = 0; i < n_sets; ++i) {
        m.tilings_evaluated += cand[std::size_t(i)].evaluated;
        if (cand[std::size_t(i)].ok && eligible[std::size_t(i)] &&
            (best < 0 || cand[std::size_t(i)].cost < cand[std::size_t(best)].cost))
            best = i;
    }
    m.slice_sets = std::uint64_t(n_sets);
    if (best < 0) throw InputError("layer \"" + s.name + "\": no slice set fits the core SRAM");
    const Candidate& c = cand[std::size_t(best)];
    m.t_of = tofs[std::size_t(best) / toxs.size()];
    m.t_ox = toxs[std::size_t(best) % toxs.size()];
    const Geometry g = make_geometry(s, m.t_of, m.t_ox);
    m.s_of = g.s_of;
    m.s_ox = g.s_ox;
    m.n_slices = g.n();
    m.tiling_full = c.full.tiling;
    m.cost_full = c.full.cost;
    m.has_rem_of = g.rem_of != 0;
    if (m.has_rem_of) {
        m.tiling_rem = c.rem.tiling;
        m.cost_rem = c.rem.cost;
    }
    m.k = c.k;
    m.cost = c.cost;
    m.mapped = true;

    // Build the assignment and measure every core's runs with the loop nest.
    std::vector<std::uint64_t> if_flits(mesh.dram_ifs.size(), 0);
    double max_core = 0;
    for (int a = 0; a < m.k; ++a) {
        CoreWork w;
        w.core = order[std::size_t(a)];
        w.node = cores[std::size_t(w.core)];
        w.dram_if = nearest_dram_if(mesh, w.node);
        w.hops = hops(w.node, mesh.dram_ifs[std::size_t(w.dram_if)]);
        w.first_slice = int(std::int64_t(a) * m.n_slices / m.k);
        w.end_slice = int(std::int64_t(a + 1) * m.n_slices / m.k);
        for_each_segment(g, w.first_slice, w.end_slice, [&](int grp, int of, int j0, int j1) {
            SliceRun r{grp, of * g.t_of, std::min(of * g.t_of + g.t_of, s.n_of), j0 * g.t_ox,
                       std::min(j1 * g.t_ox, s.Q), g.t_ox};
            const Tiling t = (g.rem_of && of == g.s_of - 1) ? m.tiling_rem : m.tiling_full;
            w.runs.push_back(r);
            w.run_tilings.push_back(t);
            w.totals += measure_run(s, r, t, asip, mesh.packet);
        });
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
        m.cores.push_back(std::move(w));
    }
    // The busiest DRAM interface ejects/injects one flit per NoC cycle at best.
    const double ratio = mesh.noc_mhz / asip.core_mhz;
    double if_bound = 0;
    for (std::uint64_t f : if_flits) if_bound = std::max(if_bound, double(f) / ratio);
    m.est_cycles = std::max(max_core, if_bound);

    EnergyInputs ein;
    ein.macs = m.macs;
    ein.sram_words = m.sram_words;
    ein.dram_bytes = m.dram_bytes;
    ein.flit_hops = m.flit_hops;
    ein.active_cores = m.k;
    ein.idle_cores = int(cores.size()) - m.k;
    ein.runtime_ns = m.est_cycles / asip.core_mhz * 1000.0;
    m.energy = estimate_energy(energy, ein);
    return m;
}

double recompute_cost(const LayerMapping& m, const MeshMapParams& mesh) {
    std::uint64_t max_compute = 0, flits = 0;
    for (const CoreWork& w : m.cores) {
        max_compute = std::max(max_compute, w.totals.compute_cycles());
        flits += w.totals.noc.flits;
    }
    return double(max_compute) + mesh.flit_weight * double(flits);
}

NetworkMapping map_network(const Network& net, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                           const EnergyParams& energy, const MapperOptions& opt) {
    asip.validate("asip");
    mesh.validate("mesh");
    energy.validate("energy");
    NetworkMapping out;
    out.network = net.name;
    out.objective = opt.objective;
    out.mode = opt.mode;
    out.n_cores = int(mesh.resolved_cores().size());
    out.core_mhz = asip.core_mhz;
    out.noc_mhz = mesh.noc_mhz;
    std::map<std::string, std::size_t> solved;  // shape key -> layer index (per layer, not a hot path)
    for (const Layer& l : net.layers) {
        auto it = solved.find(l.shape_key());
        if (it != solved.end()) {
            LayerMapping copy = out.layers[it->second];
            copy.name = l.name;
            copy.shape.name = l.name;
            out.layers.push_back(std::move(copy));
            continue;
        }
        solved.emplace(l.shape_key(), out.layers.size());
        out.layers.push_back(map_layer(l, asip, mesh, energy, opt));
    }
    return out;
}

}  // namespace vp::mapper::waving
