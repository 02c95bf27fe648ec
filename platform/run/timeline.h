#pragma once
// timeline.json: a Chrome trace-event / Perfetto timeline of one run (ui.perfetto.dev,
// chrome://tracing). One track per unit that has a state statistic (stats::StateTime with
// recorded changes: cores, TLTs, DMA engines, VTA modules), whose slices are its states and
// cover the whole run; one track of layers; DRAM bandwidth and queue depth as counters from
// the epoch statistics. Timestamps in microseconds with picosecond resolution.
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/epoch_sampler.h"
#include "models/common/stats.h"

namespace vp::run {

// Collects the DRAM counter values of each interval while the sampler runs (streaming or not).
class TimelineCounters {
public:
    void add(const stats::EpochSampler& s, const stats::Interval& iv);
    struct Point {
        std::uint64_t t0, t1;
        double bytes, queue_integral;  // bytes moved, request x tCK queued
    };
    const std::vector<Point>& points() const { return m_points; }

private:
    std::vector<Point> m_points;
    std::vector<int> m_role;  // per series: 0 none, 1 bytes, 2 queue integral
};

// Layer intervals: names with [begin, end) in ps.
struct TimelineLayer {
    std::string name;
    std::uint64_t begin_ps, end_ps;
};

// Writes timeline.json. dram_tck_ps: 0 when the platform has no DRAM.
void write_timeline(const std::string& path, const stats::Registry& reg, const std::vector<TimelineLayer>& layers,
                    const TimelineCounters& counters, double dram_tck_ps, std::uint64_t end_ps,
                    const std::string& title);

}  // namespace vp::run
