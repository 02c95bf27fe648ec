// vp-calibrate --refit: reading the stored samples of an earlier calibration file and splitting a
// design's samples into stored and to-simulate ones (files written to a temporary folder).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>

#include "mapper/common/errors.h"
#include "platform/refine/stored_samples.h"

using vp::refine::read_stored_samples;
using vp::refine::split_stored;
using vp::refine::StoredSamples;

namespace {

struct TempFile {
    std::filesystem::path path;
    explicit TempFile(const std::string& text) {
        path = std::filesystem::temp_directory_path() /
               ("vp_stored_samples_" + std::to_string(std::random_device{}()) + ".yaml");
        std::ofstream(path) << text;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

// The InputError's message of read_stored_samples (fails the test if it returns).
std::string error_of(const std::string& path, const std::string& list, std::optional<std::uint64_t> seed) {
    try {
        read_stored_samples(path, list, "not a calibration file?", seed);
    } catch (const vp::InputError& e) {
        return e.what();
    }
    FAIL("no InputError");
    return "";
}

}  // namespace

TEST_CASE("stored samples: keys in the file's order, cycles by key", "[refine][refit]") {
    const TempFile f("fit:\n  seed: 7\n  samples_simulated:\n    - key: cal1/8\n      sim: 300\n"
                     "    - key: cal0/8\n      sim: 1250.5\n");
    const StoredSamples s = read_stored_samples(f.path.string(), "samples_simulated", "?", 7);
    CHECK(s.path == f.path.string());
    CHECK(s.keys == std::vector<std::string>{"cal1/8", "cal0/8"});
    CHECK(s.cycles.at("cal0/8") == 1250.5);
    CHECK(s.cycles.at("cal1/8") == 300);
    // Without a seed to check (the mesh calibration's use), fit.seed is not looked at.
    CHECK(read_stored_samples(f.path.string(), "samples_simulated", "?").keys.size() == 2);
}

TEST_CASE("no --refit file: nothing stored, everything simulated, nothing printed", "[refine][refit]") {
    const StoredSamples s = read_stored_samples("", "samples", "?");
    CHECK(s.path.empty());
    CHECK(s.keys.empty());
    std::vector<double> cycles;
    CHECK(split_stored({"a", "b"}, {"1", "2"}, s, cycles) == std::vector<std::size_t>{0, 1});
    CHECK(cycles == std::vector<double>{0, 0});
}

TEST_CASE("split: stored samples take their cycles, the others are simulated in order", "[refine][refit]") {
    StoredSamples s;
    s.path = "old.yaml";
    s.keys = {"b", "d", "x"};  // "x" is not in the design: not simulated, not used
    s.cycles = {{"b", 20}, {"d", 40}, {"x", 99}};
    s.shapes = {{"b", "fb"}, {"d", "fd"}, {"x", "fx"}};
    std::vector<double> cycles = {5};  // resized
    const auto todo = split_stored({"a", "b", "c", "d", "e"}, {"fa", "fb", "fc", "fd", "fe"}, s, cycles);
    CHECK(todo == std::vector<std::size_t>{0, 2, 4});
    CHECK(cycles == std::vector<double>{0, 20, 0, 40, 0});
    CHECK(split_stored({"b", "d"}, {"fb", "fd"}, s, cycles).empty());
    CHECK(cycles == std::vector<double>{20, 40});
}

TEST_CASE("split: a stored sample of another layer under the same key is exit 2, not its cycles", "[refine][refit]") {
    StoredSamples s;
    s.path = "old.yaml";
    s.keys = {"cal3/4,16,2", "cal4/8,8,1"};
    s.cycles = {{"cal3/4,16,2", 20}, {"cal4/8,8,1", 40}};
    s.shapes = {{"cal3/4,16,2", "00000000000000aa"}, {"cal4/8,8,1", ""}};  // "": a file written before fingerprints
    std::vector<double> cycles;
    try {
        split_stored({"cal3/4,16,2"}, {"00000000000000bb"}, s, cycles);
        FAIL("no InputError");
    } catch (const vp::InputError& e) {
        CHECK(std::string(e.what()) == "--refit old.yaml: sample cal3/4,16,2 was simulated on another layer (shape "
                                       "00000000000000aa) than this design's (shape 00000000000000bb): the file comes "
                                       "from another version of the design; calibrate without --refit");
    }
    CHECK_THROWS_AS(split_stored({"cal4/8,8,1"}, {"00000000000000cc"}, s, cycles), vp::InputError);
    CHECK_NOTHROW(split_stored({"cal3/4,16,2"}, {"00000000000000aa"}, s, cycles));
    CHECK(cycles == std::vector<double>{20});
}

TEST_CASE("shape fingerprint: FNV-1a 64 of the layer's text, 16 hex digits", "[refine][refit]") {
    CHECK(vp::refine::shape_fingerprint("") == "cbf29ce484222325");  // the FNV-1a 64 offset basis
    CHECK(vp::refine::shape_fingerprint("a") == "af63dc4c8601ec8c");  // published FNV-1a 64 test vector
    CHECK(vp::refine::shape_fingerprint("{\"C\":1}") != vp::refine::shape_fingerprint("{\"C\":3}"));
}

TEST_CASE("stored samples: a missing file or list is exit 2 naming the file and the list", "[refine][refit]") {
    const std::string missing = (std::filesystem::temp_directory_path() / "vp_stored_samples_missing.yaml").string();
    CHECK(error_of(missing, "samples", std::nullopt).rfind("--refit " + missing + ": cannot read: ", 0) == 0);
    for (const std::string text : {"fit:\n  seed: 1\n", "fit:\n  samples: 3\n", "fit: 1\n", "- 1\n", ""}) {
        const TempFile f(text);
        CHECK(error_of(f.path.string(), "samples", std::nullopt) ==
              "--refit " + f.path.string() + ": no fit.samples list (not a calibration file?)");
    }
}

TEST_CASE("stored samples: a malformed entry is exit 2 naming its line, index and what was expected",
          "[refine][refit]") {
    const std::string want = ": every entry needs key (text) and sim (cycles, a positive number); shape is text";
    const TempFile no_sim("fit:\n  samples:\n    - key: a/1,1,1\n      sim: 10\n    - key: b/1,1,1\n");
    CHECK(error_of(no_sim.path.string(), "samples", std::nullopt) ==
          "--refit " + no_sim.path.string() + ":5: fit.samples[1]" + want);
    const TempFile bad_sim("fit:\n  samples:\n    - key: a/1,1,1\n      sim: many\n");
    CHECK(error_of(bad_sim.path.string(), "samples", std::nullopt) ==
          "--refit " + bad_sim.path.string() + ":3: fit.samples[0]" + want);
    const TempFile list_key("fit:\n  samples:\n    - key: [a]\n      sim: 1\n");
    CHECK(error_of(list_key.path.string(), "samples", std::nullopt) ==
          "--refit " + list_key.path.string() + ":3: fit.samples[0]" + want);
    for (const std::string v : {"0", "-3", ".nan", ".inf"}) {  // the fits divide by it
        const TempFile f("fit:\n  samples:\n    - key: a/1,1,1\n      sim: " + v + "\n");
        CHECK(error_of(f.path.string(), "samples", std::nullopt) == "--refit " + f.path.string() + ":3: fit.samples[0]" + want);
    }
    const TempFile scalar("fit:\n  samples:\n    - 12\n");
    CHECK(error_of(scalar.path.string(), "samples", std::nullopt) ==
          "--refit " + scalar.path.string() + ":3: fit.samples[0]" + want);
}

TEST_CASE("stored samples: a file of another seed is exit 2 naming both seeds", "[refine][refit]") {
    const std::string list = "  samples_simulated:\n    - key: cal0/8\n      sim: 1\n";
    const TempFile other("fit:\n  seed: 1\n" + list), none("fit:\n" + list), map("fit:\n  seed: {a: 1}\n" + list);
    CHECK(error_of(other.path.string(), "samples_simulated", 2) ==
          "--refit " + other.path.string() + ": made with fit.seed = 1, but this design has --seed 2");
    CHECK(error_of(none.path.string(), "samples_simulated", 2) ==
          "--refit " + none.path.string() + ": made with fit.seed = (none), but this design has --seed 2");
    CHECK(error_of(map.path.string(), "samples_simulated", 2) ==
          "--refit " + map.path.string() + ": made with fit.seed = (not a number), but this design has --seed 2");
    CHECK(read_stored_samples(other.path.string(), "samples_simulated", "?", 1).keys.size() == 1);
}
