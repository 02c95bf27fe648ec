#pragma once
// The NMP scenarios' test bench: a TSO mapping replayed by NmpSystem against a DDR3-1600
// DramController, with the TLM base-protocol checker on every DMA binding, run to the end.
#include <systemc>

#include "mapper/tso/tso.h"
#include "models/common/payload_pool.h"
#include "models/common/protocol_checker.h"
#include "models/common/sim_control.h"
#include "models/dram/dram_controller.h"
#include "models/nmp/nmp_system.h"
#include "platform/config/hw_figures.h"

namespace vp::test {

// The default NMP (4 TLE x 8 TLT) with the DRAM figures of the DDR3-1600 preset.
inline vp::nmp::NmpModelParams default_nmp() {
    vp::nmp::NmpModelParams p;
    p.arch.dram = vp::config::dram_figures(vp::dram::DramParams::from_preset("ddr3-1600", "dram"));
    p.validate("nmp");
    return p;
}

// Elaborates the system for `convs`; run() simulates to the end and closes the models.
struct NmpRig {
    NmpRig(const vp::nmp::NmpModelParams& p, const std::vector<vp::mapper::tso::ConvMapping>& convs)
        : dram("dram", vp::dram::DramParams::from_preset("ddr3-1600", "dram"), root),
          nmp("nmp", p, convs, pool, ctrl, root) {
        for (int t = 0; t < nmp.n_tle(); ++t) tlm.bind(nmp.socket(t), dram.socket, "tlmcheck_tle" + std::to_string(t));
    }
    void run() {
        sc_core::sc_start();
        dram.finish(sc_core::sc_time_stamp());
        nmp.finish();
    }
    vp::stats::Registry root;
    vp::PayloadPool pool;
    vp::SimControl ctrl;
    vp::dram::DramController dram;
    vp::nmp::NmpSystem nmp;
    vp::tlmcheck::CheckerSet tlm{true};
};

}  // namespace vp::test
