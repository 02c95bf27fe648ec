#pragma once
// Exact latency distribution in cycles: count, sum, max and one bucket per cycle value
// (grows on demand, so percentiles are exact). Sampled once per delivered packet.
#include <cstdint>
#include <vector>

namespace vp::noc {

class LatencyStats {
public:
    void sample(std::uint64_t v) {
        if (v >= m_counts.size()) m_counts.resize(v + 1 + v / 2, 0);
        ++m_counts[v];
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
        return m_max;
    }
    const std::vector<std::uint64_t>& counts() const { return m_counts; }

private:
    std::vector<std::uint64_t> m_counts;
    std::uint64_t m_n = 0, m_sum = 0, m_max = 0;
};

}  // namespace vp::noc
