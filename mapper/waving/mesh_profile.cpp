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
    activations += o.activations * double(times);
    requests += o.requests * double(times);
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

BankIndex::BankIndex(std::uint64_t bank_mask) : m_mask(bank_mask) {
    for (unsigned i = 0; i < 64; ++i)
        if ((bank_mask >> i) & 1u) m_bits.push_back(i);
    m_contiguous = m_bits.empty() || m_bits.back() - m_bits.front() + 1 == m_bits.size();
    m_shift = m_bits.empty() ? 0 : m_bits.front();
}

std::size_t BankIndex::gather(std::uint64_t a) const {
    std::size_t idx = 0;
    for (std::size_t i = 0; i < m_bits.size(); ++i) idx |= std::size_t((a >> m_bits[i]) & 1u) << i;
    return idx;
}

PageReplay::PageReplay(const DramFigures& dram) : m_bank(dram.bank_mask), m_row_mask(dram.row_mask) {
    const std::uint64_t page_mask = dram.bank_mask | m_row_mask;
    m_chunk = page_mask & (~page_mask + 1);
    if (!m_chunk || m_bank.bits() > 16) {  // no mapping known (or an absurd one): count nothing
        m_chunk = 0;
        return;
    }
    m_shift = unsigned(__builtin_ctzll(m_chunk));
    const std::uint64_t low = page_mask | (m_chunk - 1);
    m_injective = (low & (low + 1)) == 0;
    const std::size_t banks = std::size_t(1) << m_bank.bits();
    m_open.assign(banks, kClosed);
    m_seen.assign(banks, 0);
    m_left.assign(banks, 0);
}

std::uint64_t PageReplay::add(std::uint64_t addr, std::uint64_t n_segs, std::uint64_t seg_bytes, std::uint64_t seg_stride) {
    if (!active() || n_segs == 0 || seg_bytes == 0) return 0;
    if (++m_epoch == 0) {  // the stamps wrapped: start them again
        std::fill(m_seen.begin(), m_seen.end(), 0u);
        std::fill(m_left.begin(), m_left.end(), 0u);
        m_epoch = 1;
    }
    const std::uint64_t chunk = m_chunk;
    const unsigned sh = m_shift;
    const std::size_t banks = m_open.size();
    std::uint64_t acts = 0;
    std::size_t n_seen = 0, n_left = 0;
    // A chunk in walk order; true once every bank has had a chunk of this op: with increasing
    // chunks and no two chunks on one page, each later chunk finds its bank on another row.
    auto visit = [&](std::uint64_t c) {
        const std::uint64_t a = c << sh, row = a & m_row_mask;
        const std::size_t i = bank_of(a);
        if (m_open[i] != row) m_first_opens += m_open[i] == kClosed, m_open[i] = row, ++acts;
        if (m_seen[i] != m_epoch) m_seen[i] = m_epoch, ++n_seen;
        return m_injective && n_seen == banks;
    };
    // A chunk in reverse walk order past that point: the first one of a bank is its last visit,
    // which leaves the bank on its row; true once every bank is left.
    auto leave = [&](std::uint64_t c) {
        const std::uint64_t a = c << sh;
        const std::size_t i = bank_of(a);
        if (m_left[i] != m_epoch) m_left[i] = m_epoch, m_open[i] = a & m_row_mask, ++n_left;
        return n_left == banks;
    };
    const std::uint64_t n = n_segs, b = seg_bytes, st = seg_stride, a0 = addr;
    if (n == 1 || (st >= b && st - b < chunk)) {
        // Segments in address order with no whole chunk between two of them: every chunk from
        // the first to the last, once, in order.
        const std::uint64_t first = a0 >> sh, last = (a0 + (n - 1) * st + b - 1) >> sh;
        std::uint64_t c = first;
        while (c <= last)
            if (visit(c++)) break;
        if (c <= last) {
            acts += last - c + 1;
            for (std::uint64_t d = last + 1; d-- > c;)
                if (leave(d)) break;
        }
    } else if (st >= b) {
        // Whole chunks between the segments: each segment's chunks, increasing.
        std::uint64_t sg = 0;
        bool all = false;
        for (; sg < n && !all; ++sg) {
            const std::uint64_t s0 = a0 + sg * st;
            for (std::uint64_t c = (s0 >> sh), e = ((s0 + b - 1) >> sh); c <= e; ++c) all = visit(c) || all;
        }
        if (all && sg < n) {
            for (std::uint64_t t = sg; t < n; ++t) {
                const std::uint64_t s0 = a0 + t * st;
                acts += ((s0 + b - 1) >> sh) - (s0 >> sh) + 1;
            }
            bool done = false;
            for (std::uint64_t t = n; t-- > sg && !done;) {
                const std::uint64_t s0 = a0 + t * st;
                for (std::uint64_t d = ((s0 + b - 1) >> sh) + 1; d-- > (s0 >> sh);)
                    if (leave(d)) {
                        done = true;
                        break;
                    }
            }
        }
    } else {
        // Overlapping segments (a stride below the segment): every chunk in walk order.
        std::uint64_t prev = kClosed;
        for (std::uint64_t sg = 0; sg < n; ++sg) {
            const std::uint64_t s0 = a0 + sg * st;
            for (std::uint64_t c = (s0 >> sh), e = ((s0 + b - 1) >> sh); c <= e; ++c)
                if (c != prev) visit(c), prev = c;
        }
    }
    return acts;
}

