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

}  // namespace vp
