#pragma once
// The statistics registry. Modules own their statistics as members and register
// them in a Group with name, description and unit; one dumper writes nested JSON
// and a flat CSV row. Updating a statistic is an inline add: no lookup, no allocation.
#include <cstdint>
#include <functional>
#include <limits>
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

    // Nested JSON value ({"value":..,"unit":..,"desc":..} or richer).
    virtual nlohmann::json to_json() const = 0;
    // Flat (column suffix, value) pairs for the CSV row; suffix "" means the stat itself.
    virtual void to_flat(std::vector<std::pair<std::string, double>>& out) const = 0;

private:
    std::string m_name, m_desc, m_unit;
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

private:
    std::uint64_t m_v = 0;
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
// percentiles are exact for integer samples when width is 1, else bucket upper bounds.
class Histogram final : public Stat {
public:
    Histogram(Group& parent, std::string name, std::string desc, std::string unit, double bucket_width,
              std::size_t buckets);
    void sample(double v) {
        ++m_n;
        m_sum += v;
        if (v < m_min) m_min = v;
        if (v > m_max) m_max = v;
        std::size_t b = v < 0 ? 0 : static_cast<std::size_t>(v / m_width);
        ++m_buckets[b < m_buckets.size() - 1 ? b : m_buckets.size() - 1];
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

    nlohmann::json to_json() const;
    void to_flat(const std::string& prefix, std::vector<std::pair<std::string, double>>& out) const;

protected:
    explicit Group(std::string root_name);  // root only

private:
    friend class Stat;
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
};

// Formats a number for the CSV/JSON dumps: integers without a fraction, others with
// up to 9 significant digits, so that identical runs give identical bytes.
std::string format_number(double v);

}  // namespace vp::stats
