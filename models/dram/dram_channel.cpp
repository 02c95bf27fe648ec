#include "models/dram/dram_channel.h"

#include <algorithm>
#include <limits>

namespace vp::dram {

namespace {
constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
}

DramChannel::DramChannel(const DramParams& p, const AddressMapper& mapper)
    : m_p(p), m_map(mapper), m_banks(std::size_t(p.ranks) * p.banks()), m_ranks(p.ranks) {
    m_queue.reserve(p.queue_depth);
    m_c.bank_activates.assign(m_banks.size(), 0);
    m_c.bank_bursts.assign(m_banks.size(), 0);
    for (auto& r : m_ranks) {
        r.last_act_bg.assign(p.bank_groups, 0);
        r.refresh_due = p.t.tREFI;
    }
}

void DramChannel::account(std::uint64_t now) {
    if (now > m_last_account) {
        m_c.occupancy_integral += std::uint64_t(m_queue.size()) * (now - m_last_account);
        m_last_account = now;
    }
}

void DramChannel::enqueue(void* tag, bool write, std::uint64_t addr, unsigned bytes, std::uint64_t now) {
    account(now);
    const std::uint64_t bb = m_p.burst_bytes();
    std::uint64_t first = addr / bb * bb;
    std::uint64_t last = (addr + bytes - 1) / bb * bb;
    Request r{tag, write, addr, addr + bytes, first, unsigned((last - first) / bb + 1), bytes, m_map.decode(first)};
    m_queue.push_back(r);
    m_c.max_occupancy = std::max<std::uint64_t>(m_c.max_occupancy, m_queue.size());
}

DramChannel::Cmd DramChannel::needed(const Request& r) const {
    const Bank& b = bank(r.cur);
    if (b.open_row == std::int64_t(r.cur.row)) return r.write ? Cmd::Wr : Cmd::Rd;
    return b.open_row < 0 ? Cmd::Act : Cmd::Pre;
}

std::uint64_t DramChannel::earliest_act(const DramAddress& a) const {
    const Rank& rk = m_ranks[a.rank];
    if (rk.refresh_pending) return kNever;
    std::uint64_t t = std::max(bank(a).t_act, rk.busy_until);
    if (rk.any_act) t = std::max(t, rk.last_act + m_p.t.tRRD_S);
    if (rk.last_act_bg[a.bank_group]) t = std::max(t, rk.last_act_bg[a.bank_group] - 1 + m_p.t.tRRD_L);
    if (rk.act_count >= 4) t = std::max(t, rk.act_hist[rk.act_pos] + m_p.t.tFAW);  // oldest of the last four
    return t;
}

std::uint64_t DramChannel::earliest_col(const DramAddress& a, bool write) const {
    const Rank& rk = m_ranks[a.rank];
    if (rk.refresh_pending) return kNever;
    const auto& t = m_p.t;
    const unsigned bl = m_p.burst_cycles();
    std::uint64_t e = bank(a).t_col;
    if (m_any_col) {
        bool same_bg = m_last_col_rank == a.rank && m_last_col_bg == a.bank_group;
        e = std::max(e, m_last_col + (same_bg ? t.tCCD_L : t.tCCD_S));
    }
    // Data bus: the burst may start when the bus is free (plus a rank switch gap).
    std::uint64_t bus = m_bus_free + ((m_any_col && m_bus_rank != a.rank) ? t.tRTRS : 0);
    if (write) {
        if (bus > t.CWL) e = std::max(e, bus - t.CWL);
        if (m_any_rd) e = std::max<std::uint64_t>(e, m_last_rd + t.CL + bl + 2 > t.CWL ? m_last_rd + t.CL + bl + 2 - t.CWL : 0);
    } else {
        if (bus > t.CL) e = std::max(e, bus - t.CL);
        if (rk.any_wr) e = std::max<std::uint64_t>(e, rk.wr_end + (rk.wr_end_bg == a.bank_group ? t.tWTR_L : t.tWTR_S));
    }
    return e;
}

std::uint64_t DramChannel::earliest(const Request& r, Cmd c) const {
    switch (c) {
    case Cmd::Act: return earliest_act(r.cur);
    case Cmd::Pre: return m_ranks[r.cur.rank].refresh_pending ? kNever : bank(r.cur).t_pre;
    case Cmd::Rd: return earliest_col(r.cur, false);
    case Cmd::Wr: return earliest_col(r.cur, true);
    default: return kNever;
    }
}

// Requests to overlapping bytes keep their arrival order when either writes, so a
// read always returns the data of every older write (read-after-write and the reverse).
bool DramChannel::hazard(std::size_t idx) const {
    const Request& r = m_queue[idx];
    for (std::size_t j = 0; j < idx; ++j) {
        const Request& o = m_queue[j];
        if ((o.write || r.write) && o.begin < r.end && r.begin < o.end) return true;
    }
    return false;
}

bool DramChannel::row_has_pending_hit(const DramAddress& a) const {
    const Bank& b = bank(a);
    for (const Request& q : m_queue)
        if (q.cur.rank == a.rank && q.cur.bank == a.bank && std::int64_t(q.cur.row) == b.open_row) return true;
    return false;
}

void DramChannel::do_act(const DramAddress& a, std::uint64_t now) {
    const auto& t = m_p.t;
    Bank& b = bank(a);
    Rank& rk = m_ranks[a.rank];
    b.open_row = std::int64_t(a.row);
    b.t_col = now + t.tRCD;
    b.t_pre = std::max(b.t_pre, now + t.tRAS);
    b.t_act = now + t.tRC;
    rk.act_hist[rk.act_pos] = now;
    rk.act_pos = (rk.act_pos + 1) % 4;
    ++rk.act_count;
    rk.last_act = now;
    rk.any_act = true;
    rk.last_act_bg[a.bank_group] = now + 1;
    ++m_c.activates;
    ++m_c.bank_activates[a.rank * m_p.banks() + a.bank];
}

void DramChannel::do_pre(Bank& b, std::uint64_t now) {
    b.open_row = -1;
    b.t_act = std::max(b.t_act, now + m_p.t.tRP);
    ++m_c.precharges;
}

void DramChannel::issue(std::size_t idx, Cmd c, std::uint64_t now) {
    Request& r = m_queue[idx];
    const auto& t = m_p.t;
    const unsigned bl = m_p.burst_cycles();
    Bank& b = bank(r.cur);
    switch (c) {
    case Cmd::Act:
        do_act(r.cur, now);
        r.did_act = true;
        return;
    case Cmd::Pre:
        do_pre(b, now);
        r.did_pre = true;
        return;
    case Cmd::Rd:
    case Cmd::Wr: break;
    default: return;
    }
    const bool write = c == Cmd::Wr;
    std::uint64_t data_end;
    if (write) {
        data_end = now + t.CWL + bl;
        b.t_pre = std::max(b.t_pre, data_end + t.tWR);
        Rank& rk = m_ranks[r.cur.rank];
        rk.wr_end = data_end;
        rk.wr_end_bg = r.cur.bank_group;
        rk.any_wr = true;
        ++m_c.write_bursts;
    } else {
        data_end = now + t.CL + bl;
        b.t_pre = std::max(b.t_pre, now + t.tRTP);
        m_last_rd = now;
        m_any_rd = true;
        ++m_c.read_bursts;
    }
    m_bus_free = data_end;
    m_bus_rank = r.cur.rank;
    m_last_col = now;
    m_last_col_bg = r.cur.bank_group;
    m_last_col_rank = r.cur.rank;
    m_any_col = true;
    m_c.data_bus_busy_cycles += bl;
    ++m_c.bank_bursts[r.cur.rank * m_p.banks() + r.cur.bank];
    if (r.did_pre) ++m_c.row_conflicts;
    else if (r.did_act) ++m_c.row_misses;
    else ++m_c.row_hits;
    r.did_pre = r.did_act = false;

    const DramAddress done_at = r.cur;
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
        m_queue.erase(m_queue.begin() + std::ptrdiff_t(idx));
    } else {
        r.addr += m_p.burst_bytes();
        r.cur = m_map.decode(r.addr);
    }
    // Closed-page policy: auto-precharge unless another queued burst hits this row.
    if (m_p.page_policy == PagePolicy::Closed && !row_has_pending_hit(done_at)) {
        Bank& bb = bank(done_at);
        do_pre(bb, std::max(now, bb.t_pre));
    }
}

