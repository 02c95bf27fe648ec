#include "platform/config/number_text.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace vp::config {

namespace {
// Magnitude and sign of a core-schema integer; `overflow` when the magnitude exceeds 2^64-1.
bool parse_magnitude(const std::string& s, bool& negative, std::uint64_t& mag, bool& overflow) {
    std::size_t i = 0;
    negative = false;
    overflow = false;
    mag = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    unsigned base = 10;
    if (s.size() - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'o')) {
        if (i > 0) return false;  // the core schema has no signed hex or octal
        base = s[i + 1] == 'x' ? 16 : 8;
        i += 2;
    }
    if (i >= s.size()) return false;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9') d = unsigned(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f') d = unsigned(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F') d = unsigned(c - 'A' + 10);
        else return false;
        if (d >= base) return false;
        if (mag > (UINT64_MAX - d) / base) overflow = true;
        else mag = mag * base + d;
    }
    return true;
}

bool is_core_float(const std::string& s) {
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
    }
    if (digits == 0) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        std::size_t exp_digits = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp_digits;
        if (exp_digits == 0) return false;
    }
    return i == s.size();
}
}  // namespace

NumberText parse_int_text(const std::string& s, std::int64_t min, std::int64_t max, std::int64_t& out) {
    bool negative = false, overflow = false;
    std::uint64_t mag = 0;
    if (!parse_magnitude(s, negative, mag, overflow)) return NumberText::Malformed;
    if (overflow) return NumberText::OutOfRange;
    if (negative) {
        if (mag > std::uint64_t(INT64_MAX) + 1) return NumberText::OutOfRange;
        out = mag == std::uint64_t(INT64_MAX) + 1 ? INT64_MIN : -std::int64_t(mag);
    } else {
        if (mag > std::uint64_t(INT64_MAX)) return NumberText::OutOfRange;
        out = std::int64_t(mag);
    }
    return out < min || out > max ? NumberText::OutOfRange : NumberText::Ok;
}

NumberText parse_uint_text(const std::string& s, std::uint64_t max, std::uint64_t& out) {
    bool negative = false, overflow = false;
    std::uint64_t mag = 0;
    if (!parse_magnitude(s, negative, mag, overflow)) return NumberText::Malformed;
    if (overflow || (negative && mag != 0) || mag > max) return NumberText::OutOfRange;
    out = mag;
    return NumberText::Ok;
}

NumberText parse_float_text(const std::string& s, double& out) {
    bool negative = false, overflow = false;
    std::uint64_t mag = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
        if (!parse_magnitude(s, negative, mag, overflow)) return NumberText::Malformed;
        if (overflow) return NumberText::OutOfRange;
        out = double(mag);
        return NumberText::Ok;
    }
    if (s == ".inf" || s == "+.inf" || s == "-.inf" || s == ".Inf" || s == ".INF" || s == "+.Inf" ||
        s == "-.Inf" || s == "+.INF" || s == "-.INF")
        return NumberText::OutOfRange;
    if (!is_core_float(s)) return NumberText::Malformed;
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (!std::isfinite(v) || (errno == ERANGE && std::fabs(v) > 1.0)) return NumberText::OutOfRange;
    // An underflow (1e-400) reads as zero or a denormal: a value, not an error.
    out = v;
    return NumberText::Ok;
}

}  // namespace vp::config
