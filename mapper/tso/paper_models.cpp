#include "mapper/tso/paper_models.h"

#include "mapper/tso/time_model.h"

namespace vp::mapper::tso {

namespace {

// Eq. 6 with Eq. 9: the DRAM is shared by all TLEs, so every transfer of the layer adds up.
CostTimes paper_times(const CostCounts& c, const NmpParams& hw, bool burst) {
    CostTimes t;
    const double cyc = hw.cycle_s();
    t.t_mac_s = double(c.mac_cycles) * cyc;
    t.t_sw_s = sw_time_s(c, hw);
    t.t_dram_cas_s = burst ? double(c.bursts()) * hw.cas_s() : 0.0;
    t.t_dram_s = t.t_dram_cas_s + double(c.bytes()) / hw.dram_bw_bytes_per_s();
    t.t_ring_s = ring_time_s(c, hw);  // IFM_CH only; an extension, not in the paper's Eq. 6
    t.t_fabric_s = fabric_extra_s(c, hw, t.t_dram_s);  // nmp.fabric only; an extension, not in the paper
    t.total_s = t.t_mac_s + t.t_dram_s + t.t_sw_s + t.t_ring_s + t.t_fabric_s;
    t.total_cycles = t.total_s / cyc;
    return t;
}

}  // namespace

CostTimes PaperBurstModel::screen(const CostCounts& k, const NmpParams& hw) const { return paper_times(k, hw, true); }

CostTimes PaperNoBurstModel::screen(const CostCounts& k, const NmpParams& hw) const {
    return paper_times(k, hw, false);
}

}  // namespace vp::mapper::tso
