// Fuzz target: an ONNX model (protobuf bytes) through the importer (libonnx checker and shape
// inference, folding, fusion, conversion to layers), then the imported network through the
// workload reader as vp-run does with a .onnx workload.
#include "fuzz/fuzz_target.h"
#include "mapper/workload/network.h"
#include "platform/import/onnx_import.h"
#include "platform/workload/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vp;
    const std::string path = fuzz::scratch_file("model.onnx", fuzz::text(data, size));
    fuzz::expect_clean([&] {
        import::ImportOptions opt;
        opt.allow_unsupported = size % 2 == 1;  // both paths: the list of unsupported nodes, and the rest
        import::ImportResult r = import::import_onnx(path, opt);
        if (r.stats.values_present) {
            opt.need_values = true;  // as for the vta platform, which computes with the weights
            r = import::import_onnx(path, opt);
        }
        const std::string text = mapper::network_json_text(r.workload_json());
        try {
            (void)workload::parse_workload(text, path + ".json");
        } catch (const InputError& e) {
            fuzz::violated(std::string("the imported network does not read as a workload: ") + e.what() + "\n" + text);
        }
    });
    return 0;
}
