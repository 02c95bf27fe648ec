#pragma once
// Destination patterns of synthetic traffic, chosen by name through one registry
// (uniform, transpose, bit_complement, hotspot). A pattern returns the destination
// of a packet created at src, or kNoPacket when src does not send (e.g. transpose on the
// diagonal, whose destination is the source itself).
#include <cstdint>
#include <random>
#include <string>

namespace vp::noc {

constexpr unsigned kNoPacket = ~0u;

struct PatternContext {
    unsigned width = 1, height = 1;
    double hotspot_fraction = 0.0;  // hotspot: probability a packet goes to hotspot_node
    unsigned hotspot_node = 0;
};

// Uniform double in [0, 1) from 53 random bits (same on every platform, unlike std::uniform_real_distribution).
inline double unit_random(std::mt19937_64& rng) { return double(rng() >> 11) * 0x1.0p-53; }

using PatternFn = unsigned (*)(unsigned src, const PatternContext& ctx, std::mt19937_64& rng);

inline PatternFn find_pattern(const std::string& name);
inline std::string known_patterns();

inline unsigned pattern_uniform(unsigned src, const PatternContext& ctx, std::mt19937_64& rng);         // any node but src
inline unsigned pattern_transpose(unsigned src, const PatternContext& ctx, std::mt19937_64& rng);       // (x,y) -> (y,x)
inline unsigned pattern_bit_complement(unsigned src, const PatternContext& ctx, std::mt19937_64& rng);  // (x,y) -> (W-1-x, H-1-y)
inline unsigned pattern_hotspot(unsigned src, const PatternContext& ctx, std::mt19937_64& rng);  // hotspot w.p. fraction, else uniform

// Header-only so that TrafficParams::validate (built without the SystemC models) can use it.


namespace pattern_detail {
struct Entry {
    const char* name;
    PatternFn fn;
};
inline const Entry kPatterns[] = {{"uniform", &pattern_uniform},
                           {"transpose", &pattern_transpose},
                           {"bit_complement", &pattern_bit_complement},
                           {"hotspot", &pattern_hotspot}};
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

inline unsigned pattern_uniform(unsigned src, const PatternContext& ctx, std::mt19937_64& rng) {
    const unsigned n = ctx.width * ctx.height;
    if (n < 2) return kNoPacket;
    unsigned d = static_cast<unsigned>(rng() % (n - 1));
    return d >= src ? d + 1 : d;
}

inline unsigned pattern_transpose(unsigned src, const PatternContext& ctx, std::mt19937_64&) {
    const unsigned x = src % ctx.width, y = src / ctx.width;
    const unsigned d = x * ctx.width + y;  // requires width == height (TrafficParams::validate)
    return d == src ? kNoPacket : d;
}

inline unsigned pattern_bit_complement(unsigned src, const PatternContext& ctx, std::mt19937_64&) {
    const unsigned x = src % ctx.width, y = src / ctx.width;
    const unsigned d = (ctx.height - 1 - y) * ctx.width + (ctx.width - 1 - x);
    return d == src ? kNoPacket : d;
}

inline unsigned pattern_hotspot(unsigned src, const PatternContext& ctx, std::mt19937_64& rng) {
    if (unit_random(rng) < ctx.hotspot_fraction && src != ctx.hotspot_node) return ctx.hotspot_node;
    return pattern_uniform(src, ctx, rng);
}

}  // namespace vp::noc
