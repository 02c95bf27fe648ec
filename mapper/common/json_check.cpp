#include "mapper/common/json_check.h"

#include <algorithm>
#include <cmath>

#include "mapper/common/errors.h"

namespace vp {

namespace {
std::string escape_token(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

const char* type_name(const nlohmann::json& v) { return v.type_name(); }

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}
}  // namespace

std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_d = std::max<std::size_t>(2, name.size() / 3) + 1;
    for (const auto& c : candidates) {
        std::size_t d = edit_distance(name, c);
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

void JsonCheck::fail(const std::string& what) const {
    throw InputError(m_source + ": at " + (m_pointer.empty() ? "/" : m_pointer) + ": " + what);
}

bool JsonCheck::has(const std::string& key) const { return m_value.is_object() && m_value.contains(key); }

JsonCheck JsonCheck::at(const std::string& key) const {
    expect_object();
    auto it = m_value.find(key);
    if (it == m_value.end()) fail("missing required member \"" + key + "\"");
    return JsonCheck(*it, m_source, m_pointer + "/" + escape_token(key));
}

JsonCheck JsonCheck::at(std::size_t index) const {
    expect_array();
    if (index >= m_value.size()) fail("index " + std::to_string(index) + " out of range");
    return JsonCheck(m_value[index], m_source, m_pointer + "/" + std::to_string(index));
}

std::size_t JsonCheck::size() const {
    expect_array();
    return m_value.size();
}

void JsonCheck::expect_object() const {
    if (!m_value.is_object()) fail(std::string("expected an object, found ") + type_name(m_value));
}

void JsonCheck::expect_array() const {
    if (!m_value.is_array()) fail(std::string("expected an array, found ") + type_name(m_value));
}

void JsonCheck::allow_only(std::initializer_list<const char*> known) const {
    allow_only(std::vector<std::string>(known.begin(), known.end()));
}

void JsonCheck::allow_only(const std::vector<std::string>& known) const {
    expect_object();
    for (auto it = m_value.begin(); it != m_value.end(); ++it) {
        if (std::find(known.begin(), known.end(), it.key()) != known.end()) continue;
        std::string msg = "unknown member \"" + it.key() + "\"";
        std::string near = nearest_name(it.key(), known);
        if (!near.empty()) msg += " (did you mean \"" + near + "\"?)";
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        msg += "; known members: " + list;
        throw InputError(m_source + ": at " + m_pointer + "/" + escape_token(it.key()) + ": " + msg);
    }
}

std::int64_t JsonCheck::as_int(std::int64_t min, std::int64_t max) const {
    std::int64_t v = 0;
    const std::string range = "(expected " + std::to_string(min) + ".." + std::to_string(max) + ")";
    if (m_value.is_number_integer()) {
        if (m_value.is_number_unsigned() && m_value.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
            fail("value " + m_value.dump() + " out of range " + range);
        v = m_value.get<std::int64_t>();
    } else if (m_value.is_number_float()) {
        // Integers beyond 64 bits arrive as doubles (1e22, or 23 digits written out).
        double d = m_value.get<double>();
        if (std::floor(d) != d) fail("expected an integer " + range + ", found " + m_value.dump());
        // 2^63 itself does not fit: the cast below is defined only strictly inside (-2^63, 2^63).
        if (!(d >= double(min) && d <= double(max)) || std::fabs(d) >= 9223372036854775808.0)
            fail("value " + m_value.dump() + " out of range " + range);
        v = static_cast<std::int64_t>(d);
    } else {
        fail(std::string("expected an integer, found ") + type_name(m_value));
    }
    if (v < min || v > max)
        fail("value " + std::to_string(v) + " out of range (expected " + std::to_string(min) + ".." +
             std::to_string(max) + ")");
    return v;
}

double JsonCheck::as_number(double min, double max) const {
    if (!m_value.is_number()) fail(std::string("expected a number, found ") + type_name(m_value));
    double v = m_value.get<double>();
    if (!(v >= min && v <= max))
        fail("value " + m_value.dump() + " out of range (expected " + std::to_string(min) + ".." +
             std::to_string(max) + ")");
    return v;
}

std::string JsonCheck::as_string() const {
    if (!m_value.is_string()) fail(std::string("expected a string, found ") + type_name(m_value));
    return m_value.get<std::string>();
}

bool JsonCheck::as_bool() const {
    if (!m_value.is_boolean()) fail(std::string("expected true or false, found ") + type_name(m_value));
    return m_value.get<bool>();
}

std::string JsonCheck::as_enum(std::initializer_list<const char*> names) const {
    std::string s = as_string();
    std::vector<std::string> known(names.begin(), names.end());
    if (std::find(known.begin(), known.end(), s) != known.end()) return s;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    std::string msg = "unknown value \"" + s + "\" (expected one of: " + list + ")";
    std::string near = nearest_name(s, known);
    if (!near.empty()) msg += "; did you mean \"" + near + "\"?";
    fail(msg);
}

std::int64_t JsonCheck::get_int(const std::string& key, std::int64_t min, std::int64_t max,
                                std::int64_t dflt) const {
    return has(key) ? at(key).as_int(min, max) : dflt;
}

std::string JsonCheck::get_string(const std::string& key, const std::string& dflt) const {
    return has(key) ? at(key).as_string() : dflt;
}

}  // namespace vp
