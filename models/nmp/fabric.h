#pragma once
// The fabric from one TLE's DMA engine to its TLTs (Tensor Slicing and Optimization for
// Multicore NPUs: "a single DMA engine per TLE which has to serve all 8 TLT cores", IN tiles
// MULTICAST into their MB0). Opt-in (nmp.fabric.enabled); every figure is an ASSUMPTION.
//
// One input port per TLT, bytes_per_cycle wide, latency_cycles from the DMA engine to the TLT
// memory. A transfer holds ports for ceil(bytes / bytes_per_cycle) cycles:
//   multicast (IN tile)  every target TLT's port at once (one beat written into all MB0s)
//   load (W tile)        its TLT's port
//   store (OUT tile)     its TLT's port (the TLT memories are single-ported: a port moves data
//                        in or out, not both)
// Arbitration: first come, first served in the order the TLE's controller issues the transfers
// (FIFO; the DMA engine is the fabric's only requester and issues in order, so round robin
// between requesters would not differ). A transfer starts when all its ports are free:
//   start = max(request, free time of each of its ports)
// and holds them until end = max(start + ceil(bytes / bytes_per_cycle) cycles, data_end)
// (data_end: a load streams its DRAM data through the fabric as it arrives, so its ports are
// held at least until the last DRAM response); its data is in the TLT memories (or, for a
// store, in the DMA engine) at end + latency_cycles.
//
// The arithmetic is on sc_time only (no SystemC process): the controller calls transfer() with
// the request and data times it knows. Statistics (registered under <tle>.fabric):
// per kind transfers, bytes, wait cycles (request to start) and contention cycles (the part of
// the wait spent on a port held by the other kind: a multicast behind a load/store, a load or
// store behind a multicast); per port bytes, busy cycles, wait and contention cycles of the
// transfers through it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "mapper/tso/nmp_params.h"
#include "models/common/stats.h"
#include "models/common/trace.h"

namespace vp::nmp {

enum class FabricKind : std::uint8_t { Multicast = 0, Load = 1, Store = 2 };

class Fabric {
public:
    struct Xfer {
        sc_core::sc_time start, end, ready;  // ports held [start, end); data delivered at ready
    };

    // `cycle_s`: the TLT clock period [s]. `tracer` (may be null): <group>.port[j].busy (1 bit) per port.
    Fabric(stats::Group& parent, int n_ports, const mapper::tso::FabricParams& p, double cycle_s,
           trace::Tracer* tracer = nullptr);

    // Schedules a transfer of `bytes` over `ports` requested at `request` whose data cannot
    // leave the fabric before `data_end` (SC_ZERO_TIME: no bound). Records its statistics.
    Xfer transfer(FabricKind kind, const std::vector<int>& ports, std::uint64_t bytes, const sc_core::sc_time& request,
                  const sc_core::sc_time& data_end = sc_core::SC_ZERO_TIME);
    // Tracing only: a load about to start its DRAM phase at `request` will call transfer() for
    // `ports` when it ends; its ports are drawn busy from their start until then (cut-through).
    void announce(const std::vector<int>& ports, const sc_core::sc_time& request);
    // Time at which every port is free (the end of the last reservation).
    sc_core::sc_time idle_at() const;
    // Closes the cycle statistics (call once at the end).
    void finish();
    // Busy signals: SC_METHOD of the owner calls this at `now`; returns the next change (or
    // SC_ZERO_TIME when none is scheduled).
    sc_core::sc_time trace(const sc_core::sc_time& now);
    bool traced() const { return m_traced; }

private:
    struct Hold {
        sc_core::sc_time start, end;
        FabricKind kind;
    };
    struct Port {
        sc_core::sc_time free;
        std::vector<Hold> recent;  // reservations not ended before the last request
        sc_core::sc_time busy_t, wait_t, contention_t;
        std::unique_ptr<stats::Group> group;
        std::unique_ptr<stats::Counter> bytes;
        std::unique_ptr<stats::Scalar> busy, wait, contention;
        trace::Signal* sig = nullptr;
        std::vector<std::pair<sc_core::sc_time, sc_core::sc_time>> holds;  // traced only: pending [start, end)
    };
    static bool other_kind(FabricKind a, FabricKind b) {
        return (a == FabricKind::Multicast) != (b == FabricKind::Multicast);
    }

    mapper::tso::FabricParams m_p;
    double m_cycle_s;
    stats::Group m_stats;
    std::vector<Port> m_ports;
    sc_core::sc_time m_wait_t[3], m_contention_t[3];
    std::unique_ptr<stats::Counter> m_xfers[3], m_bytes[3];
    std::unique_ptr<stats::Scalar> m_wait[3], m_contention[3];
    stats::Counter m_port_bytes;
    bool m_traced = false;
};

}  // namespace vp::nmp
