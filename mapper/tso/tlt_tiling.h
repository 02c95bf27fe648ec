#pragma once
// Algorithm 14 of Tensor Slicing and Optimization for Multicore NPUs (TLTTiling): best tile <T_M, T_N, T_R, T_C> of one TLE slicing
// and one TLT schedule, exhaustive over the tile space.
//
// tlt_tiling() keeps the `keep` best tiles by the time model's screen (every screen is
// monotone in every count at fixed T_MAC). It skips T_M values that cannot win: for fixed
// (T_R, T_C, T_N) the time depends on T_M only through the number of filter chunks (IN
// reloads, W transfers and nmp_conv2d count), which never grows with T_M (burst counts of W
// and OUT are per filter plane, see burst_count.h); so the largest T_M fitting MB1/MB2 is
// the one kept (the candidate list holds one T_M per (T_R, T_C, T_N)). It also stops
// a loop once a bound of Eq. 2 fails, as every constraint is monotone in that loop variable,
// and skips a (T_R, T_C) pair whose lower bound (counts at T_N = N and the largest T_M,
// see tlt_tiling.cpp) is not below TopChoices::prune_s(): the worst kept time once `keep`
// tiles are kept, or, with a shared list of the whole search, the larger of this list's best
// and the shared list's worst (a shortlist of several candidates then prunes almost as much
// as keeping one).
// tlt_tiling_brute_force() enumerates every tile of the domain with no pruning at all; the
// tests check that both give the same optimum time.
#include <vector>

#include "mapper/tso/cost_model.h"
#include "mapper/tso/time_model.h"

namespace vp::mapper::tso {

struct ChoiceCost {
    bool found = false;
    TleSlicing slicing = TleSlicing::KS;
    TltSchedule schedule = TltSchedule::IS;
    Tile tile;
    CostCounts counts;
    CostTimes times;
};

// The same slicing, schedule and tile (T_M, T_N, T_R, T_C; t_h and t_l follow from them).
bool same_choice(const ChoiceCost& a, const ChoiceCost& b);

// The `keep` best choices seen, best first (a later choice must be strictly faster to displace
// an equal one, so ties keep the first found).
class TopChoices {
public:
    // `shared`: the list of the whole search (every slicing and schedule) that this list's
    // choices feed afterwards; it tightens prune_s().
    explicit TopChoices(int keep, const TopChoices* shared = nullptr)
        : m_keep(keep < 1 ? 1 : std::size_t(keep)), m_shared(shared) {
        m_list.reserve(m_keep + 1);
    }
    bool full() const { return m_list.size() >= m_keep; }
    double worst_s() const { return m_list.back().times.total_s; }
    bool would_keep(double t) const { return !full() || t < worst_s(); }
    // A choice whose time is >= this can change neither this list's best nor the shared list
    // (nor this list, when it has no shared list): the bound below which a search must look.
    double prune_s() const;
    void consider(const ChoiceCost& c);
    const std::vector<ChoiceCost>& list() const { return m_list; }

private:
    std::size_t m_keep;
    const TopChoices* m_shared;
    std::vector<ChoiceCost> m_list;
};

void tlt_tiling(const ConvCostModel& m, TltSchedule q, const TimeModel& model, const NmpParams& hw, TopChoices& top);
void tlt_tiling_brute_force(const ConvCostModel& m, TltSchedule q, const TimeModel& model, const NmpParams& hw,
                            TopChoices& top);

// Cost of one given choice under `model` (its final estimate: the replay when the model has
// one); found = the tile fits.
ChoiceCost evaluate_choice(const ConvShape& conv, const NmpParams& hw, TleSlicing p, TltSchedule q, const Tile& t,
                           const TimeModel& model);

}  // namespace vp::mapper::tso
