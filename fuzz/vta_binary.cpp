// Fuzz target: the instruction stream of a binary VTA program (insn.bin: 128-bit hw_spec.h
// words), read by the binary program reader with the manifest, micro-ops and data of
// workloads/vta/matmul_16x16.json compiled for configs/vta.yaml (the input replaces insn.bin;
// the instruction region is the last, so any length fits). Also: an accepted program, written
// back as its regions and read again, gives the same instructions and the same image.
#include <map>

#include "fuzz/fuzz_target.h"
#include "mapper/vta/binary_program.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/ir_parser.h"
#include "platform/config/platform_spec.h"

namespace {

using namespace vp::mapper::vta;

std::map<std::string, std::string> files_of(const CompiledProgram& p, const nlohmann::json& manifest) {
    std::map<std::string, std::string> f;
    auto bytes = [&](const std::string& name) {
        for (const DramRegion& r : p.regions)
            if (r.name == name)
                return std::string(reinterpret_cast<const char*>(p.image.data() + (r.addr - p.dram_base)), r.bytes);
        return std::string();
    };
    f[manifest["instructions"]["file"]] = bytes("INSN");
    f[manifest["micro_ops"]["file"]] = bytes("UOP");
    for (const auto& d : manifest["data"]) f[d["file"]] = bytes(d["name"]);
    return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    static const config::PlatformSpec vta = config::load_platform(fuzz::source_path("configs/vta.yaml"), {});
    static const CompiledProgram base = compile(load_program(fuzz::source_path("workloads/vta/matmul_16x16.json"), 1), vta.vta.core);
    static const nlohmann::json manifest = binary_manifest(base);
    static const std::string path = fuzz::source_path("fuzz-input/program.json");
    fuzz::expect_clean([&] {
        std::map<std::string, std::string> files = files_of(base, manifest);
        files[manifest["instructions"]["file"]] = fuzz::text(data, size);
        auto reader = [](const std::map<std::string, std::string>& f) {
            return [&f](const std::string& name) {
                auto it = f.find(name);
                if (it == f.end()) throw InputError("no file " + name);
                return it->second;
            };
        };
        const CompiledProgram p = parse_binary_program(manifest, path, reader(files), vta.vta.core);
        const nlohmann::json again = binary_manifest(p);
        const std::map<std::string, std::string> written = files_of(p, again);
        try {
            const CompiledProgram q = parse_binary_program(again, path, reader(written), vta.vta.core);
            if (!(q.insns == p.insns) || q.image != p.image || q.insn_addr != p.insn_addr)
                fuzz::violated("a program written back reads as another program");
        } catch (const InputError& e) {
            fuzz::violated(std::string("a program written back is rejected: ") + e.what());
        }
    });
    return 0;
}
