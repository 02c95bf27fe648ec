#pragma once
// The host CPU of a VTA system (Compilation and Execution of an Embeddable YOLO-NAS on the VTA, its listings): pulls programs from a job source (the network
// driver, or a single compiled IR program), charges the host time model, writes each program
// image into DRAM (backing store: the host's writes are not modelled as bus traffic), launches
// the core, waits for FINISH, reads the stored output back and hands it to the job sink.
// One record per program (cycles, host time, compiler statistics) feeds the mapping report.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "mapper/vta/cycle_estimate.h"
#include "mapper/vta/network_driver.h"
#include "models/common/sim_control.h"
#include "models/dram/backing_store.h"
#include "models/vta/vta_core.h"

namespace vp::vta {

struct ProgramRecord {
    std::size_t layer = 0;
    int part = 0, parts = 1;
    std::string name;
    int strategy = 1;
    int virtual_threads = 1;             // 2: compiled with double buffering
    std::string partition;               // partition kind (fits, strategy1 ...)
    mapper::vta::CompileStats stats;     // expected counters (compiler)
    std::uint64_t cycles = 0;            // simulated core cycles, launch to FINISH
    std::uint64_t gemm_uops = 0, macs = 0;  // simulated (core counters, this program)
    std::uint64_t dram_bytes = 0;           // bytes the four DMA ports moved (this program, insn fetch included)
    double host_ns = 0;
    double start_ns = 0, end_ns = 0;     // simulated time of launch / FINISH
    mapper::vta::CycleEstimate estimate;  // analytic estimate (cycle_estimate.h)
};

class VtaHost : public sc_core::sc_module {
public:
    using Next = std::function<bool(mapper::vta::ProgramJob&)>;
    using Complete = std::function<void(const mapper::vta::ProgramJob&, const std::vector<std::int8_t>&)>;

    SC_HAS_PROCESS(VtaHost);
    VtaHost(sc_core::sc_module_name name, VtaCore& core, dram::BackingStore& store, SimControl* ctrl, Next next,
            Complete complete, const mapper::vta::EstimateParams& est);

    const std::vector<ProgramRecord>& records() const { return m_records; }
    bool finished() const { return m_finished; }
    double host_ns() const { return m_host_ns; }
    // An exception thrown by the job source (bad input found while lowering, compiler limits):
    // the host stops the kernel; the platform rethrows it after the run.
    const std::string& input_error() const { return m_input_error; }
    const std::string& error() const { return m_error; }

private:
    void run();
    void run_jobs();
    std::uint64_t dma_bytes() const;

    VtaCore& m_core;
    dram::BackingStore& m_store;
    SimControl* m_ctrl;
    Next m_next;
    Complete m_complete;
    mapper::vta::EstimateParams m_est;
    std::vector<ProgramRecord> m_records;
    std::vector<std::uint8_t> m_buf;  // reused read-back buffer
    bool m_finished = false;
    std::string m_input_error, m_error;
    double m_host_ns = 0;
};

}  // namespace vp::vta
