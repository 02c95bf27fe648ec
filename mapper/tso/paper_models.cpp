#include "mapper/tso/paper_models.h"

namespace vp::mapper::tso {

namespace {

// Eq. 6 with Eq. 9: the DRAM is shared by all TLEs, so every transfer of the layer adds up.
CostTimes paper_times(const CostCounts& c, const NmpParams& hw, bool burst) {
    CostTimes t;
    const double cyc = hw.cycle_s();
    t.t_mac_s = double(c.mac_cycles) * cyc;
    t.t_sw_s = double(c.sw_instr) * double(hw.sw_cycles_per_instr) * cyc;
    t.t_dram_cas_s = burst ? double(c.bursts()) * hw.cas_s() : 0.0;
    t.t_dram_s = t.t_dram_cas_s + double(c.bytes()) / hw.dram_bw_bytes_per_s();
    t.total_s = t.t_mac_s + t.t_dram_s + t.t_sw_s;
    t.total_cycles = t.total_s / cyc;
    return t;
}

}  // namespace

CostTimes PaperBurstModel::screen(const CostCounts& k, const NmpParams& hw) const { return paper_times(k, hw, true); }

CostTimes PaperNoBurstModel::screen(const CostCounts& k, const NmpParams& hw) const {
    return paper_times(k, hw, false);
}

}  // namespace vp::mapper::tso
