// The phased time model of the mesh mapper (PhasedMeshModel). Independent checks:
//   * the processor-sharing factor (sharing_of) against a brute-force event simulation of
//     egalitarian processor sharing with a common start (the makespan of the largest job);
//   * the read/write switch rate 2 w (1 - w) of a random interleaving against a Monte-Carlo count;
//   * the shared time of an entry and a core's time (serial rows, and the pipelined rows of one
//     core) against hand computations from the DDR3-1600 figures (CL 10, CWL 8, tRCD 10, tRP 10,
//     tWTR 6, BL8 = 4 tCK, tCK 1.25 ns);
//   * `phased-engine`: the cost per packet of a one-VC stream and the in-order DMA engine's bound
//     on a one-core row with reads and writes against hand computations (router_stages 4,
//     link_latency 1, credit_delay 1, buffer_depth 4), and `phased` unchanged beside it;
//   * `phased-pages`: the price of a row activation (banks in use, tFAW, tRRD) and the page term
//     of an entry against hand computations, and its own coefficient set (pg_*);
//   * `phased-pages`: the master's start and done syncs, and a request's unloaded round trip,
//     against the times a simulation trace shows (the cores' start edges, the done sync's arrival,
//     the waited-for transfers of a one-core layer), and by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "mapper/waving/mesh_time_model.h"

using namespace vp::mapper::waving;

namespace {

MeshHwFigures ddr3_1600() {
    MeshHwFigures f;
    f.dram.preset = "ddr3-1600";
    f.dram.tck_ns = 1.25;
    f.dram.burst_bytes = 64;
    f.dram.burst_cycles = 4;
    f.dram.CL = 10;
    f.dram.CWL = 8;
    f.dram.tRCD = 10;
    f.dram.tRP = 10;
    f.dram.tWTR = 6;
    f.dram.channels = 1;
    f.dram.ranks = 1;
    f.dram.banks = 8;
    f.dram.row_bytes = 8192;
    f.dram.open_page = true;
    f.dram.frontend_latency_ck = 0;
    f.dram.peak_bw_bytes_per_s = 12.8e9;
    f.hop_cycles = 5;
    f.dram_if_outstanding = 16;
    f.inject_depth = 16;
    // router_stages 4, link_latency 1, credit_delay 1, buffer_depth 4: g = 2, R = 3, stall 1.
    f.packet_gap = 2;
    f.credit_stall = 1;
    f.buffer_depth = 4;
    return f;
}

// Egalitarian processor sharing of a unit-rate server, all jobs present at t = 0: returns the
// completion time of every job (event by event: the smallest remaining job finishes next).
std::vector<double> processor_sharing(std::vector<double> work) {
    std::vector<double> done(work.size(), 0.0);
    std::vector<bool> left(work.size(), true);
    double t = 0;
    for (std::size_t round = 0; round < work.size(); ++round) {
        std::size_t active = 0, next = 0;
        double least = 1e300;
        for (std::size_t i = 0; i < work.size(); ++i)
            if (left[i]) {
                ++active;
                if (work[i] < least) least = work[i], next = i;
            }
        t += least * double(active);  // every active job is served at 1 / active
        for (std::size_t i = 0; i < work.size(); ++i)
            if (left[i]) work[i] -= least;
        left[next] = false;
        done[next] = t;
        for (std::size_t i = 0; i < work.size(); ++i)  // ties finish together
            if (left[i] && work[i] <= 1e-12) left[i] = false, done[i] = t;
    }
    return done;
}

ProfileEntry entry(bool wait, std::uint64_t n, std::uint64_t reads, std::uint64_t bursts, std::uint64_t fin,
                   std::uint64_t fout) {
    ProfileEntry e;
    e.wait = wait;
    e.x.transfers = n;
    e.x.reads = reads;
    e.x.bursts = bursts;
    e.x.flits_in = fin;
    e.x.flits_out = fout;
    e.x.dma_ops = 1;
    return e;
}

// The rows of the tail cases: `count` rows of 64 requests (s = 288 core cycles, the port's time;
// no replayed activations) with `compute` cycles each.
OpProfile tail_rows(std::uint64_t compute, std::uint64_t count) {
    OpProfile p;
    ProfileEntry r = entry(false, 64, 64, 64, 64 * 9, 64);
    r.compute = compute;
    r.count = count;
    p.add(r);
    return p;
}

}  // namespace

TEST_CASE("phased model: sharing_of = the largest job's processor-sharing makespan / its work", "[waving][mesh_model]") {
    for (int k : {1, 2, 3, 5, 8, 14}) {
        for (int n : {1, 5, 16, 17, 28, 45, 96}) {
            if (n < k) continue;  // the mapper never activates more cores than slices
            std::vector<double> work;  // slices per core as the mapper splits them
            for (int c = 0; c < k; ++c) work.push_back(double((c + 1) * n / k - c * n / k));
            const std::vector<double> done = processor_sharing(work);
            const double largest = *std::max_element(work.begin(), work.end());
            const double makespan = *std::max_element(done.begin(), done.end());
            CHECK(sharing_of(n, k) == Approx(makespan / largest));
        }
    }
    CHECK(sharing_of(16, 14) == Approx(8.0));
    CHECK(sharing_of(0, 4) == Approx(4.0));
}

