#pragma once
// Ring FIFO for the NI's source queue (router buffers and delay lines index their slots
// directly: router.h, link.h).
#include <cstdint>
#include <vector>

namespace vp::noc {

// A FIFO that doubles its storage when full (amortised; used for unbounded source queues of
// synthetic traffic, which BookSim2 also models as infinite).
template <typename T>
class GrowingRing {
public:
    explicit GrowingRing(std::uint32_t initial = 16) {
        std::size_t cap = 2;
        while (cap < initial) cap <<= 1;
        m_data.resize(cap);
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    T& front() { return m_data[m_head]; }
    const T& front() const { return m_data[m_head]; }
    const T& at(std::size_t i) const { return m_data[(m_head + i) & (m_data.size() - 1)]; }
    void push(const T& v) {
        if (m_size == m_data.size()) grow();
        m_data[(m_head + m_size) & (m_data.size() - 1)] = v;
        ++m_size;
    }
    void pop() {
        m_head = (m_head + 1) & (m_data.size() - 1);
        --m_size;
    }

private:
    // Capacity stays a power of 2 (index by mask).
    void grow() {
        std::vector<T> n(m_data.size() * 2);
        for (std::size_t i = 0; i < m_size; ++i) n[i] = m_data[(m_head + i) & (m_data.size() - 1)];
        m_data.swap(n);
        m_head = 0;
    }
    std::vector<T> m_data;
    std::size_t m_head = 0, m_size = 0;
};

}  // namespace vp::noc
