// Delay lines (link.h) keep their items in slots indexed by the cycle they become visible and mark
// the receiver's arrival calendar: the receiver sees an item exactly in its cycle, the calendar
// has the line's bit in exactly those cycles, and the inspection view (size, at) lists the items
// in flight oldest first, as the census and the VC-class test read them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "models/noc/link.h"

using namespace vp::noc;

TEST_CASE("delay line: items visible in their cycle, calendar bits, in-flight view oldest first", "[noc][link]") {
    const std::uint32_t delay = 3;
    const std::uint32_t slots = 4;  // a power of 2 larger than the delay
    std::vector<std::uint32_t> calendar(slots, 0);
    std::uint32_t work = 0;
    FlitLink line;
    line.init(delay + 1, &work, calendar.data(), slots, 2);
    // Pushes in cycles 0, 1 and 3 (none in 2), each visible `delay` cycles later.
    const std::uint64_t sent[] = {0, 1, 3};
    std::uint32_t next = 0;
    std::vector<std::uint32_t> received;
    for (std::uint64_t c = 0; c < 10; ++c) {
        // Receiver side first (its step in cycle c), as a router takes the lines due in c.
        std::uint32_t& due = calendar[c & (slots - 1)];
        const bool expected = c == 3 || c == 4 || c == 6;
        REQUIRE(line.ready(c) == expected);
        REQUIRE(((due >> 2) & 1) == (expected ? 1u : 0u));
        if (line.ready(c)) {
            received.push_back(line.front(c).flit.packet);
            line.pop(c);
        }
        due = 0;
        if (next < 3 && sent[next] == c) {
            TimedFlit tf;
            tf.flit.packet = 100 + next;
            tf.ready = c + delay;
            line.push(tf);
            ++next;
        }
        if (c == 3) {  // in flight now: the flits sent in 1 (visible 4) and 3 (visible 6)
            REQUIRE(line.size() == 2);
            REQUIRE(work == 2);
            REQUIRE(line.at(0).flit.packet == 101);
            REQUIRE(line.at(1).flit.packet == 102);
        }
    }
    REQUIRE(received == std::vector<std::uint32_t>{100, 101, 102});
    REQUIRE(line.size() == 0);
    REQUIRE(work == 0);
}
