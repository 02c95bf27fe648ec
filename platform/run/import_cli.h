#pragma once
// The ONNX import options vp-run and vp-map accept next to a MODEL.onnx workload (the same as
// vp-import's).
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "mapper/common/errors.h"
#include "platform/import/onnx_import.h"

namespace vp::run {

struct ImportCli {
    std::vector<std::string> shapes;
    int batch = 0, precision = 0;
    bool allow_unsupported = false;

    void add_to(boost::program_options::options_description& desc) {
        namespace po = boost::program_options;
        desc.add_options()("input-shape", po::value<std::vector<std::string>>(&shapes)->composing(),
                           "ONNX workload: static shape of an input, NAME=1x3x224x224 (repeatable)")(
            "batch", po::value<int>(&batch), "ONNX workload: batch size (dimension 0 of every input)")(
            "precision", po::value<int>(&precision), "ONNX workload: bits of a float model, 8 or 16 (default 8)")(
            "allow-unsupported", po::bool_switch(&allow_unsupported), "ONNX workload: skip unsupported nodes (listed)");
    }

    // Throws vp::InputError when one of the options above was given and `workload` is not an
    // .onnx model: they would be ignored without a word (a JSON network sets "batch" and
    // "precision" itself).
    void check_applies(const boost::program_options::variables_map& vm, const std::string& workload) const {
        if (import::is_onnx_path(workload)) return;
        for (const std::string opt : {"input-shape", "batch", "precision", "allow-unsupported"}) {
            if (!vm.count(opt) || vm[opt].defaulted()) continue;
            const std::string own = opt == "batch" || opt == "precision" ? " (a JSON network sets \"" + opt + "\" itself)" : "";
            throw InputError("--" + opt + ": applies to .onnx workloads only, and " + workload + " is not one" + own);
        }
    }

    // Throws vp::InputError for a bad --input-shape / --batch.
    import::ImportOptions options(bool need_values) const {
        import::ImportOptions o;
        o.input_shapes = import::parse_input_shapes(shapes);
        if (batch < 0) throw InputError("--batch " + std::to_string(batch) + ": expected 1..1024");
        o.batch = batch;
        o.precision = precision;
        o.allow_unsupported = allow_unsupported;
        o.need_values = need_values;
        return o;
    }
};

}  // namespace vp::run
