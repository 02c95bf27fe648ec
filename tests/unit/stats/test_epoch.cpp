// Epoch statistics: the state-time statistic and the epoch sampler against brute-force
// references that share no code with them (a per-picosecond replay of the same event log),
// unique statistics paths, and the stats.epoch syntax.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "mapper/common/errors.h"
#include "models/common/epoch_sampler.h"
#include "models/common/stats.h"

using namespace vp::stats;


TEST_CASE("StateTime integrates states, scheduled busy periods and their extension", "[stats][epoch]") {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        Registry reg;
        Group g(reg, "u");
        StateTime st(g, "state", "test", {"idle", "a", "b", "c"});
        st.record(true);
        // Reference: a per-ps array filled forward. set() at now; set_until() at now reverting to 0.
        std::vector<unsigned> ref;
        std::uint64_t now = 0, until = 0;
        unsigned cur = 0;
        auto fill_to = [&](std::uint64_t t) {
            while (ref.size() < t) {
                const std::uint64_t x = ref.size();
                ref.push_back(until && x >= until ? 0 : cur);
            }
        };
        for (int op = 0; op < 60; ++op) {
            now += rng() % 20;
            // Never switch while a scheduled period runs, except to extend it back to back.
            if (until > now && rng() % 2) {
                const std::uint64_t len = 1 + rng() % 15;
                fill_to(until);
                st.set_until(cur, until, until + len);
                until += len;
                continue;
            }
            if (until > now) now = until;
            fill_to(now);
            if (until && now >= until) {
                cur = 0;
                until = 0;
            }
            if (rng() % 3 == 0) {
                const std::uint64_t len = 1 + rng() % 25;
                const unsigned s = 1 + unsigned(rng() % 3);
                st.set_until(s, now, now + len);
                cur = s;
                until = now + len;
            } else {
                const unsigned s = unsigned(rng() % 4);
                st.set(s, now);
                cur = s;
                until = 0;
            }
            // Mid-run query at `now` agrees with the reference.
            for (unsigned s = 0; s < 4; ++s) {
                std::uint64_t n = 0;
                for (std::uint64_t t = 0; t < now; ++t) n += ref[t] == s;
                INFO("trial " << trial << " op " << op << " state " << s << " now " << now << " until " << until);
                REQUIRE(st.time_in(s, now) == n);
            }
        }
        const std::uint64_t end = std::max(now, until) + rng() % 10;
        fill_to(end);
        reg.close(end);
        std::uint64_t total = 0;
        for (unsigned s = 0; s < 4; ++s) {
            std::uint64_t n = 0;
            for (std::uint64_t t = 0; t < end; ++t) n += ref[t] == s;
            REQUIRE(st.time_in(s, end) == n);
            total += st.time_in(s, end);
        }
        REQUIRE(total == end);
        // The recorded changes replay to the same per-ps states.
        unsigned c = 0;
        std::size_t k = 0;
        for (std::uint64_t t = 0; t < end; ++t) {
            while (k < st.changes().size() && st.changes()[k].t_ps <= t) c = st.changes()[k++].state;
            REQUIRE(c == ref[t]);
        }
    }
}

TEST_CASE("the epoch sampler's intervals sum to the totals and split at every boundary", "[stats][epoch]") {
    std::mt19937_64 rng(11);
    for (bool adaptive : {false, true}) {
        for (int trial = 0; trial < 20; ++trial) {
            Registry reg;
            Group g(reg, "m");
            Counter c1(g, "c1", "", ""), c2(g, "c2", "", "");
            Counter quiet(g, "not_sampled", "", "");
            c1.set_sampled();
            c2.set_sampled();
            const std::uint64_t epoch = 10 + rng() % 50;
            EpochSampler s(reg, epoch, adaptive, 16);
            s.set_layers({"L0", "L1", "L2", "L3", "L4", "L5"});
            s.begin();
            REQUIRE(s.series().size() == 2);
            // Event log: (time, counter, amount); the reference sums it per interval.
            std::vector<std::tuple<std::uint64_t, int, std::uint64_t>> log;
            std::vector<std::uint64_t> cuts;
            std::uint64_t now = 0;
            int layers = 0;
            while (now < 3000) {
                const std::uint64_t next = std::min(now + 1 + rng() % 40, s.next_boundary());
                now = next;
                const int which = int(rng() % 2);
                const std::uint64_t amount = rng() % 5;
                // Values change "during" the time step that ends at `now`: sampled at now they count.
                (which ? c2 : c1) += amount;
                quiet += 1;
                log.emplace_back(now, which, amount);
                if (now == s.next_boundary()) s.sample(now);
                if (layers < 5 && rng() % 40 == 0) {
                    s.layer_end(now);
                    cuts.push_back(now);
                    ++layers;
                }
            }
            reg.close(now);
            s.finish(now);
            // Totals.
            REQUIRE(s.totals()[0] == double(c1.value()));
            REQUIRE(s.totals()[1] == double(c2.value()));
            if (adaptive) {
                const auto& iv = s.intervals();
                REQUIRE(iv.size() <= 16 + cuts.size() + 1);
                // Contiguous from 0 to the end; every layer end is a boundary.
                REQUIRE(iv.front().t0 == 0);
                REQUIRE(iv.back().t1 == now);
                for (std::size_t i = 1; i < iv.size(); ++i) REQUIRE(iv[i].t0 == iv[i - 1].t1);
                for (auto c : cuts) {
                    bool found = false;
                    for (const auto& x : iv) found = found || x.t1 == c;
                    REQUIRE(found);
                }
                // Each interval holds exactly the log entries of (t0, t1] (the reference).
                for (const auto& x : iv) {
                    double want[2] = {0, 0};
                    for (const auto& [t, w, a] : log)
                        if (t > x.t0 && t <= x.t1) want[w] += double(a);
                    double got[2] = {0, 0};
                    for (const auto& [k, v] : x.values) got[k] += v;
                    REQUIRE(got[0] == want[0]);
                    REQUIRE(got[1] == want[1]);
                    // Every interval lies in one layer: the layer index counts the cuts before it.
                    int l = 0;
                    for (auto c : cuts) l += c <= x.t0;
                    REQUIRE(x.layer == std::min(l, 5));
                }
            }
        }
    }
}

