#include "platform/run/output_dir.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"

namespace fs = std::filesystem;

namespace vp::run {

namespace {
constexpr const char* kTempMark = ".incomplete-";

std::string host_name() {
    char buf[256] = {0};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "?";
    return buf;
}

bool process_gone(long pid) {
    if (pid <= 0 || pid == long(::getpid())) return false;
    return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;  // EPERM: it exists, owned by someone else
}

// The PID of "NAME.incomplete-PID", or -1.
long temp_pid(const std::string& name) {
    const auto at = name.rfind(kTempMark);
    if (at == std::string::npos || at == 0) return -1;
    const std::string digits = name.substr(at + std::strlen(kTempMark));
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::stol(digits);
}

// True when `p` is `dir` or lies below it (both canonical).
bool within(const fs::path& p, const fs::path& dir) {
    return std::mismatch(dir.begin(), dir.end(), p.begin(), p.end()).first == dir.end();
}

// "a, b, c, ..." of the first `n` names.
std::string name_list(const std::vector<std::string>& names, std::size_t n = 3) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < n; ++i) s += (i ? ", " : "") + names[i];
    return names.size() > n ? s + ", ..." : s;
}

std::string entry_name(const fs::directory_entry& e, const fs::path& rel) {
    std::error_code ec;
    return rel.generic_string() + (fs::is_directory(e.symlink_status(ec)) ? "/" : "");
}

// The top-level entries of `dir`, sorted (folders with a trailing '/').
std::vector<std::string> top_entries(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        names.push_back(entry_name(*it, it->path().filename()));
    std::sort(names.begin(), names.end());
    return names;
}

// The files a run of a version without run.json's "outputs" may have written; its folders
// outputs/ and program/ count as a whole.
const std::set<std::string>& earlier_outputs() {
    static const std::set<std::string> names{
        "report.html", "stats.json", "stats.csv",   "config.yaml", "run.json",   "mapping.json",
        "layers.json", "timeseries.csv", "timeseries.columns.json", "timeline.json", "trace.vcd",
        "trace.fst",   "trace.gtkw", "workload.json", "outputs/", "program/"};
    return names;
}

std::string without_trailing_slashes(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return path;
}
}  // namespace

void check_replaceable(const std::string& dir, const std::vector<std::string>& inputs) {
    std::error_code ec;
    const std::string opt = "--out " + dir;
    if (!fs::exists(dir, ec)) return;
    if (!fs::is_directory(dir, ec)) throw InputError(opt + ": exists and is not a folder (give a folder path)");
    const fs::path canon = fs::canonical(dir, ec);
    if (ec) throw InputError(opt + ": cannot resolve the path: " + ec.message());
    const fs::path cwd = fs::current_path(ec);
    if (!ec && within(fs::canonical(cwd, ec), canon))
        throw InputError(opt + ": " + (fs::equivalent(cwd, canon, ec) ? "is" : "holds") +
                         " the working folder, which the run would replace; choose another folder");
    for (const std::string& in : inputs) {
        const fs::path p = fs::canonical(in, ec);
        if (!ec && within(p, canon))
            throw InputError(opt + ": holds the input " + in + ", which the run would delete; choose another folder");
    }
    const std::vector<std::string> top = top_entries(canon);
    if (top.empty()) return;
    // An earlier run's folder: its run.json lists what it wrote.
    nlohmann::json manifest;
    if (std::ifstream f(canon / OutputDir::kManifestFile); f) manifest = nlohmann::json::parse(f, nullptr, false);
    if (!manifest.is_object())
        throw InputError(opt + ": exists and is not a vp-run output folder (it holds " + name_list(top) +
                         "); choose another folder or remove it");
    std::vector<std::string> foreign;
    if (manifest.contains("outputs") && manifest["outputs"].is_array()) {
        std::set<std::string> written;
        for (const auto& n : manifest["outputs"])
            if (n.is_string()) written.insert(n.get<std::string>());
        for (fs::recursive_directory_iterator it(canon, ec), end; !ec && it != end && foreign.size() <= 3;
             it.increment(ec)) {
            const std::string name = entry_name(*it, it->path().lexically_relative(canon));
            if (written.count(name)) continue;
            foreign.push_back(name);
            if (it->is_directory(ec)) it.disable_recursion_pending();
        }
        if (ec) throw InputError(opt + ": cannot read the folder: " + ec.message());
    } else {
        for (const std::string& name : top)
            if (!earlier_outputs().count(name)) foreign.push_back(name);
    }
    if (!foreign.empty())
        throw InputError(opt + ": holds files that vp-run did not write (" + name_list(foreign) +
                         "), which replacing the folder would delete; choose another folder or move them away");
}

