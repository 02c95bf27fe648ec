// Conservation and exactly-once delivery under synthetic traffic, up to and past
// saturation, and identical statistics for the two stepping modes.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "models/common/stats.h"
#include "models/noc/noc_stats.h"
#include "models/noc/synthetic_traffic.h"

using namespace vp::noc;

namespace {
NocParams mesh(unsigned w, unsigned h, const std::string& routing, unsigned vcs, const std::string& stepping) {
    NocParams p;
    p.width = w;
    p.height = h;
    p.routing = routing;
    p.num_vcs = vcs;
    p.stepping = stepping;
    p.validate("noc");
    return p;
}

struct RunOutput {
    std::string stats_json;
    TrafficResult r;
    std::uint64_t router_steps = 0;
};

RunOutput run_once(const NocParams& p, TrafficParams t) {
    Network net(p);
    SyntheticTraffic traffic(net, t);
    RunOutput o;
    o.r = traffic.run();
    o.router_steps = net.router_steps();
    vp::stats::Registry root;
    vp::stats::Group g(root, "noc");
    NocStats stats(g, net);
    stats.update();
    o.stats_json = root.to_json().dump();
    return o;
}
}  // namespace

TEST_CASE("every packet is delivered exactly once and flits are conserved, below and past saturation", "[noc][traffic]") {
    const char* patterns[] = {"uniform", "transpose", "bit_complement", "hotspot"};
    const double rates[] = {0.02, 0.15, 0.35, 0.8};
    for (const char* routing : {"xy", "west_first", "odd_even"}) {
        for (unsigned vcs : {1u, 2u}) {
            for (const char* pat : patterns) {
                for (double rate : rates) {
                    NocParams p = mesh(4, 4, routing, vcs, "active");
                    TrafficParams t;
                    t.pattern = pat;
                    t.rate = rate;
                    t.packet_flits = 4;
                    t.hotspot_node = 5;
                    t.hotspot_fraction = 0.3;
                    t.warmup_cycles = 100;
                    t.measure_cycles = 600;
                    t.drain_max_cycles = 200000;
                    t.inject_while_draining = false;
                    t.seed = 11;
                    Network net(p);
                    SyntheticTraffic traffic(net, t);
                    traffic.track_deliveries(true);
                    const TrafficResult r = traffic.run();
                    INFO(routing << " vcs=" << vcs << " " << pat << " rate " << rate);
                    REQUIRE(r.drained);
                    REQUIRE(net.idle());
                    const NetworkTotals& tot = net.totals();
                    REQUIRE(tot.packets_created > 0);
                    REQUIRE(tot.term.flits_injected == tot.flits_created);
                    REQUIRE(tot.term.flits_ejected == tot.flits_created);
                    REQUIRE(tot.term.packets_ejected == tot.packets_created);
                    REQUIRE(net.packets_alive() == 0);
                    const auto& d = traffic.deliveries();
                    REQUIRE(d.size() >= tot.packets_created);
                    for (std::size_t i = 0; i < tot.packets_created; ++i) REQUIRE(d[i] == 1);
                    for (std::size_t i = tot.packets_created; i < d.size(); ++i) REQUIRE(d[i] == 0);
                    // Per-router bookkeeping: what enters a router leaves it.
                    std::uint64_t local_in = 0, local_out = 0;
                    for (unsigned i = 0; i < net.num_nodes(); ++i) {
                        const RouterCounters& c = net.router(i).counters();
                        std::uint64_t in = 0, out = 0;
                        for (unsigned q = 0; q < kNumPorts; ++q) {
                            in += c.flits_in[q];
                            out += c.flits_out[q];
                        }
                        REQUIRE(in == out);
                        local_in += c.flits_in[kLocal];
                        local_out += c.flits_out[kLocal];
                    }
                    REQUIRE(local_in == tot.flits_created);
                    REQUIRE(local_out == tot.flits_created);
                }
            }
        }
    }
}

