// vp-import MODEL.onnx [-o WORKLOAD.json] [--input-shape NAME=1x3x224x224]... [--batch N]
//           [--precision 8|16] [--allow-unsupported] [--quiet]
// Turns an ONNX model into a network workload (docs/workload-format.md) with its graph kept.
// Exit codes: 0 success, 1 internal error, 2 bad input (file, model, unsupported operators).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <boost/program_options.hpp>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "platform/import/onnx_import.h"
#include "vp_version.h"

namespace po = boost::program_options;
using namespace vp;

namespace {
const char* kUsage =
    "usage: vp-import MODEL.onnx [-o WORKLOAD.json] [--input-shape NAME=1x3x224x224]... [--batch N]\n"
    "                 [--precision 8|16] [--allow-unsupported] [--quiet]\n";
}

int main(int argc, char** argv) {
    std::string model, out;
    std::vector<std::string> shapes;
    int batch = 0, precision = 0;
    bool allow = false, quiet = false;
    po::options_description desc("options");
    desc.add_options()("help,h", "print this help and exit")("version", "print the version and exit")(
        "output,o", po::value<std::string>(&out), "workload file to write (default: MODEL with .json)")(
        "input-shape", po::value<std::vector<std::string>>(&shapes)->composing(),
        "static shape of a model input, NAME=1x3x224x224 (repeatable)")(
        "batch", po::value<int>(&batch), "batch size: dimension 0 of every input")(
        "precision", po::value<int>(&precision), "data width in bits of a float model, 8 or 16 (default 8)")(
        "allow-unsupported", po::bool_switch(&allow), "skip unsupported nodes (listed in the workload) instead of failing")(
        "quiet,q", po::bool_switch(&quiet), "no summary");
    po::options_description hidden;
    hidden.add_options()("model", po::value<std::string>(&model));
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("model", 1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "vp-import: error: " << e.what() << "\n" << kUsage;
        return 2;
    }
    if (vm.count("help")) {
        std::cout << kUsage << "\nImports an ONNX model (opsets 1-22; 1-6 are read as opset 7, 18-22 as opset 17) as a network workload for vp-run / vp-map.\n\n" << desc;
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "vp-import " << VP_VERSION << "\n";
        return 0;
    }
    if (model.empty()) {
        std::cerr << "vp-import: error: MODEL is required\n" << kUsage;
        return 2;
    }
    if (out.empty()) out = std::filesystem::path(model).replace_extension(".json").string();
    try {
        out = output_file_target(out, "--output", {model});
        import::ImportOptions opt;
        opt.input_shapes = import::parse_input_shapes(shapes);
        if (vm.count("batch") && batch < 1) throw InputError("--batch " + std::to_string(batch) + ": expected 1..1024");
        opt.batch = batch;
        opt.precision = precision;
        opt.allow_unsupported = allow;
        const import::ImportResult res = import::import_onnx(model, opt);
        const std::string tmp = out + ".incomplete";
        {
            std::ofstream f(tmp);
            f << mapper::network_json_text(res.workload_json());
            if (!f) throw std::runtime_error("cannot write " + tmp);
        }
        if (std::rename(tmp.c_str(), out.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp + " to " + out);
        if (!quiet) std::cout << res.summary() << "workload written to " << out << "\n";
        return 0;
    } catch (const InputError& e) {
        std::cerr << "vp-import: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "vp-import: internal error: " << e.what() << "\n";
        return 1;
    }
}