void profile_run(const tiling::ConvShape& shape, const tiling::SliceRun& run, const tiling::Tiling& t,
                 const tiling::AsipParams& asip, const PacketFormat& fmt, unsigned burst_bytes, OpProfile* filters,
                 OpProfile* other, RunTotals* totals, const DramFigures* dram, BankSampler* sampler) {
    tiling::LoopNest nest(shape, run, t, asip);
    ProfileEntry pending;  // overlapped ops since the last entry
    pending.x = XferFeatures{};
    PageReplay pages(dram ? *dram : DramFigures{});
    double pending_acts = 0, pending_req = 0;
    auto replay = [&](const tiling::Op& op, const XferFeatures& f) {
        if (!pages.active()) return;
        pending_req += double(f.transfers);
        pending_acts += double(pages.add(op.dram_addr, op.n_segs, op.seg_bytes, op.seg_stride));
    };
    auto credit = [&](OpProfile* to) {
        if (to) {
            to->activations += pending_acts;
            to->requests += pending_req;
        }
        pending_acts = pending_req = 0;
    };
    nest.for_each([&](const tiling::Op& op) {
        if (totals) add_op(*totals, op, fmt);
        if (!op.is_dma()) {
            if (sampler) sampler->end_entry();
            ProfileEntry e = pending;
            e.wait = false;
            e.compute = op.comp_cycles + op.pfetch_cycles;
            if (other) other->add(e);
            credit(other);
            pending = ProfileEntry{};
            return;
        }
        const XferFeatures f = op_features(op, fmt, burst_bytes);
        replay(op, f);
        if (sampler) sampler->op(op);
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
            credit(filters);
        } else {
            if (other) other->add(e);
            credit(other);
        }
    });
    if (sampler) sampler->end_entry();
    if (pending.x.dma_ops && other) {  // cannot happen (the drain is waited for); kept for safety
        pending.wait = true;
        other->add(pending);
    }
}

void BankSampler::op(const tiling::Op& op) {
    m_open = true;
    // Only the loads: the reads a core waits for queue behind the row changes of the banks they
    // fall on; the posted writes are served around them.
    if (m_index % m_stride || !op.is_load()) return;  // not a kept entry, or a store
    BankSample b;
    b.addr = op.dram_addr;
    b.seg_bytes = op.seg_bytes;
    b.n_segs = op.n_segs;
    b.seg_stride = op.seg_stride;
    b.tensor = op.kind == tiling::OpKind::LoadIfmap ? 0 : op.kind == tiling::OpKind::LoadFilter ? 1 : 2;
    m_cur.push_back(b);
}

void BankSampler::end_entry() {
    if (!m_open) return;  // no DMA op since the last Compute op
    m_open = false;
    const bool kept = m_index % m_stride == 0;
    ++m_index;
    if (!kept) return;
    m_kept.push_back(std::move(m_cur));
    m_cur.clear();
    if (m_kept.size() > m_max) {  // keep every other entry: those at multiples of twice the stride
        std::size_t w = 0;
        for (std::size_t r = 0; r < m_kept.size(); r += 2, ++w)
            if (w != r) m_kept[w] = std::move(m_kept[r]);  // not onto itself: a self-move empties it
        m_kept.resize(w);
        m_stride *= 2;
    }
}

TensorOffsets tensor_offsets(const tiling::ConvShape& s, int group, int of0, int ox0, const tiling::AsipParams& asip) {
    const std::uint64_t wb = std::uint64_t(asip.word_bytes()), g = std::uint64_t(group);
    const std::uint64_t k = g * std::uint64_t(s.n_of) + std::uint64_t(of0);
    return TensorOffsets{
        (g * std::uint64_t(s.n_if) * std::uint64_t(s.padded_h) * std::uint64_t(s.padded_w) + std::uint64_t(ox0) * std::uint64_t(s.sx)) * wb,
        k * std::uint64_t(s.n_if) * std::uint64_t(s.kx) * std::uint64_t(s.ky) * wb,
        (k * std::uint64_t(s.P) * std::uint64_t(s.Q) + std::uint64_t(ox0)) * wb};
}

