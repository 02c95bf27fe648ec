#pragma once
// The timing state of one channel, driven by a TimingTable: for every node of the
// hierarchy (the channel, each rank, bank group and bank) and every command, the first
// cycle at which that command may be issued there. Issuing a command raises these
// "ready" cycles along the table's rows that start with it, as Ramulator 2 does, so the
// legality of a command is a max over four numbers and every row of the table (not only
// the most recent command) keeps constraining what follows.
#include <cstdint>
#include <vector>

#include "models/dram/dram_command.h"
#include "models/dram/timing_table.h"

namespace vp::dram {

struct DramParams;

class TimingState {
public:
    TimingState(const DramParams& p, const TimingTable& table);

    // First cycle at which `c` may be issued to bank `bank` (index within the rank) of
    // bank group `bg` of `rank`. For REF and PREA pass any bank (their rows are rank-level).
    std::uint64_t earliest(Command c, unsigned rank, unsigned bg, unsigned bank) const {
        const unsigned ci = unsigned(c);
        std::uint64_t t = m_ready[0][ci];
        t = t > m_ready[1][rank * kCommands + ci] ? t : m_ready[1][rank * kCommands + ci];
        const std::uint64_t g = m_ready[2][(rank * m_bank_groups + bg) * kCommands + ci];
        t = t > g ? t : g;
        const std::uint64_t b = m_ready[3][(rank * m_banks + bank) * kCommands + ci];
        return t > b ? t : b;
    }
    // Records `c` issued at cycle `now`. REF and PREA apply their bank-level rows to every bank of the rank.
    void issue(Command c, unsigned rank, unsigned bg, unsigned bank, std::uint64_t now);

private:
    struct Row {
        Level level;
        Command to;
        unsigned distance;
        bool sibling;
        unsigned window;
        std::size_t hist;   // first slot of this row's window history (window > 1)
        std::size_t count;  // first counter of this row's histories
    };
    void raise(unsigned level, std::size_t node, Command to, std::uint64_t t) {
        std::uint64_t& r = m_ready[level][node * kCommands + unsigned(to)];
        if (t > r) r = t;
    }
    void apply(const Row& row, unsigned rank, unsigned bg, unsigned bank, std::uint64_t now);

    unsigned m_ranks, m_bank_groups, m_banks, m_banks_per_group;
    std::vector<Row> m_rows[kCommands];        // rows by preceding command
    std::vector<std::uint64_t> m_ready[kLevels];  // [node * kCommands + command]
    std::vector<std::uint64_t> m_hist;         // window histories (ring per row and node)
    std::vector<std::uint32_t> m_hist_count;   // commands recorded per ring
};

}  // namespace vp::dram