TEST_CASE("phased model: sharing_by_work = each job's processor-sharing completion / its work", "[waving][mesh_model]") {
    // By hand: works 2, 2, 1 with a common start. All three are served at 1/3 until the small
    // job is done (3 x 1 = 3 units of time), then the two others at 1/2 (2 x 1 more): the large
    // jobs finish at 5 = 2.5 x their work, the small one at 3 = 3 x its work.
    const std::vector<double> s = sharing_by_work({2.0, 2.0, 1.0});
    REQUIRE(s.size() == 3);
    CHECK(s[0] == Approx(2.5));
    CHECK(s[1] == Approx(2.5));
    CHECK(s[2] == Approx(3.0));
    // AlexNet conv2's shape on 14 cores (16 slices: 12 cores with one full slice of T_of = 40,
    // 2 cores with the two narrow slices of T_of = 8): works 12 x 20 and 2 x 16. A full-slice
    // core waits behind (12 x 20 + 2 x 16) / 20 = 13.6 cores' worth of its own demand, where
    // counting slices gives sharing_of(16, 14) = 8.
    std::vector<double> w(12, 20.0);
    w.push_back(16.0);
    w.push_back(16.0);
    const std::vector<double> a = sharing_by_work(w);
    CHECK(a[0] == Approx(13.6));
    CHECK(a[13] == Approx(14.0));
    CHECK(sharing_of(16, 14) == Approx(8.0));
    // Work proportional to slices: the slowest core's factor is sharing_of's.
    for (int k : {3, 5, 7, 14})
        for (int n : {k, k + 1, 2 * k - 1, 16, 40}) {
            std::vector<double> pw;
            for (int c = 0; c < k; ++c) pw.push_back(double((c + 1) * n / k - c * n / k));
            const std::vector<double> f = sharing_by_work(pw);
            const std::size_t big = std::size_t(std::max_element(pw.begin(), pw.end()) - pw.begin());
            CHECK(f[big] == Approx(sharing_of(n, k)));
        }
    // Against the event simulation of processor sharing, random works; a core without work: 1.
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(0.1, 10.0);
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<double> r(std::size_t(1 + trial % 9));
        for (double& x : r) x = u(rng);
        const std::vector<double> done = processor_sharing(r);
        const std::vector<double> f = sharing_by_work(r);
        for (std::size_t i = 0; i < r.size(); ++i) CHECK(f[i] * r[i] == Approx(done[i]));
    }
    CHECK(sharing_by_work({0.0, 3.0})[0] == Approx(1.0));
    CHECK(sharing_by_work({0.0, 3.0})[1] == Approx(1.0));
}

TEST_CASE("phased model: read/write switches of a random interleaving = 2 w (1 - w) per request", "[waving][mesh_model]") {
    std::mt19937_64 rng(7);
    for (double w : {0.1, 0.3, 0.5}) {
        std::bernoulli_distribution wr(w);
        const int n = 400000;
        bool prev = wr(rng);
        int switches = 0;
        for (int i = 1; i < n; ++i) {
            const bool cur = wr(rng);
            switches += cur != prev;
            prev = cur;
        }
        CHECK(double(switches) / n == Approx(2 * w * (1 - w)).epsilon(0.02));
    }
}

TEST_CASE("phased model: shared time and core time of entries by hand (DDR3-1600)", "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;  // 500 MHz, 16 outstanding, 2 setup cycles
    MeshMapParams mesh;                   // 1000 MHz NoC
    mesh.hw = ddr3_1600();
    const PhasedMeshModel m(MeshCoefficients{});  // physical figures uncorrected, no bank collisions
    // Core cycle 2 ns: tCK = 0.625 core cycles, a NoC cycle 0.5.
    // 64 aligned 64-B reads: bus 64 x 4 x 0.625 = 160; own row changes 64 / 8192 per request x
    // (tRP + tRCD) 12.5 = 6.25 in all; the interface's port sends 64 x 9 response flits = 288.
    const ProfileEntry rd = entry(true, 64, 64, 64, 64 * 9, 64);
    CHECK(m.shared_time(rd.x, 1, asip, mesh) == Approx(288.0));
    // Half of them writes: w = 1/2, 2 w (1 - w) = 1/2 switch per request, half of them W->R
    // (CWL + BL/2 + tWTR = 18 tCK = 11.25), half R->W (CL - CWL + BL/2 + 2 = 8 tCK = 5):
    // 64 x 1/2 x (11.25 + 5) / 2 = 260 on top of 160 + 6.25; the port carries 320 flits each way.
    const ProfileEntry mix = entry(true, 64, 32, 64, 32 * 9 + 32, 32 + 32 * 9);
    CHECK(m.shared_time(mix.x, 1, asip, mesh) == Approx(160.0 + 260.0 + 6.25));
    // A waited-for op on one core two hops away: L0 = heads over 3 routers each way (2 x 3 x 5
    // x 0.5 = 15) + tRCD + CL + BL/2 (24 x 0.625 = 15) = 30; own = max(64 requests, 64 x 30 / 16
    // = 120, 288 flit times) = 288; plus 2 setup cycles.
    OpProfile p;
    p.add(rd);
    CHECK(m.core_cycles(p, CoreContext{2, 1}, asip, mesh) == Approx(2 + 30 + 288));
    // Four cores loading together share the interface: 4 x 288 > 30 + 288.
    CHECK(m.core_cycles(p, CoreContext{2, 4}, asip, mesh) == Approx(2 + 4 * 288));
    // 14 cores on 16 slices: the largest share (2 slices) waits behind 8 slices' worth of requests.
    CHECK(m.core_cycles(p, CoreContext{2, 14, sharing_of(16, 14)}, asip, mesh) == Approx(2 + 8 * 288));
    // A row computing longer than its transfers takes its compute time.
    OpProfile row;
    ProfileEntry r = entry(false, 64, 64, 64, 64 * 9, 64);
    r.compute = 5000;
    row.add(r);
    CHECK(m.core_cycles(row, CoreContext{2, 4}, asip, mesh) == Approx(2 + 5000));
    // The layer bound: the shared side's time of the core's requests.
    CHECK(m.shared_cycles(p, asip, mesh, 4) == Approx(288.0));
    // Bank collisions of k streams on 8 banks: 1 - (7/8)^(k - 1) per request x ph_conflict.
    MeshCoefficients c;
    c.ph_conflict = 0.5;
    c.ph_port = 0.1;  // let the DRAM term bind
    const PhasedMeshModel mc(c);
    const double collide = 1 - std::pow(7.0 / 8.0, 3);
    CHECK(mc.shared_time(rd.x, 4, asip, mesh) == Approx(160.0 + 6.25 + 64 * 0.5 * collide * 12.5));
}

