#include "mapper/tiling/single_core_optimizer.h"

#include "mapper/common/errors.h"

namespace vp::mapper::tiling {

const char* to_string(Objective o) { return o == Objective::MinComp ? "min-comp" : "min-dram"; }

Objective parse_objective(const std::string& s, const std::string& key) {
    if (s == "min-comp") return Objective::MinComp;
    if (s == "min-dram") return Objective::MinDram;
    throw InputError(key + ": unknown objective \"" + s + "\" (known: min-comp, min-dram)");
}

bool better(const TilingCost& a, const Tiling& ta, const TilingCost& b, const Tiling& tb, Objective obj) {
    const double a1 = obj == Objective::MinComp ? a.c_total : double(a.n_dram());
    const double b1 = obj == Objective::MinComp ? b.c_total : double(b.n_dram());
    if (a1 != b1) return a1 < b1;
    const double a2 = obj == Objective::MinComp ? double(a.n_dram()) : a.c_total;
    const double b2 = obj == Objective::MinComp ? double(b.n_dram()) : b.c_total;
    if (a2 != b2) return a2 < b2;
    if (ta.t_if != tb.t_if) return ta.t_if > tb.t_if;
    if (ta.t_of != tb.t_of) return ta.t_of > tb.t_of;
    return ta.t_ox > tb.t_ox;
}

bool optimize_tiling(const SliceDims& d, const CostContext& ctx, Objective obj, TilingResult* out) {
    bool found = false;
    TilingResult best;
    std::uint64_t evaluated = 0;
    for (int t_of = 1; t_of <= d.n_of; ++t_of) {
        // Eq. 19 with T'_if = 1 and T'_ox = 1 is the smallest footprint for this T'_of and it
        // grows with T'_of: once it does not fit, no larger T'_of fits (bound).
        if (max_t_if(d, t_of, 1, ctx.sram_words) == 0) break;
        for (int t_ox = 1; t_ox <= d.n_ox; ++t_ox) {
            const int t_if = max_t_if(d, t_of, t_ox, ctx.sram_words);
            if (t_if == 0) break;  // footprint grows with T'_ox too
            const Tiling t{t_of, t_if, t_ox};
            const TilingCost c = evaluate_tiling(d, t, ctx);
            ++evaluated;
            if (!found || better(c, t, best.cost, best.tiling, obj)) {
                best.tiling = t;
                best.cost = c;
                found = true;
            }
        }
    }
    best.evaluated = evaluated;
    if (found) *out = best;
    return found;
}

TilingResult optimize_tiling_or_throw(const SliceDims& d, const CostContext& ctx, Objective obj,
                                      const std::string& layer_name) {
    TilingResult r;
    if (!optimize_tiling(d, ctx, obj, &r)) {
        const std::int64_t need = sram_words_needed(d, Tiling{1, 1, 1});
        throw InputError("layer \"" + layer_name + "\": the smallest tile (T'_of=1, T'_if=1, T'_ox=1, kernel " +
                         std::to_string(d.ky) + "x" + std::to_string(d.kx) +
                         (d.dx != 1 || d.dy != 1 ? " dilated to " + std::to_string(d.wky()) + "x" + std::to_string(d.wkx()) : "") +
                         ") needs " + std::to_string(need) +
                         " SRAM words but the core has " + std::to_string(ctx.sram_words) +
                         " words; increase core.sram_bytes");
    }
    return r;
}

}  // namespace vp::mapper::tiling
