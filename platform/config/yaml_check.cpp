#include "platform/config/yaml_check.h"

#include <algorithm>
#include <unordered_map>

#include <yaml-cpp/depthguard.h>

#include "mapper/common/errors.h"
#include "mapper/common/json_check.h"
#include "platform/config/number_text.h"

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
        if (!it->first.IsScalar())
            fail(std::string("expected key names, found a ") + (it->first.IsMap() ? "mapping" : "list") + " as a key");
        const std::string k = it->first.Scalar();
        if (std::find(known.begin(), known.end(), k) != known.end()) continue;
        std::string msg = "unknown key \"" + k + "\"";
        if (k == "<<") msg += " (YAML merge keys are not read: write the keys out)";
        std::string near = k == "<<" ? std::string() : nearest_name(k, known);
        if (!near.empty()) msg += " (did you mean \"" + near + "\"?)";
        std::string list;
        for (const auto& s : known) list += (list.empty() ? "" : ", ") + s;
        msg += "; known keys here: " + list;
        YamlCheck child(it->second, m_file, key(k));
        const YAML::Mark m = it->first.Mark();
        if (it->second.Tag() != kSetTag && !m.is_null())
            throw InputError(m_file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " +
                             key(k) + ": " + msg);
        child.fail(msg);
    }
}

std::string YamlCheck::as_string() const {
    if (!m_node.IsScalar()) fail("expected a scalar value");
    return m_node.Scalar();
}

std::int64_t YamlCheck::as_int(std::int64_t min, std::int64_t max) const { return as_int(min, max, min, max); }

std::int64_t YamlCheck::as_int(std::int64_t min, std::int64_t max, std::int64_t accepts_min,
                               std::int64_t accepts_max) const {
    const std::string s = trim(as_string());
    const std::string range = "(expected " + std::to_string(accepts_min) +
                              (accepts_min == accepts_max ? std::string() : ".." + std::to_string(accepts_max)) + ")";
    std::int64_t v = 0;
    switch (parse_int_text(s, min, max, v)) {
    case NumberText::Ok: return v;
    case NumberText::OutOfRange: fail("value " + s + " out of range " + range);
    case NumberText::Malformed: break;
    }
    fail("expected an integer " + range + ", found \"" + s + "\"");
}

std::uint64_t YamlCheck::as_uint(std::uint64_t max) const {
    const std::string s = trim(as_string());
    const std::string range = "(expected 0.." + std::to_string(max) + ")";
    std::uint64_t v = 0;
    switch (parse_uint_text(s, max, v)) {
    case NumberText::Ok: return v;
    case NumberText::OutOfRange: fail("value " + s + " out of range " + range);
    case NumberText::Malformed: break;
    }
    fail("expected a non-negative integer, found \"" + s + "\" " + range);
}

double YamlCheck::as_double() const {
    const std::string s = trim(as_string());
    double v = 0;
    switch (parse_float_text(s, v)) {
    case NumberText::Ok: return v;
    case NumberText::OutOfRange:
        fail("value " + s + " out of range (expected a finite number, magnitude at most 1.7976931348623157e308)");
    case NumberText::Malformed: break;
    }
    fail("expected a number, found \"" + s + "\"");
}

