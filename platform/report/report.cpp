#include "platform/report/report.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "mapper/common/errors.h"
#include "mapper/common/json_text.h"

namespace vp::report {

namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    // Chunk by chunk: `ostringstream << rdbuf()` stops silently when it cannot grow, which
    // handed a truncated file on as if complete.
    std::string s;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) s.append(buf, std::size_t(in.gcount()));
    if (in.bad()) throw InputError(path + ": read error");
    return s;
}

std::string html_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
        case '&': o += "&amp;"; break;
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '"': o += "&quot;"; break;
        default: o += c;
        }
    }
    return o;
}

std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool q = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (q) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"') {
                q = false;
            } else {
                cur += c;
            }
        } else if (c == '"') {
            q = true;
        } else if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else if (c != '\r') {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::string render_page(const std::string& template_name, const std::string& title, const std::string& static_html,
                        const nlohmann::json& data) {
    std::string page = asset(template_name);
    if (page.empty()) throw std::runtime_error("report: the page template is missing from this build");
    auto put = [&page](const std::string& key, const std::string& value) {
        const auto p = page.find(key);
        if (p == std::string::npos) throw std::runtime_error("report: template without " + key);
        page.replace(p, key.size(), value);
    };
    // JSON inside <script>: "</" would end the element early.
    std::string js = json_output_text(data);
    for (std::size_t p = 0; (p = js.find("</", p)) != std::string::npos; p += 3) js.replace(p, 2, "<\\/");
    // The shared head first (it holds the library placeholders); then the placeholders from the
    // last to the first, so that no inserted text is searched.
    put("<!--VP_HEAD-->", asset("page_head"));
    put("/*VP_DATA*/", js);
    put("<!--VP_STATIC-->", static_html);
    put("/*VP_VEGA_EMBED*/", asset("vega_embed"));
    put("/*VP_VEGA_LITE*/", asset("vega_lite"));
    put("/*VP_VEGA*/", asset("vega"));
    put("/*VP_TITLE*/", html_escape(title));
    return page;
}

void write_report(const std::string& dir) {
    if (!fs::exists(fs::path(dir) / "stats.json"))
        throw InputError(dir + ": not a run folder (no stats.json) and not a sweep folder (no sweep.csv)");
    const RunReport r = build_run_report(dir);
    const std::string page = render_page("template", r.title, r.html, r.data);
    std::ofstream out(fs::path(dir) / "report.html", std::ios::binary);
    out << page;
    if (!out) throw std::runtime_error("cannot write " + (fs::path(dir) / "report.html").string());
}

bool is_sweep_folder(const std::string& dir) { return fs::exists(fs::path(dir) / "sweep.csv"); }

}  // namespace vp::report
