#pragma once
// One DRAM channel: request queue, bank/rank state and the command scheduler.
// Plain C++ on integer memory-clock cycles, so it is exact, fast and testable
// without a SystemC kernel; DramController drives it from the simulation.
//
// Each step(now) issues at most one command (the command bus carries one command per
// tCK, a row of the timing table): a pending refresh first, then (FR-FCFS) the oldest
// request whose column command is legal now, else the oldest request whose PRE or ACT is
// legal now; FCFS only looks at the oldest request. Once younger requests have issued
// starvation_cap column commands while the oldest waited, only the oldest may go.
// A request accepted in cycle t is schedulable from cycle t + 1 (+ frontend_latency_ck):
// the scheduler decides cycle t's command from the queue as it stood when cycle t began.
// When nothing is legal,
// next_wake() tells the first cycle at which something becomes legal, so idle cycles
// cost nothing. Every inter-command constraint comes from the TimingTable.
//
// Two implementations of the same decision. The default keeps, per bank, the queued
// requests whose next burst goes there (arrival order) and how many of them hit the open
// row; step() and next_wake() then look at one candidate per bank (the oldest legal row
// hit, else the oldest request for PRE / ACT) instead of every queued request. The
// reference (DramParams::reference_scheduler) scans the whole queue in arrival order at
// every step, as the rule above reads; tests check that both issue the same commands.
#include <cstdint>
#include <vector>

#include "models/dram/address_mapper.h"
#include "models/dram/dram_command.h"
#include "models/dram/dram_params.h"
#include "models/dram/timing_state.h"

namespace vp::dram {

struct ChannelCounters {
    std::uint64_t reads = 0, writes = 0;            // transactions completed
    std::uint64_t read_bursts = 0, write_bursts = 0;
    std::uint64_t bytes_read = 0, bytes_written = 0;
    std::uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;  // per burst
    std::uint64_t activates = 0, precharges = 0, refreshes = 0;
    std::uint64_t starvation_caps = 0;       // requests served first because the starvation cap was reached
    std::uint64_t data_bus_busy_cycles = 0;
    std::uint64_t bus_turnarounds = 0;     // column commands whose direction (read / write) differs from the previous one
    std::uint64_t occupancy_integral = 0;  // sum over cycles of queue length
    std::uint64_t max_occupancy = 0;
    std::vector<std::uint64_t> bank_activates, bank_bursts;  // per bank, index rank * banks + bank
};

class DramChannel {
public:
    struct Completion {
        std::uint64_t cycle;  // cycle at which the last data beat has been transferred
        void* tag;
    };

    DramChannel(const DramParams& p, const AddressMapper& mapper, const TimingTable& table, unsigned index = 0);

    // reference: scan the whole queue at each step (DramParams::reference_scheduler by default).
    DramChannel(const DramParams& p, const AddressMapper& mapper, const TimingTable& table, unsigned index,
                bool reference);

    bool full() const { return m_queue.size() >= m_p.queue_depth; }
    bool idle() const { return m_queue.empty(); }
    std::size_t occupancy() const { return m_queue.size(); }
    // Adds a transaction accepted in cycle `accept` (never earlier than the previous one);
    // the caller checks full() first.
    void enqueue(void* tag, bool write, std::uint64_t addr, unsigned bytes, std::uint64_t accept);
    // The same with the first burst's address decoded by the caller (m_map.decode of its start).
    void enqueue(void* tag, bool write, std::uint64_t addr, unsigned bytes, std::uint64_t accept,
                 const DramAddress& first_burst);
    // Issues at most one command at cycle `now`; returns true if one was issued.
    bool step(std::uint64_t now);
    // First cycle > now at which step() may issue something (UINT64_MAX: nothing pending).
    std::uint64_t next_wake(std::uint64_t now) const;
    // After enqueue(): a cycle > now, no later than the first at which a request queued since
    // the last step() or wake_after_enqueue() can issue something; UINT64_MAX when none can
    // issue before what next_wake() gave at the last step. Cheaper than next_wake().
    std::uint64_t wake_after_enqueue(std::uint64_t now);
    // No command for a request accepted in cycle `accept` and not yet queued can issue before
    // this cycle: its readiness, and the earliest legal time of the command its first burst needs
    // in the bank's present state (a lower bound: until a command issues, that state holds).
    std::uint64_t first_issue_bound(bool write, const DramAddress& first_burst, std::uint64_t accept) const;
    // Transactions whose last column command was issued; the caller drains this.
    std::vector<Completion>& completions() { return m_done; }
    const ChannelCounters& counters() const { return m_c; }
    // First cycle at which the data bus is free again.
    std::uint64_t bus_free() const { return m_bus_free; }
    // Closes the occupancy integral at the end of the run.
    void finish(std::uint64_t now) { account(now); }
    // The occupancy integral up to cycle `now` (>= the last event), without closing it.
    std::uint64_t occupancy_integral_at(std::uint64_t now) const {
        return m_c.occupancy_integral + (now > m_last_account ? std::uint64_t(m_queue.size()) * (now - m_last_account) : 0);
    }
    // Receives every issued command (nullptr: none).
    void set_observer(CommandObserver* o) { m_obs = o; }

private:
    struct Request {
        void* tag;
        bool write;
        std::uint64_t begin, end;  // byte range of the whole request (for hazard checks)
        std::uint64_t addr;        // burst-aligned address of the next burst
        unsigned bursts_left;
        unsigned bytes;
        std::uint64_t ready;       // first cycle the scheduler may consider it
        std::uint64_t seq;         // arrival number
        DramAddress cur;
        bool did_pre = false, did_act = false;
        // No older queued request overlaps its bytes with either of the two writing (set at
        // arrival, or when hazard() finds the overlapping ones gone): it never waits for one, as
        // the older requests only leave the queue.
        mutable bool clear_of_older = false;
    };
    using Slot = std::uint32_t;  // index into m_slots, stable while the request is queued
    struct Bank {
        std::int64_t open_row = -1;
        std::vector<Slot> queued;          // requests whose next burst is in this bank, arrival order
        unsigned hit_reads = 0, hit_writes = 0;  // how many of them hit open_row
    };
    struct Rank {
        std::uint64_t refresh_due = 0;
        bool refresh_pending = false;
    };

