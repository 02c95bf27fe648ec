// The mapper's flit term (Dataflow Aware Mapping of Convolutional Neural Networks Onto Many-Core Platforms With Network-on-Chip Interconnect, Eq. 23: sum of F(p) over every packet, counted in closed
// form by waving::op_flits) equals the flits the cycle-accurate NoC carried for the same layer,
// layer by layer; likewise flit hops (mapper: flits x XY hops; NoC: router link traversals),
// MACs, DRAM bytes and the per-core compute cycles (C_comp + C_pfetch of Eq. 24). A small
// network with odd shapes (widths not multiples of P_ox, stride 2, groups, depthwise, fc, a
// pooling layer the mesh skips) on a 4x4 mesh with two DRAM interfaces, waving mapping.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <systemc>
#include <unistd.h>

#include "mapper/common/errors.h"
#include "mapper/waving/waving_mapper.h"
#include "models/common/payload_pool.h"
#include "models/common/sim_control.h"
#include "platform/builders/mesh_platform.h"
#include "platform/config/platform_spec.h"
#include "platform/run/input_check.h"
#include "platform/workload/workload.h"

using namespace sc_core;

namespace {

int check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
    return ok ? 0 : 1;
}

const char* kNet = R"({
  "name": "odd_shapes", "precision": 16,
  "layers": [
    {"name": "c1", "type": "conv", "C": 3, "K": 20, "H": 37, "W": 41, "R": 5, "S": 5, "stride": 2, "pad": 2, "groups": 1},
    {"name": "p1", "type": "pool", "op": "max", "C": 20, "H": 19, "W": 21, "R": 2, "S": 2, "stride": 2},
    {"name": "c2", "type": "conv", "C": 20, "K": 36, "H": 19, "W": 21, "R": 3, "S": 3, "stride": 1, "pad": 1, "groups": 2},
    {"name": "dw", "type": "conv", "C": 36, "K": 36, "H": 19, "W": 21, "R": 3, "S": 3, "stride": 1, "pad": 1, "groups": 36},
    {"name": "c3", "type": "conv", "C": 36, "K": 70, "H": 19, "W": 21, "R": 1, "S": 1, "stride": 1, "pad": 0, "groups": 1},
    {"name": "fc", "type": "fc", "in": 700, "out": 33}
  ]
})";

}  // namespace

int sc_main(int, char**) {
    sc_set_time_resolution(1, SC_PS);
    sc_report_handler::set_actions(SC_ERROR, SC_DISPLAY | SC_THROW);
    int fails = 0;
    try {
        const std::string dir = "/tmp/vp_sim_asip_exactness_" + std::to_string(::getpid());
        std::system(("mkdir -p " + dir).c_str());
        { std::ofstream(dir + "/net.json") << kNet; }
        {
            std::ifstream in(std::string(VP_SOURCE_DIR) + "/configs/mesh-4x4.yaml");
            std::string y((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            // Two DRAM interfaces at opposite corners: cores talk to the nearest one.
            const std::string from = "dram_ifs: [[0, 0]]", to = "dram_ifs: [[0, 0], [3, 3]]";
            if (y.find(from) == std::string::npos) throw std::runtime_error("mesh-4x4.yaml changed: no dram_ifs line");
            y.replace(y.find(from), from.size(), to);
            std::ofstream(dir + "/mesh.yaml") << y;
        }
        vp::config::PlatformSpec spec = vp::config::load_platform(dir + "/mesh.yaml", {"core.sram_bytes=32768", "sim.check_tlm=true",
                                                                                        "mapper.calibration=none"});
        vp::workload::Workload wl = vp::workload::load_workload(dir + "/net.json");
        vp::stats::Registry reg;
        vp::trace::Tracer tracer(spec.trace);
        vp::SimControl ctrl("sim_control");
        vp::PayloadPool pool;
        const vp::run::CheckedInputs checked = vp::run::check_run_inputs(spec, wl, {}, false);
        vp::platform::RunContext ctx{spec, wl, checked, reg, tracer, ctrl, pool};
        vp::platform::MeshPlatform plat(ctx);
        sc_start();
        plat.finish();
        plat.check_invariants();
        plat.check_tlm_quiescent();
        fails += check(true, "invariants (MACs, flits, bytes, nothing in flight, every layer finished)");
        const auto& map = plat.mapping();
        const auto res = plat.results();
        fails += check(res.size() == 5, "5 mapped layers (pool skipped), got " + std::to_string(res.size()));
        int multi = 0;
        for (const auto& r : res) {
            const auto& l = map.layers[r.map_index];
            multi += l.k > 1;
            std::uint64_t hops_ref = 0, comp_ref = 0;
            for (const auto& w : l.cores) {
                hops_ref += w.totals.noc.flits * std::uint64_t(w.hops);
                comp_ref += w.totals.compute_cycles();
            }
            fails += check(r.sim_flits == l.flits, l.name + ": NoC flits " + std::to_string(r.sim_flits) +
                                                       " == mapper flit term " + std::to_string(l.flits));
            fails += check(r.sim_flit_hops == hops_ref, l.name + ": NoC link traversals " +
                                                            std::to_string(r.sim_flit_hops) + " == flits x hops " +
                                                            std::to_string(hops_ref));
            fails += check(r.counts.macs == l.shape.macs(), l.name + ": simulated MACs == layer MACs " +
                                                                std::to_string(l.shape.macs()));
            fails += check(r.counts.dram_read_bytes + r.counts.dram_write_bytes == l.dram_bytes,
                           l.name + ": DRAM bytes == mapper's " + std::to_string(l.dram_bytes));
            fails += check(r.counts.comp_cycles + r.counts.pfetch_cycles == comp_ref,
                           l.name + ": compute cycles == sum of C_comp + C_pfetch " + std::to_string(comp_ref));
            // A core cannot be faster than its own compute, nor than the NoC clock allows.
            fails += check(r.sim_cycles >= double(l.max_core_cycles_wo_dram),
                           l.name + ": simulated cycles " + std::to_string(r.sim_cycles) + " >= slowest core compute " +
                               std::to_string(l.max_core_cycles_wo_dram));
        }
        fails += check(multi >= 1, "at least one layer runs on several cores");
        std::system(("rm -rf " + dir).c_str());
    } catch (const std::exception& e) {
        std::printf("FAIL: exception: %s\n", e.what());
        return 1;
    }
    std::printf("%s\n", fails ? "FAILED" : "ALL PASSED");
    return fails ? 1 : 0;
}
