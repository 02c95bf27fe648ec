// The period of a one-source stream of equal packets (a core streaming to the DRAM interface's node,
// the source never empty) against the analytic value, computed here from the parameters only:
//   period(F) = F + g + min(H, floor((F - 1) / B)) * max(0, g - (B - R))
// g = the head's cycles before switch allocation that a body flit skips (RC, VA: P - 2 for P >= 3),
// R = 1 + L + credit_delay the credit round trip of a body flit, B = buffer_depth >= R, H the hops
// between the source's and the destination's routers. The head of each packet waits behind the
// previous tail in the first router (g per packet); at a router whose input buffer the head's wait
// fills beyond the slack B - R, the stream loses g - (B - R) once per hop that the packet spans
// (F - 1 >= j B for the j-th hop). docs/mesh.md, "Tried: the cost per packet of a one-core stream".
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "models/noc/network.h"

using namespace vp::noc;

namespace {
struct Drains : PacketSink {
    unsigned dst = 0;
    std::vector<std::uint64_t> cycles;
    void deliver(unsigned node, std::uint32_t, const PacketInfo& info, std::uint64_t c) override {
        if (node == dst && info.num_flits > 1) cycles.push_back(c);
    }
};

// Steady drain interval of data packets of `flits` flits from node src to node dst, each answered
// by a 1-flit packet of the other message class in the other direction.
double stream_period(const NocParams& p, unsigned src, unsigned dst, bool write, unsigned flits) {
    Network net(p);
    Drains sink;
    sink.dst = dst;
    net.set_sink(&sink);
    const unsigned packets = 120;
    unsigned sent = 0;
    for (int guard = 0; sink.cycles.size() < packets && guard < 200000; ++guard) {
        while (sent < packets && net.queued_packets(src) < 2) {
            net.send(src, dst, write ? PacketType::kWriteRequest : PacketType::kReadResponse, 0, 0, 0, nullptr, flits);
            net.send(dst, src, write ? PacketType::kWriteAck : PacketType::kReadRequest, 0, 0, 0, nullptr, 1);
            ++sent;
        }
        net.step();
    }
    REQUIRE(sink.cycles.size() == packets);
    const std::size_t w = packets / 4, e = packets - 1;
    return double(sink.cycles[e] - sink.cycles[w]) / double(e - w);
}
}  // namespace

TEST_CASE("a one-source stream of packets takes F + head gap + credit stalls per packet", "[noc][stream]") {
    struct Case {
        unsigned stages, link, credit;
    };
    const Case cases[] = {{4, 1, 1}, {3, 1, 1}, {5, 1, 1}, {4, 2, 2}, {6, 1, 2}};
    for (const Case& k : cases) {
        const unsigned gap = std::max(k.stages, 3u) - 3 + (k.stages >= 3 ? 1 : 0);
        const unsigned round_trip = 1 + k.link + k.credit;
        for (unsigned depth = round_trip; depth <= round_trip + 3; ++depth)
            for (unsigned hops = 1; hops <= 3; ++hops)
                for (const bool write : {true, false})
                    for (unsigned flits = 2; flits <= 13; flits += (flits < 10 ? 1 : 3)) {
                        NocParams p;  // the mesh platform's NoC: 4x4, 2 VCs, separate message classes
                        p.router_stages = k.stages;
                        p.link_latency = k.link;
                        p.credit_delay = k.credit;
                        p.buffer_depth = depth;
                        p.validate("noc");
                        // The core at (hops, 0), the DRAM interface's node at (0, 0).
                        const unsigned core = hops, dram_if = 0;
                        const double stalls = std::min(hops, (flits - 1) / depth);
                        const double slack = double(depth) - double(round_trip);
                        const double expect = flits + gap + stalls * std::max(0.0, double(gap) - slack);
                        INFO("P " << k.stages << " L " << k.link << " credit " << k.credit << " B " << depth
                                  << " hops " << hops << (write ? " write" : " read") << " F " << flits);
                        CHECK(stream_period(p, write ? core : dram_if, write ? dram_if : core, write, flits) == expect);
                    }
    }
}
