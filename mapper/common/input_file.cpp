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

std::string follow_symlinks(const std::string& path, const std::string& option) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p = path;
    for (int hops = 0; fs::is_symlink(p, ec); ++hops) {
        if (hops == 40) throw InputError(option + " " + path + ": too many levels of symbolic links");
        const fs::path t = fs::read_symlink(p, ec);
        if (ec) throw InputError(option + " " + path + ": cannot read the symbolic link " + p.string() + ": " + ec.message());
        p = t.is_absolute() ? t : p.parent_path() / t;
    }
    return p.string();
}

std::string output_file_target(const std::string& path, const std::string& option, const std::vector<std::string>& inputs) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (path.empty()) throw InputError(option + ": expected a file path, found an empty string");
    // A symbolic link is followed (also one whose target does not exist yet): the written file
    // replaces the link's target, as a shell's redirection would, not the link itself.
    const fs::path p = follow_symlinks(path, option);
    const std::string shown = p.string() == path ? path : path + " (a link to " + p.string() + ")";
    const fs::file_status st = fs::status(p, ec);
    if (fs::is_directory(st)) throw InputError(option + " " + shown + ": is a folder, expected a file path");
    // Written to a temporary file and renamed over it: a device, FIFO or socket would be replaced
    // by a plain file (as root, /dev/null too).
    if (fs::exists(st) && !fs::is_regular_file(st))
        throw InputError(option + " " + shown + ": exists and is not a regular file (a device, FIFO or socket); give a file path");
    const fs::path parent = p.parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw InputError(option + " " + shown + ": the folder " + parent.string() + " does not exist");
    for (const std::string& in : inputs)
        if (!in.empty() && fs::equivalent(p, in, ec))  // false (with ec set) unless both exist
            throw InputError(option + " " + shown + ": is the input file " + in +
                             ", which writing the output would replace; choose another path");
    return p.string();
}

}  // namespace vp
