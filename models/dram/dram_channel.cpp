#include "models/dram/dram_channel.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace vp::dram {

namespace {
// m_scan bits, per bank, valid during one FR-FCFS scan.
constexpr std::uint8_t kQueuedHit = 4;  // some queued request hits the open row
}  // namespace

DramChannel::DramChannel(const DramParams& p, const AddressMapper& mapper, const TimingTable& table, unsigned index)
    : DramChannel(p, mapper, table, index, p.reference_scheduler) {}

DramChannel::DramChannel(const DramParams& p, const AddressMapper& mapper, const TimingTable& table, unsigned index,
                         bool reference)
    : m_p(p),
      m_map(mapper),
      m_index(index),
      m_reference(reference),
      m_timing(p, table),
      m_slots(p.queue_depth),
      m_banks(std::size_t(p.ranks) * p.banks()),
      m_ranks(p.ranks),
      m_scan(std::size_t(p.ranks) * p.banks(), 0),
      m_nonempty((std::size_t(p.ranks) * p.banks() + 63) / 64, 0) {
    m_queue.reserve(p.queue_depth);
    m_free.reserve(p.queue_depth);
    for (Slot i = Slot(p.queue_depth); i-- > 0;) m_free.push_back(i);  // slot 0 is used first
    for (auto& b : m_banks) b.queued.reserve(p.queue_depth);
    m_c.bank_activates.assign(m_banks.size(), 0);
    m_c.bank_bursts.assign(m_banks.size(), 0);
    for (auto& r : m_ranks) r.refresh_due = p.t.tREFI;
}

void DramChannel::account(std::uint64_t now) {
    if (now > m_last_account) {
        m_c.occupancy_integral += std::uint64_t(m_queue.size()) * (now - m_last_account);
        m_last_account = now;
    }
}

void DramChannel::enqueue(void* tag, bool write, std::uint64_t addr, unsigned bytes, std::uint64_t accept) {
    enqueue(tag, write, addr, bytes, accept, m_map.decode(addr / m_p.burst_bytes() * m_p.burst_bytes()));
}

void DramChannel::enqueue(void* tag, bool write, std::uint64_t addr, unsigned bytes, std::uint64_t accept,
                          const DramAddress& first_burst) {
    // Acceptance cycles never decrease, so readiness follows arrival order (in every bank list too).
    if (accept < m_last_accept) throw std::logic_error("DramChannel::enqueue: acceptance cycle went backwards");
    if (m_free.empty()) {  // more than queue_depth (callers check full() first; tests may not)
        m_free.push_back(Slot(m_slots.size()));
        m_slots.emplace_back();
    }
    m_last_accept = accept;
    account(accept);
    const std::uint64_t bb = m_p.burst_bytes();
    std::uint64_t first = addr / bb * bb;
    std::uint64_t last = (addr + bytes - 1) / bb * bb;
    const Slot s = m_free.back();
    m_free.pop_back();
    m_slots[s] = Request{tag,   write, addr, addr + bytes, first, unsigned((last - first) / bb + 1), bytes,
                         accept + 1 + m_p.frontend_latency_ck, m_next_seq++, first_burst};
    // Clear of older requests unless one overlaps its bytes, either of the two writing (hazard()).
    Request& nr = m_slots[s];
    nr.clear_of_older = true;
    if (write || m_writes_queued > 0)
        for (Slot o : m_queue) {
            const Request& q = m_slots[o];
            if ((q.write || write) && q.begin < nr.end && nr.begin < q.end) {
                nr.clear_of_older = false;
                ++m_unclear;
                break;
            }
        }
    m_queue.push_back(s);
    if (write) ++m_writes_queued;
    link(s);
    m_touched.push_back(std::uint32_t(bank_index(m_slots[s].cur)));
    m_c.max_occupancy = std::max<std::uint64_t>(m_c.max_occupancy, m_queue.size());
}

