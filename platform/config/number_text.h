#pragma once
// Numbers written as text (YAML scalars, --set values, --seed): the integer and float forms of
// the YAML 1.2 core schema, nothing else. Integers: decimal [-+]?[0-9]+ (a leading zero is still
// decimal: "010" is ten, not YAML 1.1's octal eight), 0x hexadecimal and 0o octal. Floats: the
// integers above and [-+]?(.[0-9]+|[0-9]+(.[0-9]*)?)([eE][-+]?[0-9]+)?; no infinities, no NaN.
// A well-formed value outside the allowed range is OutOfRange, never a wrapped or clamped value.
#include <cstdint>
#include <string>

namespace vp::config {

enum class NumberText { Ok, Malformed, OutOfRange };

NumberText parse_int_text(const std::string& s, std::int64_t min, std::int64_t max, std::int64_t& out);
NumberText parse_uint_text(const std::string& s, std::uint64_t max, std::uint64_t& out);
// OutOfRange: beyond the double range (1e999) or not finite (.inf).
NumberText parse_float_text(const std::string& s, double& out);

}  // namespace vp::config
