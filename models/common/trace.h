#pragma once
// Waveform tracing: a VCD writer of our own with a time window and a glob filter,
// and a GTKWave save file that groups the signals by module. Models hold a
// `Signal*` that is null when tracing is off or the filter excludes the signal,
// so the hot path pays one pointer test.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vp::trace {

enum class TraceFormat { Vcd, Fst };

struct TraceParams {
    bool enabled = false;            // write OUT/trace.vcd
    TraceFormat format = TraceFormat::Vcd;  // fst: converted with GTKWave's vcd2fst after the run
    double start_ns = 0.0;           // first time traced
    double end_ns = -1.0;            // last time traced; negative = until the end
    std::vector<std::string> signals;  // glob patterns on dotted names; empty = all
    void validate(const std::string& prefix) const;
};

class Tracer;

// How GTKWave shows a signal: a number, or the ASCII text packed into its bits (8 per character).
enum class Display { Number, Ascii };

class Signal {
public:
    // Records a value change at `time_ps` (simulation time in picoseconds).
    void set(std::uint64_t value, std::uint64_t time_ps);
    const std::string& name() const { return m_name; }
    unsigned width() const { return m_width; }

private:
    friend class Tracer;
    Signal(Tracer& t, std::string name, unsigned width, std::string id, Display d)
        : m_tracer(&t), m_name(std::move(name)), m_width(width), m_id(std::move(id)), m_display(d) {}
    Tracer* m_tracer;
    std::string m_name;
    unsigned m_width;
    std::string m_id;
    Display m_display;
    std::uint64_t m_value = 0;
    bool m_dumped = false;
};

class Tracer {
public:
    explicit Tracer(const TraceParams& p);
    ~Tracer();
    Tracer(const Tracer&) = delete;
    Tracer& operator=(const Tracer&) = delete;

    bool enabled() const { return m_params.enabled; }
    // Declares a signal (dotted hierarchical name, width in bits). Returns nullptr when
    // tracing is off or the filter excludes it. Call before open().
    Signal* add(const std::string& name, unsigned width, Display display = Display::Number);
    // Writes the VCD header. Signals must all be declared.
    void open(const std::string& vcd_path);
    // Ends the dump at `end_ps` and closes the file.
    void close(std::uint64_t end_ps);
    // A GTKWave save file that opens `vcd_file` with signals grouped by module, on view().
    void write_gtkw(const std::string& path, const std::string& vcd_file, std::uint64_t first_layer_end_ps = 0) const;
    // What the .gtkw opens on: the traced window when one was given (trace.start_ns/end_ns),
    // else the first layer (when it ended before the end of the run), else the whole run.
    std::pair<std::uint64_t, std::uint64_t> view(std::uint64_t first_layer_end_ps) const;
    // The common head of a .gtkw: dump file, window size and the zoom on [start, end].
    static std::string gtkw_header(const std::string& vcd_file, std::uint64_t view_start_ps, std::uint64_t view_end_ps);
    std::size_t signal_count() const { return m_signals.size(); }
    // Filter patterns (trace.signals) that matched no signal of the platform.
    std::vector<std::string> unmatched_patterns() const;
    const TraceParams& params() const { return m_params; }

    static bool glob_match(const char* pattern, const char* text);

private:
    friend class Signal;
    void emit(Signal& s, std::uint64_t time_ps);
    void write_value(const Signal& s);
    void begin_window(std::uint64_t time_ps);
    void flush();

    TraceParams m_params;
    std::uint64_t m_start_ps, m_end_ps;
    std::vector<std::unique_ptr<Signal>> m_signals;
    std::FILE* m_file = nullptr;
    std::string m_buf;
    bool m_in_window = false, m_done = false;
    std::uint64_t m_last_time = ~std::uint64_t(0);
    std::uint64_t m_close_ps = 0;  // end of the dump, for the GTKWave zoom
    std::vector<std::size_t> m_matches;  // signals matched per filter pattern
};

}  // namespace vp::trace
