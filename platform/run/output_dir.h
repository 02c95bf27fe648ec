#pragma once
// Output folder written atomically: files go to a temporary sibling folder OUT.incomplete-PID
// that is renamed to the final name only when the run succeeded, so a failed run never leaves
// outputs that look complete. A run killed before it could clean up leaves its temporary folder
// behind; the next run in the same parent folder removes those of processes that no longer
// exist on this machine (each temporary folder records its host and process id).
#include <string>
#include <vector>

namespace vp::run {

class OutputDir {
public:
    // Throws InputError (before creating anything) when `final_path` exists and is not a folder.
    explicit OutputDir(std::string final_path);
    ~OutputDir();  // removes the temporary folder unless commit() ran
    OutputDir(const OutputDir&) = delete;
    OutputDir& operator=(const OutputDir&) = delete;

    const std::string& temp_path() const { return m_temp; }
    std::string file(const std::string& name) const { return m_temp + "/" + name; }
    void write(const std::string& name, const std::string& content) const;
    // Replaces any previous folder of the final name with this run's outputs.
    void commit();
    // The stale temporary folders the constructor removed (for a note on the terminal).
    const std::vector<std::string>& removed_stale() const { return m_removed; }

    static constexpr const char* kOwnerFile = ".vp-owner";  // "HOST PID" inside the temporary folder

private:
    std::string m_final, m_temp;
    std::vector<std::string> m_removed;
    bool m_committed = false;
};

// Removes the NAME.incomplete-PID folders in `parent` whose process is gone: the PID is not a
// live process and the folder's owner file names this host (a folder written on another host of
// a shared file system, or without an owner file from another host, is left alone). Returns the
// paths removed.
std::vector<std::string> remove_stale_temp_dirs(const std::string& parent);

}  // namespace vp::run
