#pragma once
// One TLE processor (seed 000): a controller that replays the TSO tile sequence of its
// slice (mapper/tso/tile_walker.h), one DMA engine serving its TLTs (IN tiles multicast
// to all of them, W/OUT tiles per TLT) and the TLT cores.
#include <memory>
#include <vector>

#include <systemc>

#include "mapper/tso/tso.h"
#include "models/common/payload_pool.h"
#include "models/common/stats.h"
#include "models/nmp/dma_engine.h"
#include "models/nmp/nmp_model_params.h"
#include "models/nmp/tlt.h"

namespace vp::nmp {

class NmpSystem;

// DRAM placement of one layer's tensors (row-major: IN [C][H][W], W [K][C/g][R][S],
// OUT [K][P][Q]).
struct LayerAddresses {
    std::uint64_t in = 0, w = 0, out = 0;
};

class Tle : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Tle);
    Tle(sc_core::sc_module_name name, int id, const NmpModelParams& p, NmpSystem& sys, PayloadPool& pool,
        stats::Group& parent);

    DmaEngine& dma() { return *m_dma; }
    Tlt& tlt(int j) { return *m_tlts[std::size_t(j)]; }
    int n_tlt() const { return int(m_tlts.size()); }
    std::uint64_t macs() const;
    void finish(const sc_core::sc_time& span);

private:
    void run();
    void execute(const mapper::tso::ConvMapping& m, const LayerAddresses& a);
    void wait_until(const sc_core::sc_time& t);

    int m_id;
    NmpModelParams m_p;
    NmpSystem& m_sys;
    stats::Group m_stats;
    std::unique_ptr<DmaEngine> m_dma;
    std::vector<std::unique_ptr<Tlt>> m_tlts;
    stats::Counter m_layers, m_wait_cycles;
};

}  // namespace vp::nmp
