#pragma once
// One TLT core (Tensor Slicing and Optimization for Multicore NPUs): MB0 (IN), MB1 (W), MB2 (OUT) SRAMs and a MAC unit running
// nmp_conv2d. Its TLE's controller drives it; the core keeps the time its MAC unit is busy
// until, so that a load into one of its (single-ported) memories waits for the compute
// that reads it ("TLTs that are waiting for data get idle").
#include <cstdint>
#include <string>

#include <systemc>

#include "mapper/tso/nmp_params.h"
#include "mapper/tso/tile_walker.h"
#include "models/common/stats.h"

namespace vp::nmp {

class Tlt {
public:
    Tlt(stats::Group& parent, const std::string& name, const mapper::tso::NmpParams& arch);

    // nmp_conv2d on the loaded tiles: starts when the MAC unit is free, takes Eq. 7 cycles
    // plus the RISC-V control (T_SW): issue (sw_cycles_per_instr), loop bookkeeping, and a
    // sync per DMA completion noted since the last one (NmpParams::control).
    void compute(const mapper::tso::TileOp& op);
    // A DMA transfer into / out of this TLT's memories completed: its core will wait for it.
    void note_transfer() { ++m_pending_syncs; }
    // The fabric delivers a loaded tile into this TLT's memories at `t`: its next compute
    // starts no earlier (without the fabric the data is there when the DMA transfer ends).
    void data_ready(const sc_core::sc_time& t) {
        if (t > m_ready) m_ready = t;
    }
    // IFM-channel reduction at the owner: adds `partials` partial OUT tiles of `elems`
    // elements into MB2 on the MAC unit, one element per MAC lane and cycle (ASSUMPTION),
    // when the unit is free; no MACs, counted in busy_cycles and reduce_cycles.
    void reduce(std::uint64_t elems, std::uint64_t partials);
    const sc_core::sc_time& busy_until() const { return m_busy_until; }
    // Start of the MAC unit's current (or last) busy interval; back-to-back computes merge.
    const sc_core::sc_time& busy_from() const { return m_busy_from; }

    // Bytes arriving in / leaving a memory; throws vp::SimulationError if a tile does not fit.
    void load_in(std::uint64_t bytes);
    void load_w(std::uint64_t bytes);
    void store_out(std::uint64_t bytes);
    // A partial OUT tile leaving MB2 for the ring (IFM-channel slicing).
    void send_partial(std::uint64_t bytes);
    // Idle cycles = span - busy; call once at the end.
    void finish(const sc_core::sc_time& span);

    // DMA into / out of this TLT's memories (TltState Load / Store) or done (Idle), at `ps`.
    void set_dma_state(unsigned s, std::uint64_t ps) { m_state.set(s, ps); }

    std::uint64_t macs() const { return m_macs.value(); }
    std::uint64_t busy_cycles() const { return m_busy.value(); }

private:
    void check_fit(std::uint64_t bytes, int capacity, const char* mem) const;

    mapper::tso::NmpParams m_arch;
    sc_core::sc_time m_period;
    sc_core::sc_time m_busy_until = sc_core::SC_ZERO_TIME;
    sc_core::sc_time m_busy_from = sc_core::SC_ZERO_TIME;
    sc_core::sc_time m_ready = sc_core::SC_ZERO_TIME;  // last fabric delivery into its memories
    stats::Group m_stats;
    stats::ScheduledCounter m_macs;  // spread over each nmp_conv2d's busy interval in the epoch samples
    std::uint64_t m_pending_syncs = 0;
    stats::Counter m_sw, m_busy, m_instr, m_bytes_in, m_bytes_w, m_bytes_out, m_idle, m_reduce, m_bytes_sent;
    stats::StateTime m_state;  // <tlt>.state: idle / load / compute / store, as the VCD signal (TltState)
};

}  // namespace vp::nmp
