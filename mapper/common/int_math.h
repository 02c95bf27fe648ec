#pragma once
// Integer helpers shared by the mappers.
#include <cstdint>

namespace vp::mapper {

// ceil(a / b) for b > 0.
inline constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// floor(a / b) for b > 0, a of either sign.
inline constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - (a % b < 0 ? 1 : 0); }

}  // namespace vp::mapper
