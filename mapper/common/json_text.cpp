#include "mapper/common/json_text.h"

#include <unordered_map>
#include <vector>

#include "mapper/common/errors.h"

namespace vp {

namespace {
using Dom = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

// The DOM builder of nlohmann::json::parse, which records why it stopped instead of throwing
// (a number overflow is out_of_range.406, an exception without a position), refuses deep
// nesting and a name given twice in one object (nlohmann keeps the last one silently). sax_parse
// calls these members on the static type, so hiding the base's suffices.
class LocatingSax : public Dom {
public:
    using json = nlohmann::json;
    explicit LocatingSax(json& doc) : Dom(doc, false) {}

    bool null() { return element() && Dom::null(); }
    bool boolean(bool v) { return element() && Dom::boolean(v); }
    bool number_integer(json::number_integer_t v) { return element() && Dom::number_integer(v); }
    bool number_unsigned(json::number_unsigned_t v) { return element() && Dom::number_unsigned(v); }
    bool number_float(json::number_float_t v, const json::string_t& s) { return element() && Dom::number_float(v, s); }
    bool string(json::string_t& v) { return element() && Dom::string(v); }
    bool binary(json::binary_t& v) { return element() && Dom::binary(v); }
    bool start_object(std::size_t n) {
        if (!element() || !deeper()) return false;
        m_open.emplace_back(true);
        return Dom::start_object(n);
    }
    bool start_array(std::size_t n) {
        if (!element() || !deeper()) return false;
        m_open.emplace_back(false);
        return Dom::start_array(n);
    }
    bool key(json::string_t& k) {
        Container& c = m_open.back();
        const auto [first, fresh] = c.names.emplace(k, m_keys);
        c.name = k;
        if (!fresh) {
            m_duplicate = true;
            m_first_key = first->second;
            m_again_key = m_keys;
            return false;
        }
        ++m_keys;
        return Dom::key(k);
    }
    bool end_object() {
        --m_depth;
        m_open.pop_back();
        return Dom::end_object();
    }
    bool end_array() {
        --m_depth;
        m_open.pop_back();
        return Dom::end_array();
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
        m_failed = true;
        m_position = position;
        m_token = token;
        m_overflow = e.id == 406;
        m_what = e.what();
        return false;
    }

    bool failed() const { return m_failed; }
    bool too_deep() const { return m_too_deep; }
    // A duplicate name: its JSON pointer, and both keys as ordinals among the document's keys.
    bool duplicate() const { return m_duplicate; }
    std::string pointer() const {
        std::string p;
        for (const Container& c : m_open) {
            p += '/';
            if (!c.object) {
                p += std::to_string(c.elements - 1);
                continue;
            }
            for (char ch : c.name) p += ch == '~' ? std::string("~0") : ch == '/' ? std::string("~1") : std::string(1, ch);
        }
        return p;
    }
    const std::string& duplicate_name() const { return m_open.back().name; }
    std::size_t first_key() const { return m_first_key; }
    std::size_t again_key() const { return m_again_key; }
    bool overflow() const { return m_overflow; }
    std::size_t position() const { return m_position; }
    const std::string& token() const { return m_token; }
    const std::string& what() const { return m_what; }

private:
    struct Container {
        explicit Container(bool is_object) : object(is_object) {}
        bool object;
        std::size_t elements = 0;                             // array: values begun so far
        std::string name;                                     // object: the current member's
        std::unordered_map<std::string, std::size_t> names;  // object: name -> ordinal of its key
    };
    // A value begins: in an array, the next element.
    bool element() {
        if (!m_open.empty() && !m_open.back().object) ++m_open.back().elements;
        return true;
    }
    bool deeper() {
        if (++m_depth <= kMaxJsonDepth) return true;
        m_too_deep = true;
        return false;
    }
    int m_depth = 0;
    std::vector<Container> m_open;
    std::size_t m_keys = 0, m_first_key = 0, m_again_key = 0;
    bool m_failed = false, m_too_deep = false, m_overflow = false, m_duplicate = false;
    std::size_t m_position = 0;
    std::string m_token, m_what;
};

// "line:column" (1-based) of the byte at offset `byte`.
std::string line_col(const std::string& text, std::size_t byte) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return std::to_string(line) + ":" + std::to_string(col);
}

// Offset of the bracket that opens nesting level kMaxJsonDepth + 1 (outside strings).
std::size_t too_deep_offset(const std::string& text) {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return 0;
}

// Offset of the opening quote of the n-th (0-based) key of valid JSON text: a string followed by
// ':' (outside strings).
std::size_t key_offset(const std::string& text, std::size_t n) {
    std::size_t keys = 0, start = 0;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (!in_string) {
            if (c == '"') {
                in_string = true;
                start = i;
            }
            continue;
        }
        if (escaped) escaped = false;
        else if (c == '\\') escaped = true;
        else if (c == '"') {
            in_string = false;
            std::size_t j = i + 1;
            while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r')) ++j;
            if (j < text.size() && text[j] == ':' && keys++ == n) return start;
        }
    }
    return 0;
}

