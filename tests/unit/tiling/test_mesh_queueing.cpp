// The queueing time model of the mesh mapper (mapper/waving/mva.h, QueueingMeshModel).
// Independent checks: the exact MVA and the delay + load-dependent station solver against
// closed-form results of queueing theory (one customer; the machine-repairman model, one and c
// servers, M/M/1//N and M/M/c//N finite-source queues; a balanced network of M queues, whose
// throughput is N / (D (N + M - 1))); the model's single-request latency and one entry against a
// hand computation from the DDR3-1600 figures.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "mapper/waving/mesh_time_model.h"
#include "mapper/waving/mva.h"

using namespace vp::mapper::waving;

namespace {

// Machine repairman (finite source M/M/c//N): N customers think Z on average, c servers of
// mean service S. p_n = p_0 C(N, n) r^n for n <= c and p_0 C(N, n) n! / (c! c^(n-c)) r^n above,
// r = S / Z; throughput = sum p_n min(n, c) / S.
double repairman_throughput(int n_cust, int c, double s, double z) {
    const double r = s / z;
    std::vector<double> p(std::size_t(n_cust) + 1);
    double sum = 0;
    for (int n = 0; n <= n_cust; ++n) {
        double binom = 1;
        for (int i = 1; i <= n; ++i) binom = binom * double(n_cust - n + i) / double(i);
        double w = binom * std::pow(r, n);
        if (n > c) {
            double f = 1;  // n! / (c! c^(n - c))
            for (int i = c + 1; i <= n; ++i) f *= double(i) / double(c);
            w *= f;
        }
        p[std::size_t(n)] = w;
        sum += w;
    }
    double x = 0;
    for (int n = 0; n <= n_cust; ++n) x += p[std::size_t(n)] / sum * double(std::min(n, c)) / s;
    return x;
}

MeshHwFigures ddr3_figures() {  // DDR3-1600 figures as the platform fills them
    MeshHwFigures f;
    f.dram.preset = "ddr3-1600";
    f.dram.tck_ns = 1.25;
    f.dram.burst_bytes = 64;
    f.dram.burst_cycles = 4;
    f.dram.CL = 11;
    f.dram.tRCD = 11;
    f.dram.tRP = 11;
    f.dram.channels = 1;
    f.dram.ranks = 1;
    f.dram.banks = 8;
    f.dram.row_bytes = 8192;
    f.dram.open_page = true;
    f.dram.frontend_latency_ck = 1;
    f.dram.peak_bw_bytes_per_s = 12.8e9;
    f.hop_cycles = 5;
    f.dram_if_outstanding = 16;
    f.inject_depth = 16;
    return f;
}

}  // namespace

TEST_CASE("MVA: one customer sees the sum of the demands", "[waving][mva]") {
    const auto r = mva_exact({{2.0, false}, {3.0, true}, {0.5, false}}, 1);
    REQUIRE(r.size() == 1);
    CHECK(r[0].response == Approx(5.5));
    CHECK(r[0].throughput == Approx(1.0 / 5.5));
}

TEST_CASE("MVA: balanced network of M queues, X(N) = N / (D (N + M - 1))", "[waving][mva]") {
    const double d = 1.7;
    const auto r = mva_exact({{d, false}, {d, false}, {d, false}}, 20);
    for (int n = 1; n <= 20; ++n) CHECK(r[std::size_t(n - 1)].throughput == Approx(double(n) / (d * (n + 2))));
}

TEST_CASE("MVA: delay + one queue = the machine-repairman model (M/M/1//N)", "[waving][mva]") {
    const double s = 2.0, z = 9.0;
    const auto r = mva_exact({{z, true}, {s, false}}, 30);
    for (int n = 1; n <= 30; ++n) {
        const double x = repairman_throughput(n, 1, s, z);
        CHECK(r[std::size_t(n - 1)].throughput == Approx(x).epsilon(1e-9));
        CHECK(r[std::size_t(n - 1)].response == Approx(double(n) / x).epsilon(1e-9));  // includes Z
        // The birth-death solver with a constant rate 1 / S gives the same network.
        const ClosedPoint p = closed_delay_station(z, {1.0 / s}, n);
        CHECK(p.throughput == Approx(x).epsilon(1e-9));
        CHECK(p.response == Approx(double(n) / x - z).epsilon(1e-9));
    }
}

