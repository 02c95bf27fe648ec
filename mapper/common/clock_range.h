#pragma once
// The range of every clock frequency of a configuration (nmp.clock_mhz, mesh.noc_mhz,
// core.core_mhz, vta.clock_mhz; dram.tck_ps has its own, 10 MHz to 10 GHz). The bounds are
// ours, not published figures. The fastest clock is ten steps of the kernel's 1 ps time
// resolution. The slowest keeps simulated time in proportion: vp-run advances the kernel in
// slices of simulated time, so a clock of 1e-7 MHz (a period of 10 s) made a LeNet-5 run take
// minutes of slices, and 1e-300 MHz a period beyond the 64-bit picosecond time.
#include <sstream>
#include <string>

namespace vp {

constexpr double kMinClockMhz = 1.0;       // period 1 us
constexpr double kMaxClockMhz = 100000.0;  // period 10 ps

// True for a frequency in [kMinClockMhz, max_mhz] (false for NaN).
inline bool clock_mhz_ok(double mhz, double max_mhz = kMaxClockMhz) { return mhz >= kMinClockMhz && mhz <= max_mhz; }

// "expected a clock frequency in MHz in [1, 100000], got 1e-300".
inline std::string clock_mhz_expected(double mhz, double max_mhz = kMaxClockMhz) {
    std::ostringstream s;
    s << "expected a clock frequency in MHz in [" << kMinClockMhz << ", " << max_mhz << "], got " << mhz;
    return s.str();
}

}  // namespace vp
