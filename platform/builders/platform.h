#pragma once
// A simulated platform built from a PlatformSpec and a Workload. vp-run elaborates it,
// runs the kernel, then asks it for its invariants, summary and extra outputs.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/common/payload_pool.h"
#include "models/common/protocol_checker.h"
#include "models/common/sim_control.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "platform/config/platform_spec.h"
#include "platform/run/input_check.h"
#include "platform/run/output_dir.h"
#include "platform/workload/workload.h"

namespace vp::platform {

// Inputs that run::check_run_inputs accepted (a builder relies on those checks) and the run's
// shared objects.
struct RunContext {
    const config::PlatformSpec& spec;
    const workload::Workload& workload;
    const run::CheckedInputs& checked;
    stats::Registry& stats;
    trace::Tracer& tracer;
    SimControl& ctrl;
    PayloadPool& pool;
};

class Platform {
public:
    virtual ~Platform() = default;
    // Platforms whose models step themselves without SystemC processes (synthetic NoC
    // traffic) return false and do their work in run_untimed().
    virtual bool needs_kernel() const { return true; }
    // `at_cycle(now_ps)` (epoch statistics, stop signals) returns the time at which it wants its
    // next call. It is called after the first simulated cycle that ends at or after that time, and
    // in any case after every kUntimedPollCycles cycles.
    static constexpr std::uint64_t kUntimedPollCycles = 1024;
    virtual void run_untimed(const std::function<std::uint64_t(std::uint64_t)>& at_cycle) { (void)at_cycle; }
    // Simulated time of an untimed run (for kernel runs vp-run takes SimControl's end time).
    virtual sc_core::sc_time untimed_end() const { return sc_core::SC_ZERO_TIME; }
    // Called once after the simulation ended (closes time-weighted statistics).
    virtual void finish() = 0;
    // Throws vp::SimulationError when an end-of-run invariant is broken.
    virtual void check_invariants() const = 0;
    // A few readable lines for the terminal.
    virtual void summary(std::ostream& os) const = 0;
    // Extra files (mapping.json ...).
    virtual void write_outputs(const run::OutputDir&) const {}

    // The units whose completion the platform reports through SimControl::add_done(), when
    // they are layers (in completion order); empty for traffic platforms.
    virtual std::vector<std::string> layer_names() const { return {}; }
    // The mapper's estimate of the simulated time in ps, known before the run (0: none).
    virtual double estimated_time_ps() const { return 0.0; }
    // Per-layer figures for layers.json and the report: an array with one object per layer of
    // layer_names() ({"name", "est_cycles", "sim_cycles", "macs", ...}), and the platform's
    // peak compute rate; null when the platform has no layers.
    virtual nlohmann::json layer_report() const { return nullptr; }
    virtual double peak_macs_per_s() const { return 0.0; }
    // Roles of mesh nodes for the report ({"router[0][0]": "DRAM interface", ...}).
    virtual nlohmann::json node_roles() const { return nlohmann::json::object(); }
    // The base-protocol checkers on the platform's AT bindings (sim.check_tlm).
    const tlmcheck::CheckerSet& tlm_checks() const { return m_tlm; }
    // Throws vp::SimulationError when a checker still sees a transaction in flight.
    void check_tlm_quiescent() const;

protected:
    explicit Platform(bool check_tlm = false) : m_tlm(check_tlm) {}
    tlmcheck::CheckerSet m_tlm;  // builders bind initiator to target sockets through it
};

// One summary line of how hard the DRAM worked: data-bus occupancy, row activations against the
// rate tFAW and tRRD allow, bus turnarounds ("  DRAM timing    ..."; nothing without a `dram` group).
void dram_timing_summary(std::ostream& os, const stats::Registry& stats);

// " (calibration FILE)", FILE the name of the calibration file the platform's time model read
// (config::calibration_in_use), or "" when it read none: the summary says which file ran (one per
// DRAM preset, docs/configuration.md).
std::string calibration_note(const config::PlatformSpec& spec);

// Builds the platform named by spec.kind from inputs that run::check_run_inputs accepted; throws
// InputError when the workload does not fit it (a layer no mapping fits, ...).
std::unique_ptr<Platform> build_platform(RunContext& ctx);

}  // namespace vp::platform
