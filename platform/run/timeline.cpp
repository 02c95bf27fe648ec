#include "platform/run/timeline.h"

#include <cstdio>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "mapper/common/json_text.h"

namespace vp::run {

namespace {

// ps -> microseconds as an exact decimal.
std::string us(std::uint64_t ps) {
    char b[48];
    std::snprintf(b, sizeof b, "%llu.%06llu", static_cast<unsigned long long>(ps / 1000000),
                  static_cast<unsigned long long>(ps % 1000000));
    return b;
}

std::string quoted(const std::string& s) { return json_output_text(nlohmann::json(s)); }

class EventWriter {
public:
    explicit EventWriter(const std::string& path) : m_path(path) {
        m_f = std::fopen(path.c_str(), "wb");
        if (!m_f) throw std::runtime_error("cannot write " + path);
        m_buf = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    }
    ~EventWriter() {
        if (m_f) std::fclose(m_f);
    }
    void event(const std::string& e) {
        if (m_n++) m_buf += ",\n";
        m_buf += e;
        if (m_buf.size() > (1u << 20)) flush();
    }
    void meta(const char* what, int pid, int tid, const std::string& name) {
        event(std::string("{\"ph\":\"M\",\"name\":\"") + what + "\",\"pid\":" + std::to_string(pid) +
              (tid >= 0 ? ",\"tid\":" + std::to_string(tid) : "") + ",\"args\":{\"name\":" + quoted(name) + "}}");
    }
    void sort_index(int pid, int tid, int index) {
        event("{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + std::to_string(pid) + ",\"tid\":" +
              std::to_string(tid) + ",\"args\":{\"sort_index\":" + std::to_string(index) + "}}");
    }
    void slice(int pid, int tid, const std::string& name, std::uint64_t t0, std::uint64_t t1) {
        event("{\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
              ",\"name\":" + quoted(name) + ",\"ts\":" + us(t0) + ",\"dur\":" + us(t1 - t0) + "}");
    }
    void counter(int pid, const std::string& name, std::uint64_t t, const std::string& key, double v) {
        char b[64];
        std::snprintf(b, sizeof b, "%.6g", v);
        event("{\"ph\":\"C\",\"pid\":" + std::to_string(pid) + ",\"name\":" + quoted(name) + ",\"ts\":" + us(t) +
              ",\"args\":{" + quoted(key) + ":" + b + "}}");
    }
    void finish(const std::string& title) {
        m_buf += "\n],\"otherData\":{\"title\":" + quoted(title) + "}}\n";
        flush();
        const bool bad = std::ferror(m_f) != 0;
        std::fclose(m_f);
        m_f = nullptr;
        if (bad) throw std::runtime_error("cannot write " + m_path);
    }

private:
    void flush() {
        std::fwrite(m_buf.data(), 1, m_buf.size(), m_f);
        m_buf.clear();
    }
    std::FILE* m_f = nullptr;
    std::string m_path, m_buf;
    std::size_t m_n = 0;
};

}  // namespace

void TimelineCounters::add(const stats::EpochSampler& s, const stats::Interval& iv) {
    if (m_role.size() != s.series().size()) {
        m_role.assign(s.series().size(), 0);
        for (std::size_t i = 0; i < s.series().size(); ++i) {
            const auto& se = s.series()[i];
            if (se.module != "dram") continue;
            if (se.statistic == "bytes_read" || se.statistic == "bytes_written") m_role[i] = 1;
            if (se.statistic == "queue_occupancy_integral") m_role[i] = 2;
        }
    }
    Point p{iv.t0, iv.t1, 0, 0};
    for (const auto& [i, v] : iv.values) {
        if (m_role[i] == 1) p.bytes += v;
        if (m_role[i] == 2) p.queue_integral += v;
    }
    m_points.push_back(p);
}

void write_timeline(const std::string& path, const stats::Registry& reg, const std::vector<TimelineLayer>& layers,
                    const TimelineCounters& counters, double dram_tck_ps, std::uint64_t end_ps,
                    const std::string& title) {
    EventWriter w(path);
    int next_pid = 1;
    // Layers first.
    if (!layers.empty()) {
        const int pid = next_pid++;
        w.meta("process_name", pid, -1, "layers");
        w.meta("thread_name", pid, 1, "layers");
        std::uint64_t t = 0;
        for (const auto& l : layers) {
            if (l.begin_ps > t) w.slice(pid, 1, "(between layers)", t, l.begin_ps);
            if (l.end_ps > l.begin_ps) w.slice(pid, 1, l.name, l.begin_ps, l.end_ps);
            t = std::max(t, l.end_ps);
        }
        if (end_ps > t) w.slice(pid, 1, "(after the last layer)", t, end_ps);
    }
    // One process per top-level module, one thread (track) per state statistic.
    std::map<std::string, int> pids;
    int tid = 0;
    reg.for_each_stat([&](const stats::Stat& st) {
        const auto* s = dynamic_cast<const stats::StateTime*>(&st);
        if (!s || !s->recording()) return;
        const std::string path_ = s->path();
        const std::string top = path_.substr(0, path_.find('.'));
        auto it = pids.find(top);
        if (it == pids.end()) {
            it = pids.emplace(top, next_pid++).first;
            w.meta("process_name", it->second, -1, top);
        }
        const int pid = it->second;
        ++tid;
        w.meta("thread_name", pid, tid, path_);
        w.sort_index(pid, tid, tid);
        const auto& names = s->states();
        std::uint64_t t = 0;
        unsigned cur = 0;
        for (const auto& c : s->changes()) {
            const std::uint64_t ct = std::min(c.t_ps, s->end_ps());
            if (ct > t) w.slice(pid, tid, names[cur], t, ct);
            if (ct >= t) t = ct;
            cur = c.state;
        }
        if (s->end_ps() > t) w.slice(pid, tid, names[cur], t, s->end_ps());
    });
    // DRAM counters.
    if (dram_tck_ps > 0 && !counters.points().empty()) {
        const int pid = next_pid++;
        w.meta("process_name", pid, -1, "dram counters");
        for (const auto& p : counters.points()) {
            const double dt_ps = double(p.t1 - p.t0);
            w.counter(pid, "DRAM bandwidth", p.t0, "GB/s", p.bytes / dt_ps * 1e3);
            w.counter(pid, "DRAM queue depth", p.t0, "requests", p.queue_integral * dram_tck_ps / dt_ps);
        }
        const auto& last = counters.points().back();
        w.counter(pid, "DRAM bandwidth", last.t1, "GB/s", 0.0);
        w.counter(pid, "DRAM queue depth", last.t1, "requests", 0.0);
    }
    w.finish(title);
}

}  // namespace vp::run
