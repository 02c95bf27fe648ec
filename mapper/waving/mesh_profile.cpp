#include "mapper/waving/mesh_profile.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace vp::mapper::waving {

XferFeatures& XferFeatures::operator+=(const XferFeatures& o) {
    transfers += o.transfers;
    bursts += o.bursts;
    flits_in += o.flits_in;
    flits_out += o.flits_out;
    dma_ops += o.dma_ops;
    reads += o.reads;
    return *this;
}

void OpProfile::add(const ProfileEntry& e) {
    if (!entries.empty() && entries.back().same(e)) {
        entries.back().count += e.count;
        return;
    }
    entries.push_back(e);
}

void OpProfile::add(const OpProfile& o, std::uint64_t times) {
    for (ProfileEntry e : o.entries) {
        e.count *= times;
        add(e);
    }
}

void OpProfile::compact() {
    auto key = [](const ProfileEntry& e) {
        return std::make_tuple(e.wait, e.compute, e.x.transfers, e.x.bursts, e.x.flits_in, e.x.flits_out, e.x.dma_ops,
                               e.x.reads);
    };
    std::sort(entries.begin(), entries.end(), [&](const ProfileEntry& a, const ProfileEntry& b) { return key(a) < key(b); });
    std::vector<ProfileEntry> out;
    for (const auto& e : entries) {
        if (!out.empty() && out.back().same(e)) out.back().count += e.count;
        else out.push_back(e);
    }
    entries.swap(out);
}

namespace {

// Bursts touched by `bytes` at byte offset `off` within a burst.
inline std::uint64_t bursts_of(std::uint64_t off, std::uint64_t bytes, std::uint64_t bb) {
    return bytes ? (off + bytes + bb - 1) / bb : 0;
}

}  // namespace

XferFeatures op_features(const tiling::Op& op, const PacketFormat& fmt, unsigned burst_bytes) {
    XferFeatures x;
    if (!op.is_dma() || op.n_segs == 0 || op.seg_bytes == 0) return x;
    const std::uint64_t bb = burst_bytes ? burst_bytes : 64;
    const std::uint64_t maxp = std::uint64_t(fmt.max_payload_bytes);
    const std::uint64_t full = op.seg_bytes / maxp, rem = op.seg_bytes % maxp;
    const std::uint64_t per_seg = full + (rem ? 1 : 0);
    x.dma_ops = 1;
    x.transfers = std::uint64_t(op.n_segs) * per_seg;
    // Bursts: the offsets of the segment starts within a burst repeat with a period that divides
    // bb, so at most bb segments are walked (segments are cut into transfers like
    // for_each_transfer: pieces of maxp bytes from the segment start).
    const std::uint64_t n = op.n_segs;
    // Segment s + P starts at the same offset within a burst as segment s for P = bb / gcd(stride, bb).
    const std::uint64_t period = std::min<std::uint64_t>(n, bb / std::gcd(op.seg_stride % bb, bb));
    std::uint64_t per_period = 0, tail = 0;
    const std::uint64_t reps = n / period, extra = n % period;
    for (std::uint64_t s = 0; s < period; ++s) {
        const std::uint64_t base = op.dram_addr + s * op.seg_stride;
        std::uint64_t b = 0;
        for (std::uint64_t off = 0; off < op.seg_bytes; off += maxp) {
            const std::uint64_t len = std::min(maxp, op.seg_bytes - off);
            b += bursts_of((base + off) % bb, len, bb);
        }
        per_period += b;
        if (s < extra) tail += b;
    }
    x.bursts = reps * per_period + tail;
    const std::uint64_t hdr = std::uint64_t(fmt.header_flits);
    const std::uint64_t fb = std::uint64_t(fmt.flit_bits);
    const std::uint64_t data_flits = n * (full * ((maxp * 8 + fb - 1) / fb) + (rem ? (rem * 8 + fb - 1) / fb : 0));
    if (op.is_load()) {
        x.reads = x.transfers;
        x.flits_out = x.transfers * hdr;
        x.flits_in = x.transfers * hdr + data_flits;
    } else {
        x.flits_out = x.transfers * hdr + data_flits;
        x.flits_in = fmt.write_ack ? x.transfers * hdr : 0;
    }
    return x;
}