TEST_CASE("delay + load-dependent station = the multi-server repairman model (M/M/c//N)", "[waving][mva]") {
    const double s = 5.0, z = 3.0;
    const int c = 4;
    std::vector<double> rates;
    for (int j = 1; j <= c; ++j) rates.push_back(double(j) / s);  // min(j, c) / S, constant beyond c
    for (int n : {1, 2, 4, 7, 16, 64}) {
        const ClosedPoint p = closed_delay_station(z, rates, n);
        CHECK(p.throughput == Approx(repairman_throughput(n, c, s, z)).epsilon(1e-9));
    }
    // Many customers: the station saturates at its top rate.
    CHECK(closed_delay_station(z, rates, 2000).throughput == Approx(double(c) / s).epsilon(1e-9));
}

TEST_CASE("queueing model: one request's latency and one entry by hand (DDR3-1600)", "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;  // 500 MHz, 16 outstanding, 2 setup cycles
    MeshMapParams mesh;                   // 1000 MHz NoC
    mesh.hw = ddr3_figures();
    const QueueingMeshModel m(MeshCoefficients{});
    OpProfile p;
    ProfileEntry e;
    e.wait = true;
    e.x.transfers = 1;
    e.x.bursts = 2;      // a 64-B read that straddles two bursts
    e.x.flits_in = 9;    // response: header + 8 data flits
    e.x.flits_out = 1;   // request: header
    e.x.dma_ops = 1;
    p.add(e);
    // Core cycle 2 ns, NoC cycle 0.5 core cycles, tCK 0.625 core cycles.
    // Interface port in 1 x 0.5, out 9 x 0.5; bus 2 bursts x 4 tCK = 5; row misses: the stream's
    // own, 128 B / 8192 B, x (tRP + tRCD) = 22 tCK; frontend + CL = 12 tCK = 7.5.
    const double dram = 0.5 + 4.5 + 5.0 + (128.0 / 8192.0) * 22 * 0.625 + 7.5;
    const double noc = 2 * (2 + 1) * 5 * 0.5 + 1;  // heads over 3 routers each way + the issue cycle
    const auto d = m.demands(p, 1, asip, mesh);
    CHECK(d.miss == Approx(128.0 / 8192.0));
    const auto rates = m.subnetwork_rates(d, 16);
    CHECK(1.0 / rates[0] == Approx(dram));
    CHECK(m.core_cycles(p, CoreContext{2, 1}, asip, mesh) == Approx(2 + noc + dram));
    // k interleaved streams on 8 banks collide with probability 1 - (7/8)^(k - 1).
    const auto d4 = m.demands(p, 4, asip, mesh);
    const double own = 128.0 / 8192.0;
    CHECK(d4.miss == Approx(own + (1 - own) * (1 - std::pow(7.0 / 8.0, 3))));
    // The layer bound: the requests at the subnetwork's peak throughput, which the bottleneck law
    // bounds by the largest demand (the bus, 5) and the capped population by C / sum of demands.
    const double peak = rates.back();
    CHECK(peak <= 1.0 / 5.0 + 1e-12);
    CHECK(peak >= 1.0 / dram);
    CHECK(m.shared_cycles(p, asip, mesh, 1) == Approx(1.0 / peak));
}

TEST_CASE("queueing model: the loaded latency grows with the active cores", "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;
    MeshMapParams mesh;
    mesh.hw = ddr3_figures();
    const QueueingMeshModel m(MeshCoefficients{});
    OpProfile p;
    ProfileEntry e;
    e.wait = true;
    e.x.transfers = 64;
    e.x.bursts = 64;
    e.x.flits_in = 64 * 9;
    e.x.flits_out = 64;
    e.x.dma_ops = 1;
    p.add(e);
    double prev = 0;
    for (int k : {1, 2, 4, 8, 16}) {
        const double t = m.core_cycles(p, CoreContext{1, k}, asip, mesh);
        CHECK(t > prev);
        prev = t;
    }
    // With 16 cores x 16 requests in flight the interface is saturated: each core gets 1/16 of
    // the peak throughput, so its 64 requests take at least 64 x 16 / peak.
    const auto d = m.demands(p, 16, asip, mesh);
    const double peak = m.subnetwork_rates(d, 16).back();
    CHECK(prev >= 64.0 * 16.0 / peak * 0.9);
}
