#include "models/dram/dram_trace_io.h"

#include <cinttypes>
#include <cstring>
#include <vector>

#include "mapper/common/errors.h"

namespace vp::dram {

namespace {

bool ends_with(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

void split(const std::string& line, std::vector<std::string>& out) {
    out.clear();
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
        if (j > i) out.push_back(line.substr(i, j - i));
        i = j;
    }
}

// Unsigned integer in base 10 or 16 (the whole token); false on anything else or overflow.
bool parse_uint(const std::string& s, int base, std::uint64_t& v) {
    if (s.empty()) return false;
    v = 0;
    for (char c : s) {
        unsigned d;
        if (c >= '0' && c <= '9') d = unsigned(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f') d = unsigned(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F') d = unsigned(c - 'A' + 10);
        else return false;
        if (v > (~std::uint64_t(0) - d) / std::uint64_t(base)) return false;
        v = v * std::uint64_t(base) + d;
    }
    return true;
}

bool parse_hex(const std::string& s, std::uint64_t& v) {
    const bool prefixed = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    return parse_uint(prefixed ? s.substr(2) : s, 16, v);
}

}  // namespace

const char* to_string(TraceFormat f) { return f == TraceFormat::Stl ? "stl" : "loadstore"; }

TraceFormat resolve_trace_format(const std::string& path, const std::string& format, const std::string& key) {
    if (format == "stl") return TraceFormat::Stl;
    if (format == "loadstore") return TraceFormat::LoadStore;
    if (format != "auto") throw InputError(key + ": unknown trace format \"" + format + "\" (known: auto, stl, loadstore)");
    if (ends_with(path, ".stl")) return TraceFormat::Stl;
    if (ends_with(path, ".trace")) return TraceFormat::LoadStore;
    throw InputError(key + ": cannot tell the trace format of \"" + path +
                     "\" from its extension (.stl: DRAMSys STL, .trace: Ramulator 2 LoadStoreTrace); name it "
                     "with the format key (stl | loadstore)");
}

TraceWriter::TraceWriter(const std::string& path, TraceFormat f, unsigned burst_bytes, const std::string& comment)
    : m_path(path), m_format(f), m_burst(burst_bytes) {
    m_file = std::fopen(path.c_str(), "wb");
    if (!m_file) throw InputError(path + ": cannot open the DRAM trace for writing");
    // Ramulator's LoadStoreTrace accepts no comment lines; DRAMSys's STL player skips '#' lines.
    if (f == TraceFormat::Stl && !comment.empty()) m_buf += "# " + comment + "\n";
    m_buf.reserve(1 << 20);
}

TraceWriter::~TraceWriter() { close(); }

void TraceWriter::flush() {
    if (m_file && !m_buf.empty()) std::fwrite(m_buf.data(), 1, m_buf.size(), m_file);
    m_buf.clear();
}

void TraceWriter::write(const TraceRequest& r) {
    char line[96];
    if (m_format == TraceFormat::Stl) {
        int n = r.bytes == m_burst
                    ? std::snprintf(line, sizeof line, "%" PRIu64 ":\t%s\t0x%" PRIx64 "\n", r.cycle,
                                    r.write ? "write" : "read", r.addr)
                    : std::snprintf(line, sizeof line, "%" PRIu64 ":\t(%u)\t%s\t0x%" PRIx64 "\n", r.cycle, r.bytes,
                                    r.write ? "write" : "read", r.addr);
        m_buf.append(line, std::size_t(n));
        ++m_lines;
    } else {
        const std::uint64_t first = r.addr / m_burst * m_burst;
        const std::uint64_t last = (r.addr + std::max(1u, r.bytes) - 1) / m_burst * m_burst;
        for (std::uint64_t a = first; a <= last; a += m_burst) {
            int n = std::snprintf(line, sizeof line, "%s 0x%" PRIx64 "\n", r.write ? "ST" : "LD", a);
            m_buf.append(line, std::size_t(n));
            ++m_lines;
        }
    }
    if (m_buf.size() > (1u << 20) - 4096) flush();
}

void TraceWriter::close() {
    if (!m_file) return;
    flush();
    const bool bad = std::ferror(m_file) != 0;
    std::fclose(m_file);
    m_file = nullptr;
    if (bad) throw InputError(m_path + ": write error on the DRAM trace");
}

TraceReader::TraceReader(const std::string& path, TraceFormat f, unsigned default_bytes)
    : m_path(path), m_format(f), m_default(default_bytes), m_in(path) {
    if (!m_in) throw InputError(path + ": cannot open the DRAM trace");
}

void TraceReader::fail(const std::string& what) const {
    throw InputError(m_path + ":" + std::to_string(m_line) + ": " + what);
}

bool TraceReader::next(TraceRequest& r) {
    std::vector<std::string>& tok = m_tok;
    while (std::getline(m_in, m_text)) {
        ++m_line;
        split(m_text, tok);
        if (tok.empty()) continue;
        r = TraceRequest{};
        if (m_format == TraceFormat::LoadStore) {
            if (tok.size() != 2) fail("expected \"LD|ST <address>\", got " + std::to_string(tok.size()) + " fields");
            if (tok[0] == "LD") r.write = false;
            else if (tok[0] == "ST") r.write = true;
            else fail("unknown request type \"" + tok[0] + "\" (expected LD or ST)");
            const bool hex = tok[1].size() > 2 && tok[1][0] == '0' && (tok[1][1] == 'x' || tok[1][1] == 'X');
            if (!(hex ? parse_hex(tok[1], r.addr) : parse_uint(tok[1], 10, r.addr)))
                fail("bad address \"" + tok[1] + "\" (expected decimal or 0x hex)");
            r.bytes = m_default;
            return true;
        }
        if (tok[0][0] == '#') continue;
        std::size_t i = 0;
        std::string c = tok[i++];
        if (c.back() == ':') c.pop_back();
        if (!parse_uint(c, 10, r.cycle)) fail("bad time stamp \"" + tok[0] + "\" (expected \"<cycle>:\")");
        if (r.cycle < m_last_cycle)
            fail("time stamp " + std::to_string(r.cycle) + " is before the previous line's " +
                 std::to_string(m_last_cycle));
        m_last_cycle = r.cycle;
        r.bytes = m_default;
        if (i < tok.size() && tok[i][0] == '(') {
            std::string l = tok[i++].substr(1);
            std::uint64_t len = 0;
            if (l.empty() || l.back() != ')' || !parse_uint(l.substr(0, l.size() - 1), 10, len) || len == 0 ||
                len > (1u << 20))
                fail("bad length \"" + tok[i - 1] + "\" (expected \"(<bytes>)\", 1..1048576)");
            r.bytes = unsigned(len);
        }
        if (i >= tok.size()) fail("missing command (expected read or write)");
        if (tok[i] == "read") r.write = false;
        else if (tok[i] == "write") r.write = true;
        else fail("unknown command \"" + tok[i] + "\" (expected read or write)");
        ++i;
        if (i >= tok.size()) fail("missing address");
        if (!parse_hex(tok[i], r.addr)) fail("bad address \"" + tok[i] + "\" (expected hexadecimal)");
        ++i;
        if (i < tok.size() && r.write) ++i;  // write data (the replay writes its own pattern)
        if (i < tok.size()) fail("unexpected field \"" + tok[i] + "\"");
        return true;
    }
    if (m_in.bad()) fail("read error");
    return false;
}

}  // namespace vp::dram
