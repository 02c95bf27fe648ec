// Per-VC ejection: a head that the receiving node refuses blocks its own VC only. The scenario
// is the one the former single ejection FIFO per node could not pass: a request arrives first
// and is refused until the node has received a response, which arrives later on another VC.
// With one FIFO in arrival order the response would wait behind the refused request forever
// (the watchdog would fire); with one queue per VC it is drained past it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "mapper/common/errors.h"
#include "models/noc/network.h"

using namespace vp::noc;

namespace {
// Node `node` refuses write requests until it has received a read response.
struct GatedSink : PacketSink {
    unsigned node = 0;
    bool got_response = false;
    unsigned refusals = 0;
    std::vector<PacketType> order;
    std::vector<std::uint64_t> cycles;
    bool can_accept(unsigned n, const PacketInfo& info) override {
        if (n == node && info.type == PacketType::kWriteRequest && !got_response) {
            ++refusals;
            return false;
        }
        return true;
    }
    void deliver(unsigned, std::uint32_t, const PacketInfo& info, std::uint64_t c) override {
        if (info.type == PacketType::kReadResponse) got_response = true;
        order.push_back(info.type);
        cycles.push_back(c);
    }
};

void run_gated(const std::string& classes) {
    NocParams p;
    p.width = 3;
    p.height = 1;
    p.num_vcs = 2;
    p.buffer_depth = 4;
    p.eject_depth = 4;
    p.message_classes = classes;
    p.watchdog_cycles = 500;
    p.validate("noc");
    Network net(p);
    GatedSink sink;
    sink.node = 1;
    net.set_sink(&sink);
    // A 3-flit write request from node 0 reaches node 1 long before the response from node 2.
    net.send(0, 1, PacketType::kWriteRequest, 16);
    for (int i = 0; i < 40; ++i) net.step();
    REQUIRE(sink.refusals > 0);  // the request's head waits at node 1's ejection port
    REQUIRE(sink.order.empty());
    REQUIRE(net.census().flits_in_ejection > 0);
    net.send(2, 1, PacketType::kReadResponse, 16);
    for (int i = 0; i < 200 && sink.order.size() < 2; ++i) net.step();  // throws if the watchdog fires
    REQUIRE(sink.order.size() == 2);
    // The response was drained past the refused request, which then went through.
    REQUIRE(sink.order[0] == PacketType::kReadResponse);
    REQUIRE(sink.order[1] == PacketType::kWriteRequest);
    REQUIRE(sink.cycles[0] < sink.cycles[1]);
    REQUIRE(net.packets_alive() == 0);
}
}  // namespace

TEST_CASE("a refused head blocks its own VC only: a later response is ejected past it", "[noc][ejection]") {
    SECTION("requests and responses on separate VCs") { run_gated("separate"); }
    SECTION("shared VCs: the response takes the other VC and is ejected past the request") { run_gated("shared"); }
}

TEST_CASE("with a single VC the refused head blocks the node (the per-node FIFO case)", "[noc][ejection]") {
    // One VC is one ejection queue: the situation every node was in before ejection was per VC.
    NocParams p;
    p.width = 3;
    p.height = 1;
    p.num_vcs = 1;
    p.message_classes = "shared";
    p.watchdog_cycles = 300;
    p.validate("noc");
    Network net(p);
    GatedSink sink;
    sink.node = 1;
    net.set_sink(&sink);
    net.send(0, 1, PacketType::kWriteRequest, 16);
    for (int i = 0; i < 40; ++i) net.step();
    net.send(2, 1, PacketType::kReadResponse, 16);
    bool deadlock = false;
    try {
        for (int i = 0; i < 2000; ++i) net.step();
    } catch (const vp::SimulationError& e) {
        deadlock = std::string(e.what()).find("deadlock") != std::string::npos;
    }
    REQUIRE(deadlock);
    REQUIRE(sink.order.empty());
}

TEST_CASE("message classes: requests and responses never share a VC", "[noc][classes]") {
    NocParams p;
    p.num_vcs = 5;
    p.validate("noc");
    REQUIRE(p.class_vc_mask(MessageClass::kRequest) == 0b00111);   // ceil(5 / 2) request VCs
    REQUIRE(p.class_vc_mask(MessageClass::kResponse) == 0b11000);
    REQUIRE(p.class_vc_mask(MessageClass::kAny) == 0b11111);
    p.request_vcs = 1;
    p.validate("noc");
    REQUIRE(p.class_vc_mask(MessageClass::kRequest) == 0b00001);
    REQUIRE(p.class_vc_mask(MessageClass::kResponse) == 0b11110);
    p.message_classes = "shared";
    p.request_vcs = 0;
    p.validate("noc");
    REQUIRE(p.class_vc_mask(MessageClass::kRequest) == 0b11111);
    REQUIRE(p.class_vc_mask(MessageClass::kResponse) == 0b11111);
    // Every packet type has a class; syncs travel with the requests, synthetic packets anywhere.
    REQUIRE(message_class(PacketType::kSync) == MessageClass::kRequest);
    REQUIRE(message_class(PacketType::kPostedWrite) == MessageClass::kRequest);
    REQUIRE(message_class(PacketType::kWriteAck) == MessageClass::kResponse);
    REQUIRE(message_class(PacketType::kSynthetic) == MessageClass::kAny);
}

