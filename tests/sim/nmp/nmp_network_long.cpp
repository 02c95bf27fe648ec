// Whole networks (workloads/lenet5.json, squeezenet1_1.json, inception_v3.json) on the
// NMP model with the shared DDR3-1600 controller: invariants (MACs, bytes, transactions =
// mapper bursts, nothing in flight) and the estimate/simulation ratio per network.
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>

#include <systemc>

#include "mapper/tso/tso.h"
#include "models/common/payload_pool.h"
#include "models/common/protocol_checker.h"
#include "models/common/sim_control.h"
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

}  // namespace

int sc_main(int, char**) {
    int fails = 0;
    try {
        vp::nmp::NmpModelParams p;
        p.arch.dram = vp::config::dram_figures(vp::dram::DramParams::from_preset("ddr3-1600", "dram"));
        vp::stats::Registry root;
        vp::PayloadPool pool;
        vp::SimControl ctrl;
        vp::dram::DramParams dp = vp::dram::DramParams::from_preset("ddr3-1600", "dram");
        vp::dram::DramController dram("dram", dp, root);
        // One NMP instance runs the networks back to back (one elaboration per process).
        std::vector<tso::ConvMapping> all;
        std::uint64_t bursts = 0, bytes = 0, macs = 0;
        double est = 0;
        for (const char* wl : {"lenet5", "squeezenet1_1", "inception_v3"}) {
            const Network net = load_network(std::string(VP_SOURCE_DIR) + "/workloads/" + wl + ".json");
            tso::TsoOptions opt;
            opt.threads = 2;
            const tso::TsoResult r = tso::run_tso(net, p.arch, opt);
            for (auto c : r.convs) {
                c.layer_name = std::string(wl) + "/" + c.layer_name;
                bursts += c.best.counts.bursts();
                bytes += c.best.counts.bytes();
                macs += c.best.counts.macs;
                est += c.best.times.total_s;
                all.push_back(c);
            }
            std::uint64_t net_macs = 0;
            for (const auto& l : net.layers)
                if (tso::is_tso_layer(l)) net_macs += l.macs();
            fails += check(r.total_macs() == net_macs, std::string(wl) + ": mapped MACs == workload MACs");
        }
        vp::nmp::NmpSystem nmp("nmp", p, all, pool, ctrl, root);
        vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on every DMA binding
        for (int t = 0; t < nmp.n_tle(); ++t) tlm.bind(nmp.socket(t), dram.socket, "tlmcheck_tle" + std::to_string(t));
        const auto w0 = std::chrono::steady_clock::now();
        sc_start();
        const auto w1 = std::chrono::steady_clock::now();
        dram.finish(sc_time_stamp());
        nmp.finish();
        fails += check(nmp.done(), "every layer finished");
        fails += check(nmp.macs() == macs, "simulated MACs == workload MACs (" + std::to_string(macs) + ")");
        fails += check(nmp.dma_transactions() == bursts, "DMA transactions == mapper bursts");
        fails += check(dram.bytes_requested() == bytes && dram.bytes_served() == bytes,
                       "DRAM bytes requested == served == mapper bytes");
        fails += check(dram.in_flight() == 0 && pool.in_use() == 0, "nothing left in flight");
        double ratio_min = 1e30, ratio_max = 0;
        for (std::size_t i = 0; i < all.size(); ++i) {
            const double sim = (nmp.layer_end()[i] - nmp.layer_start()[i]).to_seconds();
            const double r = all[i].best.times.total_s / sim;
            ratio_min = std::min(ratio_min, r);
            ratio_max = std::max(ratio_max, r);
        }
        std::printf("layers %zu, simulated %.3f ms, estimated %.3f ms (est/sim %.3f; per layer %.3f .. %.3f), "
                    "%llu transactions, wall %.1f s\n",
                    all.size(), sc_time_stamp().to_seconds() * 1e3, est * 1e3, est / sc_time_stamp().to_seconds(),
                    ratio_min, ratio_max, (unsigned long long)nmp.dma_transactions(),
                    std::chrono::duration<double>(w1 - w0).count());
    } catch (const std::exception& e) {
        std::printf("FAIL: exception: %s\n", e.what());
        return 1;
    }
    return fails ? 1 : 0;
}
