#pragma once
// Point-to-point delay lines between routers and terminals. A sender pushes an item
// with the first cycle it is visible at the receiver (always a later cycle than the
// sender's current one), so the order in which routers are stepped within a cycle
// cannot matter: this is the compute/commit separation of Network::step().
//
// Every push of a line has the same delay and a line takes at most one push per cycle (one
// flit per output port, one credit per input port, one injected or drained flit per NI and
// cycle), and the receiver takes an item in the very cycle it becomes visible (it is stepped
// then: wake wheel, or every cycle). So a line is a ring of slots indexed by the visible cycle:
// a push writes slot ready & mask, the receiver reads slot c & mask in cycle c, and no head or
// size has to be kept.
#include <cassert>
#include <cstdint>
#include <vector>

#include "models/noc/flit.h"
#include "models/noc/wake_wheel.h"

namespace vp::noc {

template <typename T>
class DelayLine {
public:
    static constexpr std::uint64_t kFree = ~std::uint64_t(0);  // `ready` of a slot without an item

    // capacity: delay + 1 at least (the items in flight, and the slot being read in the cycle
    // of a push).
    // receiver_arrivals (optional): the receiver's arrival calendar of `slots` words (a power of 2
    // larger than the line's delay). A push of an item visible in cycle r sets bit `bit` of word
    // r & (slots - 1), so that the receiver takes in cycle r exactly the lines whose bit is set
    // there, instead of testing every line for a ready item.
    void init(std::uint32_t capacity, std::uint32_t* receiver_work, std::uint32_t* receiver_arrivals = nullptr,
              std::uint32_t slots = 1, std::uint32_t bit = 0) {
        std::uint32_t n = 1;
        while (n < capacity) n <<= 1;
        T free_slot{};
        free_slot.ready = kFree;
        m_slots.assign(n, free_slot);
        m_mask = n - 1;
        m_work = receiver_work;
        m_arrivals = receiver_arrivals ? receiver_arrivals : &s_unused_arrivals;
        m_arrival_mask = receiver_arrivals ? slots - 1 : 0;
        m_bit = std::uint32_t(1) << bit;
    }
    // With a wake wheel, every push marks the receiver (wheel target `target`) for the cycle in
    // which the item becomes visible, so that a sleeping receiver is stepped then.
    void set_wake(WakeWheel* wheel, unsigned target) { m_wake = wheel->column(target); }
    bool connected() const { return m_work != nullptr; }
    [[gnu::always_inline]] void push(const T& v) {
        T& s = m_slots[v.ready & m_mask];
        assert(s.ready == kFree && "a delay line got two items for one cycle, or one was not taken in time");
        s = v;
        ++*m_work;
        m_arrivals[v.ready & m_arrival_mask] |= m_bit;
        if (m_wake.word) m_wake.wake(v.ready);
    }
    // True when an item becomes visible in cycle c.
    bool ready(std::uint64_t c) const { return m_slots[c & m_mask].ready == c; }
    // The item visible in cycle c (ready(c)), and taking it.
    const T& front(std::uint64_t c) const { return m_slots[c & m_mask]; }
    void pop(std::uint64_t c) {
        assert(ready(c));
        m_slots[c & m_mask].ready = kFree;
        --*m_work;
    }

    // Inspection (census, tests): the items in flight, and the i-th oldest.
    std::uint32_t size() const {
        std::uint32_t n = 0;
        for (const T& s : m_slots) n += s.ready != kFree;
        return n;
    }
    const T& at(std::uint32_t i) const {
        // The (i+1)-th smallest `ready` among the occupied slots (a few slots only).
        const T* pick = nullptr;
        std::uint64_t above = 0;  // `ready` of the previous pick + 1
        for (std::uint32_t k = 0; k <= i; ++k) {
            pick = nullptr;
            for (const T& s : m_slots)
                if (s.ready != kFree && s.ready >= above && (!pick || s.ready < pick->ready)) pick = &s;
            assert(pick);
            above = pick->ready + 1;
        }
        return *pick;
    }

private:
    std::vector<T> m_slots;  // [ready & m_mask]
    std::uint32_t m_mask = 0;
    std::uint32_t* m_work = nullptr;
    static inline std::uint32_t s_unused_arrivals = 0;  // receivers that test their lines with ready()
    std::uint32_t* m_arrivals = &s_unused_arrivals;
    std::uint32_t m_arrival_mask = 0;
    std::uint32_t m_bit = 0;
    WakeWheel::Column m_wake;  // the receiver's wheel column (no wheel: word is null)
};

using FlitLink = DelayLine<TimedFlit>;
using CreditLink = DelayLine<TimedCredit>;

}  // namespace vp::noc
