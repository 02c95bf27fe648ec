#pragma once
// A DRAM trace replayed as a workload ("kind": "dram_trace"): a DRAMSys STL file
// (requests issued at their time stamps, or as fast as accepted) or a Ramulator 2
// LoadStoreTrace file (as fast as accepted), at most max_outstanding in flight.
#include <cstdint>
#include <string>

namespace vp::tgen {

struct TracePlayerParams {
    std::string name = "trace";
    std::string path;                  // the trace file (resolved against the workload file's folder)
    std::string format = "auto";       // auto (.stl / .trace) | stl | loadstore
    unsigned bytes = 64;               // size of a request without "(length)" (stl) / of every line (loadstore)
    std::uint64_t clock_ps = 0;        // period of an STL cycle; 0: the DRAM's tCK (what dram.record_trace writes)
    bool timed = true;                 // stl: wait for each line's time stamp (false: as fast as accepted)
    unsigned max_outstanding = 32;     // transactions in flight at once
    bool verify = true;                // check read data against the trace's own earlier writes
    void validate(const std::string& prefix) const;
};

}  // namespace vp::tgen
