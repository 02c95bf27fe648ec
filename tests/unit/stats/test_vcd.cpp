// The VCD writer: signal names as in the statistics (brackets kept), a windowed trace that ends
// with one time stamp (not two), and the filter patterns that matched nothing.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "models/common/trace.h"

using namespace vp::trace;

namespace {
std::string temp_name(const char* tag) { return std::string("/tmp/vp_test_vcd_") + tag + "_" + std::to_string(::getpid()); }
std::string slurp(const std::string& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
std::vector<std::string> timestamps(const std::string& vcd) {
    std::vector<std::string> t;
    std::istringstream in(vcd);
    std::string l;
    while (std::getline(in, l))
        if (!l.empty() && l[0] == '#') t.push_back(l);
    return t;
}
}  // namespace

TEST_CASE("VCD scopes keep the statistics names and the .gtkw refers to them", "[trace]") {
    TraceParams p;
    p.enabled = true;
    Tracer t(p);
    Signal* s = t.add("noc.router[1][0].occupancy", 4);
    REQUIRE(s);
    const std::string vcd = temp_name("names"), gtkw = vcd + ".gtkw";
    t.open(vcd);
    s->set(3, 10);
    t.close(100);
    t.write_gtkw(gtkw, "x.vcd");
    const std::string v = slurp(vcd), g = slurp(gtkw);
    REQUIRE(v.find("$scope module router[1][0] $end") != std::string::npos);
    REQUIRE(g.find("noc.router[1][0].occupancy[3:0]") != std::string::npos);
    std::remove(vcd.c_str());
    std::remove(gtkw.c_str());
}

TEST_CASE("a windowed trace writes its last time stamp once", "[trace]") {
    for (std::uint64_t last_change : {50ull, 60ull}) {  // a change exactly at the end of the window, and before it
        TraceParams p;
        p.enabled = true;
        p.start_ns = 0.01;
        p.end_ns = 0.06;  // window [10 ps, 60 ps]
        Tracer t(p);
        Signal* s = t.add("a.x", 1);
        const std::string vcd = temp_name("window");
        t.open(vcd);
        s->set(1, 20);
        s->set(0, last_change);
        s->set(1, 70);  // after the window
        s->set(0, 80);
        t.close(200);
        const auto ts = timestamps(slurp(vcd));
        REQUIRE(!ts.empty());
        for (std::size_t i = 1; i < ts.size(); ++i) REQUIRE(ts[i] != ts[i - 1]);
        REQUIRE(ts.back() == "#60");
        std::remove(vcd.c_str());
    }
}

TEST_CASE("filter patterns that match no signal are reported", "[trace]") {
    TraceParams p;
    p.enabled = true;
    p.signals = {"dram.*", "nosuch.*"};
    Tracer t(p);
    REQUIRE(t.add("dram.queue_depth", 8));
    REQUIRE_FALSE(t.add("tgen.a.outstanding", 8));
    REQUIRE(t.unmatched_patterns() == std::vector<std::string>{"nosuch.*"});
}