void DramChannel::link(Slot s) {
    const Request& r = m_slots[s];
    Bank& b = bank(r.cur);
    // Insert in arrival order (a request moving to the bank of its next burst may be older than others there).
    auto it = b.queued.end();
    while (it != b.queued.begin() && m_slots[*(it - 1)].seq > r.seq) --it;
    b.queued.insert(it, s);
    const std::size_t bi = bank_index(r.cur);
    m_nonempty[bi / 64] |= std::uint64_t(1) << (bi % 64);
    if (b.open_row == std::int64_t(r.cur.row)) ++(r.write ? b.hit_writes : b.hit_reads);
}

void DramChannel::unlink(Slot s) {
    const Request& r = m_slots[s];
    Bank& b = bank(r.cur);
    b.queued.erase(std::find(b.queued.begin(), b.queued.end(), s));
    if (b.queued.empty()) {
        const std::size_t bi = bank_index(r.cur);
        m_nonempty[bi / 64] &= ~(std::uint64_t(1) << (bi % 64));
    }
    if (b.open_row == std::int64_t(r.cur.row)) --(r.write ? b.hit_writes : b.hit_reads);
}

void DramChannel::close_row(Bank& b) {
    b.open_row = -1;
    b.hit_reads = b.hit_writes = 0;
}

void DramChannel::open_row(Bank& b, std::uint64_t row) {
    b.open_row = std::int64_t(row);
    b.hit_reads = b.hit_writes = 0;
    for (Slot s : b.queued)
        if (m_slots[s].cur.row == row) ++(m_slots[s].write ? b.hit_writes : b.hit_reads);
}

std::size_t DramChannel::position(Slot s) const {
    return std::size_t(std::find(m_queue.begin(), m_queue.end(), s) - m_queue.begin());
}

Command DramChannel::needed(const Request& r) const {
    const Bank& b = bank(r.cur);
    if (b.open_row == std::int64_t(r.cur.row)) return r.write ? Command::Wr : Command::Rd;
    return b.open_row < 0 ? Command::Act : Command::Pre;
}

// Requests to overlapping bytes keep their arrival order when either writes, so a
// read always returns the data of every older write (read-after-write and the reverse).
bool DramChannel::hazard(std::size_t idx) const {
    const Request& r = req(idx);
    if (r.clear_of_older) return false;
    if (r.write || m_writes_queued > 0)
        for (std::size_t j = 0; j < idx; ++j) {
            const Request& o = req(j);
            if ((o.write || r.write) && o.begin < r.end && r.begin < o.end) return true;
        }
    r.clear_of_older = true;  // the older requests only leave (a read with no write queued: none comes)
    --m_unclear;
    return false;
}

// Does a queued request other than `skip` want the row now open in a's bank?
bool DramChannel::row_has_pending_hit(const DramAddress& a, std::size_t skip) const {
    const Bank& b = bank(a);
    for (std::size_t j = 0; j < m_queue.size(); ++j) {
        const Request& q = req(j);
        if (j != skip && q.cur.rank == a.rank && q.cur.bank == a.bank && std::int64_t(q.cur.row) == b.open_row)
            return true;
    }
    return false;
}

void DramChannel::issue(Command c, const DramAddress& a, std::uint64_t row, std::uint64_t now) {
    m_timing.issue(c, a.rank, a.bank_group, a.bank, now);
    if (m_obs) m_obs->on_command({now, c, m_index, a.rank, a.bank_group, a.bank, row, a.column});
}