TEST_CASE("phased model: the last core's tail (ph_tail) by hand (DDR3-1600)", "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;
    MeshMapParams mesh;
    mesh.hw = ddr3_1600();
    MeshCoefficients c;
    c.ph_tail = 0.5;
    const PhasedMeshModel m(c);
    // A compute-bound row (5000 core cycles) with 64 aligned reads: s = 288 (the port, see above).
    // Four cores in lockstep: the row takes max(5000, 30 + 288, 4 x 288) = 5000; the other three
    // cores' traffic of the row, 3 x 288 = 864, is hidden in its compute (5000 - 288 >= 864), and
    // half of it is added: 2 + 5000 + 0.5 x 864.
    OpProfile row;
    ProfileEntry r = entry(false, 64, 64, 64, 64 * 9, 64);
    r.compute = 5000;
    r.count = 3;
    row.add(r);
    CHECK(m.core_cycles(row, CoreContext{2, 4}, asip, mesh) == Approx(3 * (2 + 5000 + 0.5 * 864)));
    // A row bound by the shared side (compute 500 < 4 x 288): the row takes 1152; of the others'
    // traffic only 500 - 288 = 212 is hidden: + 0.5 x 212.
    OpProfile tight;
    ProfileEntry t = entry(false, 64, 64, 64, 64 * 9, 64);
    t.compute = 500;
    tight.add(t);
    CHECK(m.core_cycles(tight, CoreContext{2, 4}, asip, mesh) == Approx(2 + 1152 + 0.5 * 212));
    // One core: nobody else's traffic, no tail; a waited-for op has none either.
    CHECK(m.core_cycles(row, CoreContext{2, 1}, asip, mesh) == Approx(3 * (2 + 5000)));
    OpProfile wait;
    wait.add(entry(true, 64, 64, 64, 64 * 9, 64));
    CHECK(m.core_cycles(wait, CoreContext{2, 4}, asip, mesh) == Approx(2 + 4 * 288));
    // 16 slices on 14 cores: the largest share waits behind k_ps = 8 cores: 7 x 288 = 2016 hidden.
    CHECK(m.core_cycles(row, CoreContext{2, 14, sharing_of(16, 14)}, asip, mesh) ==
          Approx(3 * (2 + 5000 + 0.5 * 2016)));
    // Out of [0, 1]: an error naming the key.
    c.ph_tail = 1.5;
    CHECK_THROWS_WITH(c.validate("mapper.coefficients"), Catch::Contains("mapper.coefficients.ph_tail"));
}

TEST_CASE("phased-pages: the share of a compute-bound row's tail by the cores, bound rows keep it (by hand)",
          "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;
    MeshMapParams mesh;
    mesh.hw = ddr3_1600();
    MeshCoefficients c;
    c.pg_tail = 0.5;
    // The rows of the ph_tail case above: three compute-bound rows, and one bound by the shared
    // side (4 x 288 > 500).
    const OpProfile row = tail_rows(5000, 3);
    const OpProfile tight = tail_rows(500, 1);
    SECTION("(k - pg_tail_from) / (k - 1), without pg_tail_full") {
        c.pg_tail_from = 3;
        const PhasedMeshModel m(c, true, true, true, true);
        // Four cores, a compute-bound row: (4 - 3) / (4 - 1) = 1/3 of the hidden 864 counts.
        CHECK(m.core_cycles(row, CoreContext{2, 4}, asip, mesh) == Approx(3 * (2 + 5000 + 0.5 * 864 / 3)));
        // Two cores: below pg_tail_from, none of it.
        CHECK(m.core_cycles(row, CoreContext{2, 2}, asip, mesh) == Approx(3 * (2 + 5000)));
        // 16 slices on 14 cores: k_ps = 8, (8 - 3) / 7 of the hidden 7 x 288.
        CHECK(m.core_cycles(row, CoreContext{2, 14, sharing_of(16, 14)}, asip, mesh) ==
              Approx(3 * (2 + 5000 + 0.5 * 2016 * 5 / 7)));
        // The row bound by the shared side keeps its whole tail, 0.5 x (500 - 288).
        CHECK(m.core_cycles(tight, CoreContext{2, 4}, asip, mesh) == Approx(2 + 1152 + 0.5 * 212));
        CHECK(m.core_cycles(tight, CoreContext{2, 2}, asip, mesh) == Approx(2 + 576 + 0.5 * 212));
        // pg_tail_from 1 (a calibration file without the key) is the tail of the other phased
        // models: every row, every k.
        MeshCoefficients all = c;
        all.pg_tail_from = 1;
        MeshCoefficients ph;
        ph.ph_tail = 0.5;
        for (int k : {2, 4, 7})
            CHECK(PhasedMeshModel(all, true, true, true, true).core_cycles(row, CoreContext{2, k}, asip, mesh) ==
                  Approx(PhasedMeshModel(ph, true, true, true).core_cycles(row, CoreContext{2, k}, asip, mesh)));
        // Below one core: an error naming the key.
        c.pg_tail_from = 0.5;
        CHECK_THROWS_WITH(c.validate("mapper.coefficients"), Catch::Contains("mapper.coefficients.pg_tail_from"));
    }
    SECTION("the ramp (k - pg_tail_from) / (pg_tail_full - pg_tail_from)") {
        c.pg_tail_from = 1;
        c.pg_tail_full = 5;
        const PhasedMeshModel m(c, true, true, true, true);
        // Two cores: (2 - 1) / (5 - 1) = 1/4 of the hidden 288 (the form without pg_tail_full: 1/1).
        CHECK(m.core_cycles(row, CoreContext{2, 2}, asip, mesh) == Approx(3 * (2 + 5000 + 0.5 * 288 / 4)));
        // Four cores: 3/4 of the hidden 3 x 288 (without pg_tail_full: all of it).
        CHECK(m.core_cycles(row, CoreContext{2, 4}, asip, mesh) == Approx(3 * (2 + 5000 + 0.5 * 864 * 3 / 4)));
        // From pg_tail_full cores on, all of it: 16 slices on 14 cores, k_ps = 8, 7 x 288 hidden.
        CHECK(m.core_cycles(row, CoreContext{2, 14, sharing_of(16, 14)}, asip, mesh) ==
              Approx(3 * (2 + 5000 + 0.5 * 2016)));
        // The row bound by the shared side keeps its whole tail whatever the ramp.
        CHECK(m.core_cycles(tight, CoreContext{2, 2}, asip, mesh) == Approx(2 + 576 + 0.5 * 212));
        // The ramp must start below its end; 0 is the form without it.
        c.pg_tail_full = 1;
        CHECK_THROWS_WITH(c.validate("mapper.coefficients"), Catch::Contains("mapper.coefficients.pg_tail_full"));
        c.pg_tail_full = 0;
        CHECK_NOTHROW(c.validate("mapper.coefficients"));
        c.pg_tail_full = 65;
        CHECK_THROWS_WITH(c.validate("mapper.coefficients"), Catch::Contains("mapper.coefficients.pg_tail_full"));
    }
}

