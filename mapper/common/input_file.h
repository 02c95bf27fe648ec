#pragma once
// Reading an input file (configuration, workload, calibration) whole, with the errors a user
// can act on: a missing file, a folder given where a file is expected, a read error.
#include <string>
#include <vector>

namespace vp {

// Throws InputError "path: cannot open file" / "path: is a folder, expected <what>".
std::string read_input_file(const std::string& path, const std::string& what);

// The path a symbolic link named `path` leads to, following a chain of links (also when the last
// target does not exist yet); `path` itself when it is not a link. Throws InputError naming
// `option` for a loop of links.
std::string follow_symlinks(const std::string& path, const std::string& option);

// The file to write for an output given as `path` (with `option`, e.g. "--out"), checked before
// any work: `path` itself, or the target of the symbolic link(s) it names (a link is followed, not
// replaced). Throws InputError when that is a folder or an existing file that is not a regular
// file (a device, FIFO or socket), when its folder does not exist, or when it is one of the files
// the run reads, `inputs` (compared as files, so another name of the same file counts).
std::string output_file_target(const std::string& path, const std::string& option, const std::vector<std::string>& inputs = {});

}  // namespace vp
