#pragma once
// Validated access to a YAML configuration. Errors name the file, line and column,
// the dotted key path and what was expected; values set with --set are named as such.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace vp::config {

class YamlCheck {
public:
    YamlCheck(YAML::Node node, std::string file, std::string path);

    const YAML::Node& node() const { return m_node; }
    const std::string& path() const { return m_path; }
    std::string key(const std::string& k) const { return m_path.empty() ? k : m_path + "." + k; }
    // "file:line:col: key" (or "--set key" for overridden values).
    std::string where() const;
    [[noreturn]] void fail(const std::string& what) const;

    bool has(const std::string& k) const;
    YamlCheck at(const std::string& k) const;
    bool is_map() const { return m_node.IsMap(); }
    void expect_map() const;
    // Fails on the first key not listed, with the nearest known key suggested.
    void allow_only(const std::vector<std::string>& known) const;

    std::string as_string() const;
    std::int64_t as_int(std::int64_t min, std::int64_t max) const;
    // An integer of [min, max] (the member's type) whose key accepts only [accepts_min,
    // accepts_max]: a value that is not an integer or outside [min, max] is refused quoting the
    // accepted range; one of [min, max] outside it is returned (the struct's validate() refuses
    // it in its own words).
    std::int64_t as_int(std::int64_t min, std::int64_t max, std::int64_t accepts_min, std::int64_t accepts_max) const;
    std::uint64_t as_uint(std::uint64_t max) const;
    double as_double() const;
    bool as_bool() const;
    std::vector<std::string> as_string_list() const;

private:
    YAML::Node m_node;
    std::string m_file;
    std::string m_path;
};

// Deepest nesting of a YAML tree, aliases expanded (a configuration needs a handful of levels).
constexpr std::size_t kMaxYamlDepth = 256;

// Throws InputError for a mapping that defines a key twice (yaml-cpp keeps both entries and
// lookups silently return the first), naming the key and both lines. `where` names the file
// (or "--set key"). Also refuses an alias to an enclosing anchor (`a: &x {b: *x}`: an infinite
// tree), nesting deeper than kMaxYamlDepth, and bounds the number of nodes visited, so that
// aliases cannot make the walk exponential: any later walk of the tree terminates.
void check_unique_keys(const YAML::Node& root, const std::string& where);

// Parses the YAML text of the file `path` (a configuration, a calibration file) and checks it
// with check_unique_keys. Throws InputError naming the file, line and column.
YAML::Node load_yaml_text(const std::string& text, const std::string& path);

// Applies "a.b.c=value" to the tree (value parsed as YAML, so lists and maps work).
// The created/overwritten node is tagged so that errors say it came from --set.
void apply_override(YAML::Node& root, const std::string& assignment);

}  // namespace vp::config
