#pragma once
// Parameters of a synthetic-traffic experiment (validated without the SystemC models).
#include <cstdint>
#include <string>

#include "models/noc/noc_params.h"

namespace vp::noc {

struct TrafficParams {
    static constexpr std::uint64_t kDefaultWarmup = 1000;    // cycles
    static constexpr std::uint64_t kDefaultMeasure = 10000;  // cycles
    static constexpr std::uint64_t kDefaultDrainMax = 100000;  // cycles after measurement, at most

    double rate = 0.01;                 // offered load, flits/node/cycle
    std::string pattern = "uniform";
    std::uint32_t packet_flits = 8;     // flits per packet
    double hotspot_fraction = 0.1;      // hotspot pattern only
    std::uint32_t hotspot_node = 0;     // hotspot pattern only
    std::uint64_t seed = 1;
    std::uint64_t warmup_cycles = kDefaultWarmup;
    std::uint64_t measure_cycles = kDefaultMeasure;
    std::uint64_t drain_max_cycles = kDefaultDrainMax;
    bool inject_while_draining = true;  // false: stop all injection after the window and drain the network empty
    // How the Bernoulli packet arrivals are drawn: "bernoulli" (a uniform draw per node and cycle)
    // or "geometric" (per node the gap to its next packet, a geometric draw per packet: the same
    // process in distribution, a different random stream, far fewer draws at low loads).
    std::string injection = "bernoulli";

    void validate(const std::string& key_prefix, const NocParams& noc) const;
};

}  // namespace vp::noc