std::string line_of(const std::string& text, std::size_t byte) {
    const std::string lc = line_col(text, byte);
    return lc.substr(0, lc.find(':'));
}
}  // namespace

std::size_t invalid_utf8_at(const std::string& s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned c = p[i];
        std::size_t len;
        unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
        if (c < 0x80) len = 1;
        else if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0) lo = 0xA0;       // overlong
            else if (c == 0xED) hi = 0x9F;  // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0) lo = 0x90;       // overlong
            else if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
        } else {
            return i;
        }
        if (i + len > n) return i;
        for (std::size_t k = 1; k < len; ++k) {
            const unsigned b = p[i + k];
            if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return i;
        }
        i += len;
    }
    return std::string::npos;
}

nlohmann::json parse_json_text(const std::string& text, const std::string& source) {
    nlohmann::json doc;
    LocatingSax sax(doc);
    const bool ok = nlohmann::json::sax_parse(text, &sax, nlohmann::json::input_format_t::json, true, false);
    if (ok && !sax.failed()) return doc;
    if (sax.too_deep())
        throw InputError(source + ":" + line_col(text, too_deep_offset(text)) + ": JSON nesting deeper than " +
                         std::to_string(kMaxJsonDepth) + " levels");
    if (sax.duplicate()) {
        const std::size_t first = key_offset(text, sax.first_key()), again = key_offset(text, sax.again_key());
        const bool one_line = line_of(text, first) == line_of(text, again);
        throw InputError(source + ":" + line_col(text, again) + ": at " + sax.pointer() + ": duplicate key \"" +
                         sax.duplicate_name() + "\" (" +
                         (one_line ? "first at " + line_col(text, first) + ", again at " + line_col(text, again)
                                   : "first on line " + line_of(text, first) + ", again on line " + line_of(text, again)) +
                         ")");
    }
    if (!sax.failed()) throw InputError(source + ": JSON document could not be read");
    // The parser stops right after the offending token; point at its first character.
    const std::size_t end = sax.position();
    const std::size_t start = end >= sax.token().size() ? end - sax.token().size() : 0;
    if (sax.overflow())
        throw InputError(source + ":" + line_col(text, start) + ": number " + sax.token() +
                         " out of range (JSON numbers are read as IEEE doubles: magnitude at most "
                         "1.7976931348623157e308)");
    const std::string what = sax.what();
    const auto pos = what.find("syntax error");
    // nlohmann's position is that of the last byte read (1-based): report the line and column of that byte.
    throw InputError(source + ":" + line_col(text, end == 0 ? 0 : end - 1) + ": JSON " +
                     (pos == std::string::npos ? what : what.substr(pos)));
}

}  // namespace vp
