#pragma once
// Calendar of the cycles in which routers (or terminals) must be stepped: a timing wheel of
// bitmaps, one bit per target and slot. wake(t, c) marks target t for cycle c (c at most
// `horizon` cycles ahead of the cycle being stepped); the network steps the targets of the
// current slot in index order and clears it. A target marked more often than needed is stepped
// without effect (a step is idempotent when nothing changed), so callers only must never miss
// a cycle in which a target can act. No allocation after init().
#include <cstdint>
#include <vector>

namespace vp::noc {

class WakeWheel {
public:
    void init(unsigned targets, std::uint64_t horizon) {
        std::uint64_t slots = 2;
        while (slots < horizon + 2) slots <<= 1;
        m_words = (targets + 63) / 64;
        m_mask = slots - 1;
        m_bits.assign(slots * m_words, 0);
    }
    void wake(unsigned target, std::uint64_t cycle) {
        m_bits[(cycle & m_mask) * m_words + (target >> 6)] |= std::uint64_t(1) << (target & 63);
    }
    std::uint64_t* slot(std::uint64_t cycle) { return &m_bits[(cycle & m_mask) * m_words]; }
    // One target's bits over all slots, for a caller that wakes the same target again and again
    // (a delay line): the word and bit are found once. Valid while the wheel is not re-initialised.
    struct Column {
        std::uint64_t* word = nullptr;  // the target's word in slot 0
        std::uint64_t slot_mask = 0;
        unsigned stride = 0;            // words per slot
        std::uint64_t bit = 0;
        void wake(std::uint64_t cycle) const { word[(cycle & slot_mask) * stride] |= bit; }
    };
    Column column(unsigned target) {
        return Column{&m_bits[target >> 6], m_mask, m_words, std::uint64_t(1) << (target & 63)};
    }
    unsigned words() const { return m_words; }

private:
    std::vector<std::uint64_t> m_bits;  // [slot][word]
    std::uint64_t m_mask = 0;
    unsigned m_words = 0;
};

}  // namespace vp::noc
