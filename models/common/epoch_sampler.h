#pragma once
// Epoch statistics: the registry's sampled statistics (stats.h) read at epoch boundaries and
// at layer ends, differenced into intervals [t0, t1) of simulated time. A model only declares
// which of its statistics are sampled; the run loop calls sample()/layer_end() between (or
// from) kernel steps, so nothing of this sits on a model's hot path.
//
// Interval boundaries are the multiples of the epoch, every layer end and the end of the run.
// Adaptive mode ("auto") starts with a short epoch and doubles it, merging pairs of intervals,
// whenever more than max_intervals have been closed: the number of intervals stays bounded
// whatever the simulated time, layer ends stay boundaries, sums stay exact.
// Plain C++: no SystemC.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "models/common/stats.h"

namespace vp::stats {

// `stats:` section of a platform YAML.
struct EpochParams {
    std::string epoch = "auto";  // off | auto | a time ("1us", "250ns") | cycles of a clock ("1000 noc cycles")
    bool timeline = false;       // write OUT/timeline.json (state changes are recorded)
    void validate(const std::string& prefix) const;
};

struct EpochSpec {
    enum class Mode { Off, Auto, Time, Cycles } mode = Mode::Auto;
    double value = 0;   // Time: picoseconds; Cycles: number of cycles
    std::string clock;  // Cycles: clock name
};
// Parses stats.epoch; throws vp::InputError naming `key` and the accepted forms.
EpochSpec parse_epoch(const std::string& text, const std::string& key);

// One sampled quantity: a statistic (or one state of a StateTime).
struct Series {
    std::string module;     // group path, e.g. "noc.router[1][0]"
    std::string statistic;  // name + suffix, e.g. "flits_out_east", "state.compute"
    std::string unit, desc;
    const Stat* stat = nullptr;
    unsigned sub = 0;
};

struct Interval {
    std::uint64_t t0 = 0, t1 = 0;  // ps
    int layer = -1;                // index into layer names, -1 without layers
    bool cut = false;              // t1 is a layer end or the end of the run (never merged away)
    std::vector<std::pair<std::uint32_t, double>> values;  // (series, delta), non-zero only, by series
};

class EpochSampler {
public:
    static constexpr std::size_t kDefaultMaxIntervals = 512;
    static constexpr std::uint64_t kAutoStartPs = 10'000;  // first epoch of "auto": 10 ns

    // epoch_ps: 0 = boundaries only at layer ends and at the end. adaptive: see above.
    EpochSampler(const Group& root, std::uint64_t epoch_ps, bool adaptive,
                 std::size_t max_intervals = kDefaultMaxIntervals);

    void set_layers(std::vector<std::string> names) { m_layer_names = std::move(names); }
    // Streaming: every closed interval goes to `w` instead of being kept (not with adaptive).
    void set_writer(std::function<void(const Interval&)> w) { m_writer = std::move(w); }

    // Collects the sampled statistics; call after elaboration, before the first sample.
    void begin();
    // Next periodic boundary after the last sample (UINT64_MAX: none).
    std::uint64_t next_boundary() const;
    // Closes the interval ending at now_ps (no-op when now_ps equals the last sample).
    void sample(std::uint64_t now_ps) { close_interval(now_ps, false); }
    // A layer ended at now_ps: closes the interval; the next one belongs to the next layer.
    void layer_end(std::uint64_t now_ps);
    // Closes the last interval at end_ps (call after Registry::close(end_ps)).
    void finish(std::uint64_t end_ps);

    const std::vector<Series>& series() const { return m_series; }
    const std::vector<Interval>& intervals() const { return m_intervals; }  // empty when streaming
    const std::vector<std::string>& layer_names() const { return m_layer_names; }
    // End time (ps) of each finished layer, in order.
    const std::vector<std::uint64_t>& layer_ends() const { return m_layer_ends; }
    std::uint64_t epoch_ps() const { return m_epoch; }
    bool adaptive() const { return m_adaptive; }
    std::size_t intervals_closed() const { return m_closed; }
    // Sum over all intervals of each series (equals the series' value at the end).
    const std::vector<double>& totals() const { return m_totals; }

private:
    void close_interval(std::uint64_t now_ps, bool cut);
    void coarsen();

    const Group& m_root;
    std::uint64_t m_epoch;
    bool m_adaptive;
    std::size_t m_max;
    std::vector<Series> m_series;
    std::vector<double> m_prev, m_now, m_totals;
    std::vector<Interval> m_intervals;
    std::function<void(const Interval&)> m_writer;
    std::vector<std::string> m_layer_names;
    std::vector<std::uint64_t> m_layer_ends;
    std::uint64_t m_last = 0;
    int m_layer = 0;
    std::size_t m_closed = 0;
    bool m_begun = false, m_finished = false;
};

}  // namespace vp::stats
