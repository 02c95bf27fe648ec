#pragma once
// Reading an input file (configuration, workload, calibration) whole, with the errors a user
// can act on: a missing file, a folder given where a file is expected, a read error.
#include <string>
#include <vector>

namespace vp {

// Throws InputError "path: cannot open file" / "path: is a folder, expected <what>".
std::string read_input_file(const std::string& path, const std::string& what);

// Checks, before any work, that a file can be written at `path` (given with `option`, e.g.
// "--out"): not a folder, its folder exists, and not one of the files the run reads, `inputs`
// (compared as files, so another name of the same file counts). Throws InputError "--out d: is
// a folder, ...".
void check_output_file(const std::string& path, const std::string& option, const std::vector<std::string>& inputs = {});

}  // namespace vp