TEST_CASE("phased-pages: a latency-bound row waits behind a share of one other core's row (pg_queue, by hand)",
          "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;  // 500 MHz, 16 outstanding, 2 setup cycles
    MeshMapParams mesh;
    mesh.hw = ddr3_1600();
    // A waited-for load of 4 aligned 64-B reads, two hops away: s = the port's 4 x 9 response
    // flits x 0.5 = 18 (the DRAM side: 4 x 4 x 0.625 = 10 and the own row changes, less); own =
    // max(4 requests, 4 x 30 / 16, 18) = 18; L0 = 30 (see the first case).
    OpProfile p;
    p.add(entry(true, 4, 4, 4, 4 * 9, 4));
    MeshCoefficients c;
    const PhasedMeshModel none(c, true, true, true, true);
    REQUIRE(none.shared_time(p.entries[0].x, 2, asip, mesh) == Approx(18.0));
    // pg_queue 0 (a calibration file without the key): max(L0 + own, k s).
    CHECK(none.core_cycles(p, CoreContext{2, 2}, asip, mesh) == Approx(2 + 30 + 18));
    CHECK(none.core_cycles(p, CoreContext{2, 4}, asip, mesh) == Approx(2 + 4 * 18));
    c.pg_queue = 0.5;
    const PhasedMeshModel m(c, true, true, true, true);
    // Two cores: the latency path waits behind half of the other core's 18: 30 + 18 + 9.
    CHECK(m.core_cycles(p, CoreContext{2, 2}, asip, mesh) == Approx(2 + 30 + 18 + 9));
    // Four cores: the wait stays that of one other core's row (30 + 18 + 9 = 57), and the round of
    // the four, 4 x 18 = 72, bounds the row (the uncapped form, 0.5 x 3 x 18, would give 75).
    CHECK(m.core_cycles(p, CoreContext{2, 4}, asip, mesh) == Approx(2 + 72));
    // Three cores with pg_sync 0.5: the round is (1 + 0.5 x 2) x 18 = 36 < 57, so the wait bounds.
    MeshCoefficients c3 = c;
    c3.pg_sync = 0.5;
    CHECK(PhasedMeshModel(c3, true, true, true, true).core_cycles(p, CoreContext{2, 3}, asip, mesh) == Approx(2 + 57));
    // A fractional share of cores (k_ps = 1.5, e.g. 3 slices on 2 cores) waits behind half a row.
    CHECK(m.core_cycles(p, CoreContext{2, 2, 1.5}, asip, mesh) == Approx(2 + 30 + 18 + 4.5));
    // One core: nobody to wait behind.
    CHECK(m.core_cycles(p, CoreContext{2, 1}, asip, mesh) == Approx(2 + 30 + 18));
    // The other phased models do not read it.
    CHECK(PhasedMeshModel(c, true, true, true).core_cycles(p, CoreContext{2, 2}, asip, mesh) == Approx(2 + 30 + 18));
    // Out of [0, 4]: an error naming the key.
    c.pg_queue = -0.1;
    CHECK_THROWS_WITH(c.validate("mapper.coefficients"), Catch::Contains("mapper.coefficients.pg_queue"));
    c.pg_queue = 4.5;
    CHECK_THROWS_WITH(c.validate("mapper.coefficients"), Catch::Contains("mapper.coefficients.pg_queue"));
}

TEST_CASE("phased-pages: the DRAM interface's port takes a request packet per flit plus a share of the packet gap (pg_port_packet, by hand)",
          "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;  // 500 MHz, 16 outstanding, 2 setup cycles
    MeshMapParams mesh;                   // 1000 MHz NoC: a NoC cycle is 0.5 core cycles
    mesh.hw = ddr3_1600();                // packet gap g = 2
    // Ten 64-B writes on one core: 90 flits into the interface (9 each), 10 one-flit acks out. The
    // DRAM side: 10 bursts x 4 tCK x 0.625 = 25 core cycles and a row change per 8 kB, less than
    // the port.
    const ProfileEntry e = entry(false, 10, 0, 10, 10, 90);
    MeshCoefficients c;
    // No pg_port_packet (-1, a file without it): pg_port (1) x max(10, 90) flits x 0.5 = 45.
    CHECK(PhasedMeshModel(c, true, true, true, true).shared_time(e.x, 1, asip, mesh) == Approx(45.0));
    // With it: the 90 flits taken at one per NoC cycle plus 1.5 x g = 3 NoC cycles per packet:
    // (90 + 1.5 x 2 x 10) x 0.5 = 60.
    c.pg_port_packet = 1.5;
    CHECK(PhasedMeshModel(c, true, true, true, true).shared_time(e.x, 1, asip, mesh) == Approx(60.0));
    // The flits the interface sends stay at pg_port per flit: 200 response flits bound the port.
    c.pg_port = 1.2;
    const ProfileEntry r = entry(false, 10, 10, 20, 200, 10);
    CHECK(PhasedMeshModel(c, true, true, true, true).shared_time(r.x, 1, asip, mesh) == Approx(1.2 * 200 * 0.5));
    // 0: one NoC cycle per flit taken, whatever pg_port.
    c.pg_port_packet = 0;
    CHECK(PhasedMeshModel(c, true, true, true, true).shared_time(e.x, 1, asip, mesh) == Approx(45.0));
    // The other phased models do not read it (ph_port 1).
    c.pg_port_packet = 1.5;
    CHECK(PhasedMeshModel(c, true, true, true).shared_time(e.x, 1, asip, mesh) == Approx(45.0));
    // -1 or [0, 100]; anything else names the key.
    c.pg_port_packet = -0.5;
    CHECK_THROWS_WITH(c.validate("mapper.coefficients"), Catch::Contains("mapper.coefficients.pg_port_packet"));
    c.pg_port_packet = 101;
    CHECK_THROWS_WITH(c.validate("mapper.coefficients"), Catch::Contains("mapper.coefficients.pg_port_packet"));
    c.pg_port_packet = -1;
    CHECK_NOTHROW(c.validate("mapper.coefficients"));
}

