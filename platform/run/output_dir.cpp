#include "platform/run/output_dir.h"

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <cstring>

#include <unistd.h>

#include "mapper/common/errors.h"

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
}  // namespace

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

OutputDir::OutputDir(std::string final_path) : m_final(std::move(final_path)) {
    while (m_final.size() > 1 && m_final.back() == '/') m_final.pop_back();
    if (m_final.empty()) throw InputError("--out: empty path");
    std::error_code ec;
    if (fs::exists(m_final, ec) && !fs::is_directory(m_final, ec))
        throw InputError("--out " + m_final + ": exists and is not a folder (give a folder path)");
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

void OutputDir::commit() {
    std::error_code ec;
    fs::remove(m_temp + "/" + kOwnerFile, ec);
    fs::remove_all(m_final, ec);
    fs::rename(m_temp, m_final, ec);
    if (ec) throw std::runtime_error("cannot rename " + m_temp + " to " + m_final + ": " + ec.message());
    m_committed = true;
}

}  // namespace vp::run
