#pragma once
// Per-layer energy estimate of a mesh mapping. The paper reports energy (Fig. 3) but
// publishes no coefficients; every default below is an ASSUMPTION of the order of
// magnitude of 28-45 nm figures, to be replaced by the user's numbers.
#include <cstdint>
#include <string>

namespace vp::mapper::waving {

struct EnergyParams {
    static constexpr double kDefaultPjPerMac = 0.5;         // pJ per 16-bit MAC, ASSUMPTION
    static constexpr double kDefaultPjPerSramWord = 1.0;    // pJ per SRAM word access, ASSUMPTION
    static constexpr double kDefaultPjPerDramByte = 160.0;  // pJ per DRAM byte (~20 pJ/bit), ASSUMPTION
    static constexpr double kDefaultPjPerFlitHop = 10.0;    // pJ per flit per router+link hop, ASSUMPTION
    static constexpr double kDefaultActiveCoreMw = 50.0;    // mW baseline of a busy core, ASSUMPTION
    static constexpr double kDefaultIdleCoreMw = 5.0;       // mW of an idle core, ASSUMPTION

    double pj_per_mac = kDefaultPjPerMac;
    double pj_per_sram_word = kDefaultPjPerSramWord;
    double pj_per_dram_byte = kDefaultPjPerDramByte;
    double pj_per_flit_hop = kDefaultPjPerFlitHop;
    double active_core_mw = kDefaultActiveCoreMw;
    double idle_core_mw = kDefaultIdleCoreMw;

    void validate(const std::string& prefix) const;
};

struct EnergyEstimate {
    double mac_pj = 0, sram_pj = 0, dram_pj = 0, noc_pj = 0, static_pj = 0;
    double total_pj() const { return mac_pj + sram_pj + dram_pj + noc_pj + static_pj; }
};

struct EnergyInputs {
    std::uint64_t macs = 0, sram_words = 0, dram_bytes = 0, flit_hops = 0;
    int active_cores = 0, idle_cores = 0;
    double runtime_ns = 0;
};

EnergyEstimate estimate_energy(const EnergyParams& p, const EnergyInputs& in);

}  // namespace vp::mapper::waving
