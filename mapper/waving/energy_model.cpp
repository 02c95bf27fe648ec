#include "mapper/waving/energy_model.h"

#include "mapper/common/errors.h"

namespace vp::mapper::waving {

void EnergyParams::validate(const std::string& prefix) const {
    auto check = [&](double v, const char* field) {
        if (!(v >= 0.0) || v > 1.0e9)
            throw InputError(prefix + "." + field + ": expected a non-negative number, got " + std::to_string(v));
    };
    check(pj_per_mac, "pj_per_mac");
    check(pj_per_sram_word, "pj_per_sram_word");
    check(pj_per_dram_byte, "pj_per_dram_byte");
    check(pj_per_flit_hop, "pj_per_flit_hop");
    check(active_core_mw, "active_core_mw");
    check(idle_core_mw, "idle_core_mw");
}

EnergyEstimate estimate_energy(const EnergyParams& p, const EnergyInputs& in) {
    EnergyEstimate e;
    e.mac_pj = double(in.macs) * p.pj_per_mac;
    e.sram_pj = double(in.sram_words) * p.pj_per_sram_word;
    e.dram_pj = double(in.dram_bytes) * p.pj_per_dram_byte;
    e.noc_pj = double(in.flit_hops) * p.pj_per_flit_hop;
    // mW x ns = pJ
    e.static_pj = (in.active_cores * p.active_core_mw + in.idle_cores * p.idle_core_mw) * in.runtime_ns;
    return e;
}

}  // namespace vp::mapper::waving