void DramChannel::issue_column(std::size_t idx, std::uint64_t now) {
    const Slot slot = m_queue[idx];
    Request& r = m_slots[slot];
    const DramAddress a = r.cur;
    Bank& b = bank(a);
    const bool write = r.write;
    // Closed-page policy: auto-precharge (RDA/WRA) unless another queued burst, or this
    // request's own next one, hits this row.
    bool auto_pre = false;
    if (m_p.page_policy == PagePolicy::Closed) {
        bool more = false;
        if (r.bursts_left > 1) {
            DramAddress n = m_map.decode(r.addr + m_p.burst_bytes());
            more = n.rank == a.rank && n.bank == a.bank && n.row == a.row;
        }
        // This request is one of the bank's row hits: another queued hit means more than one.
        auto_pre = !more && (m_reference ? !row_has_pending_hit(a, idx) : b.hit_reads + b.hit_writes <= 1);
    }
    const Command c = write ? (auto_pre ? Command::Wra : Command::Wr) : (auto_pre ? Command::Rda : Command::Rd);
    issue(c, a, a.row, now);
    if (idx > 0) ++m_bypass;
    unlink(slot);
    if (auto_pre) {
        close_row(b);
        ++m_c.precharges;
    }
    const unsigned bl = m_p.burst_cycles();
    const std::uint64_t data_end = now + (write ? m_p.t.CWL : m_p.t.CL) + bl;
    if (write) ++m_c.write_bursts;
    else ++m_c.read_bursts;
    if (m_last_dir >= 0 && m_last_dir != int(write)) ++m_c.bus_turnarounds;
    m_last_dir = int(write);
    m_bus_free = data_end;
    m_c.data_bus_busy_cycles += bl;
    ++m_c.bank_bursts[r.cur.rank * m_p.banks() + r.cur.bank];
    if (r.did_pre) ++m_c.row_conflicts;
    else if (r.did_act) ++m_c.row_misses;
    else ++m_c.row_hits;
    r.did_pre = r.did_act = false;

    if (--r.bursts_left == 0) {
        if (write) {
            ++m_c.writes;
            m_c.bytes_written += r.bytes;
        } else {
            ++m_c.reads;
            m_c.bytes_read += r.bytes;
        }
        m_done.push_back({data_end, r.tag});
        account(now);
        if (write) --m_writes_queued;
        if (!r.clear_of_older) --m_unclear;
        m_queue.erase(m_queue.begin() + std::ptrdiff_t(idx));
        m_free.push_back(slot);
    } else {
        r.addr += m_p.burst_bytes();
        r.cur = m_map.decode(r.addr);
        link(slot);
    }
}

bool DramChannel::refresh_step(std::uint64_t now) {
    if (!m_p.refresh) return false;
    const unsigned nb = m_p.banks();
    for (unsigned ri = 0; ri < m_ranks.size(); ++ri) {
        Rank& rk = m_ranks[ri];
        if (!rk.refresh_pending && now >= rk.refresh_due) rk.refresh_pending = true;
        if (!rk.refresh_pending) continue;
        bool all_closed = true;
        for (unsigned bi = 0; bi < nb; ++bi) all_closed = all_closed && m_banks[std::size_t(ri) * nb + bi].open_row < 0;
        if (!all_closed) {
            // One PREA closes every open bank of the rank (as DRAMSys's and Ramulator 2's all-bank refresh do).
            if (m_timing.earliest(Command::Prea, ri, 0, 0) > now) continue;
            issue(Command::Prea, DramAddress{m_index, ri, 0, 0, 0, 0}, 0, now);
            for (unsigned bi = 0; bi < nb; ++bi) close_row(m_banks[std::size_t(ri) * nb + bi]);
            ++m_c.precharges;
            return true;
        }
        if (m_timing.earliest(Command::Ref, ri, 0, 0) <= now) {
            issue(Command::Ref, DramAddress{m_index, ri, 0, 0, 0, 0}, 0, now);
            rk.refresh_pending = false;
            rk.refresh_due += m_p.t.tREFI;
            ++m_c.refreshes;
            return true;
        }
    }
    return false;
}

std::uint64_t DramChannel::refresh_wake(std::uint64_t now) const {
    if (!m_p.refresh) return kNever;
    const unsigned nb = m_p.banks();
    std::uint64_t w = kNever;
    for (unsigned ri = 0; ri < m_ranks.size(); ++ri) {
        const Rank& rk = m_ranks[ri];
        if (!rk.refresh_pending) {
            w = std::min(w, std::max(rk.refresh_due, now + 1));
            continue;
        }
        bool all_closed = true;
        for (unsigned bi = 0; bi < nb; ++bi) all_closed = all_closed && m_banks[std::size_t(ri) * nb + bi].open_row < 0;
        const Command c = all_closed ? Command::Ref : Command::Prea;
        w = std::min(w, std::max(m_timing.earliest(c, ri, 0, 0), now + 1));
    }
    return w;
}

