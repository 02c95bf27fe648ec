#pragma once
// Point-to-point delay lines between routers and terminals. A sender pushes an item
// with the first cycle it is visible at the receiver (always a later cycle than the
// sender's current one), so the order in which routers are stepped within a cycle
// cannot matter: this is the compute/commit separation of Network::step().
#include <cstdint>

#include "models/noc/flit.h"
#include "models/noc/ring_buffer.h"

namespace vp::noc {

template <typename T>
class DelayLine {
public:
    // capacity: items in flight at most (one push per cycle, delay d -> d items).
    void init(std::uint32_t capacity, std::uint32_t* receiver_work) {
        m_q.reset(capacity);
        m_work = receiver_work;
    }
    bool connected() const { return m_work != nullptr; }
    void push(const T& v) {
        m_q.push(v);
        ++*m_work;
    }
    // True when the oldest item is visible at cycle c.
    bool ready(std::uint64_t c) const { return !m_q.empty() && m_q.front().ready <= c; }
    const T& front() const { return m_q.front(); }
    void pop() {
        m_q.pop();
        --*m_work;
    }
    std::uint32_t size() const { return m_q.size(); }

private:
    RingBuffer<T> m_q;
    std::uint32_t* m_work = nullptr;
};

using FlitLink = DelayLine<TimedFlit>;
using CreditLink = DelayLine<TimedCredit>;

}  // namespace vp::noc