bool DramChannel::refresh_step(std::uint64_t now) {
    if (!m_p.refresh) return false;
    for (unsigned ri = 0; ri < m_ranks.size(); ++ri) {
        Rank& rk = m_ranks[ri];
        if (!rk.refresh_pending && now >= rk.refresh_due) rk.refresh_pending = true;
        if (!rk.refresh_pending) continue;
        bool all_closed = true;
        std::uint64_t ready = rk.busy_until;
        for (unsigned bi = 0; bi < m_p.banks(); ++bi) {
            Bank& b = m_banks[ri * m_p.banks() + bi];
            if (b.open_row >= 0) {
                all_closed = false;
                if (b.t_pre <= now) {
                    do_pre(b, now);
                    return true;
                }
            } else {
                ready = std::max(ready, b.t_act);
            }
        }
        if (all_closed && ready <= now) {
            for (unsigned bi = 0; bi < m_p.banks(); ++bi) {
                Bank& b = m_banks[ri * m_p.banks() + bi];
                b.t_act = std::max(b.t_act, now + m_p.t.tRFC);
            }
            rk.busy_until = now + m_p.t.tRFC;
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
    std::uint64_t w = kNever;
    for (unsigned ri = 0; ri < m_ranks.size(); ++ri) {
        const Rank& rk = m_ranks[ri];
        if (!rk.refresh_pending) {
            w = std::min(w, std::max(rk.refresh_due, now + 1));
            continue;
        }
        std::uint64_t ready = rk.busy_until;
        for (unsigned bi = 0; bi < m_p.banks(); ++bi) {
            const Bank& b = m_banks[ri * m_p.banks() + bi];
            ready = std::max(ready, b.open_row >= 0 ? b.t_pre : b.t_act);
            if (b.open_row >= 0) w = std::min(w, std::max(b.t_pre, now + 1));
        }
        w = std::min(w, std::max(ready, now + 1));
    }
    return w;
}

bool DramChannel::step(std::uint64_t now) {
    if (refresh_step(now)) return true;
    if (m_queue.empty()) return false;
    const std::size_t n = m_p.scheduler == Scheduler::Fcfs ? 1 : m_queue.size();
    std::size_t other = n;
    Cmd other_cmd = Cmd::None;
    for (std::size_t i = 0; i < n; ++i) {
        const Request& r = m_queue[i];
        Cmd c = needed(r);
        if (earliest(r, c) > now) continue;
        if (c == Cmd::Rd || c == Cmd::Wr) {  // first ready: oldest row hit wins
            if (hazard(i)) continue;
            issue(i, c, now);
            return true;
        }
        if (other == n) {
            // FR-FCFS never closes a row that queued requests still hit.
            if (c == Cmd::Pre && m_p.scheduler == Scheduler::FrFcfs && row_has_pending_hit(r.cur)) continue;
            other = i;
            other_cmd = c;
        }
    }
    if (other != n) {
        issue(other, other_cmd, now);
        return true;
    }
    return false;
}

std::uint64_t DramChannel::next_wake(std::uint64_t now) const {
    std::uint64_t w = refresh_wake(now);
    const std::size_t n = m_p.scheduler == Scheduler::Fcfs ? std::min<std::size_t>(1, m_queue.size()) : m_queue.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Request& r = m_queue[i];
        w = std::min(w, std::max(earliest(r, needed(r)), now + 1));
    }
    return w;
}

}  // namespace vp::dram
