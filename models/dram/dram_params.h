#pragma once
// Parameters of the DRAM controller and device. All timing values are in memory-clock
// cycles (tCK); presets (dram_presets.cpp, data) fill them by name, explicit keys override.
#include <cstdint>
#include <string>
#include <vector>

namespace vp::dram {

enum class PagePolicy { Open, Closed };
enum class Scheduler { Fcfs, FrFcfs };

struct DramTiming {
    unsigned CL = 10, CWL = 8;
    unsigned tRCD = 10, tRP = 10, tRAS = 28, tRC = 38;
    unsigned tCCD_S = 4, tCCD_L = 4;  // column-to-column, other / same bank group
    unsigned tRRD_S = 5, tRRD_L = 5;  // ACT-to-ACT, other / same bank group
    unsigned tFAW = 24;
    unsigned tWR = 12, tWTR_S = 6, tWTR_L = 6, tRTP = 6;
    unsigned tRTRS = 1;               // rank-to-rank data bus switch
    unsigned tRFC = 88, tREFI = 6240;
};

// Defaults of the controller (not of the device, which the preset gives).
// Column commands that younger requests may issue while the oldest request waits (FR-FCFS
// starvation cap). 16 is Ramulator's FRFCFS_Cap value; DRAMSys has no cap, Ramulator 2.1
// only ClosedCAP (4 column accesses per activation), see docs/dram.md.
constexpr unsigned kDefaultStarvationCap = 16;

struct DramParams {
    std::string preset = "ddr3-1600";  // fills the fields below; explicit keys override
    std::string standard = "ddr3";     // timing rule set (timing_table.cpp): ddr3 | ddr4
    std::uint64_t tck_ps = 1250;       // command clock period (DDR3-1600: 800 MHz)
    unsigned bus_width_bits = 64;      // data bus width of a channel
    unsigned burst_length = 8;         // beats per access (BL8: 4 tCK on the bus)
    unsigned channels = 1, ranks = 1, bank_groups = 1, banks_per_group = 8;
    std::uint64_t rows = 16384, columns = 1024;  // columns per device row
    DramTiming t;
    PagePolicy page_policy = PagePolicy::Open;
    Scheduler scheduler = Scheduler::FrFcfs;
    std::string address_mapping = "row_bank_col";
    unsigned queue_depth = 32;         // transactions held per channel before END_REQ is delayed
    // Extra cycles between acceptance and the scheduler, beyond the acceptance cycle itself:
    // a request accepted in cycle t is schedulable from t + 1 + frontend_latency_ck.
    unsigned frontend_latency_ck = 0;
    // FR-FCFS: once younger requests have issued this many column commands while the oldest
    // request waited, only the oldest may issue until it is served (0: no cap).
    unsigned starvation_cap = kDefaultStarvationCap;
    bool refresh = true;
    // Scan the whole queue at every step and step every cycle while requests are queued,
    // instead of the per-bank candidates and next-event wake-ups (same commands, slower):
    // the reference the fast scheduler is tested against.
    bool reference_scheduler = false;
    unsigned max_request_bytes = 4096; // largest single transaction accepted

    // Run options (read by the platform, not by the controller).
    bool check_protocol = false;       // run the independent command-legality checker; exit 3 on a violation
    std::string check_preset;          // check against this preset's timing ("" = the configured timing)
    std::string record_trace;          // write the request stream to this file ("" = off)
    std::string record_trace_format = "auto";  // auto (by extension) | stl | loadstore

    // Derived quantities.
    unsigned burst_bytes() const { return bus_width_bits / 8 * burst_length; }
    unsigned burst_cycles() const { return burst_length / 2; }
    unsigned banks() const { return bank_groups * banks_per_group; }
    std::uint64_t row_bytes() const { return columns * (bus_width_bits / 8); }
    std::uint64_t capacity_bytes() const {
        return std::uint64_t(channels) * ranks * banks() * rows * row_bytes();
    }
    double peak_bandwidth_bytes_per_s() const {
        return double(channels) * (bus_width_bits / 8) * 2.0 / (double(tck_ps) * 1e-12);
    }

    void validate(const std::string& prefix) const;
    // Applies a named preset (dram_presets.cpp); throws InputError listing the known names.
    static DramParams from_preset(const std::string& name, const std::string& key);
    static std::vector<std::string> preset_names();
};

const char* to_string(PagePolicy p);
const char* to_string(Scheduler s);

}  // namespace vp::dram