bool DramChannel::step(std::uint64_t now) {
    m_touched.clear();  // the caller takes next_wake() after stepping
    if (refresh_step(now)) return true;
    if (m_queue.empty()) return false;
    const bool frfcfs = m_p.scheduler == Scheduler::FrFcfs;
    if (req(0).seq != m_front_seq) {
        m_front_seq = req(0).seq;
        m_bypass = 0;
    }
    // Starvation cap: once younger requests have issued this many column commands while
    // the oldest waited, only the oldest may go until it has been served.
    const bool capped = frfcfs && m_p.starvation_cap > 0 && m_bypass >= m_p.starvation_cap;
    if (capped && m_bypass == m_p.starvation_cap) {
        ++m_c.starvation_caps;
        ++m_bypass;  // count each capped request once
    }
    // FCFS and a capped FR-FCFS look at the oldest request alone: the scan is one request long.
    if (m_reference || !frfcfs || capped) return step_scan(now, frfcfs, capped);
    return step_banks(now);
}

// The rule as written: requests in arrival order, the first legal row hit wins, else the
// first legal PRE or ACT (FR-FCFS never closes a row that queued requests still hit).
bool DramChannel::step_scan(std::uint64_t now, bool frfcfs, bool capped) {
    const std::size_t n = frfcfs && !capped ? m_queue.size() : 1;
    bool hits_known = false;  // kQueuedHit is filled in lazily, once per step
    std::size_t other = n;
    Command other_cmd = Command::Act;
    for (std::size_t i = 0; i < n; ++i) {
        const Request& r = req(i);
        if (r.ready > now || m_ranks[r.cur.rank].refresh_pending) continue;
        const std::size_t bi = bank_index(r.cur);
        const Command c = needed(r);
        if (c == Command::Rd || c == Command::Wr) {  // first ready: the oldest legal row hit wins
            if (earliest(r.cur, c) <= now && !hazard(i)) {
                issue_column(i, now);
                return true;
            }
            continue;
        }
        if (other != n || earliest(r.cur, c) > now) continue;
        if (c == Command::Pre && frfcfs && !capped) {
            if (!hits_known) {
                std::fill(m_scan.begin(), m_scan.end(), 0);
                for (std::size_t j = 0; j < m_queue.size(); ++j) {
                    const Request& q = req(j);
                    // A hit that waits for an older request to overlapping bytes holds nothing open:
                    // that request may need this very PRE (they would wait for each other).
                    if (bank(q.cur).open_row == std::int64_t(q.cur.row) && !hazard(j))
                        m_scan[bank_index(q.cur)] |= kQueuedHit;
                }
                hits_known = true;
            }
            if (m_scan[bi] & kQueuedHit) continue;  // FR-FCFS never closes a row that queued requests still hit
        }
        other = i;
        other_cmd = c;
    }
    if (other == n) return false;
    issue_row_command(other, other_cmd, now);
    return true;
}

