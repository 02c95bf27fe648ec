// JSON input text (workloads, traffic files, VTA programs): a name given twice in one object is
// an error naming the JSON pointer and both lines; nlohmann::json would keep the last one.
#include <catch2/catch.hpp>

#include "mapper/common/errors.h"
#include "mapper/common/json_text.h"

namespace {
std::string parse_error(const std::string& text) {
    try {
        vp::parse_json_text(text, "w.json");
    } catch (const vp::InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("JSON: a duplicate member is an error with its JSON pointer and both places", "[workload]") {
    CHECK(parse_error(R"({"name":"n","layers":[{"name":"a","type":"conv","C":4,"C":8,"K":4}]})") ==
          "w.json:1:55: at /layers/0/C: duplicate key \"C\" (first at 1:49, again at 1:55)");
    CHECK(parse_error("{\"layers\": [\n {\"name\": \"a\"},\n {\"name\": \"b\",\n  \"in\": 2,\n  \"out\": 2, \"in\": 3}]}") ==
          "w.json:5:13: at /layers/1/in: duplicate key \"in\" (first on line 4, again on line 5)");
    // Pointer escapes (RFC 6901), a duplicate at the top level and in nested arrays.
    CHECK(parse_error(R"({"a/b~": 1, "a/b~": 2})") == "w.json:1:13: at /a~1b~0: duplicate key \"a/b~\" (first at 1:2, again at 1:13)");
    CHECK_THAT(parse_error(R"({"x": [[1, {"k": 1}], [2, {"k": 1, "k": 2}]]})"), Catch::Contains("at /x/1/1/k: duplicate key"));
    // Keys counted past strings that hold quotes, colons and escapes.
    CHECK(parse_error(R"({"s": "a\":b", "t": {"u:\"": 1}, "s": 3})") ==
          "w.json:1:34: at /s: duplicate key \"s\" (first at 1:2, again at 1:34)");
}

TEST_CASE("JSON: equal names in different objects are not duplicates", "[workload]") {
    CHECK(parse_error(R"({"layers": [{"name": "a", "C": 1}, {"name": "b", "C": 1}], "name": "n", "o": {"name": 1}})").empty());
    CHECK(vp::parse_json_text(R"({"a": [1, {"b": 2}], "c": {"a": 3}})", "w.json")["c"]["a"] == 3);
}
