#include "mapper/tso/burst_count.h"

namespace vp::mapper::tso {

CostTimes cost_times(const CostCounts& c, const NmpParams& hw, DramModel model) {
    CostTimes t;
    const double cyc = hw.cycle_s();
    t.t_mac_s = double(c.mac_cycles) * cyc;
    t.t_sw_s = double(c.sw_instr) * double(hw.sw_cycles_per_instr) * cyc;
    t.t_dram_cas_s = model == DramModel::Burst ? double(c.bursts()) * hw.cas_s() : 0.0;
    t.t_dram_s = t.t_dram_cas_s + double(c.bytes()) / hw.dram_bw_bytes_per_s();
    t.total_s = t.t_mac_s + t.t_dram_s + t.t_sw_s;
    t.total_cycles = t.total_s / cyc;
    return t;
}

}  // namespace vp::mapper::tso
