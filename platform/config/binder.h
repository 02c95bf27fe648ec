#pragma once
// One description of each parameter struct serves both directions: YamlReader fills
// the struct from a validated YAML section (unknown keys are errors) and YamlWriter
// emits the resolved values for OUT/config.yaml. A bind() function per struct calls
// v.field(key, member) / v.choice(key, member, names) / v.section(key, fn).
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "platform/config/yaml_check.h"

namespace vp::config {

template <typename E>
using Choices = std::vector<std::pair<const char*, E>>;

// The values a signed integer key accepts, narrower than its member's type (what the struct's
// validate() allows; for a bound that depends on other keys, the widest it can be). The reader
// quotes them, not the type's range, for a value it cannot store: not an integer, or beyond the
// type. A value of the type outside them is stored and refused by validate(), in its own words.
struct Accepts {
    std::int64_t min, max;
};

class YamlReader {
public:
    static constexpr bool kReading = true;
    explicit YamlReader(YamlCheck node) : m_node(std::move(node)) {}

    bool has(const std::string& k) const { return m_node.has(k); }
    const YamlCheck& node() const { return m_node; }

    template <typename T>
    void field(const char* k, T& v) {
        m_known.emplace_back(k);
        if (!m_node.has(k)) return;
        YamlCheck n = m_node.at(k);
        if constexpr (std::is_same_v<T, bool>) v = n.as_bool();
        else if constexpr (std::is_same_v<T, std::string>) v = n.as_string();
        else if constexpr (std::is_same_v<T, std::vector<std::string>>) v = n.as_string_list();
        else if constexpr (std::is_floating_point_v<T>) v = static_cast<T>(n.as_double());
        else if constexpr (std::is_unsigned_v<T>) v = static_cast<T>(n.as_uint(std::numeric_limits<T>::max()));
        else v = static_cast<T>(n.as_int(std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    }

    template <typename T>
    void field(const char* k, T& v, Accepts accepts) {
        static_assert(std::is_integral_v<T> && std::is_signed_v<T>, "Accepts: signed integer members");
        m_known.emplace_back(k);
        if (!m_node.has(k)) return;
        v = static_cast<T>(m_node.at(k).as_int(std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), accepts.min,
                                               accepts.max));
    }

    template <typename E>
    void choice(const char* k, E& v, const Choices<E>& names) {
        m_known.emplace_back(k);
        if (!m_node.has(k)) return;
        YamlCheck n = m_node.at(k);
        std::string s = n.as_string();
        std::string list;
        for (const auto& [name, val] : names) {
            if (s == name) {
                v = val;
                return;
            }
            list += (list.empty() ? "" : ", ") + std::string(name);
        }
        n.fail("unknown value \"" + s + "\" (expected one of: " + list + ")");
    }

    // A list of [x, y] integer pairs.
    void points(const char* k, std::vector<std::pair<int, int>>& v) {
        m_known.emplace_back(k);
        if (!m_node.has(k)) return;
        YamlCheck n = m_node.at(k);
        const YAML::Node& seq = n.node();
        auto bad = [&]() { n.fail("expected a list of [x, y] pairs, e.g. [[0, 0], [1, 0]]"); };
        if (!seq.IsSequence()) bad();
        std::vector<std::pair<int, int>> out;
        // A single pair may be written as [x, y].
        bool single = seq.size() == 2 && seq[0].IsScalar() && seq[1].IsScalar();
        auto pair_of = [&](const YAML::Node& p, const std::string& path) {
            if (!p.IsSequence() || p.size() != 2) bad();
            YamlCheck x(p[0], "", path + "[0]"), y(p[1], "", path + "[1]");
            (void)x;
            (void)y;
            return std::make_pair(int(YamlCheck(p[0], n.where(), "x").as_int(-1000000, 1000000)),
                                  int(YamlCheck(p[1], n.where(), "y").as_int(-1000000, 1000000)));
        };
        if (single) out.push_back(pair_of(seq, n.path()));
        else
            for (std::size_t i = 0; i < seq.size(); ++i) out.push_back(pair_of(seq[i], n.path()));
        v = out;
    }

    template <typename F>
    void section(const char* k, F&& fn) {
        m_known.emplace_back(k);
        if (!m_node.has(k)) return;
        YamlReader sub(m_node.at(k));
        sub.m_node.expect_map();
        fn(sub);
        sub.finish();
    }

    // Unknown keys are errors.
    void finish() const { m_node.allow_only(m_known); }

private:
    YamlCheck m_node;
    std::vector<std::string> m_known;
};

class YamlWriter {
public:
    static constexpr bool kReading = false;
    explicit YamlWriter(YAML::Emitter& out) : m_out(out) {}

    bool has(const std::string&) const { return false; }

    template <typename T>
    void field(const char* k, T& v) {
        m_out << YAML::Key << k << YAML::Value;
        if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            m_out << YAML::Flow << YAML::BeginSeq;
            for (const auto& s : v) text(s);
            m_out << YAML::EndSeq;
        } else if constexpr (std::is_same_v<T, std::string>) {
            text(v);
        } else if constexpr (std::is_same_v<T, bool>) {
            m_out << (v ? "true" : "false");
        } else if constexpr (std::is_floating_point_v<T>) {
            m_out << YAML::Precision(12) << double(v);
        } else {
            m_out << v;
        }
    }

    template <typename T>
    void field(const char* k, T& v, Accepts) {
        field(k, v);
    }

    template <typename E>
    void choice(const char* k, E& v, const Choices<E>& names) {
        for (const auto& [name, val] : names)
            if (val == v) {
                m_out << YAML::Key << k << YAML::Value << name;
                return;
            }
    }

    void points(const char* k, std::vector<std::pair<int, int>>& v) {
        m_out << YAML::Key << k << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const auto& [x, y] : v) m_out << YAML::Flow << YAML::BeginSeq << x << y << YAML::EndSeq;
        m_out << YAML::EndSeq;
    }

    template <typename F>
    void section(const char* k, F&& fn) {
        m_out << YAML::Key << k << YAML::Value << YAML::BeginMap;
        YamlWriter sub(m_out);
        fn(sub);
        m_out << YAML::EndMap;
    }

    void finish() const {}

private:
    // A string with a control character (a carriage return, a tab...) is written double-quoted,
    // with escapes: yaml-cpp writes it as a plain scalar otherwise, and reading that back folds or
    // drops the characters (a name ending in carriage returns lost one per round trip).
    void text(const std::string& v) {
        bool control = false;
        for (unsigned char c : v) control = control || c < 0x20 || c == 0x7f;
        if (control) m_out << YAML::DoubleQuoted;
        m_out << v;
    }

    YAML::Emitter& m_out;
};

}  // namespace vp::config