TEST_CASE("phased model: pipelined rows on one core by hand (DDR3-1600)", "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;  // 500 MHz, 16 outstanding, 2 setup cycles
    MeshMapParams mesh;                   // 1000 MHz NoC, 1 header flit, 64-B payloads, write acks
    mesh.hw = ddr3_1600();
    const PhasedMeshModel m(MeshCoefficients{});
    const auto serial = make_mesh_model("phased-serial", MeshCoefficients{});
    CHECK(std::string(m.name()) == "phased");
    CHECK(std::string(serial->name()) == "phased-serial");
    // Four aligned 64-B reads, one core two hops away (L0 = 30, see above): own = max(4 requests,
    // 4 x 30 / 16 = 7.5, 4 x 9 flits x 0.5 = 18) = 18; s = max(bus 10 + row changes 0.39, port 18)
    // = 18. Compute 20: B = 2 + 20 = 22. Two prefetches in flight: max(22, (22 + 30 + 18) / 2,
    // 2 + 18) = 35; serial: 2 + max(20, 30 + 18, 18) = 50.
    OpProfile rd;
    ProfileEntry r = entry(false, 4, 4, 4, 4 * 9, 4);
    r.compute = 20;
    rd.add(r);
    CHECK(m.core_cycles(rd, CoreContext{2, 1}, asip, mesh) == Approx(35.0));
    CHECK(serial->core_cycles(rd, CoreContext{2, 1}, asip, mesh) == Approx(50.0));
    // Two reads and two writes: flits 2 x 9 + 2 acks in, 2 requests + 2 x 9 out; own = max(4, 7.5,
    // 20 x 0.5) = 10; the write data's stream own_w = 18 flits x 0.5 = 9 (the read requests'
    // headers left out), the read data's own_r = 9 (the acks left out); t_WR->RD = CWL + BL/2 +
    // tWTR = 18 tCK = 11.25. s: w = 1/2, bus 10 + 4 x 1/2 x (11.25 + 5) / 2 = 16.25 of switches +
    // 0.390625 of row changes = 26.640625 (port 10).
    const double s = 10.0 + 16.25 + 0.390625;
    OpProfile mix;
    ProfileEntry x = entry(false, 4, 2, 4, 2 * 9 + 2, 2 + 2 * 9);
    x.compute = 40;
    mix.add(x);
    CHECK(m.shared_time(x.x, 1, asip, mesh) == Approx(s));
    // Compute 40: B = 42 >= own_w + t_WR->RD = 20.25 (the next store comes after the read, over = 0):
    // max(42, (42 + 30 + 10 + 11.25) / 2 = 46.625, 2 + s).
    CHECK(m.core_cycles(mix, CoreContext{2, 1}, asip, mesh) == Approx(46.625));
    // Compute 10: B = 12 < 20.25, the next store's writes (posted at 12, streaming for own_w = 9)
    // overtake the read, which can be served from 20.25 on: a share phi = (20.25 - 12) / 9 of
    // the full race, max(own_w, B) + own_w + own_r - own = 12 + 9 + 9 - 10 = 20 (the read waits
    // for both stores, then its data streams):
    // max(12, (12 + 30 + 10 + 11.25 + 8.25 / 9 x 20) / 2 = 40.7916..., 2 + s); serial 2 + max(10, 40, s).
    mix.entries[0].compute = 10;
    CHECK(m.core_cycles(mix, CoreContext{2, 1}, asip, mesh) == Approx((12.0 + 40.0 + 11.25 + 8.25 / 9.0 * 20.0) / 2.0));
    // Compute 0: B = 2 <= t_WR->RD, every write overtakes (phi = 1; the full race):
    // (2 + 40 + 11.25 + (9 + 9 + 9 - 10)) / 2 = 35.125 = (max(9, 2) + 9 + 2 + 30 + 9 + 11.25) / 2.
    mix.entries[0].compute = 0;
    CHECK(m.core_cycles(mix, CoreContext{2, 1}, asip, mesh) == Approx(35.125));
    mix.entries[0].compute = 10;
    // Continuous across the race threshold B = own_w + t_WR->RD = 20.25 (L = 40, setups 2, s,
    // the full race max(9, B) + 8): (20.25 + 40 + 11.25) / 2 = 35.75 on either side.
    const auto row = [&](double b) { return PhasedMeshModel::race_row(b, 2.0, 40.0, 9.0, 11.25, s, std::max(9.0, b) + 8.0); };
    const double th = 9.0 + 11.25;
    CHECK(std::abs(row(th - 0.5e-6) - row(th + 0.5e-6)) < 1e-3);
    CHECK(row(th) == Approx(35.75));
    // And across B = t_WR->RD = 11.25, where phi reaches 1: (11.25 + 40 + 11.25 + 19.25) / 2.
    CHECK(std::abs(row(11.25 - 0.5e-6) - row(11.25 + 0.5e-6)) < 1e-3);
    CHECK(row(11.25) == Approx(40.875));
    CHECK(serial->core_cycles(mix, CoreContext{2, 1}, asip, mesh) == Approx(42.0));
    // Two cores: the serial form, 2 + max(10, 40, 2 s), with either model.
    CHECK(m.core_cycles(mix, CoreContext{2, 2}, asip, mesh) == Approx(2.0 + 2.0 * s));
    CHECK(serial->core_cycles(mix, CoreContext{2, 2}, asip, mesh) == Approx(2.0 + 2.0 * s));
    // Waited-for ops are unchanged: the four reads waited for, 2 + 30 + 18 either way.
    OpProfile w;
    w.add(entry(true, 4, 4, 4, 4 * 9, 4));
    CHECK(m.core_cycles(w, CoreContext{2, 1}, asip, mesh) == Approx(50.0));
}

