#include "platform/refine/child_runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <thread>

#include "mapper/common/errors.h"

extern char** environ;

namespace vp::refine {

unsigned parallel_limit(unsigned requested) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return requested == 0 ? cores : std::min(requested, cores);
}

std::string sibling_program(const std::string& name) {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("cannot locate the running executable: " + ec.message());
    return (self.parent_path() / name).string();
}

std::string make_temp_dir(const std::string& tag) {
    const char* base = std::getenv("TMPDIR");
    const bool from_env = base && *base;
    std::string tmpl = std::string(from_env ? base : "/tmp") + "/vp-" + tag + "-XXXXXX";
    if (!::mkdtemp(tmpl.data())) {
        // The folder comes from the environment (or is the system's /tmp): a setting to fix, not a fault.
        const std::string why = std::strerror(errno);
        throw InputError("cannot create a temporary folder for the child simulations in " +
                         std::string(from_env ? std::string("$TMPDIR (") + base + ")" : std::string("/tmp")) + ": " +
                         why + (from_env ? " (set TMPDIR to a writable folder)" : ""));
    }
    return tmpl;
}

void remove_tree(const std::string& dir) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

namespace {

pid_t spawn(const ChildJob& j) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, j.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char*> argv;
    for (const auto& a : j.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc == 0 ? pid : -1;
}

}  // namespace

std::vector<int> run_children(const std::vector<ChildJob>& jobs, unsigned parallel) {
    std::vector<int> rc(jobs.size(), -1);
    std::map<pid_t, std::size_t> running;
    std::size_t next = 0;
    const std::size_t limit = std::max(1u, parallel);
    while (next < jobs.size() || !running.empty()) {
        while (next < jobs.size() && running.size() < limit) {
            const pid_t pid = spawn(jobs[next]);
            if (pid > 0) running.emplace(pid, next);
            ++next;
        }
        if (running.empty()) continue;
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, 0);
        auto it = running.find(pid);
        if (it == running.end()) continue;  // not ours
        rc[it->second] = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        running.erase(it);
    }
    return rc;
}

}  // namespace vp::refine
