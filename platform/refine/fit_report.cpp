#include "platform/refine/fit_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace vp::refine {

FitStats abs_stats(std::vector<double> r) {
    FitStats s;
    for (double& x : r) x = std::fabs(x);
    std::sort(r.begin(), r.end());
    if (r.empty()) return s;
    s.median = r[r.size() / 2];
    s.worst = r.back();
    for (double x : r) s.mean += x / double(r.size());
    return s;
}

YAML::Node fit_node(std::size_t samples, int shapes, std::uint64_t seed, const FitStats& s0, const FitStats& s1,
                    double rho) {
    YAML::Node f;
    f["samples"] = samples;
    f["shapes"] = shapes;
    f["seed"] = seed;
    f["median_abs_rel_err"] = s1.median;
    f["mean_abs_rel_err"] = s1.mean;
    f["worst_abs_rel_err"] = s1.worst;
    f["spearman_rho"] = rho;
    f["uncalibrated_median_abs_rel_err"] = s0.median;
    f["uncalibrated_worst_abs_rel_err"] = s0.worst;
    return f;
}

void write_calibration_file(const std::string& out, const std::string& text, const std::string& include_key) {
    const std::string tmp = out + ".incomplete";
    {
        std::ofstream o(tmp);
        o << text;
        if (!o) throw std::runtime_error("cannot write " + tmp);
    }
    if (std::rename(tmp.c_str(), out.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp + " to " + out);
    std::cout << "calibration written to " << out << " (include it with " << include_key
              << ": <path relative to the config>)\n";
}

}  // namespace vp::refine