TEST_CASE("message classes are validated with the key and the fix", "[noc][classes][params]") {
    NocParams p;
    p.num_vcs = 1;
    p.validate("noc");  // a single VC is fine for synthetic traffic
    REQUIRE_THROWS_WITH(p.validate_message_classes("noc"),
                        Catch::Contains("noc.num_vcs") && Catch::Contains("num_vcs >= 2") &&
                            Catch::Contains("message_classes: shared"));
    p.message_classes = "shared";
    REQUIRE_NOTHROW(p.validate_message_classes("noc"));
    p = NocParams{};
    p.message_classes = "split";
    REQUIRE_THROWS_WITH(p.validate("noc"), Catch::Contains("noc.message_classes") && Catch::Contains("separate, shared"));
    p = NocParams{};
    p.request_vcs = 2;  // num_vcs 2: at most 1
    REQUIRE_THROWS_WITH(p.validate("noc"), Catch::Contains("noc.request_vcs") && Catch::Contains("[1, 1]"));
    p = NocParams{};
    p.message_classes = "shared";
    p.request_vcs = 1;
    REQUIRE_THROWS_WITH(p.validate("noc"), Catch::Contains("noc.request_vcs"));
}

TEST_CASE("packets keep to the VCs of their class on every link", "[noc][classes]") {
    // All-to-all write requests and read responses on a 4x4 mesh: every flit on every link
    // (injection, router-to-router, ejection), inspected after every cycle, travels on a VC of
    // its packet's class; with shared classes both classes do use the VCs of the other.
    for (const char* classes : {"separate", "shared"}) {
        for (const char* routing : {"xy", "west_first", "odd_even"}) {
            NocParams p;
            p.width = p.height = 4;
            p.num_vcs = 3;
            p.routing = routing;
            p.message_classes = classes;
            p.validate("noc");
            Network net(p);
            struct Sink : PacketSink {
                unsigned n = 0;
                void deliver(unsigned, std::uint32_t, const PacketInfo&, std::uint64_t) override { ++n; }
            } sink;
            net.set_sink(&sink);
            unsigned sent = 0;
            for (unsigned s = 0; s < 16; ++s)
                for (unsigned d = 0; d < 16; ++d) {
                    net.send(s, d, (s + d) % 2 ? PacketType::kReadResponse : PacketType::kWriteRequest, 24);
                    ++sent;
                }
            const std::uint32_t req = p.class_vc_mask(MessageClass::kRequest);
            const std::uint32_t resp = p.class_vc_mask(MessageClass::kResponse);
            std::uint64_t outside = 0, seen = 0, req_used = 0, resp_used = 0;
            for (int i = 0; i < 20000 && !net.idle(); ++i) {
                net.step();
                for (std::size_t l = 0; l < net.num_flit_links(); ++l) {
                    const FlitLink& link = net.flit_link(l);
                    for (std::uint32_t k = 0; k < link.size(); ++k) {
                        const Flit& f = link.at(k).flit;
                        const bool is_req = f.type == PacketType::kWriteRequest;
                        const std::uint32_t allowed = is_req ? req : resp;
                        outside += (allowed >> f.vc & 1) ? 0 : 1;
                        (is_req ? req_used : resp_used) |= std::uint64_t(1) << f.vc;
                        ++seen;
                    }
                }
            }
            INFO(classes << " " << routing);
            REQUIRE(sink.n == sent);
            REQUIRE(seen > 0);
            REQUIRE(outside == 0);
            if (std::string(classes) == "separate") {
                REQUIRE(req_used != 0);
                REQUIRE((req_used & ~std::uint64_t(req)) == 0);  // VCs 0 and 1 (ceil(3 / 2) request VCs)
                REQUIRE(resp_used == 0b100);                      // VC 2
            } else {
                REQUIRE((req_used & resp_used) != 0);  // shared: the classes meet on some VC
            }
        }
    }
}
