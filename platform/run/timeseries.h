#pragma once
// Output writer of the epoch statistics (models/common/epoch_sampler.h):
//   timeseries.csv           long form, one row per interval, module and statistic with a non-zero value:
//                            t_begin_ns,t_end_ns,layer,module,statistic,value
//   timeseries.columns.json  the column dictionary: what each column means, every statistic's
//                            unit and description, the epoch, the clocks and the layer intervals.
// A fixed epoch streams rows while the simulation runs; "auto" and "off" write them at the end.
#include <cstdio>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "models/common/epoch_sampler.h"

namespace vp::run {

class TimeseriesCsv {
public:
    explicit TimeseriesCsv(const std::string& path);  // writes the header
    ~TimeseriesCsv();
    TimeseriesCsv(const TimeseriesCsv&) = delete;
    TimeseriesCsv& operator=(const TimeseriesCsv&) = delete;
    void write(const stats::EpochSampler& s, const stats::Interval& iv);
    void close();

private:
    std::FILE* m_f = nullptr;
    std::string m_path, m_buf;
};

// The dictionary (timeseries.columns.json). `clocks_ps`: period of each clock of the platform.
nlohmann::json timeseries_dictionary(const stats::EpochSampler& s, const std::string& epoch_setting,
                                     const std::map<std::string, double>& clocks_ps, std::uint64_t end_ps);

// Picoseconds as a decimal number of nanoseconds ("1234.567"), exact.
std::string ps_to_ns(std::uint64_t ps);

}  // namespace vp::run
