#pragma once
// One TLT core (Tensor Slicing and Optimization for Multicore NPUs): MB0 (IN), MB1 (W), MB2 (OUT) SRAMs and a MAC unit running
// nmp_conv2d. Its TLE's controller drives it; the core keeps the time its MAC unit is busy
// until, so that a load into one of its (single-ported) memories waits for the compute
// that reads it ("TLTs that are waiting for data get idle").
//
// The memories are a TLM-2.0 target (`socket`, blocking transport): the TLE's DMA engine
// writes IN tiles into MB0 and W tiles into MB1 and reads OUT tiles out of MB2, one
// transaction per tile, at the addresses below. The transport carries no delay: when a tile
// arrives is the DMA engine's and the fabric's timing (dma_engine.h, fabric.h). The model is
// not functional (no tensor values), so the target checks that the tile fits and counts its
// bytes; it neither reads nor writes the payload's data array.
#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "mapper/tso/nmp_params.h"
#include "mapper/tso/tile_walker.h"
#include "models/common/stats.h"

namespace vp::nmp {

// An ignorable extension on an MB2 read: the OUT tile goes to the ring as a partial sum
// (IFM-channel slicing) instead of to DRAM. Only the TLT's statistics read it.
struct RingPartial : tlm::tlm_extension<RingPartial> {
    tlm::tlm_extension_base* clone() const override { return new RingPartial(*this); }
    void copy_from(const tlm::tlm_extension_base&) override {}
};

class Tlt : public sc_core::sc_module {
public:
    // The TLT's local address map: one region per memory (a tile transaction starts at the base).
    static constexpr std::uint64_t kMb0 = 0x0000'0000, kMb1 = 0x0100'0000, kMb2 = 0x0200'0000, kRegion = 0x0100'0000;
    tlm_utils::simple_target_socket<Tlt> socket;

    // `stats_name`: its statistics group under `parent` (tlt[j]).
    Tlt(sc_core::sc_module_name name, stats::Group& parent, const std::string& stats_name,
        const mapper::tso::NmpParams& arch);

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

    // Idle cycles = span - busy; call once at the end.
    void finish(const sc_core::sc_time& span);

    // DMA into / out of this TLT's memories (TltState Load / Store) or done (Idle), at `ps`.
    void set_dma_state(unsigned s, std::uint64_t ps) { m_state.set(s, ps); }

    std::uint64_t macs() const { return m_macs.value(); }
    std::uint64_t busy_cycles() const { return m_busy.value(); }

private:
    // MB0/MB1 writes (loads), MB2 reads (stores, ring partials). A tile that does not fit its
    // memory throws vp::SimulationError naming the TLT; any other access is an address or
    // command error response.
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
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
