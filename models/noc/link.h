#pragma once
// Point-to-point delay lines between routers and terminals. A sender pushes an item
// with the first cycle it is visible at the receiver (always a later cycle than the
// sender's current one), so the order in which routers are stepped within a cycle
// cannot matter: this is the compute/commit separation of Network::step().
#include <cstdint>

#include "models/noc/flit.h"
#include "models/noc/ring_buffer.h"
#include "models/noc/wake_wheel.h"

namespace vp::noc {

template <typename T>
class DelayLine {
public:
    // capacity: items in flight at most (one push per cycle, delay d -> d items).
    // receiver_mask (optional): bit `bit` is set there while the line holds items, so that the
    // receiver visits only non-empty lines.
    void init(std::uint32_t capacity, std::uint32_t* receiver_work, std::uint32_t* receiver_mask = nullptr,
              std::uint32_t bit = 0) {
        m_q.reset(capacity);
        m_work = receiver_work;
        m_mask = receiver_mask ? receiver_mask : &s_unused_mask;
        m_bit = std::uint32_t(1) << bit;
    }
    // With a wake wheel, every push marks the receiver (wheel target `target`) for the cycle in
    // which the item becomes visible, so that a sleeping receiver is stepped then.
    void set_wake(WakeWheel* wheel, unsigned target) {
        m_wheel = wheel;
        m_target = target;
    }
    bool connected() const { return m_work != nullptr; }
    void push(const T& v) {
        m_q.push(v);
        ++*m_work;
        *m_mask |= m_bit;
        if (m_wheel) m_wheel->wake(m_target, v.ready);
    }
    // True when the oldest item is visible at cycle c.
    bool ready(std::uint64_t c) const { return !m_q.empty() && m_q.front().ready <= c; }
    const T& front() const { return m_q.front(); }
    void pop() {
        m_q.pop();
        --*m_work;
        if (m_q.empty()) *m_mask &= ~m_bit;
    }
    std::uint32_t size() const { return m_q.size(); }
    const T& at(std::uint32_t i) const { return m_q.at(i); }  // i-th oldest item (inspection)

private:
    RingBuffer<T> m_q;
    std::uint32_t* m_work = nullptr;
    static inline std::uint32_t s_unused_mask = 0;  // receivers that do not track their lines
    std::uint32_t* m_mask = &s_unused_mask;
    std::uint32_t m_bit = 0;
    WakeWheel* m_wheel = nullptr;
    unsigned m_target = 0;
};

using FlitLink = DelayLine<TimedFlit>;
using CreditLink = DelayLine<TimedCredit>;

}  // namespace vp::noc
