#pragma once
// Destination patterns of synthetic traffic, chosen by name through one registry
// (uniform, transpose, bit_complement, hotspot). A pattern returns the destination
// of a packet created at src, or kNoPacket when src does not send (e.g. transpose on the
// diagonal, whose destination is the source itself).
#include <cstdint>
#include <string>

#include "models/common/mt19937_64.h"

namespace vp::noc {

constexpr unsigned kNoPacket = ~0u;

struct PatternContext {
    unsigned width = 1, height = 1;
    double hotspot_fraction = 0.0;  // hotspot: probability a packet goes to hotspot_node
    unsigned hotspot_node = 0;
};

// Uniform double in [0, 1) from 53 random bits (same on every platform, unlike std::uniform_real_distribution).
template <class Rng>
double unit_random(Rng& rng) { return double(rng() >> 11) * 0x1.0p-53; }

// The patterns draw from a 64-bit Mersenne twister: Mt19937_64 in the simulator (the sequence of
// std::mt19937_64, faster), either of the two in tests.
using PatternRng = Mt19937_64;
using PatternFn = unsigned (*)(unsigned src, const PatternContext& ctx, PatternRng& rng);

inline PatternFn find_pattern(const std::string& name);
inline std::string known_patterns();

template <class Rng>
unsigned pattern_uniform(unsigned src, const PatternContext& ctx, Rng& rng);         // any node but src
template <class Rng>
unsigned pattern_transpose(unsigned src, const PatternContext& ctx, Rng& rng);       // (x,y) -> (y,x)
template <class Rng>
unsigned pattern_bit_complement(unsigned src, const PatternContext& ctx, Rng& rng);  // (x,y) -> (W-1-x, H-1-y)
template <class Rng>
unsigned pattern_hotspot(unsigned src, const PatternContext& ctx, Rng& rng);  // hotspot w.p. fraction, else uniform

// Header-only so that TrafficParams::validate (built without the SystemC models) can use it.


namespace pattern_detail {
struct Entry {
    const char* name;
    PatternFn fn;
};
inline const Entry kPatterns[] = {{"uniform", &pattern_uniform<PatternRng>},
                                  {"transpose", &pattern_transpose<PatternRng>},
                                  {"bit_complement", &pattern_bit_complement<PatternRng>},
                                  {"hotspot", &pattern_hotspot<PatternRng>}};
}  // namespace pattern_detail

inline PatternFn find_pattern(const std::string& name) {
    for (const auto& e : pattern_detail::kPatterns)
        if (name == e.name) return e.fn;
    return nullptr;
}

inline std::string known_patterns() {
    std::string s;
    for (const auto& e : pattern_detail::kPatterns) s += (s.empty() ? "" : ", ") + std::string(e.name);
    return s;
}

template <class Rng>
unsigned pattern_uniform(unsigned src, const PatternContext& ctx, Rng& rng) {
    const unsigned n = ctx.width * ctx.height;
    if (n < 2) return kNoPacket;
    unsigned d = static_cast<unsigned>(rng() % (n - 1));
    return d >= src ? d + 1 : d;
}

template <class Rng>
unsigned pattern_transpose(unsigned src, const PatternContext& ctx, Rng&) {
    const unsigned x = src % ctx.width, y = src / ctx.width;
    const unsigned d = x * ctx.width + y;  // requires width == height (TrafficParams::validate)
    return d == src ? kNoPacket : d;
}

template <class Rng>
unsigned pattern_bit_complement(unsigned src, const PatternContext& ctx, Rng&) {
    const unsigned x = src % ctx.width, y = src / ctx.width;
    const unsigned d = (ctx.height - 1 - y) * ctx.width + (ctx.width - 1 - x);
    return d == src ? kNoPacket : d;
}

template <class Rng>
unsigned pattern_hotspot(unsigned src, const PatternContext& ctx, Rng& rng) {
    if (unit_random(rng) < ctx.hotspot_fraction && src != ctx.hotspot_node) return ctx.hotspot_node;
    return pattern_uniform(src, ctx, rng);
}

}  // namespace vp::noc
