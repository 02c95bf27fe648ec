#include "platform/run/output_dir.h"

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "mapper/common/errors.h"

namespace fs = std::filesystem;

namespace vp::run {

OutputDir::OutputDir(std::string final_path) : m_final(std::move(final_path)) {
    while (m_final.size() > 1 && m_final.back() == '/') m_final.pop_back();
    if (m_final.empty()) throw InputError("--out: empty path");
    m_temp = m_final + ".incomplete-" + std::to_string(::getpid());
    std::error_code ec;
    fs::remove_all(m_temp, ec);
    fs::create_directories(m_temp, ec);
    if (ec) throw InputError("--out " + m_final + ": cannot create " + m_temp + ": " + ec.message());
    if (fs::exists(m_final) && !fs::is_directory(m_final))
        throw InputError("--out " + m_final + ": exists and is not a folder");
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
    fs::remove_all(m_final, ec);
    fs::rename(m_temp, m_final, ec);
    if (ec) throw std::runtime_error("cannot rename " + m_temp + " to " + m_final + ": " + ec.message());
    m_committed = true;
}

}  // namespace vp::run