TEST_CASE("accepted throughput follows offered load below saturation and saturates above", "[noc][traffic]") {
    NocParams p = mesh(4, 4, "xy", 1, "active");
    TrafficParams t;
    t.packet_flits = 4;
    t.warmup_cycles = 500;
    t.measure_cycles = 3000;
    t.rate = 0.05;
    Network a(p);
    SyntheticTraffic ta(a, t);
    const TrafficResult low = ta.run();
    // Below saturation accepted ~= offered (Bernoulli noise, 16 nodes x 3000 cycles).
    REQUIRE(low.accepted == Approx(low.offered).epsilon(0.1));
    REQUIRE(low.offered == Approx(0.05).epsilon(0.1));
    t.rate = 0.9;
    t.drain_max_cycles = 0;
    Network b(p);
    SyntheticTraffic tb(b, t);
    const TrafficResult high = tb.run();
    // Far past saturation the network cannot accept what is offered.
    REQUIRE(high.accepted < 0.75 * high.offered);
    // Bisection bound of a k x k mesh under uniform traffic: 4 / k = 1 flit/node/cycle for k = 4.
    REQUIRE(high.accepted <= 1.0);
}

TEST_CASE("active stepping and stepping every router give byte-identical statistics", "[noc][stepping]") {
    const char* patterns[] = {"uniform", "transpose", "bit_complement", "hotspot"};
    for (const char* routing : {"xy", "west_first"}) {
        for (unsigned vcs : {1u, 3u}) {
            for (const char* pat : patterns) {
                for (double rate : {0.01, 0.1, 0.3, 0.7}) {
                    TrafficParams t;
                    t.pattern = pat;
                    t.rate = rate;
                    t.packet_flits = 5;
                    t.hotspot_fraction = 0.2;
                    t.hotspot_node = 3;
                    t.warmup_cycles = 100;
                    t.measure_cycles = 800;
                    t.drain_max_cycles = 3000;
                    t.seed = 99;
                    const RunOutput a = run_once(mesh(4, 4, routing, vcs, "active"), t);
                    const RunOutput b = run_once(mesh(4, 4, routing, vcs, "all"), t);
                    INFO(routing << " vcs=" << vcs << " " << pat << " rate " << rate);
                    REQUIRE(a.r.measured_packets > 0);
                    REQUIRE(a.stats_json == b.stats_json);
                    REQUIRE(a.r.cycles == b.r.cycles);
                    REQUIRE(a.r.packet_latency_avg == b.r.packet_latency_avg);
                    // "all" steps every router every cycle; "active" really skips idle ones at low load.
                    REQUIRE(b.router_steps == 16 * b.r.cycles);
                    if (rate <= 0.01) REQUIRE(a.router_steps < b.router_steps / 2);
                }
            }
        }
    }
    // A non-square mesh too.
    TrafficParams t;
    t.rate = 0.2;
    t.measure_cycles = 500;
    const RunOutput a = run_once(mesh(5, 3, "odd_even", 2, "active"), t);
    const RunOutput b = run_once(mesh(5, 3, "odd_even", 2, "all"), t);
    REQUIRE(a.stats_json == b.stats_json);
}

