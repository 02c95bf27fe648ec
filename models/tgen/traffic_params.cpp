#include "models/tgen/traffic_params.h"

#include "mapper/common/errors.h"

namespace vp::tgen {

const char* to_string(Pattern p) {
    switch (p) {
    case Pattern::Sequential: return "sequential";
    case Pattern::Strided: return "strided";
    case Pattern::Random: return "random";
    }
    return "?";
}

void TrafficParams::validate(const std::string& pointer, std::uint64_t capacity) const {
    auto req = [&](bool ok, const std::string& key, const std::string& what) {
        if (!ok) throw InputError(pointer + "/" + key + ": " + what);
    };
    req(requests >= 1 && requests <= (1ull << 40), "requests", "expected 1..2^40");
    req(bytes >= 1 && bytes <= 4096, "bytes", "expected 1..4096");
    req(read_fraction >= 0.0 && read_fraction <= 1.0, "read_fraction", "expected 0..1");
    req(range >= bytes, "range", "must be at least one request (bytes)");
    req(base + range <= capacity, "range",
        "base + range = " + std::to_string(base + range) + " exceeds the DRAM capacity of " + std::to_string(capacity) +
            " bytes");
    req(max_outstanding >= 1 && max_outstanding <= 1024, "max_outstanding", "expected 1..1024");
    req(interval_ns >= 0.0 && interval_ns <= 1e9, "interval_ns", "expected 0..1e9");
    req(stride >= 1 && stride <= range, "stride", "expected 1..range");
}

}  // namespace vp::tgen