bool YamlCheck::as_bool() const {
    // The YAML 1.2 core schema's booleans, and yes/no/on/off of YAML 1.1.
    const std::string s = as_string();
    if (s == "true" || s == "True" || s == "TRUE" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "False" || s == "FALSE" || s == "no" || s == "off") return false;
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

namespace {
std::string line_of(const YAML::Mark& m) { return m.is_null() ? std::string("?") : std::to_string(m.line + 1); }

// Walks the tree once. `open` holds the collections being walked (the ancestors of `n`): an
// alias to one of them makes the tree infinite (yaml-cpp builds the cycle as it is written), so
// it is an error here, before any other walk recurses forever. `at` is the mark of the key that
// holds `n` (or n's own).
void unique_keys(const YAML::Node& n, const std::string& where, bool lines, const std::string& path,
                 const YAML::Mark& at, std::vector<YAML::Node>& open, std::size_t& budget) {
    if (budget == 0) throw InputError(where + ": too many nodes (aliases nested too deep?)");
    --budget;
    if (!n.IsSequence() && !n.IsMap()) return;
    const std::string loc = lines ? where + ":" + line_of(at) : where;
    const std::string name = path.empty() ? "(top level)" : path;
    for (const YAML::Node& a : open)
        if (n.is(a))
            throw InputError(loc + ": " + name + ": recursive alias (the value contains itself" +
                             (lines ? ", anchored on line " + line_of(n.Mark()) : std::string()) + ")");
    if (open.size() >= kMaxYamlDepth)
        throw InputError(loc + ": " + name + ": YAML nested deeper than " + std::to_string(kMaxYamlDepth) +
                         " levels (aliases included)");
    open.push_back(n);
    if (n.IsSequence()) {
        for (std::size_t i = 0; i < n.size(); ++i) {
            // An item that starts before its list is an alias to an earlier node: name the line
            // of the list's key instead of the anchor's.
            const YAML::Mark m = n[i].Mark().pos < n.Mark().pos ? at : n[i].Mark();
            unique_keys(n[i], where, lines, path + "[" + std::to_string(i) + "]", m, open, budget);
        }
    } else {
        std::unordered_map<std::string, YAML::Mark> seen;
        for (auto it = n.begin(); it != n.end(); ++it) {
            const YAML::Mark m = it->first.Mark();
            unique_keys(it->first, where, lines, path, m, open, budget);  // a collection as a key: walked first
            const std::string k = it->first.IsScalar() ? it->first.Scalar() : YAML::Dump(it->first);
            const std::string sub = path.empty() ? k : path + "." + k;
            auto [prev, fresh] = seen.emplace(k, m);
            if (!fresh) {
                if (!lines) throw InputError(where + ": " + sub + ": duplicate key \"" + k + "\"");
                throw InputError(where + ":" + line_of(m) + ": " + sub + ": duplicate key \"" + k +
                                 "\" (first on line " + line_of(prev->second) + ", again on line " + line_of(m) + ")");
            }
            unique_keys(it->second, where, lines, sub, m, open, budget);
        }
    }
    open.pop_back();
}
}  // namespace

void check_unique_keys(const YAML::Node& root, const std::string& where) {
    std::size_t budget = 1000000;
    std::vector<YAML::Node> open;
    unique_keys(root, where, where.rfind("--set", 0) != 0, "", root.Mark(), open, budget);
}

namespace {
// 1-based line where a second document of `text` begins, 0 when it holds one (or none). A
// document starts at a "---" marker or, outside a document (at the start, or after a "..."
// marker), at its first content line; markers stand at column 0, where the YAML spec lets no
// scalar hold one (c-forbidden). Comments, blank lines and directives (%...) between documents
// start none. A text scan: yaml-cpp's LoadAll loops forever on some malformed input.
std::size_t second_document_line(const std::string& text) {
    auto marker = [&](std::size_t pos, std::size_t end, const char* m) {
        return text.compare(pos, 3, m) == 0 &&
               (pos + 3 == end || text[pos + 3] == ' ' || text[pos + 3] == '\t' || text[pos + 3] == '\r');
    };
    bool in_doc = false;
    int starts = 0;
    std::size_t line = 0;
    for (std::size_t pos = 0; pos < text.size(); ++line) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const std::size_t first = text.find_first_not_of(" \t\r", pos);
        const bool blank = first == std::string::npos || first >= end || text[first] == '#';
        bool start = false;
        if (marker(pos, end, "---")) start = true;
        else if (marker(pos, end, "...")) in_doc = false;
        else if (!blank && !in_doc && !(text[pos] == '%')) start = true;
        if (start) {
            in_doc = true;
            if (++starts == 2) return line + 1;
        }
        pos = end + 1;
    }
    return 0;
}
}  // namespace

YAML::Node load_yaml_text(const std::string& text, const std::string& path) {
    auto at = [&](const YAML::Mark& m) {
        return path + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
    };
    YAML::Node root;
    try {
        // YAML::Load stops after the first document and would drop the rest unread.
        if (const std::size_t second = second_document_line(text))
            throw InputError(path + ":" + std::to_string(second) +
                             ": a second YAML document begins here; the file must hold one document");
        root = YAML::Load(text);
    } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own limit; its message says only "bad file"
        throw InputError(at(e.mark) + ": YAML nested deeper than the parser allows (" + std::to_string(e.depth()) +
                         " levels)");
    } catch (const YAML::ParserException& e) {
        throw InputError(at(e.mark) + ": YAML syntax error: " + e.msg);
    } catch (const YAML::Exception& e) {
        throw InputError(path + ": YAML error: " + e.msg);
    }
    check_unique_keys(root, path);
    return root;
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
    check_unique_keys(parsed, "--set " + path);
    parsed.SetTag(kSetTag);
    // Walk with explicit node copies (yaml-cpp nodes are handles).
    std::vector<YAML::Node> chain{root};
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        YAML::Node cur = chain.back();
        if (cur.IsDefined() && !cur.IsNull() && !cur.IsMap())
            throw InputError("--set " + path + ": \"" + keys[i] + "\" is not a section");
        YAML::Node next = cur[keys[i]];
        if (!next.IsDefined() || next.IsNull()) {
            // A section created by --set is named as such in errors (it has no place in the file).
            YAML::Node section(YAML::NodeType::Map);
            section.SetTag(kSetTag);
            cur[keys[i]] = section;
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
