#pragma once
// One VTA system for the network scenarios: driver + DDR3 controller + timed core + host.
// check() compares every layer with the untimed executor and the independent reference.
#include <iostream>
#include <memory>

#include <systemc>

#include "../../unit/vta/network_reference.h"
#include "mapper/vta/network_driver.h"
#include "models/common/protocol_checker.h"
#include "models/common/sim_control.h"
#include "models/dram/dram_controller.h"
#include "models/vta/vta_core.h"
#include "models/vta/vta_host.h"

using namespace vp::mapper::vta;

namespace {
int g_fail = 0;
#define EXPECT(c)                                                            \
    do {                                                                     \
        if (!(c)) {                                                          \
            ++g_fail;                                                        \
            std::cerr << __FILE__ << ":" << __LINE__ << ": FAILED " #c "\n"; \
        }                                                                    \
    } while (0)

struct System {
    std::unique_ptr<NetworkDriver> drv;
    std::unique_ptr<vp::dram::DramController> dram;
    std::unique_ptr<vp::vta::VtaCore> core;
    std::unique_ptr<vp::vta::VtaHost> host;
    vp::tlmcheck::CheckerSet tlm{true};  // base-protocol checker on every DMA binding
    System(const std::string& n, const NetGraph& g, std::uint64_t seed, vp::stats::Registry& reg, vp::SimControl& ctrl,
           bool double_buffer = true, DriverOptions::ConvLowering lowering = DriverOptions::ConvLowering::Im2row)
        : m_seed(seed), m_dbuf(double_buffer), m_lowering(lowering) {
        DriverOptions o;
        o.seed = seed;
        o.double_buffer = double_buffer;
        o.conv_lowering = lowering;
        vp::vta::VtaParams p;
        drv = std::make_unique<NetworkDriver>(g, p.core, o);
        dram = std::make_unique<vp::dram::DramController>((n + "_dram").c_str(), vp::dram::DramParams{}, reg);
        core = std::make_unique<vp::vta::VtaCore>((n + "_vta").c_str(), p, reg, &ctrl);
        for (auto* d : {&core->fetch_dma, &core->load_dma, &core->compute_dma, &core->store_dma})
            tlm.bind(d->socket, dram->socket, "tlmcheck_" + n + "_" + d->basename());
        NetworkDriver* dp = drv.get();
        host = std::make_unique<vp::vta::VtaHost>(
            (n + "_host").c_str(), *core, dram->store(), &ctrl, [dp](ProgramJob& j) { return dp->next(j); },
            [dp](const ProgramJob& j, const std::vector<std::int8_t>& r) { dp->complete(j, r); }, EstimateParams{});
    }
    void check(const char* name, bool with_reference = true) {
        EXPECT(host->finished());
        // Untimed executor on a fresh driver with the same seed.
        NetworkDriver f(drv->graph(), VtaConfig{}, [&] { DriverOptions o; o.seed = seed_of(); o.double_buffer = m_dbuf; o.conv_lowering = m_lowering; return o; }());
        std::vector<ProgramJob> jobs;
        run_network_functional(f, &jobs);
        const auto ref = with_reference ? net_ref::run(*drv) : std::vector<net_ref::Tensor>{};
        std::uint64_t macs = 0, want_macs = 0, cycles = 0, est = 0;
        for (const auto& r : host->records()) {
            macs += r.macs;
            cycles += r.cycles;
            est += r.estimate.total;
        }
        // The analytic estimate (cycle_estimate.h) must stay within a factor 2 of the simulation.
        EXPECT(2 * est >= cycles && est <= 2 * cycles);
        for (const auto& j : jobs) want_macs += j.prog.stats.macs;
        int bad = 0;
        const std::size_t n = drv->graph().net.layers.size();
        for (std::size_t i = 0; i < n; ++i) {
            if (drv->output(i) != f.output(i) || (with_reference && drv->output(i) != ref[i])) {
                ++bad;
                std::cerr << name << ": layer " << drv->graph().net.layers[i].name << " differs\n";
            }
        }
        EXPECT(bad == 0);
        EXPECT(macs == want_macs);
        EXPECT(host->records().size() == drv->programs_total());
        EXPECT(dram->in_flight() == 0);
        EXPECT(dram->bytes_requested() == dram->bytes_served());
        std::cout << name << ": " << n << " layers, " << host->records().size() << " programs, " << cycles
                  << " core cycles (estimate " << est << "), " << macs << " MACs, " << bad << " layer mismatches\n";
    }
    std::uint64_t seed_of() const { return m_seed; }
    std::uint64_t m_seed = 0;
    bool m_dbuf = true;
    DriverOptions::ConvLowering m_lowering = DriverOptions::ConvLowering::Im2row;
};
}  // namespace
