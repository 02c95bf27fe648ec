#pragma once
// Shared by the fuzz targets (one LLVMFuzzerTestOneInput per file). The property every target
// checks: an input is either accepted or rejected with vp::InputError (exit code 2 in the
// tools). Any other exception aborts, so that libFuzzer (and the corpus replay) reports it as a
// finding, like a crash, a hang past -timeout or a sanitizer report.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <typeinfo>
#include <vector>

#include <unistd.h>

#include "mapper/common/errors.h"

namespace vp::fuzz {

// The input error of the last input ("" when it was accepted), for the replay's listing.
inline std::string& last_rejection() {
    static std::string s;
    return s;
}

template <class F>
void expect_clean(F&& fn) {
    last_rejection().clear();
    try {
        fn();
    } catch (const InputError& e) {
        last_rejection() = e.what();  // a clean rejection
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: uncaught %s: %s\n", typeid(e).name(), e.what());
        std::abort();
    } catch (...) {
        std::fprintf(stderr, "fuzz: uncaught exception of unknown type\n");
        std::abort();
    }
}

// A property of an accepted input that does not hold.
[[noreturn]] inline void violated(const std::string& what) {
    std::fprintf(stderr, "fuzz: property violated: %s\n", what.c_str());
    std::abort();
}

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// A path under the source tree (relative paths in the inputs resolve against it).
inline std::string source_path(const std::string& rel) { return std::string(VP_SOURCE_DIR) + "/" + rel; }

// `data` written to a file of this name in a per-process scratch folder (for readers that take
// a path); the same file is overwritten by every input.
inline std::string scratch_file(const std::string& name, const std::string& data) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir = tmp && *tmp ? tmp : "/tmp";
    const std::string path = dir + "/vp-fuzz-" + std::to_string(::getpid()) + "-" + name;
    struct Remover {  // the scratch files go with the process
        std::vector<std::string> paths;
        ~Remover() {
            for (const auto& p : paths) std::remove(p.c_str());
        }
    };
    static Remover remover;
    if (std::find(remover.paths.begin(), remover.paths.end(), path) == remover.paths.end())
        remover.paths.push_back(path);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), std::streamsize(data.size()));
    if (!out) violated("cannot write the scratch file " + path);
    return path;
}

}  // namespace vp::fuzz
