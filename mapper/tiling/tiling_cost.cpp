#include "mapper/tiling/tiling_cost.h"

#include <algorithm>

#include "mapper/common/int_math.h"

namespace vp::mapper::tiling {

namespace {

// Tiles of a dimension n with tile size t: `full` tiles of size t and one tile of size
// `rem` if rem > 0 (Eqs. 1-4: S' = ceil(n / t)).
struct TileClasses {
    std::uint64_t full, size, rem;
    TileClasses(int n, int t) : full(std::uint64_t(n / t)), size(std::uint64_t(t)), rem(std::uint64_t(n % t)) {}
    std::uint64_t count() const { return full + (rem ? 1 : 0); }
    template <class F>
    std::uint64_t sum(F f) const { return full * f(size) + (rem ? f(rem) : 0); }
};

}  // namespace

double dram_words_per_core_cycle(int flit_bits, int word_bits, double noc_mhz, double core_mhz) {
    return (double(flit_bits) / double(word_bits)) * (noc_mhz / core_mhz);
}

CostContext make_cost_context(const AsipParams& asip, int flit_bits, double noc_mhz) {
    CostContext c;
    c.p_ox = asip.p_ox;
    c.p_of = asip.p_of;
    c.bw_sram = asip.bw_sram_words();
    c.bw_dram = dram_words_per_core_cycle(flit_bits, asip.word_bits, noc_mhz, asip.core_mhz);
    c.sram_words = asip.sram_words();
    return c;
}

std::int64_t sram_words_needed(const SliceDims& d, const Tiling& t) {
    const std::int64_t tof = std::min(t.t_of, d.n_of), tif = std::min(t.t_if, d.n_if);
    const std::int64_t tox = std::min(t.t_ox, d.n_ox);
    const std::int64_t tix = (tox - 1) * d.sx + d.wkx();
    return tif * (tof * d.k2() + std::int64_t(d.ifmap_buffer_rows()) * tix) + 3 * tof * tox;
}

int max_t_if(const SliceDims& d, int t_of, int t_ox, std::int64_t sram_words) {
    const std::int64_t tix = std::int64_t(t_ox - 1) * d.sx + d.wkx();
    const std::int64_t left = sram_words - 3 * std::int64_t(t_of) * t_ox;
    const std::int64_t per_if = std::int64_t(t_of) * d.k2() + std::int64_t(d.ifmap_buffer_rows()) * tix;
    if (left < per_if) return 0;
    return int(std::min<std::int64_t>(left / per_if, d.n_if));
}

TilingCost evaluate_tiling(const SliceDims& d, const Tiling& t_in, const CostContext& ctx) {
    Tiling t{std::min(t_in.t_of, d.n_of), std::min(t_in.t_if, d.n_if), std::min(t_in.t_ox, d.n_ox)};
    TilingCost c;
    c.sram_words_used = sram_words_needed(d, t);
    c.fits = c.sram_words_used <= ctx.sram_words;

    const TileClasses of(d.n_of, t.t_of), ifc(d.n_if, t.t_if), ox(d.n_ox, t.t_ox);
    c.s_of = of.count();
    c.s_if = ifc.count();
    c.s_ox = ox.count();
    const std::uint64_t n_of = std::uint64_t(d.n_of), n_if = std::uint64_t(d.n_if), n_ox = std::uint64_t(d.n_ox);
    const std::uint64_t noy = std::uint64_t(d.n_oy), k2 = std::uint64_t(d.k2()), ky = std::uint64_t(d.wky());
    const std::uint64_t rows = std::uint64_t(d.ifmap_rows());
    const auto tix = [&](std::uint64_t tox) { return (tox - 1) * std::uint64_t(d.sx) + std::uint64_t(d.wkx()); };
    const std::uint64_t sum_tix = ox.sum(tix);

    // Filters: each (of tile, if tile) once per run, reused across ox tiles (all init).
    c.filter_words = n_of * n_if * k2;
    // Ifmap: every (of tile, if tile, ox tile) loads tif x tix x rows; the first rows of the window
    // (N_ky, or (N_ky - 1) dilation + 1) are init.
    const std::uint64_t ifmap_init = c.s_of * n_if * sum_tix * ky;
    const std::uint64_t ifmap_par = c.s_of * n_if * sum_tix * (rows - ky);
    c.ifmap_words = ifmap_init + ifmap_par;
    // Psums: loaded for if tiles > 0 (row 0 init, rows 1.. par); stored for every if tile
    // (last row init = drain).
    const std::uint64_t plane = n_of * n_ox;
    c.psum_load_words = (c.s_if - 1) * plane * noy;
    c.store_words = c.s_if * plane * noy;
    c.n_dram_init = c.filter_words + ifmap_init + (c.s_if - 1) * plane + c.s_if * plane;
    c.n_dram_par = ifmap_par + (c.s_if - 1) * plane * (noy - 1) + c.s_if * plane * (noy - 1);

    c.macs = n_of * n_ox * noy * n_if * k2;
    // Eq. 9: every ofmap row of every tile takes ceil(tof/P_of) ceil(tox/P_ox) tif N_kx N_ky cycles;
    // summed over if tiles, tif sums to N_if.
    const std::uint64_t pof = std::uint64_t(ctx.p_of), pox = std::uint64_t(ctx.p_ox);
    c.c_comp = noy * n_if * k2 * of.sum([&](std::uint64_t v) { return ceil_div(v, pof); }) *
               ox.sum([&](std::uint64_t v) { return ceil_div(v, pox); });
    // Eq. 11 (ASSUMPTION on its form): for if tiles > 0 every row first moves its psum row
    // (tof x tox words) at BW_sram words per cycle.
    const std::uint64_t bws = std::uint64_t(ctx.bw_sram);
    const std::uint64_t pf_per_row = of.sum([&](std::uint64_t a) {
        return ox.sum([&](std::uint64_t b) { return ceil_div(a * b, bws); });
    });
    c.c_pfetch = noy * (c.s_if - 1) * pf_per_row;

    c.c_dram_par = double(c.n_dram_par) / ctx.bw_dram;     // Eq. 12
    c.c_outer_loop = double(c.n_dram_init) / ctx.bw_dram;  // Eq. 14/15
    c.c_inner_loop = std::max(double(c.c_compute()), c.c_dram_par);  // Eq. 16/17
    c.c_total = c.c_outer_loop + c.c_inner_loop;           // Eq. 18
    return c;
}

}  // namespace vp::mapper::tiling