double lockstep_bank_factor(const std::vector<std::vector<BankSample>>& entries, const std::vector<TensorOffsets>& cores,
                            const DramFigures& dram) {
    const int bank_bits = __builtin_popcountll(dram.bank_mask);
    const std::size_t k = cores.size();
    if (k < 2 || bank_bits == 0 || bank_bits > 12 || entries.empty()) return 1.0;
    const std::size_t nb = std::size_t(1) << bank_bits;
    // A page is its address under the bank and row masks (disjoint bits), as lockstep_row_conflicts
    // keys them; its bank is the page under the bank mask.
    const std::uint64_t page_mask = dram.bank_mask | dram.row_mask;
    const std::uint64_t grain = page_mask & (~page_mask + 1);  // a page changes only at multiples of it
    const double bb = double(dram.burst_bytes ? dram.burst_bytes : 64);
    // The number of distinct values in v (sorted in place).
    auto distinct = [](std::vector<std::uint64_t>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        return v.size();
    };
    // Calls f(page) for the pages of n bytes from a (at most 16).
    auto pages_of = [&](std::uint64_t a, std::uint64_t n, auto&& f) {
        for (int pieces = 0; n && pieces < 16; ++pieces) {
            const std::uint64_t end = std::min(a + n, (a / grain + 1) * grain);
            f(a & page_mask);
            n -= end - a;
            a = end;
        }
    };
    std::vector<std::uint64_t> own, all;
    const BankIndex bank_of(dram.bank_mask);
    std::vector<std::uint8_t> seen(nb);
    std::vector<std::size_t> rows(nb);
    // Whether core 0's loads of an entry touch every bank, looking at up to 256 segments of each op
    // (evenly spread): a load whose segments stride over the banks spreads its row changes as at
    // random, however the cores' offsets place them.
    auto touches_every_bank = [&](const std::vector<BankSample>& e) {
        std::fill(seen.begin(), seen.end(), 0);
        std::size_t count = 0;
        for (const BankSample& b : e) {
            const std::uint64_t used = std::min<std::uint64_t>(b.n_segs, 256);
            for (std::uint64_t i = 0; i < used && count < nb; ++i)
                pages_of(b.addr + cores[0][b.tensor] + (i * b.n_segs / used) * b.seg_stride, b.seg_bytes,
                         [&](std::uint64_t p) {
                             const std::size_t bank = bank_of(p);
                             count += !seen[bank];
                             seen[bank] = 1;
                         });
        }
        return count == nb;
    };
    double num = 0, den = 0;
    for (const std::vector<BankSample>& e : entries) {
        double bursts = 0;
        for (const BankSample& b : e) bursts += double(b.seg_bytes) * double(b.n_segs) / bb;
        if (bursts <= 0) continue;
        if (touches_every_bank(e)) {  // the entry's row changes spread as the model assumes
            num += bursts;
            den += bursts;
            continue;
        }
        all.clear();
        double pages = 0;  // the cores' pages, each core's counted once
        for (std::size_t c = 0; c < k; ++c) {
            own.clear();
            for (const BankSample& b : e) {
                const std::uint64_t used = std::min<std::uint64_t>(b.n_segs, 4);  // segments looked at, evenly spread
                for (std::uint64_t i = 0; i < used; ++i)
                    pages_of(b.addr + cores[c][b.tensor] + (i * b.n_segs / used) * b.seg_stride, b.seg_bytes,
                             [&](std::uint64_t p) { own.push_back(p); });
            }
            pages += double(distinct(own));
            all.insert(all.end(), own.begin(), own.end());
        }
        // In place: a_b rows on bank b, pages the cores share counted once; a row change meets
        // sum a_b^2 / sum a_b rows on its bank.
        const std::size_t n_pages = distinct(all);
        std::fill(rows.begin(), rows.end(), 0);
        for (std::uint64_t p : all) ++rows[bank_of(p)];
        double sq = 0;
        for (std::size_t a : rows) sq += double(a) * double(a);
        const double in_place = sq / double(n_pages);
        // At random places the N pages of the cores share no row and fall on the B banks
        // independently: a row meets itself and (N - 1) / B others on its bank.
        const double random = 1.0 + (pages - 1.0) / double(nb);
        num += bursts * random;
        den += bursts * in_place;
    }
    return den > 0 ? std::min(1.0, num / den) : 1.0;
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
        PageReplay own(dram);  // the core's own stream: its row conflicts are its activations of open banks
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
                out.own += double(own.add(op.dram_addr, op.n_segs, op.seg_bytes, op.seg_stride));
                for (std::uint32_t s = 0; s < op.n_segs; ++s) {
                    const std::uint64_t base = op.dram_addr + std::uint64_t(s) * op.seg_stride;
                    for (std::uint64_t off = 0; off < op.seg_bytes; off += maxp) {
                        const std::uint64_t len = std::min(maxp, op.seg_bytes - off);
                        for (std::uint64_t b = (base + off) / bb; b <= (base + off + len - 1) / bb; ++b) {
                            const std::uint64_t a = b * bb;
                            const DramPage p{a & dram.bank_mask, a & dram.row_mask};
                            cur[p] += 1.0;
                            out.bursts += 1.0;
                        }
                    }
                }
                if (op.wait) close();
            });
        }
        close();
        out.own -= double(own.first_opens());
    }
    out.interleaved = interleaved_row_conflicts(ent);
    return out;
}

}  // namespace vp::mapper::waving