// The same decision from the per-bank lists: in a bank whose open row has queued hits only
// those hits can go (its other requests would need a PRE, which FR-FCFS holds back); in any
// other bank every request needs the same PRE or ACT, so its oldest ready request stands for
// the bank. The winner is the oldest candidate over the banks, column commands first.
bool DramChannel::step_banks(std::uint64_t now) {
    constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t col_seq = kNone, other_seq = kNone;
    Slot col = 0, other = 0;
    Command other_cmd = Command::Act;
    const unsigned nb = m_p.banks();
    const bool may_block = hits_may_block();
    for (std::size_t wi = 0; wi < m_nonempty.size(); ++wi) {
        for (std::uint64_t bits = m_nonempty[wi]; bits; bits &= bits - 1) {  // banks with queued requests
            const std::size_t i = wi * 64 + std::size_t(__builtin_ctzll(bits));
            if (m_ranks[i / nb].refresh_pending) continue;
            const Bank& b = m_banks[i];
            const Request& head = m_slots[b.queued.front()];
            if (head.ready > now) continue;  // readiness follows arrival order: nothing here is ready
            if (b.hit_reads + b.hit_writes > 0) {
                const std::uint64_t e_rd = b.hit_reads ? earliest(head.cur, Command::Rd) : kNone;
                const std::uint64_t e_wr = b.hit_writes ? earliest(head.cur, Command::Wr) : kNone;
                if (std::min(e_rd, e_wr) <= now)
                    for (Slot s : b.queued) {
                        const Request& r = m_slots[s];
                        if (r.seq >= col_seq || r.ready > now) break;
                        if (std::int64_t(r.cur.row) != b.open_row || (r.write ? e_wr : e_rd) > now) continue;
                        if ((r.write || m_writes_queued > 0) && !r.clear_of_older && hazard(position(s))) continue;
                        col_seq = r.seq;
                        col = s;
                        break;
                    }
                // Every hit waits for an older request to overlapping bytes, which may need this
                // bank's PRE: then the oldest request for another row stands for the bank.
                if (col_seq != kNone || !may_block || !hits_all_blocked(b)) continue;
                const Slot m = first_miss(b);
                const Request& r = m_slots[m];
                if (r.seq >= other_seq || r.ready > now || earliest(r.cur, Command::Pre) > now) continue;
                other_seq = r.seq;
                other = m;
                other_cmd = Command::Pre;
                continue;
            }
            if (col_seq != kNone || head.seq >= other_seq) continue;  // a column command wins anyway
            const Command c = b.open_row < 0 ? Command::Act : Command::Pre;
            if (earliest(head.cur, c) > now) continue;
            other_seq = head.seq;
            other = b.queued.front();
            other_cmd = c;
        }
    }
    if (col_seq != kNone) {
        issue_column(position(col), now);
        return true;
    }
    if (other_seq == kNone) return false;
    issue_row_command(position(other), other_cmd, now);
    return true;
}

void DramChannel::issue_row_command(std::size_t idx, Command c, std::uint64_t now) {
    Request& r = req(idx);
    Bank& b = bank(r.cur);
    if (c == Command::Act) {
        issue(Command::Act, r.cur, r.cur.row, now);
        open_row(b, r.cur.row);
        r.did_act = true;
        ++m_c.activates;
        ++m_c.bank_activates[r.cur.rank * m_p.banks() + r.cur.bank];
    } else {
        issue(Command::Pre, r.cur, std::uint64_t(b.open_row), now);
        close_row(b);
        r.did_pre = true;
        ++m_c.precharges;
    }
}

std::uint64_t DramChannel::next_wake(std::uint64_t now) const {
    // While the starvation cap holds, only the oldest request may go: wake for it alone.
    const bool capped = m_p.starvation_cap > 0 && !m_queue.empty() && req(0).seq == m_front_seq &&
                        m_bypass >= m_p.starvation_cap;
    if (m_reference) {
        // Step every cycle while requests are queued (the refresh wakes when the queue is empty).
        return m_queue.empty() ? next_wake_scan(now, capped) : now + 1;
    }
    if (m_p.scheduler == Scheduler::Fcfs || capped) return next_wake_scan(now, capped);
    return next_wake_banks(now);
}

std::uint64_t DramChannel::next_wake_scan(std::uint64_t now, bool capped) const {
    std::uint64_t w = refresh_wake(now);
    const std::size_t n = m_p.scheduler == Scheduler::Fcfs || capped ? std::min<std::size_t>(1, m_queue.size())
                                                                      : m_queue.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Request& r = req(i);
        if (m_ranks[r.cur.rank].refresh_pending) continue;  // refresh_wake covers the rank
        w = std::min(w, std::max({earliest(r.cur, needed(r)), r.ready, now + 1}));
    }
    return w;
}

