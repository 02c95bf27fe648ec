#pragma once
// Child processes for simulation in the loop: a SystemC kernel elaborates once per process,
// so every single-layer simulation of vp-calibrate and --refine is its own vp-run process.
#include <string>
#include <vector>

namespace vp::refine {

struct ChildJob {
    std::vector<std::string> argv;  // argv[0]: the program
    std::string log;                // stdout and stderr go here
};

// Runs the jobs, at most `parallel` at a time; exit codes in job order (-1: could not start,
// 128 + n: killed by signal n).
std::vector<int> run_children(const std::vector<ChildJob>& jobs, unsigned parallel);
// `requested` bounded by the cores of the machine (0: all cores).
unsigned parallel_limit(unsigned requested);
// A program next to the running executable (e.g. vp-run next to vp-map).
std::string sibling_program(const std::string& name);
// A fresh temporary directory (removed by remove_tree).
std::string make_temp_dir(const std::string& tag);
void remove_tree(const std::string& dir);

}  // namespace vp::refine
