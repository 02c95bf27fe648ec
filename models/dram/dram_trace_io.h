#pragma once
// DRAM request traces in the formats of two public DRAM simulators, written by
// dram.record_trace and replayed by the dram_trace workload:
//
//  stl        DRAMSys's STL trace player ("<cycle>: [(<length>)] read|write <hex address>",
//             '#' comments; configs/README.md of DRAMSys, StlPlayer.cpp). Cycles are those
//             of the player's clock: we write memory-clock cycles, so DRAMSys replays the
//             file with the trace player's clkMhz set to the DRAM command clock.
//  loadstore  Ramulator 2's LoadStoreTrace frontend ("LD|ST <address>", decimal or 0x hex,
//             one request of the memory system's transaction size per line, no time:
//             loadstore_trace.cpp). Longer requests are written as one line per burst.
//
// Plain C++ (no SystemC): streaming reader and writer, one line at a time.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace vp::dram {

enum class TraceFormat { Stl, LoadStore };

const char* to_string(TraceFormat f);
// "stl" | "loadstore" | "auto" (.stl -> stl, .trace -> loadstore). Throws InputError naming `key`.
TraceFormat resolve_trace_format(const std::string& path, const std::string& format, const std::string& key);

struct TraceRequest {
    std::uint64_t cycle = 0;  // stl: issue cycle of the player clock; loadstore: 0
    bool write = false;
    std::uint64_t addr = 0;
    unsigned bytes = 0;
};

class TraceWriter {
public:
    // `burst_bytes`: stl omits "(length)" for requests of this size; loadstore splits into it.
    TraceWriter(const std::string& path, TraceFormat f, unsigned burst_bytes, const std::string& comment);
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;
    void write(const TraceRequest& r);
    void close();
    std::uint64_t lines() const { return m_lines; }

private:
    void flush();
    std::string m_path;
    TraceFormat m_format;
    unsigned m_burst;
    std::FILE* m_file = nullptr;
    std::string m_buf;
    std::uint64_t m_lines = 0;
};

class TraceReader {
public:
    // `default_bytes`: the size of a request without "(length)" (stl) or of every line (loadstore).
    TraceReader(const std::string& path, TraceFormat f, unsigned default_bytes);
    // The next request; false at the end of the file. Throws InputError "path:line: ..." on a
    // malformed line (also when stl cycles go backwards).
    bool next(TraceRequest& r);
    std::uint64_t line() const { return m_line; }

private:
    [[noreturn]] void fail(const std::string& what) const;
    std::string m_path;
    TraceFormat m_format;
    unsigned m_default;
    std::ifstream m_in;
    std::string m_text;
    std::vector<std::string> m_tok;
    std::uint64_t m_line = 0, m_last_cycle = 0;
};

}  // namespace vp::dram
