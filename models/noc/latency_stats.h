#pragma once
// Exact latency distribution in cycles: count, sum, max and a count per cycle value, so that
// percentiles are exact. Values below kDense are counted in a vector (grown on demand up to
// kDense entries); larger ones, rare but reaching millions of cycles for packets queued behind a
// saturated DRAM interface, in an ordered map, so that one such packet does not allocate and copy
// a vector of its latency's size. Sampled once per delivered packet.
#include <cstdint>
#include <map>
#include <vector>

namespace vp::noc {

class LatencyStats {
public:
    static constexpr std::uint64_t kDense = std::uint64_t(1) << 16;

    void sample(std::uint64_t v) {
        if (v < kDense) {
            if (v >= m_counts.size()) {
                std::uint64_t n = v + 1 + v / 2;
                m_counts.resize(n < kDense ? n : kDense, 0);
            }
            ++m_counts[v];
        } else {
            ++m_tail[v];
        }
        ++m_n;
        m_sum += v;
        if (v > m_max) m_max = v;
    }
    std::uint64_t count() const { return m_n; }
    double mean() const { return m_n ? double(m_sum) / double(m_n) : 0.0; }
    std::uint64_t max() const { return m_max; }
    std::uint64_t sum() const { return m_sum; }
    // Smallest value v with at least p% of the samples <= v (nearest-rank definition).
    std::uint64_t percentile(double p) const {
        if (!m_n) return 0;
        std::uint64_t rank = static_cast<std::uint64_t>(p / 100.0 * double(m_n) + 0.999999999);
        if (rank < 1) rank = 1;
        std::uint64_t acc = 0;
        for (std::size_t v = 0; v < m_counts.size(); ++v) {
            acc += m_counts[v];
            if (acc >= rank) return v;
        }
        for (const auto& [v, n] : m_tail) {
            acc += n;
            if (acc >= rank) return v;
        }
        return m_max;
    }
    // Calls f(value, count) for every value sampled at least once, in increasing order.
    template <typename F>
    void for_each(F&& f) const {
        for (std::size_t v = 0; v < m_counts.size(); ++v)
            if (m_counts[v]) f(std::uint64_t(v), m_counts[v]);
        for (const auto& [v, n] : m_tail) f(v, n);
    }

private:
    std::vector<std::uint64_t> m_counts;       // [v] for v < kDense
    std::map<std::uint64_t, std::uint64_t> m_tail;  // v >= kDense: value -> count
    std::uint64_t m_n = 0, m_sum = 0, m_max = 0;
};

}  // namespace vp::noc