    std::size_t bank_index(const DramAddress& a) const { return std::size_t(a.rank) * m_p.banks() + a.bank; }
    Bank& bank(const DramAddress& a) { return m_banks[bank_index(a)]; }
    const Bank& bank(const DramAddress& a) const { return m_banks[bank_index(a)]; }
    Command needed(const Request& r) const;
    Request& req(std::size_t i) { return m_slots[m_queue[i]]; }
    const Request& req(std::size_t i) const { return m_slots[m_queue[i]]; }
    // Per-bank lists: link adds a request to the list of its next burst's bank, unlink removes it.
    void link(Slot s);
    void unlink(Slot s);
    void close_row(Bank& b);
    void open_row(Bank& b, std::uint64_t row);
    bool step_scan(std::uint64_t now, bool frfcfs, bool capped);
    bool step_banks(std::uint64_t now);
    void issue_row_command(std::size_t idx, Command c, std::uint64_t now);
    std::uint64_t next_wake_scan(std::uint64_t now, bool capped) const;
    std::uint64_t next_wake_banks(std::uint64_t now) const;
    std::uint64_t bank_wake(const Bank& b) const;
    // The same while hits may wait for older requests (hits_may_block()): a bank whose hits all do
    // wakes for the PRE its other requests need.
    std::uint64_t bank_wake_may_block(const Bank& b) const;
    std::uint64_t earliest(const DramAddress& a, Command c) const {
        return m_timing.earliest(c, a.rank, a.bank_group, a.bank);
    }
    bool row_has_pending_hit(const DramAddress& a, std::size_t skip) const;
    bool hazard(std::size_t idx) const;
    // Can any queued request wait for an older one at all? (Nearly never: overlapping bytes, one
    // writing.) The callers ask it once per step and only then hits_all_blocked().
    bool hits_may_block() const { return m_unclear != 0 && m_writes_queued != 0; }
    // Does the bank have hits, all waiting for an older request (hazard), while another queued
    // request needs another row?
    bool hits_all_blocked(const Bank& b) const {
        const std::size_t hits = std::size_t(b.hit_reads) + b.hit_writes;
        return hits > 0 && b.queued.size() != hits && hits_all_blocked_scan(b);
    }
    [[gnu::cold, gnu::noinline]] bool hits_all_blocked_scan(const Bank& b) const;
    Slot first_miss(const Bank& b) const;
    std::size_t position(Slot s) const;  // index of slot s in m_queue
    bool refresh_step(std::uint64_t now);
    std::uint64_t refresh_wake(std::uint64_t now) const;
    void issue_column(std::size_t idx, std::uint64_t now);
    void issue(Command c, const DramAddress& a, std::uint64_t row, std::uint64_t now);
    void account(std::uint64_t now);

    const DramParams& m_p;
    const AddressMapper& m_map;
    const unsigned m_index;
    const bool m_reference;
    TimingState m_timing;
    std::vector<Request> m_slots;  // queue_depth entries (more if a caller enqueues past full())
    std::vector<Slot> m_free;      // unused slots
    std::vector<Slot> m_queue;     // queued requests, arrival order
    std::vector<Bank> m_banks;
    std::vector<Rank> m_ranks;
    std::vector<Completion> m_done;
    mutable std::size_t m_unclear = 0;  // queued requests that are not clear_of_older
    std::vector<std::uint8_t> m_scan;  // per bank, scratch of one FR-FCFS scan (queued row hits)
    std::vector<std::uint64_t> m_nonempty;  // bit per bank: its list is not empty
    std::vector<std::uint32_t> m_touched;   // banks that received a request since the last step
    std::uint64_t m_bus_free = 0;
    int m_last_dir = -1;  // direction of the last column command: 0 read, 1 write, -1 none yet
    std::uint64_t m_next_seq = 0;
    std::uint64_t m_last_accept = 0;
    unsigned m_writes_queued = 0;  // no write queued: a read has no ordering hazard
    std::uint64_t m_front_seq = ~std::uint64_t(0);  // the oldest request the bypass count belongs to
    unsigned m_bypass = 0;  // column commands of younger requests since it became the oldest
    std::uint64_t m_last_account = 0;
    CommandObserver* m_obs = nullptr;
    ChannelCounters m_c;
};

}  // namespace vp::dram