// No later than the first cycle at which step_banks() can issue: per bank, the first cycle at
// which its oldest row hit (or, without hits, its oldest request) is ready and its command
// legal. A PRE held back by queued hits is not a candidate: only an issued command or a new
// request changes that, and both are followed by a new next_wake().
std::uint64_t DramChannel::next_wake_banks(std::uint64_t now) const {
    std::uint64_t w = refresh_wake(now);
    const bool may_block = hits_may_block();
    const unsigned nb = m_p.banks();
    for (std::size_t wi = 0; wi < m_nonempty.size(); ++wi) {
        for (std::uint64_t bits = m_nonempty[wi]; bits; bits &= bits - 1) {  // banks with queued requests
            const std::size_t i = wi * 64 + std::size_t(__builtin_ctzll(bits));
            if (m_ranks[i / nb].refresh_pending) continue;  // refresh_wake covers the rank
            w = std::min(w, std::max(may_block ? bank_wake_may_block(m_banks[i]) : bank_wake(m_banks[i]), now + 1));
        }
    }
    return w;
}

// Does every queued hit of the bank wait for an older request to overlapping bytes (hazard), while
// some queued request needs another row? Then FR-FCFS may close the row: holding it open for hits
// that cannot go would deadlock when the request they wait for needs this bank's PRE.
bool DramChannel::hits_all_blocked_scan(const Bank& b) const {
    for (Slot s : b.queued) {
        const Request& r = m_slots[s];
        if (std::int64_t(r.cur.row) == b.open_row && (r.clear_of_older || !hazard(position(s)))) return false;
    }
    return true;
}

// The oldest queued request of the bank that needs another row than the open one.
DramChannel::Slot DramChannel::first_miss(const Bank& b) const {
    for (Slot s : b.queued)
        if (std::int64_t(m_slots[s].cur.row) != b.open_row) return s;
    return b.queued.front();  // not reached: hits_all_blocked() found one
}

std::uint64_t DramChannel::bank_wake_may_block(const Bank& b) const {
    if (hits_all_blocked(b)) {
        // The PRE for the bank's other requests is the candidate.
        const Request& r = m_slots[first_miss(b)];
        return std::max(earliest(r.cur, Command::Pre), r.ready);
    }
    return bank_wake(b);
}

// The first cycle at which the bank's candidate is ready and its command legal (non-empty bank).
std::uint64_t DramChannel::bank_wake(const Bank& b) const {
    const Request& head = m_slots[b.queued.front()];
    if (b.hit_reads + b.hit_writes == 0)
        return std::max(earliest(head.cur, b.open_row < 0 ? Command::Act : Command::Pre), head.ready);
    std::uint64_t ready = 0;
    for (Slot s : b.queued)
        if (std::int64_t(m_slots[s].cur.row) == b.open_row) {
            ready = m_slots[s].ready;  // the oldest hit is the first ready
            break;
        }
    return std::max(std::min(b.hit_reads ? earliest(head.cur, Command::Rd) : kNever,
                             b.hit_writes ? earliest(head.cur, Command::Wr) : kNever),
                    ready);
}

std::uint64_t DramChannel::first_issue_bound(bool write, const DramAddress& a, std::uint64_t accept) const {
    const std::uint64_t ready = accept + 1 + m_p.frontend_latency_ck;
    if (m_ranks[a.rank].refresh_pending) return ready;  // the rank's refresh comes first
    const Bank& b = bank(a);
    const Command c = b.open_row == std::int64_t(a.row) ? (write ? Command::Wr : Command::Rd)
                                                         : (b.open_row < 0 ? Command::Act : Command::Pre);
    return std::max(ready, earliest(a, c));
}

std::uint64_t DramChannel::wake_after_enqueue(std::uint64_t now) {
    std::uint64_t w = kNever;
    const bool capped = m_p.starvation_cap > 0 && !m_queue.empty() && req(0).seq == m_front_seq &&
                        m_bypass >= m_p.starvation_cap;
    if (m_reference || m_p.scheduler == Scheduler::Fcfs || capped) {
        if (!m_touched.empty()) w = next_wake(now);
    } else {
        // Only the banks that received a request can have an earlier candidate than before.
        const unsigned nb = m_p.banks();
        for (std::uint32_t i : m_touched)
            if (!m_banks[i].queued.empty() && !m_ranks[i / nb].refresh_pending)
                w = std::min(w, std::max(hits_may_block() ? bank_wake_may_block(m_banks[i]) : bank_wake(m_banks[i]),
                                         now + 1));
    }
    m_touched.clear();
    return w;
}

}  // namespace vp::dram
