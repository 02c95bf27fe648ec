// Fuzz target: a VTA IR program (JSON, "MATRICES" ...), parsed with every semantic check and
// compiled to VTA instructions for the core of configs/vta.yaml, as the vta platform does.
// Data files named by the program resolve against workloads/vta/.
#include "fuzz/fuzz_target.h"
#include "mapper/common/json_text.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/ir_parser.h"
#include "platform/config/platform_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    static const config::PlatformSpec vta = config::load_platform(fuzz::source_path("configs/vta.yaml"), {});
    static const std::string path = fuzz::source_path("workloads/vta/fuzz-input.json");
    fuzz::expect_clean([&] {
        mapper::vta::IrParseOptions opt;
        opt.base_dir = fuzz::source_path("workloads/vta");
        const nlohmann::json doc = parse_json_text(fuzz::text(data, size), path);
        const mapper::vta::Program p = mapper::vta::parse_program(doc, path, opt);
        (void)mapper::vta::compile(p, vta.vta.core, {});
    });
    return 0;
}