TEST_CASE("the epoch sampler streams intervals in order when the epoch is fixed", "[stats][epoch]") {
    Registry reg;
    Group g(reg, "m");
    Counter c(g, "c", "", "");
    c.set_sampled();
    EpochSampler s(reg, 100, false);
    std::vector<Interval> got;
    s.set_writer([&](const Interval& iv) { got.push_back(iv); });
    s.begin();
    for (std::uint64_t t = 100; t <= 1000; t += 100) {
        c += t / 100;
        s.sample(t);
    }
    s.finish(1050);
    REQUIRE(got.size() == 11);  // the last one, [1000, 1050), saw no change
    REQUIRE(got.back().t0 == 1000);
    REQUIRE(got.back().t1 == 1050);
    REQUIRE(got.back().values.empty());
    got.pop_back();
    REQUIRE(s.intervals().empty());
    for (std::size_t i = 0; i < got.size(); ++i) {
        REQUIRE(got[i].t0 == i * 100);
        REQUIRE(got[i].values.size() == 1);
        REQUIRE(got[i].values[0].second == double(i + 1));
    }
    REQUIRE(s.totals()[0] == 55.0);
}

TEST_CASE("statistics paths are unique by construction", "[stats]") {
    Registry reg;
    Group a(reg, "dram");
    REQUIRE_THROWS_AS(Group(reg, "dram"), std::logic_error);
    Counter x(a, "reads", "", "");
    REQUIRE_THROWS_AS(Counter(a, "reads", "", ""), std::logic_error);
    REQUIRE_THROWS_AS(Group(a, "reads"), std::logic_error);
    REQUIRE(x.path() == "dram.reads");
    // A group that is gone frees its name.
    { Group tmp(reg, "tmp"); }
    Group again(reg, "tmp");
    REQUIRE(again.path() == "tmp");
}

TEST_CASE("stats.epoch accepts off, auto, times and clock cycles and names the key otherwise", "[stats][epoch]") {
    REQUIRE(parse_epoch("off", "k").mode == EpochSpec::Mode::Off);
    REQUIRE(parse_epoch(" AUTO ", "k").mode == EpochSpec::Mode::Auto);
    auto t = parse_epoch("1us", "k");
    REQUIRE(t.mode == EpochSpec::Mode::Time);
    REQUIRE(t.value == 1e6);
    REQUIRE(parse_epoch("250 ns", "k").value == 250e3);
    REQUIRE(parse_epoch("2ms", "k").value == 2e9);
    auto c = parse_epoch("1000 noc cycles", "k");
    REQUIRE(c.mode == EpochSpec::Mode::Cycles);
    REQUIRE(c.value == 1000);
    REQUIRE(c.clock == "noc");
    for (const char* bad : {"", "1", "fast", "-1us", "0ns", "1 lightyear", "10.5 core cycles", "5 gpu cycles", "0.1ps"})
        REQUIRE_THROWS_WITH(parse_epoch(bad, "stats.epoch"), Catch::Contains("stats.epoch"));
}

TEST_CASE("ScheduledCounter spreads each booking over its interval and sums to the total", "[stats][epoch]") {
    Registry reg;
    Group g(reg, "unit");
    ScheduledCounter c(g, "macs", "work", "MAC");
    double v = -1;
    // 100 over [10, 20) booked at 0; 50 over [20, 30) booked at 5 (back to back); 8 at once.
    c.add(100, 0, 10, 20);
    c.add(50, 5, 20, 30);
    c.add(8, 6, 6, 6);
    CHECK(c.value() == 158);
    c.sample(5, &v);
    CHECK(v == Approx(8));  // neither booking has started; the instantaneous one counts
    c.sample(15, &v);
    CHECK(v == Approx(8 + 50));  // half of the first
    c.sample(25, &v);
    CHECK(v == Approx(8 + 100 + 25));
    c.sample(40, &v);
    CHECK(v == Approx(158));
    // A booking whose interval ended before it was added counts at once.
    c.add(10, 50, 40, 45);
    c.sample(50, &v);
    CHECK(v == Approx(168));
    CHECK(c.to_json()["value"] == 168);
}
