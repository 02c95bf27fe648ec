// NoC benchmark (measured, never asserted): simulated router-cycles per wall-clock second
// and a latency-vs-offered-load sweep. Usage:
//   bench_noc speed [runs]   CSV: mesh,load,stepping,cycles,median_s,router_cycles_per_s,median_cpu_s,
//                            router_cycles_per_cpu_s,accepted   (medians over runs; CPU time is
//                            reported too because the build machine is shared)
//   bench_noc sweep          CSV: load,offered,accepted,packet_latency_avg,p50,p99,max,network_latency_avg,drained
//   bench_noc saturation [k buffer credit_delay stages vcs packet_flits]   accepted load at 0.6 offered
//   bench_noc zero_load [k buffer vcs link credit_delay eject_depth flits]  CSV: hops,pairs,latency_min,latency_max
//                            (every src/dst pair, one packet in an empty network; defaults BookSim2-matched)
//   bench_noc speed_point key=value...   one timed run (bench/noc/speed_compare.py): keys k, load, cycles,
//                            seed, stepping, buffer_depth, num_vcs, link_latency, credit_delay, eject_depth,
//                            router_stages, packet_flits, routing; prints one line
//                            cycles=.. cpu_s=.. wall_s=.. accepted=.. router_steps=.. (network construction
//                            excluded from the times)
//   bench_noc stream [buffer_depth hops packets max_flits stages link credit_delay]
//                            CSV: direction,buffer_depth,hops,flits,cycles_per_packet,cycles_per_flit,
//                            bubble_per_packet: one source streaming packets of 2..max_flits (9) flits
//                            (always 2 queued) between a core `hops` hops east of the DRAM interface's
//                            node and that node (the mesh platform's NoC: 4x4, 2 VCs, separate message
//                            classes, P 4, L 1, credit delay 1, eject depth 16), each data packet answered
//                            by a 1-flit packet the other way (write: write requests from the core, acks
//                            back; read: read responses to the core, read requests from it); the period
//                            is the steady drain interval of the data packets (docs/mesh.md, "Tried: the
//                            cost per packet of a one-core stream")
// Configuration (issue text): uniform random, XY, 1 VC, 4-flit buffers, 8-flit packets.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <systemc>  // entry point sc_main: links the model library (bench/CMakeLists.txt convention)

#include "models/noc/synthetic_traffic.h"

using namespace vp::noc;

