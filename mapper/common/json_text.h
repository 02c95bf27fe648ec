#pragma once
// JSON text -> document, with every failure an InputError naming the source, line and column:
// syntax errors, numbers beyond the double range (11e3096), and nesting deeper than
// kMaxJsonDepth (the document is later dumped and compared recursively, so unbounded nesting
// would be a stack overflow).
#include <string>

#include <nlohmann/json.hpp>

namespace vp {

constexpr int kMaxJsonDepth = 256;

nlohmann::json parse_json_text(const std::string& text, const std::string& source);

// Offset of the first byte of `s` that is not well-formed UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or std::string::npos. JSON strings must be UTF-8:
// nlohmann::json refuses to dump anything else.
std::size_t invalid_utf8_at(const std::string& s);

// Document -> JSON text for an output file (indent as nlohmann's dump). A string that is not
// UTF-8 (a file path on Linux may be any bytes) is written with U+FFFD for each bad byte instead
// of throwing: the run's outputs are still written, the path shows where it was odd.
template <typename Json>
std::string json_output_text(const Json& doc, int indent = -1) {
    return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace vp
