#include "models/common/trace.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "mapper/common/errors.h"

namespace vp::trace {

namespace {
std::string vcd_id(std::size_t n) {
    // Printable identifier codes '!'..'~' (base 94), as VCD allows.
    std::string id;
    do {
        id += static_cast<char>('!' + n % 94);
        n /= 94;
    } while (n);
    return id;
}

// Dotted names split into VCD scopes; a component keeps its brackets ("router[1][0]"), which
// GTKWave shows and finds as written, so that VCD, .gtkw and statistics share one name.
std::string vcd_component(const std::string& s) { return s; }

std::vector<std::string> split_path(const std::string& name) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : name) {
        if (c == '.') {
            parts.push_back(vcd_component(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(vcd_component(cur));
    return parts;
}
}  // namespace

void TraceParams::validate(const std::string& prefix) const {
    if (start_ns < 0) throw InputError(prefix + ".start_ns: must be >= 0 (ns)");
    if (end_ns >= 0 && end_ns < start_ns) throw InputError(prefix + ".end_ns: must be >= start_ns, or negative for no end (ns)");
    for (const auto& s : signals)
        if (s.empty()) throw InputError(prefix + ".signals: empty pattern");
}

bool Tracer::glob_match(const char* p, const char* t) {
    // '*' any run, '?' one character; iterative with one backtrack point.
    const char *star = nullptr, *ss = nullptr;
    while (*t) {
        if (*p == '?' || *p == *t) {
            ++p;
            ++t;
        } else if (*p == '*') {
            star = p++;
            ss = t;
        } else if (star) {
            p = star + 1;
            t = ++ss;
        } else {
            return false;
        }
    }
    while (*p == '*') ++p;
    return *p == 0;
}

Tracer::Tracer(const TraceParams& p)
    : m_params(p),
      m_start_ps(static_cast<std::uint64_t>(p.start_ns * 1000.0 + 0.5)),
      m_end_ps(p.end_ns < 0 ? ~std::uint64_t(0) : static_cast<std::uint64_t>(p.end_ns * 1000.0 + 0.5)) {}

Tracer::~Tracer() {
    if (m_file) {
        flush();
        std::fclose(m_file);
    }
}

Signal* Tracer::add(const std::string& name, unsigned width, Display display) {
    if (!m_params.enabled) return nullptr;
    if (!m_params.signals.empty()) {
        m_matches.resize(m_params.signals.size(), 0);
        bool ok = false;
        for (std::size_t i = 0; i < m_params.signals.size(); ++i)
            if (glob_match(m_params.signals[i].c_str(), name.c_str())) {
                ok = true;
                ++m_matches[i];
            }
        if (!ok) return nullptr;
    }
    m_signals.emplace_back(new Signal(*this, name, std::max(1u, width), vcd_id(m_signals.size()), display));
    return m_signals.back().get();
}

void Tracer::open(const std::string& vcd_path) {
    if (!m_params.enabled) return;
    m_file = std::fopen(vcd_path.c_str(), "wb");
    if (!m_file) throw InputError(vcd_path + ": cannot open for writing");
    m_buf += "$date\n  (deterministic output: no date)\n$end\n$version\n  cnn-vp VCD writer\n$end\n";
    m_buf += "$timescale 1ps $end\n";
    // Scopes: signals sorted by path so that each module is one scope block.
    std::vector<const Signal*> sorted;
    for (auto& s : m_signals) sorted.push_back(s.get());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Signal* a, const Signal* b) { return split_path(a->name()) < split_path(b->name()); });
    std::vector<std::string> open_scopes;
    for (const Signal* s : sorted) {
        auto parts = split_path(s->name());
        std::vector<std::string> scopes(parts.begin(), parts.end() - 1);
        std::size_t common = 0;
        while (common < open_scopes.size() && common < scopes.size() && open_scopes[common] == scopes[common]) ++common;
        while (open_scopes.size() > common) {
            m_buf += "$upscope $end\n";
            open_scopes.pop_back();
        }
        for (std::size_t i = common; i < scopes.size(); ++i) {
            m_buf += "$scope module " + scopes[i] + " $end\n";
            open_scopes.push_back(scopes[i]);
        }
        m_buf += "$var wire " + std::to_string(s->width()) + " " + s->m_id + " " + parts.back();
        if (s->width() > 1) m_buf += " [" + std::to_string(s->width() - 1) + ":0]";
        m_buf += " $end\n";
    }
    while (!open_scopes.empty()) {
        m_buf += "$upscope $end\n";
        open_scopes.pop_back();
    }
    m_buf += "$enddefinitions $end\n";
    flush();
}

void Tracer::write_value(const Signal& s) {
    if (s.m_width == 1) {
        m_buf += (s.m_value & 1) ? '1' : '0';
        m_buf += s.m_id;
        m_buf += '\n';
        return;
    }
    m_buf += 'b';
    std::uint64_t v = s.m_value;
    unsigned w = std::min(s.m_width, 64u);
    int top = 63;
    while (top > 0 && !((v >> top) & 1)) --top;
    for (int b = std::min<int>(top, int(w) - 1); b >= 0; --b) m_buf += ((v >> b) & 1) ? '1' : '0';
    m_buf += ' ';
    m_buf += s.m_id;
    m_buf += '\n';
}

void Tracer::begin_window(std::uint64_t time_ps) {
    m_in_window = true;
    m_last_time = time_ps;
    m_buf += "#" + std::to_string(time_ps) + "\n$dumpvars\n";
    for (auto& s : m_signals) {
        write_value(*s);
        s->m_dumped = true;
    }
    m_buf += "$end\n";
}

void Tracer::emit(Signal& s, std::uint64_t time_ps) {
    if (!m_file || m_done) return;
    if (time_ps < m_start_ps) return;  // value kept; dumped when the window opens
    if (time_ps > m_end_ps) {
        if (!m_in_window) begin_window(m_start_ps);
        if (m_last_time != m_end_ps) m_buf += "#" + std::to_string(m_end_ps) + "\n";  // once, not twice
        m_last_time = m_end_ps;
        m_done = true;
        flush();
        return;
    }
    if (!m_in_window) {
        begin_window(std::max(m_start_ps, time_ps));
        return;  // the dump already holds the new value
    }
    if (time_ps != m_last_time) {
        m_buf += '#';
        m_buf += std::to_string(time_ps);
        m_buf += '\n';
        m_last_time = time_ps;
    }
    write_value(s);
    if (m_buf.size() > (1u << 20)) flush();
}

void Signal::set(std::uint64_t value, std::uint64_t time_ps) {
    if (value == m_value && m_dumped) return;
    m_value = value;
    m_tracer->emit(*this, time_ps);
}

void Tracer::flush() {
    if (m_file && !m_buf.empty()) std::fwrite(m_buf.data(), 1, m_buf.size(), m_file);
    m_buf.clear();
}

void Tracer::close(std::uint64_t end_ps) {
    if (!m_file) return;
    if (!m_done) {
        if (!m_in_window && end_ps >= m_start_ps) begin_window(m_start_ps);
        std::uint64_t t = std::min(end_ps, m_end_ps);
        if (m_in_window && t > m_last_time) m_buf += "#" + std::to_string(t) + "\n";
    }
    m_close_ps = std::min(end_ps, m_end_ps);
    flush();
    std::fclose(m_file);
    m_file = nullptr;
}

std::vector<std::string> Tracer::unmatched_patterns() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < m_params.signals.size(); ++i)
        if (i >= m_matches.size() || m_matches[i] == 0) out.push_back(m_params.signals[i]);
    return out;
}