void profile_run(const tiling::ConvShape& shape, const tiling::SliceRun& run, const tiling::Tiling& t,
                 const tiling::AsipParams& asip, const PacketFormat& fmt, unsigned burst_bytes, OpProfile* filters,
                 OpProfile* other, RunTotals* totals) {
    tiling::LoopNest nest(shape, run, t, asip);
    ProfileEntry pending;  // overlapped ops since the last entry
    pending.x = XferFeatures{};
    nest.for_each([&](const tiling::Op& op) {
        if (totals) add_op(*totals, op, fmt);
        if (!op.is_dma()) {
            ProfileEntry e = pending;
            e.wait = false;
            e.compute = op.comp_cycles + op.pfetch_cycles;
            if (other) other->add(e);
            pending = ProfileEntry{};
            return;
        }
        const XferFeatures f = op_features(op, fmt, burst_bytes);
        if (!op.wait) {
            pending.x += f;
            return;
        }
        ProfileEntry e = pending;  // queued before it: served first
        e.wait = true;
        e.compute = 0;
        e.x += f;
        pending = ProfileEntry{};
        if (op.kind == tiling::OpKind::LoadFilter) {
            if (filters) filters->add(e);
        } else if (other) {
            other->add(e);
        }
    });
    if (pending.x.dma_ops && other) {  // cannot happen (the drain is waited for); kept for safety
        pending.wait = true;
        other->add(pending);
    }
}

double interleaved_row_conflicts(const std::vector<std::vector<PageBursts>>& ent) {
    double conflicts = 0;
    std::size_t steps = 0;
    for (const auto& e : ent) steps = std::max(steps, e.size());
    for (std::size_t e = 0; e < steps; ++e) {
        // pi_j(page): core j's share of its entry-e bursts on a page.
        std::vector<PageBursts> pi(ent.size());
        for (std::size_t j = 0; j < ent.size(); ++j) {
            if (e >= ent[j].size()) continue;
            double tot = 0;
            for (const auto& [p, n] : ent[j][e]) tot += n;
            if (tot > 0)
                for (const auto& [p, n] : ent[j][e]) pi[j][p] = n / tot;
        }
        for (std::size_t i = 0; i < ent.size(); ++i) {
            if (e >= ent[i].size()) continue;
            for (const auto& [p, n] : ent[i][e]) {
                double same_bank = 0, other_row = 0;
                for (std::size_t j = 0; j < ent.size(); ++j) {
                    if (j == i) continue;
                    for (const auto& [q, w] : pi[j]) {
                        if (q.first != p.first) continue;
                        same_bank += w;
                        if (q.second != p.second) other_row += w;
                    }
                }
                conflicts += n * other_row / (1.0 + same_bank);
            }
        }
    }
    return conflicts;
}

RowConflictEstimate lockstep_row_conflicts(const tiling::ConvShape& shape,
                                           const std::vector<std::vector<std::pair<tiling::SliceRun, tiling::Tiling>>>& cores,
                                           const tiling::AsipParams& asip, const PacketFormat& fmt, const DramFigures& dram) {
    RowConflictEstimate out;
    const std::uint64_t maxp = std::uint64_t(fmt.max_payload_bytes);
    if ((!dram.bank_mask && !dram.row_mask) || maxp == 0) return out;
    const std::uint64_t bb = dram.burst_bytes ? dram.burst_bytes : 64;
    std::vector<std::vector<PageBursts>> ent(cores.size());
    for (std::size_t c = 0; c < cores.size(); ++c) {
        PageBursts cur;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> open;  // own replay: (bank, row)
        int last_dir = -1;  // the previous DMA op: 0 load, 1 store
        auto close = [&]() {
            if (!cur.empty()) ent[c].push_back(cur);
            cur.clear();
        };
        for (const auto& [run, t] : cores[c]) {
            tiling::LoopNest nest(shape, run, t, asip);
            nest.for_each([&](const tiling::Op& op) {
                if (!op.is_dma()) {
                    close();
                    return;
                }
                const int dir = op.is_store() ? 1 : 0;
                if (last_dir >= 0 && dir != last_dir) out.direction_changes += 1.0;
                last_dir = dir;
                for (std::uint32_t s = 0; s < op.n_segs; ++s) {
                    const std::uint64_t base = op.dram_addr + std::uint64_t(s) * op.seg_stride;
                    for (std::uint64_t off = 0; off < op.seg_bytes; off += maxp) {
                        const std::uint64_t len = std::min(maxp, op.seg_bytes - off);
                        for (std::uint64_t b = (base + off) / bb; b <= (base + off + len - 1) / bb; ++b) {
                            const std::uint64_t a = b * bb;
                            const DramPage p{a & dram.bank_mask, a & dram.row_mask};
                            cur[p] += 1.0;
                            out.bursts += 1.0;
                            auto it = std::find_if(open.begin(), open.end(), [&](const auto& q) { return q.first == p.first; });
                            if (it == open.end()) open.emplace_back(p);
                            else if (it->second != p.second) out.own += 1.0, it->second = p.second;
                        }
                    }
                }
                if (op.wait) close();
            });
        }
        close();
    }
    out.interleaved = interleaved_row_conflicts(ent);
    return out;
}

}  // namespace vp::mapper::waving
