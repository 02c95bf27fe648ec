#include "mapper/tso/tso_types.h"

#include "mapper/common/errors.h"

namespace vp::mapper::tso {

const char* to_string(TleSlicing p) {
    switch (p) {
    case TleSlicing::KS: return "KS";
    case TleSlicing::KS_OFM: return "KS&OFM";
    case TleSlicing::OFM: return "OFM";
    case TleSlicing::IFM_CH: return "IFM-CH";
    }
    return "?";
}

const char* to_string(TltSchedule q) {
    switch (q) {
    case TltSchedule::IS: return "IS";
    case TltSchedule::OS: return "OS";
    case TltSchedule::WS: return "WS";
    }
    return "?";
}

TleSlicing parse_slicing(const std::string& s, const std::string& what) {
    for (TleSlicing p : kAllSlicingsExt)
        if (s == to_string(p)) return p;
    if (s == "KS_OFM") return TleSlicing::KS_OFM;
    throw InputError(what + ": unknown TLE slicing \"" + s + "\" (known: KS, KS&OFM, OFM, IFM-CH)");
}

TltSchedule parse_schedule(const std::string& s, const std::string& what) {
    for (TltSchedule q : kAllSchedules)
        if (s == to_string(q)) return q;
    throw InputError(what + ": unknown TLT schedule \"" + s + "\" (known: IS, OS, WS)");
}

}  // namespace vp::mapper::tso
