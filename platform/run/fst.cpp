#include "platform/run/fst.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace vp::run {

namespace {
std::string shell_quote(const std::string& s) {
    std::string o = "'";
    for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return o + "'";
}
}  // namespace

void convert_trace_to_fst(const std::string& dir) {
    const std::string vcd = dir + "/trace.vcd", fst = dir + "/trace.fst";
    const std::string cmd = "vcd2fst " + shell_quote(vcd) + " " + shell_quote(fst) + " >/dev/null 2>&1";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("vcd2fst failed on " + vcd);
    std::remove(vcd.c_str());
    const std::string gtkw = dir + "/trace.gtkw";
    std::ifstream in(gtkw);
    if (!in) return;
    std::ostringstream s;
    s << in.rdbuf();
    std::string t = s.str();
    const std::string from = "[dumpfile] \"trace.vcd\"";
    const auto p = t.find(from);
    if (p != std::string::npos) t.replace(p, from.size(), "[dumpfile] \"trace.fst\"");
    std::ofstream(gtkw, std::ios::binary) << t;
}

}  // namespace vp::run
