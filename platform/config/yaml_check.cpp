#include "platform/config/yaml_check.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "mapper/common/errors.h"
#include "mapper/common/json_check.h"

namespace vp::config {

namespace {
constexpr const char* kSetTag = "!vp-set";  // marks nodes that came from --set

std::string trim(const std::string& s) {
    auto b = s.find_first_not_of(" \t");
    auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}
}  // namespace

YamlCheck::YamlCheck(YAML::Node node, std::string file, std::string path)
    : m_node(node), m_file(std::move(file)), m_path(std::move(path)) {}

std::string YamlCheck::where() const {
    if (m_node.IsDefined() && m_node.Tag() == kSetTag) return "--set " + m_path;
    YAML::Mark m = m_node.IsDefined() ? m_node.Mark() : YAML::Mark::null_mark();
    std::string loc = m_file;
    if (!m.is_null()) loc += ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
    return loc + ": " + (m_path.empty() ? "(top level)" : m_path);
}

void YamlCheck::fail(const std::string& what) const { throw InputError(where() + ": " + what); }

bool YamlCheck::has(const std::string& k) const { return m_node.IsMap() && m_node[k].IsDefined(); }

YamlCheck YamlCheck::at(const std::string& k) const {
    expect_map();
    YAML::Node n = m_node[k];
    if (!n.IsDefined()) fail("missing required key \"" + k + "\"");
    return YamlCheck(n, m_file, key(k));
}

void YamlCheck::expect_map() const {
    if (!m_node.IsMap()) fail("expected a mapping of keys");
}

void YamlCheck::allow_only(const std::vector<std::string>& known) const {
    expect_map();
    for (auto it = m_node.begin(); it != m_node.end(); ++it) {
        std::string k = it->first.as<std::string>();
        if (std::find(known.begin(), known.end(), k) != known.end()) continue;
        std::string msg = "unknown key \"" + k + "\"";
        std::string near = nearest_name(k, known);
        if (!near.empty()) msg += " (did you mean \"" + near + "\"?)";
        std::string list;
        for (const auto& s : known) list += (list.empty() ? "" : ", ") + s;
        msg += "; known keys here: " + list;
        YamlCheck child(it->second, m_file, key(k));
        if (!(it->second.Tag() == kSetTag)) {
            YAML::Mark m = it->first.Mark();
            throw InputError(m_file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " +
                             key(k) + ": " + msg);
        }
        child.fail(msg);
    }
}

std::string YamlCheck::as_string() const {
    if (!m_node.IsScalar()) fail("expected a scalar value");
    return m_node.Scalar();
}

std::int64_t YamlCheck::as_int(std::int64_t min, std::int64_t max) const {
    std::string s = trim(as_string());
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 0);
    if (s.empty() || *end || errno == ERANGE) fail("expected an integer, found \"" + s + "\"");
    if (v < min || v > max)
        fail("value " + s + " out of range (expected " + std::to_string(min) + ".." + std::to_string(max) + ")");
    return v;
}

std::uint64_t YamlCheck::as_uint(std::uint64_t max) const {
    std::string s = trim(as_string());
    errno = 0;
    char* end = nullptr;
    if (!s.empty() && s[0] == '-') fail("expected a non-negative integer, found \"" + s + "\"");
    unsigned long long v = std::strtoull(s.c_str(), &end, 0);
    if (s.empty() || *end || errno == ERANGE) fail("expected a non-negative integer, found \"" + s + "\"");
    if (v > max) fail("value " + s + " out of range (expected 0.." + std::to_string(max) + ")");
    return v;
}

double YamlCheck::as_double() const {
    std::string s = trim(as_string());
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end || errno == ERANGE || v != v) fail("expected a number, found \"" + s + "\"");
    return v;
}

bool YamlCheck::as_bool() const {
    std::string s = as_string();
    if (s == "true" || s == "True" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "False" || s == "no" || s == "off") return false;
    fail("expected true or false, found \"" + s + "\"");
}

std::vector<std::string> YamlCheck::as_string_list() const {
    std::vector<std::string> out;
    if (m_node.IsScalar()) {
        out.push_back(m_node.Scalar());
        return out;
    }
    if (!m_node.IsSequence()) fail("expected a list of strings");
    for (std::size_t i = 0; i < m_node.size(); ++i) {
        if (!m_node[i].IsScalar()) fail("expected a list of strings (item " + std::to_string(i) + ")");
        out.push_back(m_node[i].Scalar());
    }
    return out;
}

void apply_override(YAML::Node& root, const std::string& assignment) {
    auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError("--set " + assignment + ": expected key.path=value");
    std::string path = trim(assignment.substr(0, eq));
    std::string value = assignment.substr(eq + 1);
    std::vector<std::string> keys;
    std::size_t start = 0;
    while (true) {
        auto dot = path.find('.', start);
        std::string k = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (k.empty()) throw InputError("--set " + assignment + ": empty key in \"" + path + "\"");
        keys.push_back(k);
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    YAML::Node parsed;
    try {
        parsed = YAML::Load(value);
    } catch (const YAML::Exception& e) {
        throw InputError("--set " + path + ": cannot parse value \"" + value + "\": " + e.msg);
    }
    if (!parsed.IsDefined() || parsed.IsNull()) parsed = YAML::Node(value);
    parsed.SetTag(kSetTag);
    // Walk with explicit node copies (yaml-cpp nodes are handles).
    std::vector<YAML::Node> chain{root};
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        YAML::Node cur = chain.back();
        if (cur.IsDefined() && !cur.IsNull() && !cur.IsMap())
            throw InputError("--set " + path + ": \"" + keys[i] + "\" is not a section");
        YAML::Node next = cur[keys[i]];
        if (!next.IsDefined() || next.IsNull()) {
            cur[keys[i]] = YAML::Node(YAML::NodeType::Map);
            next = cur[keys[i]];
        }
        chain.push_back(next);
    }
    YAML::Node parent = chain.back();
    if (parent.IsDefined() && !parent.IsNull() && !parent.IsMap())
        throw InputError("--set " + path + ": parent is not a section");
    parent[keys.back()] = parsed;
}

}  // namespace vp::config
