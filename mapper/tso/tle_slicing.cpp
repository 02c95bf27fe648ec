#include "mapper/tso/tle_slicing.h"

namespace vp::mapper::tso {

std::vector<Range> split_even(int total, int parts) {
    std::vector<Range> out(std::size_t(parts > 0 ? parts : 0));
    if (parts <= 0) return out;
    const int base = total / parts, extra = total % parts;
    int at = 0;
    for (int i = 0; i < parts; ++i) {
        out[std::size_t(i)] = Range{at, base + (i < extra ? 1 : 0)};
        at += out[std::size_t(i)].count;
    }
    return out;
}

int ks_ofm_row_sets(int n_tle) {
    int best = 1;
    for (int a = 1; a * a <= n_tle; ++a)
        if (n_tle % a == 0) best = a;
    return best;
}

std::vector<TleSlice> tle_slicing(TleSlicing p, int P, int M, int N, int n_tle) {
    std::vector<TleSlice> s(static_cast<std::size_t>(n_tle));
    switch (p) {
    case TleSlicing::KS: {  // Alg. 13 line 4: filters split, every TLE computes all rows
        auto f = split_even(M, n_tle);
        for (int t = 0; t < n_tle; ++t) s[std::size_t(t)] = TleSlice{Range{0, P}, f[std::size_t(t)], Range{}};
        break;
    }
    case TleSlicing::KS_OFM: {  // line 7: rows x filters grid
        const int a = ks_ofm_row_sets(n_tle), b = n_tle / a;
        auto r = split_even(P, a);
        auto f = split_even(M, b);
        for (int i = 0; i < a; ++i)
            for (int j = 0; j < b; ++j) s[std::size_t(i * b + j)] = TleSlice{r[std::size_t(i)], f[std::size_t(j)], Range{}};
        break;
    }
    case TleSlicing::OFM: {  // line 12: rows split, every TLE uses all filters
        auto r = split_even(P, n_tle);
        for (int t = 0; t < n_tle; ++t) s[std::size_t(t)] = TleSlice{r[std::size_t(t)], Range{0, M}, Range{}};
        break;
    }
    case TleSlicing::IFM_CH: {  // input channels split, every TLE all rows and filters
        auto ch = split_even(N, n_tle);
        for (int t = 0; t < n_tle; ++t) {
            const Range& c = ch[std::size_t(t)];
            s[std::size_t(t)] = c.count > 0 ? TleSlice{Range{0, P}, Range{0, M}, c} : TleSlice{Range{0, 0}, Range{0, 0}, c};
        }
        return s;
    }
    }
    for (auto& x : s) x.chans = Range{0, N};
    return s;
}

std::vector<int> ifm_ch_active(const std::vector<TleSlice>& slices) {
    std::vector<int> a;
    for (std::size_t t = 0; t < slices.size(); ++t)
        if (slices[t].rows.count > 0 && slices[t].filters.count > 0) a.push_back(int(t));
    return a;
}

std::vector<Range> tlt_filter_split(const Range& tle_filters, int n_tlt) {
    auto parts = split_even(tle_filters.count, n_tlt);
    for (auto& r : parts) r.begin += tle_filters.begin;
    return parts;
}

}  // namespace vp::mapper::tso
