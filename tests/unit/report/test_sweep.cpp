// The sweep report's data: the Pareto front against a brute-force dominance check (independent
// validation: every pair compared, no sorting), and the reading of sweep.csv (regression tests).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "platform/report/sweep.h"

using vp::report::pareto_front;

namespace {

// The points no other point dominates, by comparing every pair (both coordinates minimised
// after the sign flips), as a sorted set of indices.
std::vector<std::size_t> brute_force(const std::vector<std::pair<double, double>>& p, bool mx, bool my) {
    const double sx = mx ? -1 : 1, sy = my ? -1 : 1;
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < p.size(); ++i) {
        bool dominated = false;
        for (std::size_t j = 0; j < p.size() && !dominated; ++j) {
            const double xi = sx * p[i].first, yi = sy * p[i].second, xj = sx * p[j].first, yj = sy * p[j].second;
            dominated = xj <= xi && yj <= yi && (xj < xi || yj < yi);
        }
        if (!dominated) out.push_back(i);
    }
    return out;
}

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        path = std::filesystem::temp_directory_path() / ("vp_sweep_test_" + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
};

}  // namespace

TEST_CASE("Pareto front equals the brute-force dominance check") {
    std::mt19937 rng(7);
    for (const std::size_t n : {0u, 1u, 2u, 5u, 30u, 200u}) {
        for (int flags = 0; flags < 4; ++flags) {
            std::vector<std::pair<double, double>> pts;
            std::uniform_int_distribution<int> d(0, 12);  // small range: many ties and duplicates
            for (std::size_t i = 0; i < n; ++i) pts.push_back({d(rng), d(rng)});
            const bool mx = flags & 1, my = flags & 2;
            auto front = pareto_front(pts, mx, my);
            auto sorted = front;
            std::sort(sorted.begin(), sorted.end());
            REQUIRE(sorted == brute_force(pts, mx, my));
            // Ordered along the front: x never gets worse... nor y better, in the optimised sense.
            for (std::size_t k = 1; k < front.size(); ++k) {
                const double sx = mx ? -1 : 1, sy = my ? -1 : 1;
                REQUIRE(sx * pts[front[k - 1]].first <= sx * pts[front[k]].first);
                REQUIRE(sy * pts[front[k - 1]].second >= sy * pts[front[k]].second);
            }
        }
    }
}

TEST_CASE("Pareto front of a worked example, maximising y") {
    const std::vector<std::pair<double, double>> pts = {{1, 1}, {2, 5}, {3, 4}, {4, 9}, {5, 9}};
    REQUIRE(pareto_front(pts, false, true) == std::vector<std::size_t>{0, 1, 3});
}

TEST_CASE("sweep.csv: parameters, statistics, filter, Pareto axes") {
    TempDir t;
    t.write("sweep.csv",
            "point,config_file,dram.queue_depth,state,exit_code,error,wall_s,sim_time_ns,dram.bandwidth,platform,"
            "noc.router[3][3].flits\n"
            "a,configs/x.yaml,8,done,0,,1.5,100,2.5,dram,\n"
            "b,configs/x.yaml,16,done,0,,1.7,90,2.5,dram,4\n"
            "c,configs/x.yaml,32,failed,3,\"deadlock, at 5 ns\",0.2,,,,\n");
    const auto s = vp::report::read_sweep_table(t.path.string());
    REQUIRE(s.params == std::vector<std::string>{"config_file", "dram.queue_depth"});
    REQUIRE(s.head[s.first_stat] == "wall_s");
    REQUIRE(s.at(2, "error") == "deadlock, at 5 ns");
    const auto sel = vp::report::select_sweep(s, "");
    REQUIRE(sel.done == std::vector<std::size_t>{0, 1});
    REQUIRE(sel.varied == std::vector<std::string>{"dram.queue_depth"});
    REQUIRE(sel.plotted == std::vector<std::string>{"dram.queue_depth"});
    // Constant (bandwidth), descriptive (platform) and partial (one router) columns are left out.
    REQUIRE(sel.stats == std::vector<std::string>{"sim_time_ns", "wall_s"});  // wall time last
    REQUIRE(sel.partial == 1);
    REQUIRE(vp::report::select_sweep(s, "^sim").stats == std::vector<std::string>{"sim_time_ns"});
    REQUIRE_THROWS_AS(vp::report::select_sweep(s, "sim(["), vp::InputError);

    const auto [x, y] = vp::report::parse_pareto("sim_time_ns, max:dram.bandwidth", s);
    REQUIRE((x.name == "sim_time_ns" && !x.maximise && y.name == "dram.bandwidth" && y.maximise));
    REQUIRE_THROWS_AS(vp::report::parse_pareto("sim_time_ns", s), vp::InputError);
    REQUIRE_THROWS_AS(vp::report::parse_pareto("sim_time_ns,dram.queue_depth", s), vp::InputError);  // a parameter
    try {
        vp::report::parse_pareto("sim_time,dram.bandwidth", s);
        FAIL("no error");
    } catch (const vp::InputError& e) {
        REQUIRE(std::string(e.what()).find("did you mean sim_time_ns") != std::string::npos);
    }
}

TEST_CASE("sweep.csv: bad files are input errors naming the file and line") {
    TempDir t;
    REQUIRE_THROWS_AS(vp::report::read_sweep_table(t.path.string()), vp::InputError);
    t.write("sweep.csv", "a,b,c\n1,2,3\n");
    REQUIRE_THROWS_AS(vp::report::read_sweep_table(t.path.string()), vp::InputError);
    t.write("sweep.csv", "point,x,state,exit_code\np,1,done,0\nq,2,done\n");
    try {
        vp::report::read_sweep_table(t.path.string());
        FAIL("no error");
    } catch (const vp::InputError& e) {
        REQUIRE(std::string(e.what()).find("sweep.csv: line 3") != std::string::npos);
    }
    // A header and no row: no points, not an empty report (vp-sweep writes a row per point).
    t.write("sweep.csv", "point,config_file,state,exit_code,error,wall_s\n\n");
    try {
        vp::report::read_sweep_table(t.path.string());
        FAIL("no error");
    } catch (const vp::InputError& e) {
        REQUIRE(std::string(e.what()).find("sweep.csv: no points (a header line and no row") != std::string::npos);
    }
}

TEST_CASE("CSV fields are quoted when they must be") {
    REQUIRE(vp::report::csv_field("ddr3") == "ddr3");
    REQUIRE(vp::report::csv_field("[[2,0]]") == "\"[[2,0]]\"");
    REQUIRE(vp::report::csv_field("a\"b") == "\"a\"\"b\"");
}
