// The stats tree of a synthetic run: names, and values equal to the network's own counters.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "models/noc/synthetic_run.h"

using namespace vp::noc;

TEST_CASE("synthetic run fills the stats tree consistently", "[noc][stats]") {
    NocParams p;
    p.width = 3;
    p.height = 2;
    TrafficParams t;
    t.rate = 0.1;
    t.packet_flits = 2;
    t.warmup_cycles = 100;
    t.measure_cycles = 1000;
    vp::stats::Registry root;
    vp::stats::Group g(root, "noc");
    SyntheticRun run(p, t, g);
    const TrafficResult r = run.run();
    const nlohmann::json j = root.to_json();
    const auto& noc = j.at("noc");
    const NetworkTotals& tot = run.network().totals();
    REQUIRE(noc.at("flits_ejected").at("value").get<std::uint64_t>() == tot.term.flits_ejected);
    REQUIRE(noc.at("cycles").at("value").get<std::uint64_t>() == run.network().cycle());
    REQUIRE(noc.at("synthetic").at("accepted_throughput").at("value").get<double>() == Approx(r.accepted));
    REQUIRE(noc.at("packet_latency_avg").at("value").get<double>() == Approx(r.packet_latency_avg));
    REQUIRE(noc.at("packet_latency_hist").at("count").get<std::uint64_t>() == r.measured_delivered);
    // Router (2,1) is the bottom-right corner: it has no east or south neighbour.
    const auto& rt = noc.at("router[2][1]");
    REQUIRE(rt.at("flits_out_east").at("value").get<std::uint64_t>() == 0);
    REQUIRE(rt.at("flits_out_south").at("value").get<std::uint64_t>() == 0);
    const RouterCounters& c = run.network().router(5).counters();
    REQUIRE(rt.at("flits_out_local").at("value").get<std::uint64_t>() == c.flits_out[kLocal]);
    REQUIRE(rt.at("flits_in_west").at("value").get<std::uint64_t>() == c.flits_in[kWest]);
    REQUIRE(rt.at("occupancy_max").at("value").get<std::uint64_t>() == c.occupancy_max);
    // Bad parameters surface as InputError naming the key.
    TrafficParams bad = t;
    bad.pattern = "transpose";
    vp::stats::Registry root2;
    REQUIRE_THROWS_WITH(SyntheticRun(p, bad, root2), Catch::Contains("traffic.pattern"));
}

TEST_CASE("latency percentiles are exact nearest-rank values", "[noc][stats]") {
    std::mt19937_64 rng(5);
    for (int trial = 0; trial < 20; ++trial) {
        LatencyStats s;
        std::vector<std::uint64_t> v(1 + rng() % 500);
        for (auto& x : v) {
            // Small values, values around the dense part's end (2^16) and values far beyond it.
            const std::uint64_t range[4] = {50, 5000, 140000, 30000000};
            x = rng() % range[trial % 4];
            s.sample(x);
        }
        std::sort(v.begin(), v.end());
        for (double pct : {1.0, 50.0, 90.0, 99.0, 100.0}) {
            // Nearest rank: the ceil(p/100 * n)-th smallest sample.
            const std::size_t rank = std::max<std::size_t>(1, std::size_t(std::ceil(pct / 100.0 * double(v.size()))));
            REQUIRE(s.percentile(pct) == v[rank - 1]);
        }
        REQUIRE(s.max() == v.back());
        REQUIRE(s.count() == v.size());
        // for_each: every distinct value once, increasing, with its multiplicity.
        std::vector<std::uint64_t> expanded;
        std::uint64_t last = 0;
        bool first = true;
        s.for_each([&](std::uint64_t value, std::uint64_t n) {
            REQUIRE(n > 0);
            REQUIRE((first || value > last));
            first = false;
            last = value;
            expanded.insert(expanded.end(), n, value);
        });
        REQUIRE(expanded == v);
    }
}
