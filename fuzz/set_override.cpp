// Fuzz target: `--set key.path=value` overrides over one of the shipped configurations.
// Input: the first byte picks the configuration (low bits) and --allow-unused (bit 7); every
// following line is one --set argument.
#include <vector>

#include "fuzz/config_round_trip.h"
#include "fuzz/fuzz_target.h"
#include "mapper/common/input_file.h"
#include "platform/config/platform_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    static const char* kConfigs[] = {"dram-ddr3.yaml",    "dram-ddr4.yaml", "mesh-16x8.yaml", "mesh-3x1.yaml",
                                     "mesh-4x4.yaml",     "mesh-8x8.yaml",  "nmp.yaml",       "vta.yaml",
                                     "mesh-8x8-booksim.yaml", "mesh-8x8-synthetic.yaml"};
    constexpr std::size_t kN = sizeof kConfigs / sizeof kConfigs[0];
    static std::vector<std::string> texts;
    if (texts.empty())
        for (const char* c : kConfigs) texts.push_back(read_input_file(fuzz::source_path("configs/") + c, "a config"));
    if (size == 0) return 0;
    const std::size_t pick = (data[0] & 0x7f) % kN;
    const bool allow_unused = (data[0] & 0x80) != 0;
    std::vector<std::string> sets;
    const std::string rest = fuzz::text(data + 1, size - 1);
    std::size_t start = 0;
    while (start <= rest.size() && sets.size() < 64) {
        const auto nl = rest.find('\n', start);
        const std::string line = rest.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
        if (!line.empty()) sets.push_back(line);
        if (nl == std::string::npos) break;
        start = nl + 1;
    }
    const std::string path = fuzz::source_path(std::string("configs/") + kConfigs[pick]);
    fuzz::expect_clean([&] {
        fuzz::check_config_round_trip(config::parse_platform(texts[pick], path, sets, allow_unused), path);
    });
    return 0;
}