TEST_CASE("phased-engine: the cost per packet and the in-order DMA engine of a one-core row by hand (DDR3-1600)",
          "[waving][mesh_model]") {
    // p(F) = F + g + min(H, floor((F - 1) / B)) max(0, g - (B - R)), g = 2, R = 3, B = 4 (stall 1):
    // the figures of bench/mesh/stream.csv.
    const MeshHwFigures hw = ddr3_1600();
    CHECK(PhasedMeshModel::packet_cycles(hw, 5, 1) == Approx(8.0));
    CHECK(PhasedMeshModel::packet_cycles(hw, 4, 1) == Approx(6.0));
    CHECK(PhasedMeshModel::packet_cycles(hw, 9, 2) == Approx(13.0));
    CHECK(PhasedMeshModel::packet_cycles(hw, 1, 2) == Approx(3.0));
    // B = 8 >= R + g: no credit stall, 9 + 2.
    MeshHwFigures deep = hw;
    deep.buffer_depth = 8;
    deep.credit_stall = 0;  // max(0, 2 - (8 - 3))
    CHECK(PhasedMeshModel::packet_cycles(deep, 9, 2) == Approx(11.0));
    // Figures not filled (all zero): the packet's flits.
    CHECK(PhasedMeshModel::packet_cycles(MeshHwFigures{}, 9, 2) == Approx(9.0));

    vp::mapper::tiling::AsipParams asip;  // 500 MHz, 16 outstanding, 2 setup cycles
    MeshMapParams mesh;                   // 1000 MHz NoC (0.5 core cycles per NoC cycle), 1 header flit, write acks
    mesh.hw = hw;
    MeshCoefficients coef;  // no read/write switches on the shared side, which would bind otherwise
    coef.ph_turn = 0;
    const auto phased = make_mesh_model("phased", coef);
    const auto engine = make_mesh_model("phased-engine", coef);
    CHECK(std::string(engine->name()) == "phased-engine");
    CHECK(engine->ranks_by_cycles());
    CHECK(engine->shares_by_work());
    // 20 reads and 20 writes of 9-flit data packets, compute 40, one core two hops away: L0 = 30,
    // t_WR->RD = 11.25; the write data 20 x 9 flits (the read requests' headers left out), the read
    // data 20 x 9 (the acks left out). own = max(40, 40 x 30 / 16 = 75, 200 x 0.5) = 100,
    // own_w = own_r = 90, B = 42 < own_w + t_WR->RD: phi = (101.25 - 42) / 90 of the full race
    // max(90, 42) + 90 + 90 - 100 = 170: max(42, (42 + 130 + 11.25 + phi x 170) / 2, 2 + s) with
    // s = max(bus 100 + row changes 3.9, port 100) = 103.9: 147.58.
    OpProfile mix;
    ProfileEntry x = entry(false, 40, 20, 40, 20 * 9 + 20, 20 + 20 * 9);
    x.compute = 40;
    mix.add(x);
    const PhasedMeshModel direct(coef);
    const double s = direct.shared_time(x.x, 1, asip, mesh);
    const double race = PhasedMeshModel::race_row(42.0, 2.0, 130.0, 90.0, 11.25, s, 170.0);
    CHECK(race == Approx(147.58).epsilon(1e-4));
    // The default is the race, exactly as without the engine (the variant does not leak into it).
    CHECK(phased->core_cycles(mix, CoreContext{2, 1}, asip, mesh) == race);
    CHECK(direct.core_cycles(mix, CoreContext{2, 1}, asip, mesh) == race);
    // The engine: 20 writes of p(9) = 13 NoC cycles = 6.5 core cycles, then R = 20 > O = 16 reads:
    // read 17 leaves when read 1's response is in, L0 + t_WR->RD + p(9) = 30 + 11.25 + 6.5 = 47.75,
    // and reads 18-20 follow at p(9): 130 + 47.75 + 3 x 6.5 = 197.25 > the race.
    CHECK(engine->core_cycles(mix, CoreContext{2, 1}, asip, mesh) == Approx(197.25));
    // 16 reads and 16 writes (R <= O): the read requests leave at p(1) = 3 NoC cycles each behind
    // the writes: 16 x 6.5 + 16 x 1.5 = 128 (the race: (42 + 110 + 11.25 + (72 + 11.25 - 42) / 72 x 136) / 2
    // = 120.58).
    OpProfile mix16;
    ProfileEntry y = entry(false, 32, 16, 32, 16 * 9 + 16, 16 + 16 * 9);
    y.compute = 40;
    mix16.add(y);
    CHECK(engine->core_cycles(mix16, CoreContext{2, 1}, asip, mesh) == Approx(128.0));
    CHECK(phased->core_cycles(mix16, CoreContext{2, 1}, asip, mesh) == Approx(120.58).epsilon(1e-4));
    // Only one-core rows with reads and writes: two cores, and reads alone, are the phased model's.
    CHECK(engine->core_cycles(mix, CoreContext{2, 2}, asip, mesh) == phased->core_cycles(mix, CoreContext{2, 2}, asip, mesh));
    OpProfile rd;
    ProfileEntry r = entry(false, 20, 20, 20, 20 * 9, 20);
    r.compute = 40;
    rd.add(r);
    CHECK(engine->core_cycles(rd, CoreContext{2, 1}, asip, mesh) == phased->core_cycles(rd, CoreContext{2, 1}, asip, mesh));
    // The shared side is the phased model's.
    CHECK(engine->shared_cycles(mix, asip, mesh, 1) == phased->shared_cycles(mix, asip, mesh, 1));
}