namespace {
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

NocParams config(unsigned k, const char* stepping) {
    NocParams p;
    p.width = p.height = k;
    p.buffer_depth = 4;
    p.num_vcs = 1;
    p.routing = "xy";
    p.stepping = stepping;
    p.watchdog_cycles = 100000;
    p.validate("noc");
    return p;
}

void speed(int runs) {
    std::printf("mesh,load,stepping,cycles,median_s,router_cycles_per_s,median_cpu_s,router_cycles_per_cpu_s,accepted\n");
    for (unsigned k : {8u, 16u}) {
        for (double load : {0.001, 0.05, 0.1, 0.2, 0.3}) {
            for (const char* stepping : {"active", "all"}) {
                const std::uint64_t cycles = k == 8 ? 50000 : 12500;
                std::vector<double> times, cpu_times;
                double accepted = 0;
                for (int r = 0; r < runs; ++r) {
                    const NocParams p = config(k, stepping);
                    Network net(p);
                    TrafficParams t;
                    t.rate = load;
                    t.packet_flits = 8;
                    t.seed = 1 + r;
                    SyntheticTraffic traffic(net, t);
                    const double cpu0 = cpu_seconds();
                    const auto t0 = std::chrono::steady_clock::now();
                    for (std::uint64_t c = 0; c < cycles; ++c) {
                        traffic.inject();
                        net.step();
                    }
                    const auto t1 = std::chrono::steady_clock::now();
                    times.push_back(std::chrono::duration<double>(t1 - t0).count());
                    cpu_times.push_back(cpu_seconds() - cpu0);
                    accepted = double(net.totals().term.flits_ejected) / double(p.num_nodes()) / double(cycles);
                }
                std::sort(times.begin(), times.end());
                std::sort(cpu_times.begin(), cpu_times.end());
                const double med = times[times.size() / 2], cpu = cpu_times[cpu_times.size() / 2];
                const double rc = double(k * k) * double(cycles);
                std::printf("%ux%u,%g,%s,%llu,%.4f,%.4g,%.4f,%.4g,%.4f\n", k, k, load, stepping,
                            (unsigned long long)cycles, med, rc / med, cpu, rc / cpu, accepted);
                std::fflush(stdout);
            }
        }
    }
}

void sweep() {
    std::printf("load,offered,accepted,packet_latency_avg,packet_latency_p50,packet_latency_p99,packet_latency_max,"
                "network_latency_avg,drained\n");
    const double loads[] = {0.005, 0.02, 0.04, 0.06, 0.08, 0.10, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17,
                            0.18, 0.20, 0.22, 0.25, 0.30};
    for (double load : loads) {
        const NocParams p = config(8, "active");
        Network net(p);
        TrafficParams t;
        t.rate = load;
        t.packet_flits = 8;
        t.warmup_cycles = 10000;
        t.measure_cycles = 20000;
        t.drain_max_cycles = 50000;
        SyntheticTraffic traffic(net, t);
        const TrafficResult r = traffic.run();
        std::printf("%g,%.4f,%.4f,%.2f,%llu,%llu,%llu,%.2f,%d\n", load, r.offered, r.accepted, r.packet_latency_avg,
                    (unsigned long long)r.packet_latency_p50, (unsigned long long)r.packet_latency_p99,
                    (unsigned long long)r.packet_latency_max, r.network_latency_avg, r.drained ? 1 : 0);
        std::fflush(stdout);
    }
}
// Saturation throughput for calibration against other simulators: accepted flits/node/cycle
// at an offered load far past saturation (BookSim2's "throughput" methodology).
void saturation(int argc, char** argv) {
    auto arg = [&](int i, unsigned def) { return argc > i ? unsigned(std::atoi(argv[i])) : def; };
    NocParams p = config(arg(2, 8), "active");
    p.buffer_depth = arg(3, 4);
    p.credit_delay = arg(4, 1);
    p.router_stages = arg(5, 4);
    p.num_vcs = arg(6, 1);
    const unsigned flits = arg(7, 8);
    p.validate("noc");
    Network net(p);
    TrafficParams t;
    t.rate = 0.6;
    t.packet_flits = flits;
    t.warmup_cycles = 10000;
    t.measure_cycles = 20000;
    t.drain_max_cycles = 0;
    SyntheticTraffic traffic(net, t);
    const TrafficResult r = traffic.run();
    std::printf("k=%u buffer=%u credit_delay=%u stages=%u vcs=%u packet_flits=%u accepted=%.4f\n", p.width,
                p.buffer_depth, p.credit_delay, p.router_stages, p.num_vcs, flits, r.accepted);
}
// Zero-load packet latency of every source/destination pair (one packet in an otherwise empty
// network, created in cycle 0), grouped by hop count: the figure compared per hop count with
// BookSim2's per-pair averages at 0.002 flits/node/cycle (bench/noc/booksim_compare.py).
void zero_load(int argc, char** argv) {
    auto arg = [&](int i, unsigned def) { return argc > i ? unsigned(std::atoi(argv[i])) : def; };
    NocParams p = config(arg(2, 8), "active");
    p.buffer_depth = arg(3, 4);
    p.num_vcs = arg(4, 1);
    p.link_latency = arg(5, 2);
    p.credit_delay = arg(6, 2);
    p.eject_depth = arg(7, p.buffer_depth);
    const unsigned flits = arg(8, 8);
    p.validate("noc");
    struct Sink : PacketSink {
        std::uint64_t cycle = 0;
        bool got = false;
        void deliver(unsigned, std::uint32_t, const PacketInfo&, std::uint64_t c) override {
            cycle = c;
            got = true;
        }
    };
    const unsigned n = p.num_nodes();
    std::vector<std::uint64_t> lo(p.width + p.height, ~std::uint64_t(0)), hi(p.width + p.height, 0), pairs(p.width + p.height, 0);
    for (unsigned s = 0; s < n; ++s)
        for (unsigned d = 0; d < n; ++d) {
            Network net(p);
            Sink sink;
            net.set_sink(&sink);
            net.send(s, d, PacketType::kSynthetic, 0, 0, 0, nullptr, flits);
            for (int i = 0; i < 100000 && !sink.got; ++i) net.step();
            const unsigned h = unsigned(std::abs(int(s % p.width) - int(d % p.width)) +
                                        std::abs(int(s / p.width) - int(d / p.width)));
            lo[h] = std::min(lo[h], sink.cycle);
            hi[h] = std::max(hi[h], sink.cycle);
            ++pairs[h];
        }
    std::printf("hops,pairs,latency_min,latency_max\n");
    for (unsigned h = 0; h < lo.size(); ++h)
        if (pairs[h])
            std::printf("%u,%llu,%llu,%llu\n", h, (unsigned long long)pairs[h], (unsigned long long)lo[h],
                        (unsigned long long)hi[h]);
}
// A one-core stream on the mesh platform's NoC (defaults of NocParams, 4x4, separate classes):
// the core at (hops, 0) and the DRAM interface's node at (0, 0). Direction "write": write requests
// of F flits from the core, a 1-flit ack back per packet; "read": read responses of F flits to the
// core, a 1-flit read request out per packet. The source keeps 2 packets queued; the period is the
// drain interval of the data packets after a warm-up.
void stream(int argc, char** argv) {
    auto arg = [&](int i, unsigned def) { return argc > i ? unsigned(std::atoi(argv[i])) : def; };
    NocParams p;  // the platform's defaults: 4x4, 2 VCs, separate classes, P 4, L 1, credit delay 1
    p.buffer_depth = arg(2, 4);
    const unsigned hops = arg(3, 2);
    const unsigned packets = arg(4, 400);
    const unsigned max_flits = arg(5, 9);
    p.router_stages = arg(6, p.router_stages);
    p.link_latency = arg(7, p.link_latency);
    p.credit_delay = arg(8, p.credit_delay);
    p.width = std::max(4u, hops + 1);
    p.watchdog_cycles = 100000;
    p.validate("noc");
    struct Sink : PacketSink {
        unsigned data_dst = 0;
        std::vector<std::uint64_t> drained;
        void deliver(unsigned node, std::uint32_t, const PacketInfo& info, std::uint64_t c) override {
            if (node == data_dst && info.num_flits > 1) drained.push_back(c);
        }
    };
    std::printf("direction,buffer_depth,hops,flits,cycles_per_packet,cycles_per_flit,bubble_per_packet\n");
    for (const bool write : {true, false}) {
        for (unsigned flits = 2; flits <= max_flits; ++flits) {
            Network net(p);
            Sink sink;
            const unsigned core = hops, dram_if = 0;
            const unsigned src = write ? core : dram_if, dst = write ? dram_if : core;
            sink.data_dst = dst;
            net.set_sink(&sink);
            const PacketType data = write ? PacketType::kWriteRequest : PacketType::kReadResponse;
            const PacketType ctl = write ? PacketType::kWriteAck : PacketType::kReadRequest;
            unsigned sent = 0;
            for (std::uint64_t guard = 0; sink.drained.size() < packets && guard < 1000000; ++guard) {
                while (sent < packets && net.queued_packets(src) < 2) {
                    net.send(src, dst, data, 0, 0, 0, nullptr, flits);
                    net.send(dst, src, ctl, 0, 0, 0, nullptr, 1);
                    ++sent;
                }
                net.step();
            }
            if (sink.drained.size() < 8) {
                std::fprintf(stderr, "bench_noc stream: only %zu packets drained\n", sink.drained.size());
                std::exit(1);
            }
            const std::size_t w = sink.drained.size() / 4, e = sink.drained.size() - 1;
            const double per_packet = double(sink.drained[e] - sink.drained[w]) / double(e - w);
            std::printf("%s,%u,%u,%u,%.3f,%.3f,%.3f\n", write ? "write" : "read", p.buffer_depth, hops, flits,
                        per_packet, per_packet / flits, per_packet - flits);
        }
    }
}

// One timed run of `inject(); step();` per cycle on a configuration given as key=value arguments
// (the driver bench/noc/speed_compare.py passes the matched configuration of
// bench/noc/speed_matched.json). Unknown keys or bad values: exit 2.
int speed_point(int argc, char** argv) {
    NocParams p = config(8, "active");
    TrafficParams t;
    t.packet_flits = 8;
    std::uint64_t cycles = 50000;
    for (int i = 2; i < argc; ++i) {
        const char* eq = std::strchr(argv[i], '=');
        if (!eq) {
            std::fprintf(stderr, "bench_noc speed_point: argument '%s' is not key=value\n", argv[i]);
            return 2;
        }
        const std::string key(argv[i], std::size_t(eq - argv[i])), val(eq + 1);
        char* end = nullptr;
        const double num = std::strtod(val.c_str(), &end);
        const bool numeric = end && *end == '\0' && !val.empty();
        auto u32 = [&](std::uint32_t& dst) {
            if (!numeric || num < 0 || num != double(std::uint32_t(num))) return false;
            dst = std::uint32_t(num);
            return true;
        };
        bool ok = true;
        if (key == "k") ok = u32(p.width) && u32(p.height);
        else if (key == "load") { ok = numeric; t.rate = num; }
        else if (key == "cycles") { ok = numeric && num >= 1; cycles = std::uint64_t(num); }
        else if (key == "seed") { ok = numeric && num >= 0; t.seed = std::uint64_t(num); }
        else if (key == "stepping") p.stepping = val;
        else if (key == "routing") p.routing = val;
        else if (key == "buffer_depth") ok = u32(p.buffer_depth);
        else if (key == "num_vcs") ok = u32(p.num_vcs);
        else if (key == "link_latency") ok = u32(p.link_latency);
        else if (key == "credit_delay") ok = u32(p.credit_delay);
        else if (key == "eject_depth") ok = u32(p.eject_depth);
        else if (key == "router_stages") ok = u32(p.router_stages);
        else if (key == "packet_flits") ok = u32(t.packet_flits);
        else if (key == "injection") t.injection = val;
        else {
            std::fprintf(stderr, "bench_noc speed_point: unknown key '%s'\n", key.c_str());
            return 2;
        }
        if (!ok) {
            std::fprintf(stderr, "bench_noc speed_point: %s: expected a non-negative number, got '%s'\n", key.c_str(),
                         val.c_str());
            return 2;
        }
    }
    p.watchdog_cycles = 0;
    try {
        p.validate("noc");
        Network net(p);
        SyntheticTraffic traffic(net, t);
        const double cpu0 = cpu_seconds();
        const auto t0 = std::chrono::steady_clock::now();
        for (std::uint64_t c = 0; c < cycles; ++c) {
            traffic.inject();
            net.step();
        }
        const auto t1 = std::chrono::steady_clock::now();
        const double cpu = cpu_seconds() - cpu0;
        std::printf("cycles=%llu cpu_s=%.6f wall_s=%.6f accepted=%.5f router_steps=%llu\n", (unsigned long long)cycles,
                    cpu, std::chrono::duration<double>(t1 - t0).count(),
                    double(net.totals().term.flits_ejected) / double(p.num_nodes()) / double(cycles),
                    (unsigned long long)net.router_steps());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_noc speed_point: %s\n", e.what());
        return 2;
    }
    return 0;
}
}  // namespace

// No SystemC module is elaborated: the network is stepped directly (plain C++ core).
int sc_main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "speed";
    if (mode == "speed") speed(argc > 2 ? std::atoi(argv[2]) : 5);
    else if (mode == "sweep") sweep();
    else if (mode == "saturation") saturation(argc, argv);
    else if (mode == "zero_load") zero_load(argc, argv);
    else if (mode == "speed_point") return speed_point(argc, argv);
    else if (mode == "stream") stream(argc, argv);
    else {
        std::fprintf(stderr, "usage: bench_noc speed [runs] | sweep | saturation [k buffer credit_delay stages vcs flits]"
                             " | zero_load [k buffer vcs link credit_delay eject_depth flits] | speed_point key=value..."
                             " | stream [buffer_depth hops packets max_flits stages link credit_delay]\n");
        return 2;
    }
    return 0;
}
