// vp-map CONFIG.yaml WORKLOAD.json [--out FILE] [--set key.path=value]... [--refine K] [--quiet] [--allow-unused]
// Runs the platform's mapper alone (no SystemC kernel): prints a table and writes
// mapping.json. Exit codes: 0 success, 1 internal error, 2 bad input.
#include <cstdio>
#include <fstream>
#include <iostream>

#include <boost/program_options.hpp>
#include <omp.h>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "mapper/common/json_text.h"
#include "platform/config/platform_spec.h"
#include "platform/mapping/map_workload.h"
#include <filesystem>

#include "platform/run/cli_args.h"
#include "platform/run/input_check.h"
#include "platform/run/import_cli.h"
#include "platform/workload/workload.h"
#include "vp_version.h"

namespace po = boost::program_options;
using namespace vp;

int main(int argc, char** argv) {
    std::string config, wl_path, out = "mapping.json";
    std::vector<std::string> sets;
    bool quiet = false, allow_unused = false;
    std::string refine;
    const char* usage =
        "usage: vp-map CONFIG.yaml WORKLOAD.json|MODEL.onnx [--out FILE] [--set key.path=value]... [--refine K]\n"
        "              [--quiet] [--allow-unused]\n";
    run::ImportCli onnx;
    po::options_description desc("options");
    desc.add_options()("help,h", "print this help and exit")("version", "print the version and exit")(
        "out,o", po::value<std::string>(&out), "mapping file to write (default: mapping.json)")(
        "set,s", po::value<std::vector<std::string>>(&sets)->composing(), "override a configuration value (repeatable)")(
        "quiet,q", po::bool_switch(&quiet), "do not print the table")(
        "allow-unused", po::bool_switch(&allow_unused), "accept --set of keys the chosen platform does not read")(
        "refine", po::value<std::string>(&refine),
        "simulate the K best candidates of every distinct layer shape on their own (child vp-run processes, "
        "sim.threads at a time) and keep the fastest (= --set mapper.refine=K)");
    onnx.add_to(desc);
    po::variables_map vm;
    if (!run::parse_cli_args(argc, argv, desc, config, wl_path, vm, "vp-map", usage)) return 2;
    if (vm.count("help")) {
        std::cout << usage << "\nMaps a network onto a platform (TSO for nmp, waving for mesh) without simulating.\n\n"
                  << desc;
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "vp-map " << VP_VERSION << "\n";
        return 0;
    }
    if (vm.count("refine") && !run::parse_refine_arg(refine, "vp-map", sets)) return 2;
    if (config.empty() || wl_path.empty()) {
        std::cerr << "vp-map: error: CONFIG and WORKLOAD are required\n" << usage;
        return 2;
    }
    try {
        onnx.check_applies(vm, wl_path);
        const std::string config_file = run::find_data_file(config), wl_file = run::find_data_file(wl_path);
        out = output_file_target(out, "--out", {config_file, wl_file});
        config::PlatformSpec spec = config::load_platform(config_file, sets, allow_unused);
        workload::Workload wl = workload::load_workload(wl_file, onnx.options(false));
        omp_set_num_threads(int(spec.sim.threads));
        if (wl.imported) {  // the imported network next to the mapping: vp-map CONFIG DIR/workload.json reproduces it
            const auto dir = std::filesystem::path(out).parent_path();
            const std::string wpath = (dir / "workload.json").string();
            std::ofstream f(wpath);
            f << wl.workload_text;
            if (!f) throw std::runtime_error("cannot write " + wpath);
            if (!quiet) std::cout << wl.import_summary << "workload written to " << wpath << "\n";
        }
        // On the platforms it maps (map_workload refuses the others), what vp-run refuses before it
        // maps: a workload of another kind, overrides the workload makes void, a network with
        // nothing for the mapper (an empty mapping.json and exit 0 before).
        if (spec.kind == config::PlatformKind::Nmp || spec.kind == config::PlatformKind::Mesh) {
            run::check_workload_kind(spec, wl);
            if (!allow_unused) run::check_overrides_for_workload(spec, wl, sets);
            run::check_mapped_layers(spec, wl);
        }
        platform::MappingReport rep = platform::map_workload(spec, wl);
        const std::string tmp = out + ".incomplete";
        {
            std::ofstream f(tmp);
            f << json_output_text(rep.json, 2) << "\n";
            if (!f) throw std::runtime_error("cannot write " + tmp);
        }
        if (std::rename(tmp.c_str(), out.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp + " to " + out);
        if (!quiet) {
            // The calibration file the time model used (one per DRAM preset, docs/configuration.md).
            const std::string cal = config::calibration_in_use(spec);
            std::cout << rep.table << (cal == "none" ? std::string() : "calibration: " + cal + "\n") << "mapping written to "
                      << out << "\n";
        }
        return 0;
    } catch (const InputError& e) {
        std::cerr << "vp-map: error: " << e.what() << "\n";
        return 2;
    } catch (const SimulationError& e) {
        std::cerr << "vp-map: simulation failed: " << e.what() << "\n";
        return 3;
    } catch (const std::exception& e) {
        std::cerr << "vp-map: internal error: " << e.what() << "\n";
        return 1;
    }
}
