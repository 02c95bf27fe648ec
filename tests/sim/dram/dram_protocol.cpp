// The controller's DRAM command stream through the whole TLM path (traffic generators,
// AT socket, acceptance, the tick process) against the independent protocol checker
// (dram.check_protocol), for every traffic workload of workloads/traffic (requests cut
// to 1500 per stream) x DDR3-1600 / DDR4-2400 x every address mapping x 1 and 2 ranks
// x open and closed page. Also the command-bus regression at the controller level: the
// tick process once ran several times per tCK (a zero-delay wake per BEGIN_REQ), and
// 2.7 % of the commands of DDR3 random/mixed traffic shared a tCK.
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "mapper/common/errors.h"
#include "models/common/payload_pool.h"
#include "models/common/protocol_checker.h"
#include "models/common/sim_control.h"
#include "models/dram/address_mapper.h"
#include "models/dram/dram_controller.h"
#include "models/tgen/traffic_generator.h"
#include "platform/workload/workload.h"

using namespace vp;

namespace {

struct SameCycle : dram::CommandObserver {
    std::uint64_t commands = 0, shared = 0, last = ~std::uint64_t(0);
    void on_command(const dram::CommandRecord& r) override {
        ++commands;
        if (r.cycle == last) ++shared;
        last = r.cycle;
    }
};

struct Case {
    std::string name;
    std::unique_ptr<dram::DramController> dram;
    std::vector<std::unique_ptr<tgen::TrafficGenerator>> gens;
    std::unique_ptr<SameCycle> bus;
};

}  // namespace

int sc_main(int, char**) {
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    stats::Registry reg;
    PayloadPool pool;
    SimControl ctrl("ctrl");
    std::vector<Case> cases;
    tlmcheck::CheckerSet tlm(true);  // TLM-2.0 base-protocol checker on every binding
    int failures = 0;

    const std::vector<std::string> workloads = {"stream", "random", "mixed"};
    for (const std::string& wname : workloads) {
        const workload::Workload wl = workload::load_workload(std::string(VP_SOURCE_DIR) + "/workloads/traffic/" + wname + ".json");
        for (const std::string& preset : dram::DramParams::preset_names())
            for (const std::string& mapping : dram::AddressMapper::names())
                for (unsigned ranks : {1u, 2u})
                    for (auto page : {dram::PagePolicy::Open, dram::PagePolicy::Closed}) {
                        dram::DramParams p = dram::DramParams::from_preset(preset, "dram.preset");
                        p.address_mapping = mapping;
                        p.ranks = ranks;
                        p.page_policy = page;
                        p.check_protocol = true;
                        p.t.tREFI = p.t.tRFC * 8;  // several refreshes in a short run
                        Case c;
                        c.name = "c" + std::to_string(cases.size());
                        c.dram = std::make_unique<dram::DramController>((c.name + "_dram").c_str(), p, reg);
                        c.bus = std::make_unique<SameCycle>();
                        c.dram->add_observer(c.bus.get());
                        for (tgen::TrafficParams s : wl.streams) {
                            s.name = c.name + "_" + s.name;
                            s.requests = std::min<std::uint64_t>(s.requests, 1500);
                            s.validate(s.name, p.capacity_bytes());
                            c.gens.push_back(std::make_unique<tgen::TrafficGenerator>(s.name.c_str(), s, pool, ctrl, reg));
                            tlm.bind(c.gens.back()->socket, c.dram->socket, "tlmcheck_" + s.name);
                        }
                        std::printf("%s: %s %s %s ranks=%u %s page\n", c.name.c_str(), wname.c_str(), preset.c_str(),
                                    mapping.c_str(), ranks, dram::to_string(page));
                        cases.push_back(std::move(c));
                    }
    }

    sc_core::sc_start();

    std::uint64_t commands = 0;
    for (Case& c : cases) {
        try {
            c.dram->finish(sc_core::sc_time_stamp());
        } catch (const SimulationError& e) {
            std::printf("FAIL %s: %s\n", c.name.c_str(), e.what());
            ++failures;
        }
        commands += c.bus->commands;
        if (c.bus->shared) {
            std::printf("FAIL %s: %llu commands share a tCK with the previous one\n", c.name.c_str(),
                        static_cast<unsigned long long>(c.bus->shared));
            ++failures;
        }
        if (c.dram->protocol_monitor()->commands() != c.bus->commands || c.bus->commands == 0) {
            std::printf("FAIL %s: the checker saw %llu commands of %llu\n", c.name.c_str(),
                        static_cast<unsigned long long>(c.dram->protocol_monitor()->commands()),
                        static_cast<unsigned long long>(c.bus->commands));
            ++failures;
        }
        if (c.dram->in_flight() != 0 || c.dram->bytes_served() != c.dram->bytes_requested()) {
            std::printf("FAIL %s: transactions left or bytes lost\n", c.name.c_str());
            ++failures;
        }
        for (const auto& g : c.gens)
            if (g->mismatches() != 0) {
                std::printf("FAIL %s: read data mismatches\n", g->name());
                ++failures;
            }
    }
    std::printf("%zu configurations, %llu commands checked, %d failures\n", cases.size(),
                static_cast<unsigned long long>(commands), failures);
    return failures == 0 && cases.size() == 72 ? 0 : 1;
}
