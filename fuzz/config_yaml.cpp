// Fuzz target: a platform configuration file (YAML) of any platform, bound to PlatformSpec and
// validated as vp-run does; an accepted one must reproduce itself (config_round_trip.h).
#include "fuzz/config_round_trip.h"
#include "fuzz/fuzz_target.h"
#include "platform/config/platform_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    // In configs/, so that relative paths (tso.calibration) resolve as for the shipped files.
    static const std::string path = fuzz::source_path("configs/fuzz-input.yaml");
    fuzz::expect_clean(
        [&] { fuzz::check_config_round_trip(config::parse_platform(fuzz::text(data, size), path, {}), path); });
    return 0;
}
