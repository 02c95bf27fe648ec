#pragma once
// Command-line parsing shared by vp-run and vp-map: the two positional arguments CONFIG and
// WORKLOAD next to each tool's own options.
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "platform/config/number_text.h"
#include "platform/config/platform_spec.h"

namespace vp::run {

// Parses argv into `vm`; returns false (after printing "<prog>: error: ..." and the usage) on a
// command-line error, which the caller turns into exit code 2.
inline bool parse_cli_args(int argc, char** argv, const boost::program_options::options_description& desc,
                           std::string& config, std::string& workload, boost::program_options::variables_map& vm,
                           const char* prog, const char* usage) {
    namespace po = boost::program_options;
    po::options_description hidden;
    hidden.add_options()("config", po::value<std::string>(&config))("workload", po::value<std::string>(&workload));
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("config", 1).add("workload", 1);
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << prog << ": error: " << e.what() << "\n" << usage;
        return false;
    }
    return true;
}

// --refine K (vp-run, vp-map), read as text so that every wrong value gets the same message
// ("--refine 99999999999" overflowed program_options' int with its generic "invalid argument"):
// appends mapper.refine=K to `sets`, or prints "<prog>: error: ..." and returns false (exit 2).
inline bool parse_refine_arg(const std::string& text, const char* prog, std::vector<std::string>& sets) {
    constexpr std::int64_t kMaxRefine = config::MeshMapperConfig::kMaxRefine;
    std::int64_t k = 0;
    if (config::parse_int_text(text, 1, kMaxRefine, k) != config::NumberText::Ok) {
        std::cerr << prog << ": error: --refine: expected a number of candidates K >= 1, at most " << kMaxRefine
                  << ", found \"" << text << "\"\n";
        return false;
    }
    sets.push_back("mapper.refine=" + std::to_string(k));
    return true;
}

}  // namespace vp::run
