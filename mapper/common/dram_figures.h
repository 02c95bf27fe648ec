#pragma once
// The DRAM figures a mapper's cost model needs, as plain numbers. platform/ fills them from
// the DRAM parameters (preset + overrides) that the simulated controller uses, so that the
// mapper and the simulation share one source of hardware figures (the mapper never includes
// models/). All timings are in DRAM clock cycles (tCK).
#include <cstdint>
#include <string>

namespace vp::mapper {

struct DramFigures {
    std::string preset;                 // name of the preset the figures come from
    double tck_ns = 0;                  // command clock period [ns]
    unsigned burst_bytes = 0;           // bytes of one column access (bus width x burst length)
    unsigned burst_cycles = 0;          // tCK the data bus carries one burst
    unsigned channels = 0, ranks = 0, banks = 0;  // banks per rank
    std::uint64_t row_bytes = 0;        // bytes of one open row (page) per rank
    unsigned CL = 0, CWL = 0, tRCD = 0, tRP = 0, tRAS = 0, tCCD = 0, tWTR = 0, tWR = 0, tRTP = 0;
    unsigned tCCD_L = 0;                // column to column in one bank group (DDR4; tCCD where there are none)
    unsigned tRFC = 0, tREFI = 0;
    unsigned tFAW = 0, tRRD = 0;        // four-activation window; ACT to ACT of banks in different groups (tRRD_S)
    bool refresh = false;
    unsigned queue_depth = 0;           // requests the controller holds per channel
    unsigned frontend_latency_ck = 0;   // request acceptance to scheduler [tCK]
    bool open_page = true;              // page policy
    bool frfcfs = true;                 // scheduler: FR-FCFS (else FCFS)
    std::string address_mapping;
    // Address bits selecting the bank (channel, rank, bank group, bank) and the row, from the
    // controller's address mapper: same bank iff (a & bank_mask) equal, same row iff also
    // (a & row_mask) equal. 0: unknown (a cost model then assumes no row activations).
    std::uint64_t bank_mask = 0, row_mask = 0;
    // Address bits of the channel, rank and bank group: bursts that agree on them are tCCD_L
    // apart. 0: unknown (every burst then counts as in one group).
    std::uint64_t group_mask = 0;
    // The channel bits (0: one channel, or unknown). Their lowest is the interleave granule: at
    // the burst, consecutive bursts alternate channels and every stream uses all data buses.
    std::uint64_t channel_mask = 0;
    double peak_bw_bytes_per_s = 0;     // all channels

    bool valid() const { return tck_ns > 0 && burst_bytes > 0 && burst_cycles > 0 && peak_bw_bytes_per_s > 0; }
    double cas_ns() const { return CL * tck_ns; }
};

}  // namespace vp::mapper
