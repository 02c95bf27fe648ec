// VCD tracing of the NMP model: the trace written by the model is parsed back (a reader that
// shares no code with the writer) and compared with the model's own statistics:
//  * every TLT has nmp.tle[i].tlt[j].state and every TLE nmp.tle[i].dma.in_flight;
//  * time a TLT spends in state 2 (compute) == its busy_cycles statistic x clock period;
//  * a TLT shows state 1 (load) iff it received IN/W bytes, state 3 (store) iff it stored OUT;
//  * the number of +1 steps of dma.in_flight == DMA transactions of the TLE, the value never
//    exceeds dma_max_outstanding and ends at 0;
//  * nmp.layer ends at the number of layers;
//  * each TLE's time breakdown load + store + dma_wait (compute) + barrier == the run's cycles.
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>

#include "mapper/tso/tso.h"
#include "models/common/payload_pool.h"
#include "models/common/protocol_checker.h"
#include "models/common/sim_control.h"
#include "models/common/trace.h"
#include "models/dram/dram_controller.h"
#include "models/nmp/nmp_system.h"
#include "platform/config/hw_figures.h"

using namespace sc_core;
using namespace vp::mapper;

namespace {

int check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
    return ok ? 0 : 1;
}

struct Wave {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> changes;  // (time ps, value)
};

// Minimal VCD reader: $scope/$var header, then #time and value changes.
std::map<std::string, Wave> read_vcd(const std::string& path, std::uint64_t& end_ps) {
    std::ifstream in(path);
    std::map<std::string, std::string> id_to_name;
    std::map<std::string, Wave> waves;
    std::vector<std::string> scopes;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string tok;
        ls >> tok;
        if (tok == "$scope") {
            std::string kind, name;
            ls >> kind >> name;
            scopes.push_back(name);
        } else if (tok == "$upscope") {
            scopes.pop_back();
        } else if (tok == "$var") {
            std::string kind, width, id, name, full;
            ls >> kind >> width >> id >> name;
            for (const auto& s : scopes) full += s + ".";
            id_to_name[id] = full + name;
        } else if (tok == "$enddefinitions") {
            break;
        }
    }
    std::uint64_t t = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '$') continue;
        if (line[0] == '#') {
            t = std::stoull(line.substr(1));
            continue;
        }
        std::uint64_t v = 0;
        std::string id;
        if (line[0] == 'b') {
            const auto sp = line.find(' ');
            for (std::size_t i = 1; i < sp; ++i) v = 2 * v + std::uint64_t(line[i] == '1');
            id = line.substr(sp + 1);
        } else {
            v = std::uint64_t(line[0] == '1');
            id = line.substr(1);
        }
        waves[id_to_name.at(id)].changes.push_back({t, v});
    }
    end_ps = t;
    return waves;
}

// Time spent at each value up to end_ps.
std::map<std::uint64_t, std::uint64_t> time_at(const Wave& w, std::uint64_t end_ps) {
    std::map<std::uint64_t, std::uint64_t> r;
    for (std::size_t i = 0; i < w.changes.size(); ++i) {
        const std::uint64_t until = i + 1 < w.changes.size() ? w.changes[i + 1].first : end_ps;
        r[w.changes[i].second] += until - w.changes[i].first;
    }
    return r;
}

Network small_net() {
    nlohmann::json doc = {
        {"name", "nmp_trace"},
        {"precision", 16},
        {"layers",
         {{{"name", "c1"}, {"type", "conv"}, {"C", 3}, {"K", 16}, {"H", 24}, {"W", 24}, {"R", 3}, {"S", 3},
           {"stride", 1}, {"pad", 1}},
          {{"name", "c2"}, {"type", "conv"}, {"C", 16}, {"K", 40}, {"H", 24}, {"W", 24}, {"R", 3}, {"S", 3},
           {"stride", 2}, {"pad", 1}},
          {{"name", "pw"}, {"type", "conv"}, {"C", 40}, {"K", 70}, {"H", 12}, {"W", 12}, {"R", 1}, {"S", 1}},
          // fc: OFM slicing of its single output row leaves TLEs 1..3 without work; they must
          // still wait at the barrier (a pending notification of the previous barrier once let
          // them run ahead), so that the next layers start only when fc has ended.
          {{"name", "fc"}, {"type", "fc"}, {"in", 300}, {"out", 10}},
          {{"name", "fc2"}, {"type", "fc"}, {"in", 10}, {"out", 64}},
          {{"name", "c3"}, {"type", "conv"}, {"C", 8}, {"K", 8}, {"H", 8}, {"W", 8}, {"R", 3}, {"S", 3}}}}};
    return parse_network(doc, "nmp_trace.json");
}

}  // namespace

