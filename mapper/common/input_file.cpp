#include "mapper/common/input_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "mapper/common/errors.h"

namespace vp {

std::string read_input_file(const std::string& path, const std::string& what) {
    std::error_code ec;
    // A folder opens as a stream on Linux and reads as empty: say what it is instead of a
    // syntax error at 1:1.
    if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a folder, expected " + what);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open file");
    std::stringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw InputError(path + ": read error");
    return ss.str();
}

void check_output_file(const std::string& path, const std::string& option, const std::vector<std::string>& inputs) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (path.empty()) throw InputError(option + ": expected a file path, found an empty string");
    if (fs::is_directory(path, ec)) throw InputError(option + " " + path + ": is a folder, expected a file path");
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw InputError(option + " " + path + ": the folder " + parent.string() + " does not exist");
    for (const std::string& in : inputs)
        if (fs::equivalent(path, in, ec))  // false (with ec set) unless both exist
            throw InputError(option + " " + path + ": is the input file " + in +
                             ", which writing the output would replace; choose another path");
}

}  // namespace vp
