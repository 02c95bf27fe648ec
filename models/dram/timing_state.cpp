#include "models/dram/timing_state.h"

#include <algorithm>

#include "mapper/common/errors.h"
#include "models/dram/dram_params.h"

namespace vp::dram {

TimingState::TimingState(const DramParams& p, const TimingTable& table)
    : m_ranks(p.ranks), m_bank_groups(p.bank_groups), m_banks(p.banks()), m_banks_per_group(p.banks_per_group) {
    const std::size_t nodes[kLevels] = {1, m_ranks, std::size_t(m_ranks) * m_bank_groups, std::size_t(m_ranks) * m_banks};
    for (unsigned l = 0; l < kLevels; ++l) m_ready[l].assign(nodes[l] * kCommands, 0);
    // Children of one parent per level: a sibling row of a level with one child raises nothing.
    const std::size_t children[kLevels] = {1, m_ranks, m_bank_groups, m_banks_per_group};
    for (const TimingRule& r : table.rules()) {
        if (r.sibling && r.window <= 1 && children[unsigned(r.level)] == 1) continue;
        Row row{r.level, r.to, r.distance, r.sibling, r.window, 0, 0};
        if (r.window > 1) {
            if (r.sibling) throw InputError(std::string("timing rule ") + r.name + ": a window rule cannot be a sibling rule");
            row.hist = m_hist.size();
            row.count = m_hist_count.size();
            m_hist.resize(m_hist.size() + nodes[unsigned(r.level)] * r.window, 0);
            m_hist_count.resize(m_hist_count.size() + nodes[unsigned(r.level)], 0);
        }
        // Rows that raise the same cycle (same level, following command, sibling or not) merge
        // into the largest distance: raising by each in turn ends at the same maximum.
        std::vector<Row>& rows = m_rows[unsigned(r.from)];
        auto same = std::find_if(rows.begin(), rows.end(), [&](const Row& o) {
            return r.window == 1 && o.window == 1 && o.level == row.level && o.to == row.to && o.sibling == row.sibling;
        });
        if (same != rows.end()) same->distance = std::max(same->distance, row.distance);
        else rows.push_back(row);
    }
}

void TimingState::apply(const Row& row, unsigned rank, unsigned bg, unsigned bank, std::uint64_t now) {
    const unsigned l = unsigned(row.level);
    std::size_t node = 0, first = 0, count = 1;  // the node, and the range of its parent's children
    switch (row.level) {
    case Level::Channel: break;
    case Level::Rank:
        node = rank;
        count = m_ranks;
        break;
    case Level::BankGroup:
        node = std::size_t(rank) * m_bank_groups + bg;
        first = std::size_t(rank) * m_bank_groups;
        count = m_bank_groups;
        break;
    default:
        node = std::size_t(rank) * m_banks + bank;
        first = std::size_t(rank) * m_banks + std::size_t(bg) * m_banks_per_group;
        count = m_banks_per_group;
        break;
    }
    if (row.sibling) {
        for (std::size_t n = first; n < first + count; ++n)
            if (n != node) raise(l, n, row.to, now + row.distance);
        return;
    }
    if (row.window > 1) {
        std::uint64_t* ring = &m_hist[row.hist + node * row.window];
        std::uint32_t& c = m_hist_count[row.count + node];
        ring[c % row.window] = now;
        ++c;
        if (c >= row.window) raise(l, node, row.to, ring[c % row.window] + row.distance);  // oldest of the last `window`
        return;
    }
    raise(l, node, row.to, now + row.distance);
}

void TimingState::issue(Command c, unsigned rank, unsigned bg, unsigned bank, std::uint64_t now) {
    const bool all_bank = c == Command::Ref || c == Command::Prea;
    // The first ready cycle of each level's node of (rank, bg, bank), for the plain rows.
    std::uint64_t* const node[kLevels] = {
        &m_ready[0][0], &m_ready[1][std::size_t(rank) * kCommands],
        &m_ready[2][(std::size_t(rank) * m_bank_groups + bg) * kCommands],
        &m_ready[3][(std::size_t(rank) * m_banks + bank) * kCommands]};
    for (const Row& row : m_rows[unsigned(c)]) {
        if (!row.sibling && row.window == 1 && !all_bank) {
            std::uint64_t& r = node[unsigned(row.level)][unsigned(row.to)];
            if (now + row.distance > r) r = now + row.distance;
            continue;
        }
        if (all_bank && (row.level == Level::Bank || row.level == Level::BankGroup)) {
            // An all-bank command: its bank-level rows reach every bank of the rank.
            for (unsigned g = 0; g < m_bank_groups; ++g)
                for (unsigned b = 0; b < m_banks_per_group; ++b)
                    if (row.level == Level::Bank || b == 0) apply(row, rank, g, g * m_banks_per_group + b, now);
            continue;
        }
        apply(row, rank, bg, bank, now);
    }
}

}  // namespace vp::dram