TEST_CASE("phased-pages: the price of a row activation and the page term by hand (DDR3-1600)", "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;  // 500 MHz, 16 outstanding
    MeshMapParams mesh;
    mesh.hw = ddr3_1600();
    mesh.hw.dram.tRAS = 28;
    mesh.hw.dram.tWR = 12;
    mesh.hw.dram.tFAW = 24;
    mesh.hw.dram.tRRD = 5;
    // 14 cores, entries of 64 requests: q = min(16, 14 x 16) = 16 queued, on b = 8 (1 - (7/8)^16)
    // = 7.0596 of the 8 banks. Reads: ACT to ACT of one bank tRAS + tRP = 38 tCK, 38 / b = 5.383,
    // below the four-activation window's 24 / 4 = 6: 6 - BL/2 = 2 tCK beyond the burst.
    const double b16 = 8.0 * (1.0 - std::pow(7.0 / 8.0, 16));
    CHECK(PhasedMeshModel::activation_price(mesh.hw, asip, 14, 64, 0.0) == Approx(2.0));
    // Writes: tRCD + CWL + BL/2 + tWR + tRP = 44 tCK per bank, 44 / b = 6.233 > 6.
    CHECK(PhasedMeshModel::activation_price(mesh.hw, asip, 14, 64, 1.0) == Approx(44.0 / b16 - 4.0));
    // One core with 2 requests in flight: q = 2, b = 8 (1 - (7/8)^2) = 1.875: 38 / 1.875 - 4.
    CHECK(PhasedMeshModel::activation_price(mesh.hw, asip, 1, 2, 0.0) == Approx(38.0 / 1.875 - 4.0));
    // One request: one bank, the whole ACT to ACT: 38 - 4 = 34 tCK.
    CHECK(PhasedMeshModel::activation_price(mesh.hw, asip, 1, 1, 0.0) == Approx(34.0));
    // Two channels share the queued requests (8 per channel), two ranks halve the activation gap.
    MeshMapParams two = mesh;
    two.hw.dram.channels = 2;
    const double b8 = 8.0 * (1.0 - std::pow(7.0 / 8.0, 8));
    CHECK(PhasedMeshModel::activation_price(two.hw, asip, 14, 64, 0.0) == Approx(38.0 / b8 - 4.0));
    two.hw.dram.channels = 1;
    two.hw.dram.ranks = 2;  // 16 banks per channel: b = 16 (1 - (15/16)^16) = 10.20; 38 / 10.2 = 3.73 < 4
    CHECK(PhasedMeshModel::activation_price(two.hw, asip, 14, 64, 0.0) == Approx(0.0));

    // The page term: 64 aligned 64-B reads, one activation per 4 requests of the core's own stream
    // (OpProfile::activations / requests), pg_bus 1, pg_turn 0, no collisions, the port at half a
    // flit time per flit (144 core cycles, below the DRAM's side): on one core (q = 16: price
    // 2 tCK = 1.25 core cycles) bus 160 + 64 x 0.25 x 1.25 = 180 core cycles.
    MeshCoefficients c;
    c.pg_port = 0.5;
    c.pg_turn = 0;
    c.pg_collide = 0;
    c.pg_own = 0.5;
    const PhasedMeshModel pages(c, true, true, true, true);
    CHECK(std::string(pages.name()) == "phased-pages");
    CHECK(pages.replays_pages());
    const ProfileEntry rd = entry(true, 64, 64, 64, 64 * 9, 64);
    CHECK(pages.shared_time(rd.x, 1, asip, mesh, 0.25) == Approx(160.0 + 64 * 0.25 * 2.0 * 0.625));
    // With 4 cores a share pg_own = 1/2 of the own activations counts; pg_collide adds the
    // collisions 1 - (7/8)^3 of 4 streams.
    CHECK(pages.shared_time(rd.x, 4, asip, mesh, 0.25) == Approx(160.0 + 64 * 0.125 * 2.0 * 0.625));
    MeshCoefficients cc = c;
    cc.pg_collide = 0.5;
    const PhasedMeshModel collide(cc, true, true, true, true);
    const double coll = 1.0 - std::pow(7.0 / 8.0, 3);
    CHECK(collide.shared_time(rd.x, 4, asip, mesh, 0.25) ==
          Approx(160.0 + 64 * (0.125 + 0.5 * coll) * 2.0 * 0.625));
    // The port still bounds it: 288 flit times at pg_port 1, above the DRAM side.
    MeshCoefficients port1 = c;
    port1.pg_port = 1.0;
    CHECK(PhasedMeshModel(port1, true, true, true, true).shared_time(rd.x, 1, asip, mesh, 0.25) == Approx(288.0));
    // The pg_* set is this model's, the ph_* set the other phased models': a pg_bus of 2 doubles
    // the bus term here and nowhere else.
    MeshCoefficients bus2 = c;
    bus2.pg_bus = 2.0;
    CHECK(PhasedMeshModel(bus2, true, true, true, true).shared_time(rd.x, 1, asip, mesh, 0.25) ==
          Approx(320.0 + 64 * 0.25 * 2.0 * 0.625));
    CHECK(PhasedMeshModel(bus2, true, true, true).shared_time(rd.x, 1, asip, mesh) ==
          PhasedMeshModel(c, true, true, true).shared_time(rd.x, 1, asip, mesh));
}

