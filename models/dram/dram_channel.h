#pragma once
// One DRAM channel: request queue, bank/rank state and the command scheduler.
// Plain C++ on integer memory-clock cycles, so it is exact, fast and testable
// without a SystemC kernel; DramController drives it from the simulation.
//
// Each step(now) issues at most one command (one command bus slot per tCK):
// a pending refresh first, then (FR-FCFS) the oldest request whose column command
// is legal now, else the oldest request whose PRE or ACT is legal now; FCFS only
// looks at the oldest request. When nothing is legal, next_wake() tells the first
// cycle at which something becomes legal, so idle cycles cost nothing.
#include <cstdint>
#include <vector>

#include "models/dram/address_mapper.h"
#include "models/dram/dram_params.h"

namespace vp::dram {

struct ChannelCounters {
    std::uint64_t reads = 0, writes = 0;            // transactions completed
    std::uint64_t read_bursts = 0, write_bursts = 0;
    std::uint64_t bytes_read = 0, bytes_written = 0;
    std::uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;  // per burst
    std::uint64_t activates = 0, precharges = 0, refreshes = 0;
    std::uint64_t data_bus_busy_cycles = 0;
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

    DramChannel(const DramParams& p, const AddressMapper& mapper);

    bool full() const { return m_queue.size() >= m_p.queue_depth; }
    bool idle() const { return m_queue.empty(); }
    std::size_t occupancy() const { return m_queue.size(); }
    // Adds a transaction (arrival at cycle `now`); the caller checks full() first.
    void enqueue(void* tag, bool write, std::uint64_t addr, unsigned bytes, std::uint64_t now);
    // Issues at most one command at cycle `now`; returns true if one was issued.
    bool step(std::uint64_t now);
    // First cycle > now at which step() may issue something (UINT64_MAX: nothing pending).
    std::uint64_t next_wake(std::uint64_t now) const;
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

private:
    struct Request {
        void* tag;
        bool write;
        std::uint64_t begin, end;  // byte range of the whole request (for hazard checks)
        std::uint64_t addr;  // burst-aligned address of the next burst
        unsigned bursts_left;
        unsigned bytes;
        DramAddress cur;
        bool did_pre = false, did_act = false;
    };
    struct Bank {
        std::int64_t open_row = -1;
        std::uint64_t t_act = 0, t_pre = 0, t_col = 0;
    };
    struct Rank {
        std::uint64_t act_hist[4] = {0, 0, 0, 0};  // last four ACT cycles (ring), for tFAW
        unsigned act_count = 0, act_pos = 0;
        std::uint64_t last_act = 0;
        bool any_act = false;
        std::vector<std::uint64_t> last_act_bg;  // per bank group (+1 encoded: 0 = never)
        std::uint64_t wr_end = 0;                // end of the last write data burst
        unsigned wr_end_bg = 0;
        bool any_wr = false;
        std::uint64_t refresh_due = 0, busy_until = 0;
        bool refresh_pending = false;
    };
    enum class Cmd { None, Act, Pre, Rd, Wr };

    Bank& bank(const DramAddress& a) { return m_banks[a.rank * m_p.banks() + a.bank]; }
    const Bank& bank(const DramAddress& a) const { return m_banks[a.rank * m_p.banks() + a.bank]; }
    Cmd needed(const Request& r) const;
    std::uint64_t earliest(const Request& r, Cmd c) const;
    std::uint64_t earliest_act(const DramAddress& a) const;
    std::uint64_t earliest_col(const DramAddress& a, bool write) const;
    bool row_has_pending_hit(const DramAddress& a) const;
    bool hazard(std::size_t idx) const;
    bool refresh_step(std::uint64_t now);
    std::uint64_t refresh_wake(std::uint64_t now) const;
    void issue(std::size_t idx, Cmd c, std::uint64_t now);
    void do_act(const DramAddress& a, std::uint64_t now);
    void do_pre(Bank& b, std::uint64_t now);
    void account(std::uint64_t now);

    const DramParams& m_p;
    const AddressMapper& m_map;
    std::vector<Request> m_queue;  // arrival order
    std::vector<Bank> m_banks;
    std::vector<Rank> m_ranks;
    std::vector<Completion> m_done;
    std::uint64_t m_last_col = 0, m_last_rd = 0, m_bus_free = 0;
    unsigned m_last_col_bg = 0, m_last_col_rank = 0, m_bus_rank = 0;
    bool m_any_col = false, m_any_rd = false;
    std::uint64_t m_last_account = 0;
    ChannelCounters m_c;
};

}  // namespace vp::dram
