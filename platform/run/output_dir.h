#pragma once
// Output folder written atomically: files go to a temporary sibling folder that is
// renamed to the final name only when the run succeeded, so a failed run never
// leaves outputs that look complete.
#include <string>

namespace vp::run {

class OutputDir {
public:
    explicit OutputDir(std::string final_path);
    ~OutputDir();  // removes the temporary folder unless commit() ran
    OutputDir(const OutputDir&) = delete;
    OutputDir& operator=(const OutputDir&) = delete;

    const std::string& temp_path() const { return m_temp; }
    std::string file(const std::string& name) const { return m_temp + "/" + name; }
    void write(const std::string& name, const std::string& content) const;
    // Replaces any previous folder of the final name with this run's outputs.
    void commit();

private:
    std::string m_final, m_temp;
    bool m_committed = false;
};

}  // namespace vp::run
