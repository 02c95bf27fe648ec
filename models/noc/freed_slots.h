#pragma once
// Slots an endpoint freed at the current instant of simulated time. The NoC asks an endpoint
// whether a head may eject (can_accept) while the endpoint's own process may free a slot at the
// same instant, before or after, in an order the kernel chooses; counting the slots freed at this
// instant as still taken gives one answer whatever that order (docs/noc.md, "One time step, one
// answer").
#include <cstdint>

namespace vp::noc {

class FreedSlots {
public:
    // A slot was freed at time `now` (kernel time units).
    void add(std::uint64_t now) {
        if (m_at != now) {
            m_at = now;
            m_count = 0;
        }
        ++m_count;
    }
    // Slots freed at time `now` (0 once time has moved on).
    unsigned at(std::uint64_t now) const { return m_at == now ? m_count : 0; }

private:
    std::uint64_t m_at = ~std::uint64_t(0);
    unsigned m_count = 0;
};

}  // namespace vp::noc
