// Loading YAML (configurations, calibration files, --set values): every malformed text is an
// InputError naming the file and line, never a crash. yaml-cpp builds an alias to an enclosing
// anchor as a cyclic node graph, which any recursive walk followed forever (a stack overflow).
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include "mapper/common/errors.h"
#include "platform/config/platform_spec.h"
#include "platform/config/yaml_check.h"

using namespace vp::config;

namespace {
std::string load_error(const std::string& text) {
    try {
        load_yaml_text(text, "c.yaml");
    } catch (const vp::InputError& e) {
        return e.what();
    }
    return "";
}

std::string platform_error(const std::string& text, const std::vector<std::string>& sets = {}) {
    try {
        parse_platform(text, "c.yaml", sets);
    } catch (const vp::InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("YAML: an alias to an enclosing anchor is a recursive alias naming the file and line", "[config]") {
    CHECK(load_error("platform: nmp\nnmp: &a\n  n_tle: *a\n") ==
          "c.yaml:3: nmp.n_tle: recursive alias (the value contains itself, anchored on line 2)");
    CHECK(load_error("platform: nmp\nx: &a [*a]\n") ==
          "c.yaml:2: x[0]: recursive alias (the value contains itself, anchored on line 2)");
    CHECK_THAT(load_error("a: &a\n  b:\n    - c: [1, *a]\n"),
               Catch::Contains("c.yaml:3: a.b[0].c[1]: recursive alias"));
    CHECK_THAT(load_error("? &k [*k]\n: 1\n"), Catch::Contains("recursive alias"));  // a key that contains itself
    CHECK_THAT(platform_error("platform: nmp\nnmp: &a\n  n_tle: *a\n"), Catch::Contains("c.yaml:3: nmp.n_tle: recursive alias"));
}

TEST_CASE("YAML: a recursive alias in a --set value is refused", "[config]") {
    CHECK(platform_error("platform: nmp\n", {"nmp=&a {n_tle: *a}"}) ==
          "--set nmp: n_tle: recursive alias (the value contains itself)");
    CHECK_THAT(platform_error("platform: nmp\n", {"nmp.n_tle=&a [*a]"}), Catch::Contains("recursive alias"));
}

TEST_CASE("YAML: aliases that do not enclose their anchor are accepted, deep or huge expansions are not",
          "[config]") {
    // The same node twice, side by side and nested in a sibling: no cycle.
    CHECK(load_error("a: &a {x: 1}\nb: *a\nc: [*a, {d: *a}]\n").empty());
    // Nesting built from aliases beyond what a text of that size could write.
    std::string deep = "l0: &l0 [[[[[[[[[[1]]]]]]]]]]\n";
    for (int i = 1; i < 30; ++i)
        deep += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [[[[[[[[[[*l" + std::to_string(i - 1) + "]]]]]]]]]]\n";
    CHECK_THAT(load_error(deep), Catch::Contains("YAML nested deeper than 256 levels (aliases included)"));
    // An alias bomb: a bounded walk.
    std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i < 9; ++i) {
        const std::string p = "*a" + std::to_string(i - 1);
        bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + p + "," + p + "," + p + "," + p + "," +
                p + "," + p + "," + p + "," + p + "," + p + "," + p + "]\n";
    }
    CHECK_THAT(load_error(bomb), Catch::Contains("c.yaml: too many nodes"));
}

TEST_CASE("YAML: a second document is refused naming the line of its marker", "[config]") {
    const std::string want = ": a second YAML document begins here; the file must hold one document";
    CHECK(load_error("platform: mesh\n---\nmesh:\n  width: 99999\n") == "c.yaml:2" + want);
    CHECK(load_error("---\nplatform: nmp\n---\nplatform: mesh\n") == "c.yaml:3" + want);  // the first one's own marker
    CHECK(load_error("---\n---\nplatform: nmp\n") == "c.yaml:2" + want);                  // an empty first document
    CHECK(load_error("platform: nmp\n---\n") == "c.yaml:2" + want);                        // an empty second one
    CHECK(load_error("platform: nmp\n...\nplatform: mesh\n") == "c.yaml:3" + want);       // after an end marker
    CHECK(load_error("a: 1\n---\nb: 2\n---\nc: 3\n") == "c.yaml:2" + want);
    // Text on which yaml-cpp's LoadAll never returns: one document, read at once (the platform
    // check refuses it later: no "platform" key).
    CHECK(load_error(",platform:depth: 9999999999999999 dram\ntrace:\n  startmeasure_cycles_ns: 100\n \x9f"
                      "end_ns: 50\n").empty());
    // One document: with its markers, or "---" inside a block scalar.
    CHECK(load_error("# c\n---\nplatform: nmp\n...\n").empty());
    CHECK(load_error("name: |\n  a\n  ---\n").empty());
    CHECK_THAT(platform_error("platform: nmp\n---\nplatform: mesh\n"), Catch::StartsWith("c.yaml:2: a second YAML document"));
}