TEST_CASE("phased-pages: the master's start and done syncs against the times of a simulation trace",
          "[waving][mesh_model]") {
    // Reference: `vp-run configs/mesh-4x4.yaml` of EfficientNet-B0's
    // `features.1.0/block/block.1/fc2` alone (a 1x1 conv 8 -> 32 on 1 x 1) with `--trace`: the
    // master at (1, 0) sends its start syncs to the cores at (0, 1), (2, 0), (1, 1) and (0, 2) in
    // that order (2, 1, 1 and 3 hops); the cores leave Idle at 14, 14, 16 and 28 ns, and the done
    // sync of (0, 2), which leaves Idle at 288 ns, reaches the master at 306 ns, the layer's end.
    // Core clock 500 MHz (2 ns), NoC 1000 MHz; router_stages 4, link_latency 1, one header flit.
    vp::mapper::tiling::AsipParams asip;
    MeshMapParams mesh;
    mesh.hw = ddr3_1600();
    mesh.hw.link_cycles = 1;
    const int hops[4] = {2, 1, 1, 3};
    const double started_ns[4] = {14, 14, 16, 28};
    for (int i = 0; i < 4; ++i) CHECK(2.0 * PhasedMeshModel::start_sync(i, hops[i], asip, mesh) == Approx(started_ns[i]));
    CHECK(2.0 * PhasedMeshModel::done_sync(3, asip, mesh) == Approx(306.0 - 288.0));
    // By hand: a sync reaches the core T0 + 1 = L + (H + 1)(P - 1 + L) + F = 1 + 4 x 4 + 1 = 18
    // NoC cycles (9 core cycles) after it leaves, over 3 hops; the master's router sends one
    // one-flit packet per F + g = 3 NoC cycles (1.5 core cycles), so the fourth leaves at 4.5.
    CHECK(PhasedMeshModel::start_sync(3, 3, asip, mesh) == Approx(std::ceil(4.5 + 9.0)));
    // With a slower NoC clock the flight takes more core cycles; with a slower master (a core
    // cycle longer than the packet spacing) the spacing is one core cycle.
    MeshMapParams slow = mesh;
    slow.noc_mhz = 250;  // a NoC cycle is 2 core cycles
    CHECK(PhasedMeshModel::done_sync(3, asip, slow) == Approx(36.0));
    CHECK(PhasedMeshModel::start_sync(2, 0, asip, slow) == Approx(2 * 3 * 2.0 + (1 + 4 + 1) * 2.0));
    MeshMapParams fast = mesh;
    fast.noc_mhz = 4000;  // 0.125 core cycles per NoC cycle: 3 x 0.125 < 1
    CHECK(PhasedMeshModel::start_sync(2, 0, asip, fast) == Approx(std::ceil(2.0 + 6 * 0.125)));
    // Only phased-pages charges them; the sum is start + done.
    MeshCoefficients c;
    CHECK(PhasedMeshModel(c, true, true, true, true).sync_cycles(3, 3, asip, mesh) == Approx(14.0 + 9.0));
    CHECK(PhasedMeshModel(c, true, true, true).sync_cycles(3, 3, asip, mesh) == 0.0);
    CHECK(QueueingMeshModel(c).sync_cycles(3, 3, asip, mesh) == 0.0);
}

TEST_CASE("phased-pages: a request's unloaded round trip by hand and against a simulation trace", "[waving][mesh_model]") {
    vp::mapper::tiling::AsipParams asip;  // 500 MHz cores
    MeshMapParams mesh;                   // 1000 MHz NoC
    mesh.hw = ddr3_1600();                // hop_cycles 5, CL 10, CWL 8, tRCD 10, BL/2 4, tCK 0.625 core cycles
    XferFeatures read, write;
    read.transfers = read.reads = 1;
    write.transfers = 1;
    // By hand, one hop from the interface: the NoC 2 x 2 x 5 x 0.5 = 10 core cycles, then at the
    // DRAM (tRCD if the row opens) + CL or CWL + BL/2 clocks of 0.625 core cycles.
    CHECK(PhasedMeshModel::unloaded_latency(read, 1, 0.0, asip, mesh) == Approx(10 + 14 * 0.625));
    CHECK(PhasedMeshModel::unloaded_latency(read, 1, 1.0, asip, mesh) == Approx(10 + 24 * 0.625));
    CHECK(PhasedMeshModel::unloaded_latency(write, 1, 0.0, asip, mesh) == Approx(10 + 12 * 0.625));
    CHECK(PhasedMeshModel::unloaded_latency(read, 1, 0.5, asip, mesh) == Approx(10 + 19 * 0.625));
    // Without a replay (-1) or with a closed page every request opens its row.
    CHECK(PhasedMeshModel::unloaded_latency(read, 1, -1.0, asip, mesh) == Approx(10 + 24 * 0.625));
    MeshMapParams closed = mesh;
    closed.hw.dram.open_page = false;
    CHECK(PhasedMeshModel::unloaded_latency(read, 1, 0.0, asip, closed) == Approx(10 + 24 * 0.625));
    // A mixed entry: half of its requests write.
    XferFeatures mixed;
    mixed.transfers = 4;
    mixed.reads = 2;
    CHECK(PhasedMeshModel::unloaded_latency(mixed, 1, 0.0, asip, mesh) == Approx(10 + 13 * 0.625));
    // Reference: the three waited-for transfers of a one-core fc layer (3 inputs, 1 output) of a
    // random network on mesh-4x4, one hop from the interface, in a `--trace` of `vp-run`: a read
    // whose row opens 52 ns (26 core cycles) from the core's issue to the response, a read of an
    // open row 38 ns (19), a write to an open row 38 ns to its ack (19). Within 1.5 core cycles.
    CHECK(std::abs(PhasedMeshModel::unloaded_latency(read, 1, 1.0, asip, mesh) - 26.0) <= 1.5);
    CHECK(std::abs(PhasedMeshModel::unloaded_latency(read, 1, 0.0, asip, mesh) - 19.0) <= 1.5);
    CHECK(std::abs(PhasedMeshModel::unloaded_latency(write, 1, 0.0, asip, mesh) - 19.0) <= 1.5);
}
