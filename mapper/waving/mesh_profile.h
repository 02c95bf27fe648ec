#pragma once
// The timing-relevant shape of a core's work, from one walk of the loop nest (the same
// tiling::LoopNest the ASIP core model replays): a compact list of entries, each either
//   * a waited-for DMA op (N_dram_init: the core stalls until it is done), together with the
//     overlapped ops queued before it (the DMA engine serves its queue in order), or
//   * a row: one Compute op and the overlapped DMA ops posted since the previous entry (the
//     next row's prefetch and the previous row's write-back), which run while it computes.
// Each entry carries the transfers (NoC packets with data, <= max_payload_bytes), the DRAM
// bursts they touch (counted on the real addresses: a 64-B transfer that is not burst-aligned
// reads two bursts), the flits into and out of the core, and the number of DMA descriptors.
// Equal entries are merged with a count, so a profile has tens of entries, not one per row.
#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "mapper/tiling/loop_nest.h"
#include "mapper/waving/mesh_map_params.h"
#include "mapper/waving/run_totals.h"

namespace vp::mapper::waving {

struct XferFeatures {
    std::uint64_t transfers = 0;  // data-carrying transactions (one request packet each)
    std::uint64_t bursts = 0;     // DRAM bursts touched (burst_bytes granularity)
    std::uint64_t flits_in = 0;   // flits ejected at the core (read responses, write acks)
    std::uint64_t flits_out = 0;  // flits injected by the core (read requests, write data)
    std::uint64_t dma_ops = 0;    // DMA descriptors programmed
    std::uint64_t reads = 0;      // transfers of load ops (the rest are writes)
    bool operator==(const XferFeatures& o) const {
        return transfers == o.transfers && bursts == o.bursts && flits_in == o.flits_in && flits_out == o.flits_out &&
               dma_ops == o.dma_ops && reads == o.reads;
    }
    XferFeatures& operator+=(const XferFeatures& o);
};

struct ProfileEntry {
    bool wait = false;             // true: a waited-for op; false: a row (compute + overlapped DMA)
    std::uint64_t compute = 0;     // core cycles of the row's Compute op (comp + pfetch)
    XferFeatures x;
    std::uint64_t count = 1;       // how many times this entry occurs
    bool same(const ProfileEntry& o) const { return wait == o.wait && compute == o.compute && x == o.x; }
};

struct OpProfile {
    std::vector<ProfileEntry> entries;
    // Row activations of the core's own access stream (its DRAM pages replayed in op order on one
    // open row per bank) and the transfers they were counted over; 0 and 0 without DRAM figures.
    double activations = 0, requests = 0;
    // How much more the active cores' concurrent loads pile up on the DRAM banks than if the cores
    // sat at random places (lockstep_bank_factor; 1: as random, the default; <= 1): the banks in use
    // are multiplied by it. Not merged by add.
    double bank_factor = 1.0;
    void add(const ProfileEntry& e);       // merges with the last entry when equal
    void add(const OpProfile& o, std::uint64_t times = 1);
    void compact();                        // merges equal entries anywhere (sorted, deterministic)
};

// The index in [0, 2^bits()) of an address's bank: its bits under `bank_mask` gathered (a shift
// where they are contiguous).
class BankIndex {
public:
    explicit BankIndex(std::uint64_t bank_mask);
    std::size_t bits() const { return m_bits.size(); }
    std::size_t operator()(std::uint64_t a) const {
        return m_contiguous ? std::size_t((a & m_mask) >> m_shift) : gather(a);
    }

private:
    std::size_t gather(std::uint64_t a) const;
    std::uint64_t m_mask;
    std::vector<unsigned> m_bits;
    unsigned m_shift = 0;
    bool m_contiguous = true;
};

// Row activations of one core's access stream: its DMA segments replayed in order on one open
// row per bank (the bank and row bits of DramFigures' masks; no masks: nothing is counted). An
// address range is walked in chunks (the lowest bit of the masks: a page changes only there), and
// where no two chunks share a page the walk stops looking up the banks once each has had a chunk
// of the op (every later chunk is then an activation) and finds the rows the op leaves open from
// its end, so an op costs O(banks) lookups. tests/unit/tiling/test_mesh_pages.cpp checks it
// against a byte-by-byte replay.
class PageReplay {
public:
    explicit PageReplay(const DramFigures& dram);
    bool active() const { return m_chunk != 0; }
    // The activations of n_segs segments of seg_bytes, seg_stride apart, from addr.
    std::uint64_t add(std::uint64_t addr, std::uint64_t n_segs, std::uint64_t seg_bytes, std::uint64_t seg_stride);
    // Of all activations so far, those of a bank that had no row open yet (the rest are row
    // conflicts: another row was open).
    std::uint64_t first_opens() const { return m_first_opens; }

private:
    static constexpr std::uint64_t kClosed = ~std::uint64_t(0);
    std::size_t bank_of(std::uint64_t a) const { return m_bank(a); }
    BankIndex m_bank;
    std::uint64_t m_row_mask = 0, m_chunk = 0;
    unsigned m_shift = 0;  // log2(chunk)
    bool m_injective = false;
    std::vector<std::uint64_t> m_open;           // the open row per bank (kClosed: none)
    std::vector<std::uint32_t> m_seen, m_left;   // per bank: the op (epoch) that last saw / left it
    std::uint32_t m_epoch = 0;
    std::uint64_t m_first_opens = 0;
};

// The loads of one slice run's walk, kept for lockstep_bank_factor: an entry is the DMA ops
// between two Compute ops (what the core has in flight together); at most max_entries entries are
// kept, spread evenly over the walk (every stride-th entry; the stride doubles when they are full).
struct BankSample {
    std::uint64_t addr = 0, seg_bytes = 0, n_segs = 0, seg_stride = 0;
    std::uint8_t tensor = 0;  // 0: ifmap, 1: weights, 2: ofmap (partial sums and outputs)
};
class BankSampler {
public:
    explicit BankSampler(std::size_t max_entries = 16) : m_max(max_entries) {}
    void op(const tiling::Op& op);  // a DMA op of the current entry
    void end_entry();               // a Compute op
    const std::vector<std::vector<BankSample>>& entries() const { return m_kept; }

private:
    std::size_t m_max;
    std::uint64_t m_index = 0, m_stride = 1;  // entries seen; every m_stride-th is kept
    bool m_open = false;                      // the current entry has a DMA op
    std::vector<BankSample> m_cur;
    std::vector<std::vector<BankSample>> m_kept;
};

// Byte offsets of a core's tensors (ifmap, weights, ofmap) when its first slice is (group, of0, ox0)
// instead of (0, 0, 0): the loop nest's addresses are linear in them (tiling::LoopNest).
using TensorOffsets = std::array<std::uint64_t, 3>;
TensorOffsets tensor_offsets(const tiling::ConvShape& shape, int group, int of0, int ox0, const tiling::AsipParams& asip);

// The k active cores run the same loop nest in lockstep, core c at its offsets. For each sampled
// entry, the DRAM pages (bank and row bits of `dram`) the cores' loads touch (at most 4 segments of
// an op, 16 pages of a segment): with a_b the rows on bank b (a page two cores share counts once),
// a row change meets sum a_b^2 / sum a_b rows on its bank; at random places the cores' N pages
// (each core's counted once) would fall on the B banks independently, 1 + (N - 1) / B, as
// PhasedMeshModel::activation_price assumes. The factor is the second over the first, weighted by
// the entries' bursts (one core's), at most 1: below 1 when the cores' strides alias their loads
// onto the same banks in different rows. An entry whose loads of core 0 touch every bank (up to 256
// segments of an op looked at) counts as at random. 1 for k < 2 or without bank bits.
double lockstep_bank_factor(const std::vector<std::vector<BankSample>>& entries, const std::vector<TensorOffsets>& cores,
                            const DramFigures& dram);

// Features of one DMA op: transfers, bursts (burst_bytes from the DRAM figures; 64 if unset), flits.
XferFeatures op_features(const tiling::Op& op, const PacketFormat& fmt, unsigned burst_bytes);

// Profiles of one slice run: `filters` gets the LoadFilter ops (once per run and (of, if) tile,
// whatever the number of stitched slices), `other` everything else. Either may be null.
// `totals`, if not null, gets measure_run's totals of the same walk (one walk for both).
void profile_run(const tiling::ConvShape& shape, const tiling::SliceRun& run, const tiling::Tiling& t,
                 const tiling::AsipParams& asip, const PacketFormat& fmt, unsigned burst_bytes, OpProfile* filters,
                 OpProfile* other, RunTotals* totals = nullptr, const DramFigures* dram = nullptr,
                 BankSampler* sampler = nullptr);

// Row conflicts of a layer's cores running the same loop nest in lockstep (a measurement aid for
// `vp-calibrate --row-conflicts`; no time model uses it). Each core's runs are walked as
// profile_run cuts them into entries, every burst's DRAM page (bank, row) from the masks of
// `dram` (0 and 0: nothing counted). `own`: the bursts that find another row open when each
// core's accesses are replayed alone, in order, on one open row per bank. `interleaved`: at
// entry index e, an access of core i to page p finds another row open with probability
//   sum_{j != i} pi_j(bank of p, other rows) / (1 + sum_{j != i} pi_j(bank of p)),
// pi_j(.) the share of core j's entry-e bursts on those pages: the k streams interleaved at
// random, each at one of its entry's pages in proportion to its bursts (summed over bursts).
using DramPage = std::pair<std::uint64_t, std::uint64_t>;  // (bank bits, row bits) of an address
using PageBursts = std::map<DramPage, double>;              // bursts per page
// The interleaved part alone: entries[core][e] = the bursts per page of core's entry e.
double interleaved_row_conflicts(const std::vector<std::vector<PageBursts>>& entries);
struct RowConflictEstimate {
    double bursts = 0, own = 0, interleaved = 0;
    // Direction changes (a load after a store or a store after a load) between consecutive DMA
    // ops of a core, summed over the cores: on one core, the DRAM's bus turnarounds.
    double direction_changes = 0;
};
RowConflictEstimate lockstep_row_conflicts(const tiling::ConvShape& shape,
                                           const std::vector<std::vector<std::pair<tiling::SliceRun, tiling::Tiling>>>& cores,
                                           const tiling::AsipParams& asip, const PacketFormat& fmt, const DramFigures& dram);

}  // namespace vp::mapper::waving
