#pragma once
// Validating accessors for JSON documents. Every error names the source file,
// the JSON pointer of the offending value and what was expected.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vp {

class JsonCheck {
public:
    JsonCheck(const nlohmann::json& value, std::string source, std::string pointer = "")
        : m_value(value), m_source(std::move(source)), m_pointer(std::move(pointer)) {}

    const nlohmann::json& value() const { return m_value; }
    const std::string& pointer() const { return m_pointer; }
    const std::string& source() const { return m_source; }

    [[noreturn]] void fail(const std::string& what) const;

    bool has(const std::string& key) const;
    JsonCheck at(const std::string& key) const;   // required member
    JsonCheck at(std::size_t index) const;        // array element
    std::size_t size() const;                     // array length (fails if not array)

    void expect_object() const;
    void expect_array() const;
    // Fails on any member not in `known`, suggesting the nearest known name.
    void allow_only(std::initializer_list<const char*> known) const;
    void allow_only(const std::vector<std::string>& known) const;

    std::int64_t as_int(std::int64_t min, std::int64_t max) const;
    double as_number(double min, double max) const;
    std::string as_string() const;
    bool as_bool() const;
    std::string as_enum(std::initializer_list<const char*> names) const;

    std::int64_t get_int(const std::string& key, std::int64_t min, std::int64_t max, std::int64_t dflt) const;
    std::string get_string(const std::string& key, const std::string& dflt) const;

private:
    const nlohmann::json& m_value;
    std::string m_source;
    std::string m_pointer;
};

// The closest candidate by edit distance, or "" when nothing is close.
std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace vp
