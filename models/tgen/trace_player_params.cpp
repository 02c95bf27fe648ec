#include "models/tgen/trace_player_params.h"

#include "mapper/common/errors.h"

namespace vp::tgen {

void TracePlayerParams::validate(const std::string& k) const {
    auto req = [&](bool ok, const std::string& key, const std::string& what) {
        if (!ok) throw InputError(k + "/" + key + ": " + what);
    };
    req(!path.empty(), "file", "expected the path of a trace file");
    req(format == "auto" || format == "stl" || format == "loadstore", "format", "expected auto, stl or loadstore");
    req(bytes >= 1 && bytes <= 4096, "bytes", "expected 1..4096");
    // 1 us at most: the slowest clock of a configuration (mapper/common/clock_range.h).
    req(clock_ps <= 1000000ull, "clock_ps", "expected 0 (the DRAM tCK) .. 1000000 ps");
    req(max_outstanding >= 1 && max_outstanding <= 1024, "max_outstanding", "expected 1..1024");
}

}  // namespace vp::tgen
