#pragma once
// Output folder written atomically: files go to a temporary sibling folder OUT.incomplete-PID
// that is renamed to the final name only when the run succeeded, so a failed run never leaves
// outputs that look complete. A run killed before it could clean up leaves its temporary folder
// behind; the next run in the same parent folder removes those of processes that no longer
// exist on this machine (each temporary folder records its host and process id).
//
// An existing OUT is replaced only when nothing of the user's would go with it: OUT is empty, or
// it is an earlier run's output folder whose run.json lists everything OUT holds ("outputs",
// written by listing()). The working folder, a folder that holds it and a folder that holds one
// of the run's input files are never replaced.
#include <string>
#include <vector>

namespace vp::run {

class OutputDir {
public:
    // Throws InputError (before creating anything) when `final_path` exists and is not a folder
    // or may not be replaced (check_replaceable), with `inputs` the files the run reads.
    explicit OutputDir(std::string final_path, std::vector<std::string> inputs = {});
    // The constructor's checks of `final_path`, without creating or removing anything (vp-run
    // --check --out DIR).
    static void check(std::string final_path, const std::vector<std::string>& inputs);
    ~OutputDir();  // removes the temporary folder unless commit() ran
    OutputDir(const OutputDir&) = delete;
    OutputDir& operator=(const OutputDir&) = delete;

    const std::string& temp_path() const { return m_temp; }
    std::string file(const std::string& name) const { return m_temp + "/" + name; }
    void write(const std::string& name, const std::string& content) const;
    // Every entry of the temporary folder relative to it (folders with a trailing '/'), with
    // `to_come` (files still to be written) added, sorted: the "outputs" list of run.json.
    std::vector<std::string> listing(const std::vector<std::string>& to_come) const;
    // Replaces any previous folder of the final name with this run's outputs (checked again:
    // the run may have taken hours), and removes FINAL.partial when an earlier run left one that
    // may be replaced (this run supersedes it).
    void commit();
    // A run that failed or was interrupted: its outputs so far go to FINAL.partial instead of
    // FINAL (the same rules for replacing an earlier folder of that name), so that nothing that
    // looks complete is written. Returns that path; throws InputError when it may not be replaced.
    std::string commit_partial();
    // Removes the temporary folder now, as the destructor would (before a process dies by a signal).
    void discard();
    // The stale temporary folders the constructor removed (for a note on the terminal).
    const std::vector<std::string>& removed_stale() const { return m_removed; }

    static constexpr const char* kOwnerFile = ".vp-owner";  // "HOST PID" inside the temporary folder
    static constexpr const char* kManifestFile = "run.json";  // its "outputs": what the run wrote
    static constexpr const char* kPartialSuffix = ".partial";  // commit_partial()

private:
    void move_to(const std::string& target);
    std::string m_final, m_temp;
    std::vector<std::string> m_inputs;
    std::vector<std::string> m_removed;
    bool m_committed = false;
};

// Throws InputError "--out DIR: ..." unless `dir` may be replaced by a run's outputs: it does
// not exist, or it is a folder that is empty or holds only what an earlier run wrote (its
// run.json's "outputs"; for a folder of a version before that list, only the file names
// vp-run writes), and it is neither the working folder nor one of its parents nor a folder that
// holds one of `inputs`.
void check_replaceable(const std::string& dir, const std::vector<std::string>& inputs);

// Removes the NAME.incomplete-PID folders in `parent` whose process is gone: the PID is not a
// live process and the folder's owner file names this host (a folder written on another host of
// a shared file system, or without an owner file from another host, is left alone). Returns the
// paths removed.
std::vector<std::string> remove_stale_temp_dirs(const std::string& parent);

}  // namespace vp::run