std::pair<std::uint64_t, std::uint64_t> Tracer::view(std::uint64_t first_layer_end_ps) const {
    std::uint64_t a = m_start_ps, b = m_close_ps;
    const bool windowed = m_params.start_ns > 0 || m_params.end_ns >= 0;
    if (!windowed && first_layer_end_ps > a && first_layer_end_ps < b) b = first_layer_end_ps;
    return {a, b};
}

std::string Tracer::gtkw_header(const std::string& vcd_file, std::uint64_t view_start_ps, std::uint64_t view_end_ps) {
    std::string out = "[dumpfile] \"" + vcd_file + "\"\n[timestart] " + std::to_string(view_start_ps) +
                      "\n[size] 1400 900\n[pos] -1 -1\n[sst_width] 260\n[signals_width] 300\n";
    // Zoom so that the view fits the wave pane at 1400x900. Measured on GTKWave 3.3 with our
    // 1 ps timescale: zoom z shows about 2^-z / 200 ps per pixel, ~800 pixels.
    if (view_end_ps > view_start_ps) {
        double span = double(view_end_ps - view_start_ps);
        out += "*" + std::to_string(-int(std::ceil(std::log2(std::max(span / 4.0, 2.0))))) + ".000000 -1\n";
    }
    return out;
}

void Tracer::write_gtkw(const std::string& path, const std::string& vcd_file, std::uint64_t first_layer_end_ps) const {
    if (!m_params.enabled) return;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw InputError(path + ": cannot open for writing");
    const auto [va, vb] = view(first_layer_end_ps);
    std::string out = gtkw_header(vcd_file, va, vb);
    // Group by the module path (all but the last component), in name order.
    std::map<std::string, std::vector<const Signal*>> groups;
    for (auto& s : m_signals) {
        auto pos = s->name().rfind('.');
        groups[pos == std::string::npos ? "top" : s->name().substr(0, pos)].push_back(s.get());
    }
    for (auto& [group, sigs] : groups) {
        out += "@800200\n-" + group + "\n";
        for (const Signal* s : sigs) {
            auto parts = split_path(s->name());
            std::string full;
            for (std::size_t i = 0; i < parts.size(); ++i) full += (i ? "." : "") + parts[i];
            if (s->m_display == Display::Ascii) {
                out += "@820\n" + full + "[" + std::to_string(s->width() - 1) + ":0]\n";  // ASCII, right-justified
            } else if (s->width() > 1) {
                out += "@24\n" + full + "[" + std::to_string(s->width() - 1) + ":0]\n";
            } else {
                out += "@28\n" + full + "\n";
            }
        }
        out += "@1000200\n-" + group + "\n";
    }
    std::fwrite(out.data(), 1, out.size(), f);
    std::fclose(f);
}

}  // namespace vp::trace