int sc_main(int, char**) {
    int fails = 0;
    try {
        const Network net = small_net();
        vp::nmp::NmpModelParams p;  // seed defaults: 4 TLE x 8 TLT
        p.arch.dram = vp::config::dram_figures(vp::dram::DramParams::from_preset("ddr3-1600", "dram"));
        p.arch.dma_max_outstanding = 6;
        tso::TsoOptions opt;
        const tso::TsoResult map = tso::run_tso(net, p.arch, opt);

        vp::trace::TraceParams tp;
        tp.enabled = true;
        tp.signals = {"nmp.*"};
        vp::trace::Tracer tracer(tp);
        vp::stats::Registry root;
        vp::PayloadPool pool;
        vp::SimControl ctrl;
        vp::dram::DramParams dp = vp::dram::DramParams::from_preset("ddr3-1600", "dram");
        vp::dram::DramController dram("dram", dp, root);
        vp::nmp::NmpSystem nmp("nmp", p, map.convs, pool, ctrl, root, &tracer);
        vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on every DMA binding
        for (int t = 0; t < nmp.n_tle(); ++t) tlm.bind(nmp.socket(t), dram.socket, "tlmcheck_tle" + std::to_string(t));
        const std::string vcd = "nmp_trace_test.vcd";
        tracer.open(vcd);
        sc_start();
        dram.finish(sc_time_stamp());
        nmp.finish();
        const std::uint64_t end_ps = sc_time_stamp().value() / sc_time(1, SC_PS).value();
        tracer.close(end_ps);

        std::uint64_t vcd_end = 0;
        const auto waves = read_vcd(vcd, vcd_end);
        std::remove(vcd.c_str());
        const nlohmann::json st = root.to_json().at("nmp");
        const double period_ps = p.arch.cycle_s() * 1e12;
        bool names = true, compute = true, load = true, store = true, steps = true, bound = true, zero = true;
        bool split = true;
        const double span = st.at("cycles").at("value").get<double>();
        for (int i = 0; i < p.arch.n_tle; ++i) {
            const std::string tle = "nmp.tle[" + std::to_string(i) + "]";
            const auto& ts = st.at("tle[" + std::to_string(i) + "]");
            const double parts = ts.at("load_cycles").at("value").get<double>() +
                                 ts.at("store_cycles").at("value").get<double>() +
                                 ts.at("dma_wait_cycles").at("value").get<double>() +
                                 ts.at("barrier_cycles").at("value").get<double>();
            // dma_wait_cycles rounds each wait to a whole cycle.
            if (std::abs(parts - span) > 0.01 * span || ts.at("load_cycles").at("value").get<double>() <= 0) {
                split = false;
                std::printf("  %s: load+store+wait+barrier = %.1f cycles, run %.1f\n", tle.c_str(), parts, span);
            }
            for (int j = 0; j < p.arch.n_tlt; ++j) {
                const auto it = waves.find(tle + ".tlt[" + std::to_string(j) + "].state");
                if (it == waves.end()) {
                    names = false;
                    continue;
                }
                auto tt = time_at(it->second, end_ps);
                const auto& s = ts.at("tlt[" + std::to_string(j) + "]");
                const double busy_ps = s.at("busy_cycles").at("value").get<double>() * period_ps;
                const double instr = s.at("instructions").at("value").get<double>();
                // sc_time rounds each compute interval to 1 ps.
                if (std::abs(double(tt[2]) - busy_ps) > instr + 1) {
                    compute = false;
                    std::printf("  %s tlt %d: compute %llu ps in the trace, busy %.0f ps in stats\n", tle.c_str(), j,
                                (unsigned long long)tt[2], busy_ps);
                }
                const bool loaded = s.at("bytes_in").at("value").get<double>() + s.at("bytes_w").at("value").get<double>() > 0;
                if ((tt[1] > 0) != loaded) load = false;
                if ((tt[3] > 0) != (s.at("bytes_out").at("value").get<double>() > 0)) store = false;
            }
            const auto it = waves.find(tle + ".dma.in_flight");
            if (it == waves.end()) {
                names = false;
                continue;
            }
            std::uint64_t ups = 0, prev = 0;
            for (const auto& [t, v] : it->second.changes) {
                if (v == prev + 1) ++ups;
                if (v > unsigned(p.arch.dma_max_outstanding)) bound = false;
                prev = v;
            }
            if (ups != ts.at("dma").at("transactions").at("value").get<std::uint64_t>()) {
                steps = false;
                std::printf("  %s: %llu +1 steps, %llu transactions\n", tle.c_str(), (unsigned long long)ups,
                            (unsigned long long)ts.at("dma").at("transactions").at("value").get<std::uint64_t>());
            }
            if (prev != 0) zero = false;
        }
        const auto layer = waves.find("nmp.layer");
        fails += check(names && layer != waves.end(), "every TLT state and TLE dma.in_flight signal is in the VCD");
        fails += check(waves.count("dram.in_flight") == 0, "the signal filter nmp.* excludes the DRAM signals");
        fails += check(compute, "time in state compute == busy_cycles x period for every TLT");
        fails += check(load, "state load appears iff the TLT received IN/W bytes");
        fails += check(store, "state store appears iff the TLT stored OUT bytes");
        fails += check(steps, "dma.in_flight +1 steps == DMA transactions of each TLE");
        fails += check(bound && zero, "dma.in_flight <= dma_max_outstanding and ends at 0");
        fails += check(layer != waves.end() && layer->second.changes.back().second == map.convs.size(),
                       "nmp.layer ends at the number of layers");
        fails += check(split, "per TLE: load + store + dma_wait + barrier cycles == run cycles (1 %)");
        fails += check(vcd_end == end_ps, "the VCD ends at the end of the simulation");
    } catch (const std::exception& e) {
        std::printf("FAIL: exception: %s\n", e.what());
        return 1;
    }
    return fails ? 1 : 0;
}