std::vector<std::string> remove_stale_temp_dirs(const std::string& parent) {
    std::vector<std::string> removed;
    std::error_code ec;
    const std::string here = host_name();
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const long pid = temp_pid(it->path().filename().string());
        std::error_code ec2;
        if (pid < 0 || !it->is_directory(ec2) || !process_gone(pid)) continue;
        std::ifstream owner(it->path() / OutputDir::kOwnerFile);
        std::string host;
        long owner_pid = -1;
        // No owner file: the folder is older than this rule; it is ours to judge only if its
        // PID is gone here, which process_gone() already said. With one, the host must match.
        if (owner && !(owner >> host >> owner_pid && host == here && owner_pid == pid)) continue;
        if (fs::remove_all(it->path(), ec2) != static_cast<std::uintmax_t>(-1) && !ec2)
            removed.push_back(it->path().string());
    }
    return removed;
}

// The folder written for --out: a symbolic link is followed (its target becomes the run's folder,
// the link stays), so that a link to a folder on another disk keeps the outputs there.
static std::string out_target(std::string path) {
    path = without_trailing_slashes(std::move(path));
    if (path.empty()) throw InputError("--out: empty path");
    return follow_symlinks(path, "--out");
}

void OutputDir::check(std::string final_path, const std::vector<std::string>& inputs) {
    check_replaceable(out_target(std::move(final_path)), inputs);
}

OutputDir::OutputDir(std::string final_path, std::vector<std::string> inputs)
    : m_final(out_target(std::move(final_path))), m_inputs(std::move(inputs)) {
    check(m_final, m_inputs);
    std::error_code ec;
    const fs::path parent = fs::path(m_final).parent_path();
    const std::string parent_dir = parent.empty() ? "." : parent.string();
    if (fs::is_directory(parent_dir, ec)) m_removed = remove_stale_temp_dirs(parent_dir);
    m_temp = m_final + kTempMark + std::to_string(::getpid());
    fs::remove_all(m_temp, ec);
    fs::create_directories(m_temp, ec);
    if (ec) throw InputError("--out " + m_final + ": cannot create " + m_temp + ": " + ec.message());
    std::ofstream owner(m_temp + "/" + kOwnerFile);
    owner << host_name() << ' ' << ::getpid() << '\n';
}

OutputDir::~OutputDir() {
    if (!m_committed) {
        std::error_code ec;
        fs::remove_all(m_temp, ec);
    }
}

void OutputDir::write(const std::string& name, const std::string& content) const {
    std::ofstream f(file(name), std::ios::binary);
    f << content;
    if (!f) throw std::runtime_error("cannot write " + file(name));
}

std::vector<std::string> OutputDir::listing(const std::vector<std::string>& to_come) const {
    std::vector<std::string> names(to_come);
    std::error_code ec;
    const fs::path root(m_temp);
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename() != kOwnerFile) names.push_back(entry_name(*it, it->path().lexically_relative(root)));
    if (ec) throw std::runtime_error("cannot list " + m_temp + ": " + ec.message());
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

// The temporary folder becomes `target` (checked again: the run may have taken hours), replacing
// an earlier run's folder of that name.
void OutputDir::move_to(const std::string& target) {
    check_replaceable(target, m_inputs);
    std::error_code ec;
    fs::remove(m_temp + "/" + kOwnerFile, ec);
    fs::remove_all(target, ec);
    fs::rename(m_temp, target, ec);
    if (ec) throw std::runtime_error("cannot rename " + m_temp + " to " + target + ": " + ec.message());
    m_committed = true;
}

void OutputDir::commit() {
    move_to(m_final);
    const std::string partial = m_final + kPartialSuffix;
    std::error_code ec;
    if (fs::exists(partial, ec)) {
        try {
            check_replaceable(partial, m_inputs);
            fs::remove_all(partial, ec);
        } catch (const InputError&) {
            // Not an earlier run's folder: left alone.
        }
    }
}

std::string OutputDir::commit_partial() {
    const std::string partial = m_final + kPartialSuffix;
    move_to(partial);
    return partial;
}

void OutputDir::discard() {
    if (m_committed) return;
    std::error_code ec;
    fs::remove_all(m_temp, ec);
    m_committed = true;
}

}  // namespace vp::run