// Regression check of the sleeping routers: the wake times depend on the pipeline delays, so
// every router depth, link latency, credit delay and buffer depth is run below and far past
// saturation with every routing and several VC counts (statistics of "all" = "active").
TEST_CASE("sleeping routers give byte-identical statistics for every pipeline timing, at saturation too",
          "[noc][stepping]") {
    struct Timing {
        unsigned stages, link, credit, buffer;
    };
    const Timing timings[] = {{1, 1, 1, 1}, {2, 1, 2, 2}, {3, 2, 1, 4}, {4, 1, 1, 4}, {4, 2, 2, 8}, {6, 3, 3, 2}};
    std::uint64_t active_steps = 0, all_steps = 0;
    unsigned runs = 0;
    for (const Timing& tm : timings) {
        for (const char* routing : {"xy", "west_first", "odd_even"}) {
            for (unsigned vcs : {1u, 2u, 4u}) {
                for (double rate : {0.05, 0.4, 0.9}) {
                    TrafficParams t;
                    t.pattern = runs % 2 ? "hotspot" : "uniform";
                    t.rate = rate;
                    t.packet_flits = 4 + runs % 3;
                    t.hotspot_fraction = 0.3;
                    t.hotspot_node = 5;
                    t.warmup_cycles = 50;
                    t.measure_cycles = 400;
                    t.drain_max_cycles = 20000;
                    t.seed = 7 + runs++;
                    NocParams pa = mesh(4, 4, routing, vcs, "active"), pb = mesh(4, 4, routing, vcs, "all");
                    for (NocParams* p : {&pa, &pb}) {
                        p->router_stages = tm.stages;
                        p->link_latency = tm.link;
                        p->credit_delay = tm.credit;
                        p->buffer_depth = tm.buffer;
                        p->validate("noc");
                    }
                    const RunOutput a = run_once(pa, t);
                    const RunOutput b = run_once(pb, t);
                    INFO(routing << " vcs=" << vcs << " stages=" << tm.stages << " link=" << tm.link
                                 << " credit=" << tm.credit << " buffer=" << tm.buffer << " rate " << rate);
                    REQUIRE(a.r.measured_packets > 0);
                    REQUIRE(a.stats_json == b.stats_json);
                    REQUIRE(a.r.cycles == b.r.cycles);
                    if (rate > 0.5) {
                        active_steps += a.router_steps;
                        all_steps += b.router_steps;
                    }
                }
            }
        }
    }
    // Past saturation blocked routers really sleep (routers holding flits are not all stepped).
    REQUIRE(active_steps < all_steps);
}

TEST_CASE("same seed gives the same result, another seed a different one", "[noc][traffic]") {
    NocParams p = mesh(4, 4, "xy", 1, "active");
    TrafficParams t;
    t.rate = 0.2;
    t.measure_cycles = 1000;
    const RunOutput a = run_once(p, t);
    const RunOutput b = run_once(p, t);
    t.seed = 2;
    const RunOutput c = run_once(p, t);
    REQUIRE(a.stats_json == b.stats_json);
    REQUIRE(a.stats_json != c.stats_json);
}

TEST_CASE("bad parameters are rejected with the key and the known names", "[noc][params]") {
    NocParams p;
    p.routing = "zigzag";
    REQUIRE_THROWS_WITH(p.validate("noc"), Catch::Contains("noc.routing") && Catch::Contains("xy, west_first, odd_even"));
    p = NocParams{};
    p.buffer_depth = 0;
    REQUIRE_THROWS_WITH(p.validate("noc"), Catch::Contains("noc.buffer_depth"));
    p = NocParams{};
    p.stepping = "some";
    REQUIRE_THROWS_WITH(p.validate("x.noc"), Catch::Contains("x.noc.stepping"));
    TrafficParams t;
    t.pattern = "tornado";
    REQUIRE_THROWS_WITH(t.validate("traffic", NocParams{}), Catch::Contains("known: uniform, transpose"));
}

// The injection process compares 53-bit integers with ceil(p * 2^53) instead of building a double
// per node and cycle. Checked against the textbook form (unit_random(rng) >= p: no packet, else the
// pattern draws the destination) re-implemented here on a second generator with the same seed: the
// packets created by every node in every cycle must be the same, for rates whose p * 2^53 is an
// integer (the boundary u == p can occur), rates whose p is not a dyadic fraction, and p >= 1.
TEST_CASE("Bernoulli injection by integer threshold equals the floating-point comparison", "[noc][traffic]") {
    const std::pair<double, unsigned> cases[] = {{0.001, 8}, {0.05, 8}, {0.3, 8}, {0.5, 8}, {0.7, 3}, {1.0, 1}};
    for (const auto& [rate, flits] : cases) {
        INFO("rate " << rate << ", packet_flits " << flits);
        const NocParams p = mesh(4, 4, "xy", 1, "active");
        Network net(p);
        TrafficParams t;
        t.rate = rate;
        t.packet_flits = flits;
        t.seed = 7;
        SyntheticTraffic traffic(net, t);
        std::mt19937_64 ref(t.seed);
        PatternContext ctx;
        ctx.width = ctx.height = 4;
        const double prob = rate / double(flits);
        std::vector<std::size_t> expected(16, 0);
        std::uint64_t total = 0;
        for (int c = 0; c < 3000; ++c) {  // no step: packets stay in the source queues
            for (unsigned s = 0; s < 16; ++s) {
                if (unit_random(ref) >= prob) continue;
                if (pattern_uniform(s, ctx, ref) == kNoPacket) continue;
                ++expected[s];
                ++total;
            }
            traffic.inject();
            for (unsigned s = 0; s < 16; ++s) REQUIRE(net.queued_packets(s) == expected[s]);
        }
        CHECK(net.totals().packets_created == total);
        if (flits == 1 && rate == 1.0) CHECK(total == 3000u * 16u);
    }
}

