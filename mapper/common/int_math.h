#pragma once
// Integer helpers shared by the mappers.
#include <cstdint>

namespace vp::mapper {

// ceil(a / b) for b > 0.
inline constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace vp::mapper
