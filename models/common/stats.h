#pragma once
// The statistics registry. Modules own their statistics as members and register
// them in a Group with name, description and unit; one dumper writes nested JSON
// and a flat CSV row. Updating a statistic is an inline add: no lookup, no allocation.
//
// Epoch sampling (models/common/epoch_sampler.h) reads the registry, not the models: a stat
// that is *sampled* exposes cumulative values (sample()) that the sampler differences at
// every epoch boundary. Counters and formulas opt in with set_sampled(); CounterRef and
// StateTime are always sampled. A model pays nothing for it on its hot path.
//
// Paths are unique by construction: registering a second child or statistic of the same
// name in a group throws std::logic_error (callers validate user-given names first).
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace vp::stats {

class Group;

class Stat {
public:
    Stat(Group& parent, std::string name, std::string desc, std::string unit);
    virtual ~Stat() = default;
    Stat(const Stat&) = delete;
    Stat& operator=(const Stat&) = delete;

    const std::string& name() const { return m_name; }
    const std::string& desc() const { return m_desc; }
    const std::string& unit() const { return m_unit; }
    const Group& parent() const { return *m_parent; }
    std::string path() const;  // dotted full name, e.g. "noc.router[2][3].flits_out_east"

    // Nested JSON value ({"value":..,"unit":..,"desc":..} or richer).
    virtual nlohmann::json to_json() const = 0;
    // Flat (column suffix, value) pairs for the CSV row; suffix "" means the stat itself.
    virtual void to_flat(std::vector<std::pair<std::string, double>>& out) const = 0;

    // Epoch sampling: number of cumulative values, their suffixes ("" or ".state") and
    // their values at `now_ps` (non-decreasing between calls). Only for sampled stats.
    bool sampled() const { return m_sampled; }
    void set_sampled(bool on = true) { m_sampled = on; }
    virtual unsigned sample_width() const { return 1; }
    virtual std::string sample_suffix(unsigned) const { return ""; }
    virtual void sample(std::uint64_t now_ps, double* out) const;
    // End of the run at `end_ps` (closes time-weighted statistics); the registry calls it.
    virtual void close(std::uint64_t) {}

private:
    Group* m_parent;
    std::string m_name, m_desc, m_unit;
    bool m_sampled = false;
};

// A monotonically counted quantity (events, bytes, cycles).
class Counter final : public Stat {
public:
    using Stat::Stat;
    Counter& operator++() { ++m_v; return *this; }
    Counter& operator+=(std::uint64_t d) { m_v += d; return *this; }
    void set(std::uint64_t v) { m_v = v; }
    std::uint64_t value() const { return m_v; }
    nlohmann::json to_json() const override;
    void to_flat(std::vector<std::pair<std::string, double>>& out) const override;
    void sample(std::uint64_t, double* out) const override { out[0] = double(m_v); }

private:
    std::uint64_t m_v = 0;
};

// A counter that lives in a model's plain counter struct (updated on the hot path without
// any indirection) and is registered by address: always sampled, dumped like a Counter.
class CounterRef final : public Stat {
public:
    CounterRef(Group& parent, std::string name, std::string desc, std::string unit, const std::uint64_t* src);
    std::uint64_t value() const { return *m_src; }
    nlohmann::json to_json() const override;
    void to_flat(std::vector<std::pair<std::string, double>>& out) const override;
    void sample(std::uint64_t, double* out) const override { out[0] = double(*m_src); }

private:
    const std::uint64_t* m_src;
};

// A counter whose increments are work booked ahead over an interval [start, end) of simulated
// time (a unit that knows at issue when its work will finish, as the NMP TLTs' MAC unit does).
// The dump shows the total booked; an epoch sample at `now` counts each booking in proportion to
// the part of its interval before `now`, so the work is spread over the time it takes instead of
// landing in the epoch that issued it. The sum over the epochs equals the total once every
// booking has ended. Bookings of one unit are serial: start >= the previous booking's end.
class ScheduledCounter final : public Stat {
public:
    ScheduledCounter(Group& parent, std::string name, std::string desc, std::string unit);
    // `amount` over [start_ps, end_ps), booked at now_ps <= start_ps; bookings that ended by
    // now_ps are folded, so at most the unfinished ones are kept.
    void add(std::uint64_t amount, std::uint64_t now_ps, std::uint64_t start_ps, std::uint64_t end_ps);
    std::uint64_t value() const { return m_total; }
    // A run stopped before its end (partial outputs): the dump shows the work done by end_ps (each
    // booking's share before it, as the epoch samples count it) instead of the work booked.
    void stop_at(std::uint64_t end_ps);
    nlohmann::json to_json() const override;
    void to_flat(std::vector<std::pair<std::string, double>>& out) const override;
    void sample(std::uint64_t now_ps, double* out) const override;

private:
    bool m_stopped = false;
    double m_done_at_stop = 0;  // stop_at()
    struct Booking {
        std::uint64_t start, end, amount;
    };
    void fold(std::uint64_t now_ps) const;
    std::uint64_t m_total = 0;
    mutable std::uint64_t m_done = 0;         // amount of the folded (ended) bookings
    mutable std::vector<Booking> m_pending;   // unfinished bookings, in start order, from m_head
    mutable std::size_t m_head = 0;
};

// Time spent in each of a few named states (picoseconds), e.g. a core's idle / compute / stall.
// set() switches state at a time >= every earlier change; set_until() enters a state that
// reverts to state 0 by itself at `until` (a busy period scheduled ahead, as the NMP TLTs do),
// and a later set_until() that starts before `until` extends it. time_in() integrates up to
// any time >= the last change. With record(true) every change is kept, for the timeline.
class StateTime final : public Stat {
public:
    StateTime(Group& parent, std::string name, std::string desc, std::vector<std::string> states);
    void set(unsigned s, std::uint64_t t_ps) {
        fold(t_ps);
        m_until = 0;
        if (s == m_cur) return;
        m_acc[m_cur] += t_ps - m_since;
        m_cur = s;
        m_since = t_ps;
        if (m_record) m_changes.push_back({t_ps, s});
    }
    void set_until(unsigned s, std::uint64_t t_ps, std::uint64_t until_ps) {
        if (m_until && s == m_cur && t_ps <= m_until) {  // back to back: extend
            if (until_ps > m_until) m_until = until_ps;
            return;
        }
        set(s, t_ps);
        m_until = until_ps > t_ps ? until_ps : 0;
        if (!m_until) set(0, t_ps);
    }
    unsigned state() const { return m_cur; }
    const std::vector<std::string>& states() const { return m_names; }
    std::uint64_t time_in(unsigned s, std::uint64_t now_ps) const;
    struct Change {
        std::uint64_t t_ps;
        unsigned state;
    };
    void record(bool on) { m_record = on; }
    bool recording() const { return m_record; }
    // Every change (time, new state) from time 0 in state 0, when recording; final after close().
    const std::vector<Change>& changes() const { return m_changes; }
    std::uint64_t end_ps() const { return m_end; }

    nlohmann::json to_json() const override;
    void to_flat(std::vector<std::pair<std::string, double>>& out) const override;
    unsigned sample_width() const override { return unsigned(m_names.size()); }
    std::string sample_suffix(unsigned i) const override { return "." + m_names[i]; }
    void sample(std::uint64_t now_ps, double* out) const override;
    void close(std::uint64_t end_ps) override;

private:
    // Applies the scheduled return to state 0 if it lies at or before t.
    void fold(std::uint64_t t_ps) {
        if (!m_until || t_ps < m_until) return;
        const std::uint64_t u = m_until;
        m_until = 0;
        if (m_cur == 0) return;
        m_acc[m_cur] += u - m_since;
        m_cur = 0;
        m_since = u;
        if (m_record) m_changes.push_back({u, 0});
    }
    std::vector<std::string> m_names;
    std::vector<std::uint64_t> m_acc;
    unsigned m_cur = 0;
    std::uint64_t m_since = 0, m_until = 0, m_end = 0;
    bool m_record = false, m_closed = false;
    std::vector<Change> m_changes;
};

// A value set once (a configuration-derived or end-of-run figure).
class Scalar final : public Stat {
public:
    using Stat::Stat;
    void set(double v) { m_v = v; }
    double value() const { return m_v; }
    nlohmann::json to_json() const override;
    void to_flat(std::vector<std::pair<std::string, double>>& out) const override;

private:
    double m_v = 0;
};

// Count / mean / min / max of samples.
class Average final : public Stat {
public:
    using Stat::Stat;
    using Stat::sample;  // the epoch sampling overload stays visible next to sample(double)
    void sample(double v) {
        ++m_n;
        m_sum += v;
        if (v < m_min) m_min = v;
        if (v > m_max) m_max = v;
    }
    std::uint64_t count() const { return m_n; }
    double mean() const { return m_n ? m_sum / double(m_n) : 0.0; }
    double min() const { return m_n ? m_min : 0.0; }
    double max() const { return m_n ? m_max : 0.0; }
    nlohmann::json to_json() const override;
    void to_flat(std::vector<std::pair<std::string, double>>& out) const override;

private:
    std::uint64_t m_n = 0;
    double m_sum = 0, m_min = std::numeric_limits<double>::infinity(), m_max = -std::numeric_limits<double>::infinity();
};

// Fixed-width buckets [0, width), [width, 2*width) ... plus an overflow bucket;
// percentiles are exact for integer samples when width is 1, else bucket upper bounds, and
// exact in the overflow bucket, whose samples are kept by value (a percentile there used to be
// the maximum, which contradicted an exact percentile of the same samples kept elsewhere).
class Histogram final : public Stat {
public:
    Histogram(Group& parent, std::string name, std::string desc, std::string unit, double bucket_width,
              std::size_t buckets);
    using Stat::sample;  // the epoch sampling overload stays visible next to sample(double)
    void sample(double v) { sample(v, 1); }
    // `n` samples of value v.
    void sample(double v, std::uint64_t n) {
        if (n == 0) return;
        m_n += n;
        m_sum += v * double(n);
        if (v < m_min) m_min = v;
        if (v > m_max) m_max = v;
        std::size_t b = v < 0 ? 0 : static_cast<std::size_t>(v / m_width);
        if (b < m_buckets.size() - 1) {
            m_buckets[b] += n;
        } else {
            m_buckets.back() += n;
            m_over[v] += n;
        }
    }
    std::uint64_t count() const { return m_n; }
    double mean() const { return m_n ? m_sum / double(m_n) : 0.0; }
    double max() const { return m_n ? m_max : 0.0; }
    double min() const { return m_n ? m_min : 0.0; }
    double percentile(double p) const;
    nlohmann::json to_json() const override;
    void to_flat(std::vector<std::pair<std::string, double>>& out) const override;

private:
    double m_width;
    std::vector<std::uint64_t> m_buckets;
    std::map<double, std::uint64_t> m_over;  // the overflow bucket's samples: value -> count
    std::uint64_t m_n = 0;
    double m_sum = 0, m_min = std::numeric_limits<double>::infinity(), m_max = -std::numeric_limits<double>::infinity();
};

// A value computed from other statistics when dumped (ratios, bandwidths).
class Formula final : public Stat {
public:
    Formula(Group& parent, std::string name, std::string desc, std::string unit, std::function<double()> f);
    double value() const { return m_f(); }
    nlohmann::json to_json() const override;
    void to_flat(std::vector<std::pair<std::string, double>>& out) const override;
    void sample(std::uint64_t, double* out) const override { out[0] = m_f(); }

private:
    std::function<double()> m_f;
};

// A node of the hierarchy ("noc", "router[2][3]"). Groups and stats register
// themselves with their parent on construction; the parent must outlive them.
class Group {
public:
    Group(Group& parent, std::string name);
    ~Group();
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;

    const std::string& name() const { return m_name; }
    std::string path() const;  // dotted full name, e.g. "noc.router[2][3]"
    const std::vector<Group*>& children() const { return m_children; }
    const std::vector<Stat*>& stats() const { return m_stats; }

    nlohmann::json to_json() const;
    void to_flat(const std::string& prefix, std::vector<std::pair<std::string, double>>& out) const;
    // Calls f(stat) for every statistic of this subtree, in dump order.
    template <typename F>
    void for_each_stat(F&& f) const {
        for (const Stat* s : m_stats) f(*s);
        for (const Group* g : m_children) g->for_each_stat(f);
    }
    template <typename F>
    void for_each_stat_mut(F&& f) {
        for (Stat* s : m_stats) f(*s);
        for (Group* g : m_children) g->for_each_stat_mut(f);
    }

protected:
    explicit Group(std::string root_name);  // root only

private:
    friend class Stat;
    void check_unique(const std::string& name) const;
    Group* m_parent = nullptr;
    std::string m_name;
    std::vector<Group*> m_children;
    std::vector<Stat*> m_stats;
};

// The root of one run's statistics.
class Registry : public Group {
public:
    Registry() : Group("") {}
    nlohmann::json to_json() const { return Group::to_json(); }
    std::vector<std::pair<std::string, double>> flat() const;
    // End of the run: closes every statistic (StateTime integrates up to end_ps).
    void close(std::uint64_t end_ps) {
        for_each_stat_mut([end_ps](Stat& s) { s.close(end_ps); });
    }
};

// Formats a number for the CSV/JSON dumps: integers without a fraction, others with
// up to 9 significant digits, so that identical runs give identical bytes.
std::string format_number(double v);

}  // namespace vp::stats