// Geometric injection draws, per node, the number of empty cycles before its next packet. Checked
// against the geometric law P(gap = k) = (1 - p)^k p: the gap function over a fine uniform grid of
// u gives each k with probability within 1e-4 of the law (it is the exact inverse of the CDF up to
// the grid), and the packets one node creates over many cycles have the Bernoulli mean and
// variance (counts per window of W cycles: mean W p, variance W p (1 - p)), within 5 standard errors.
TEST_CASE("geometric injection draws the Bernoulli arrival process", "[noc][traffic]") {
    for (double prob : {0.000125, 0.025, 0.3, 0.9}) {
        INFO("p " << prob);
        const int grid = 1 << 20;
        std::vector<double> freq(8, 0.0);
        for (int i = 0; i < grid; ++i) {
            const std::uint64_t g = SyntheticTraffic::geometric_gap((i + 0.5) / grid, prob);
            if (g < freq.size()) freq[g] += 1.0 / grid;
        }
        for (std::size_t k = 0; k < freq.size(); ++k) CHECK(std::abs(freq[k] - std::pow(1 - prob, double(k)) * prob) < 1e-4);
    }
    CHECK(SyntheticTraffic::geometric_gap(0.5, 1.0) == 0);
    CHECK(SyntheticTraffic::geometric_gap(0.0, 1.0) == 0);
    CHECK(SyntheticTraffic::geometric_gap(0.3, 0.0) >= (std::uint64_t(1) << 62));

    for (const auto& [rate, flits] : {std::pair<double, unsigned>{0.2, 8}, {0.05, 1}, {1.0, 1}}) {
        INFO("rate " << rate << ", packet_flits " << flits);
        const NocParams p = mesh(4, 4, "xy", 1, "active");
        Network net(p);
        TrafficParams t;
        t.rate = rate;
        t.packet_flits = flits;
        t.seed = 11;
        t.injection = "geometric";
        SyntheticTraffic traffic(net, t);
        const double prob = rate / flits;
        const int windows = 400, w = 100;
        std::vector<double> counts;  // node 5's packets per window
        std::size_t before = 0;
        for (int i = 0; i < windows; ++i) {
            for (int c = 0; c < w; ++c) traffic.inject();  // no step: packets stay in the source queues
            counts.push_back(double(net.queued_packets(5) - before));
            before = net.queued_packets(5);
        }
        double mean = 0, var = 0;
        for (double c : counts) mean += c / windows;
        for (double c : counts) var += (c - mean) * (c - mean) / (windows - 1);
        const double m0 = w * prob, v0 = w * prob * (1 - prob);
        CHECK(std::abs(mean - m0) <= 5 * std::sqrt(v0 / windows) + 1e-12);
        if (prob < 1) {
            // standard error of the sample variance ~ v0 sqrt(2 / (n - 1)) for near-normal counts
            CHECK(std::abs(var - v0) <= 5 * v0 * std::sqrt(2.0 / (windows - 1)) + 0.05);
        } else {
            CHECK(var == 0);
        }
    }
    TrafficParams bad;
    bad.injection = "poisson";
    REQUIRE_THROWS_WITH(bad.validate("traffic", NocParams{}), Catch::Contains("traffic.injection") && Catch::Contains("bernoulli or geometric"));
}
