#pragma once
// Command-line parsing shared by vp-run and vp-map: the two positional arguments CONFIG and
// WORKLOAD next to each tool's own options.
#include <iostream>
#include <string>

#include <boost/program_options.hpp>

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

}  // namespace vp::run
