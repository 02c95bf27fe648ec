#pragma once
// Closed queueing networks solved exactly, for the mesh mapper's queueing time model.
//   mva_exact             exact Mean Value Analysis (Reiser and Lavenberg, "Mean-Value Analysis of
//                         Closed Multichain Queuing Networks", single chain) of a product-form
//                         network of load-independent queueing stations (FCFS, one server) and
//                         delay stations (infinite servers), populations 1..N.
//   closed_delay_station  a delay station Z in a loop with one load-dependent station that serves
//                         mu(j) customers per unit time when j are present (a flow-equivalent server,
//                         e.g. a subnetwork with a population cap: mu(j) = X_sub(min(j, C))); the
//                         two-station network is a birth-death chain, solved exactly in O(N).
// Times in any unit; demands = visits x service time per customer cycle.
#include <vector>

namespace vp::mapper::waving {

struct MvaStation {
    double demand = 0;   // service demand per customer cycle
    bool delay = false;  // true: infinite servers (no queueing), false: one FCFS server
};

struct MvaPoint {
    double throughput = 0;  // customers per unit time (X)
    double response = 0;    // time a customer spends in the stations per cycle (R = N / X - think)
};

// Populations 1..n_max: result[n - 1]. Empty stations or n_max < 1: empty result.
std::vector<MvaPoint> mva_exact(const std::vector<MvaStation>& stations, int n_max);

struct ClosedPoint {
    double throughput = 0;  // X
    double response = 0;    // mean time at the load-dependent station per visit (N / X - Z)
    double mean_queue = 0;  // mean customers at the load-dependent station
};

// N customers; rate(j) for j = 1..N is rates[min(j, rates.size()) - 1] (so a capped subnetwork
// passes its throughputs for populations 1..C). Z > 0; rates positive.
ClosedPoint closed_delay_station(double think, const std::vector<double>& rates, int n);

}  // namespace vp::mapper::waving
