// Fuzz target: a platform configuration file (YAML) of any platform, bound to PlatformSpec and
// validated as vp-run does. Property beyond a clean accept/reject: the resolved configuration
// (what vp-run writes as OUT/config.yaml) loads again and reproduces itself byte for byte.
#include "fuzz/fuzz_target.h"
#include "platform/config/platform_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    // In configs/, so that relative paths (tso.calibration) resolve as for the shipped files.
    static const std::string path = fuzz::source_path("configs/fuzz-input.yaml");
    fuzz::expect_clean([&] {
        const config::PlatformSpec spec = config::parse_platform(fuzz::text(data, size), path, {});
        const std::string resolved = config::to_yaml(spec);
        std::string again;
        try {
            again = config::to_yaml(config::parse_platform(resolved, path, {}));
        } catch (const InputError& e) {
            fuzz::violated(std::string("the resolved configuration does not load: ") + e.what() + "\n" + resolved);
        }
        if (again != resolved) fuzz::violated("the resolved configuration does not reproduce itself:\n" + resolved);
    });
    return 0;
}
