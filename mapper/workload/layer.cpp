#include "mapper/workload/layer.h"

#include <sstream>

namespace vp::mapper {

const char* to_string(LayerKind k) {
    switch (k) {
    case LayerKind::Conv: return "conv";
    case LayerKind::FullyConnected: return "fc";
    case LayerKind::Pool: return "pool";
    case LayerKind::Eltwise: return "eltwise";
    }
    return "?";
}

std::uint64_t Layer::macs() const {
    switch (kind) {
    case LayerKind::Conv:
        return std::uint64_t(C / groups) * K * R * S * std::uint64_t(P()) * Q();
    case LayerKind::FullyConnected: return std::uint64_t(C) * K;
    default: return 0;
    }
}

std::uint64_t Layer::weight_elems() const {
    switch (kind) {
    case LayerKind::Conv: return std::uint64_t(C / groups) * K * R * S;
    case LayerKind::FullyConnected: return std::uint64_t(C) * K;
    default: return 0;
    }
}

std::string Layer::shape_key() const {
    std::ostringstream os;
    os << to_string(kind) << ':' << C << ',' << K << ',' << H << ',' << W << ',' << R << ',' << S << ','
       << stride_h << ',' << stride_w << ',' << pad_top << ',' << pad_bottom << ',' << pad_left << ','
       << pad_right << ',' << groups;
    return os.str();
}

}  // namespace vp::mapper
