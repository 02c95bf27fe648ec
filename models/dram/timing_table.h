#pragma once
// DRAM timing rules as data. A standard (DDR3, DDR4, ...) is a list of rows
//   level x (preceding command -> following command) -> minimum distance in tCK
// as DRAMSys's checkers and Ramulator 2's timing_constraints lay them out. The distance
// is written as a formula over the preset's named timing parameters ("CWL + BL + tWTR_L"),
// so a new standard, or a new preset of a known standard, is data and no code.
//
// TimingTable resolves the formulas of one DramParams into numbers. Both the channel's
// scheduler (through TimingState) and the unit tests read it; the protocol checker in
// models/dram/check/ deliberately does not.
#include <string>
#include <vector>

#include "models/dram/dram_command.h"

namespace vp::dram {

struct DramParams;

// One row of a standard's rule list, as written in the source.
struct RuleSpec {
    const char* name;      // the JEDEC parameter the row enforces ("tWTR_L")
    const char* level;     // "channel" | "rank" | "bank_group" | "bank"
    const char* from;      // preceding command(s): "RD RDA", or "*" for every command
    const char* to;        // following command(s), same syntax
    const char* distance;  // integers and parameter names joined by + and -
    bool sibling = false;  // applies between *different* nodes of `level` (rank switching)
    unsigned window = 1;   // counts from the window-th last `from` (tFAW: 4 ACTs)
};

// A DRAM standard: its rule list and where it comes from.
struct StandardSpec {
    const char* name;    // "ddr3", "ddr4"
    const char* source;  // the JEDEC document the rows follow
    const RuleSpec* rules;
    std::size_t count;
};

// Resolved row: one command pair at one level, distance in tCK.
struct TimingRule {
    Level level;
    Command from, to;
    unsigned distance;
    bool sibling;
    unsigned window;
    const char* name;
    const char* formula;
};

class TimingTable {
public:
    // Resolves the rules of p.standard with p's timing values; throws InputError when a
    // formula names an unknown parameter (a broken standard table).
    explicit TimingTable(const DramParams& p);

    const std::vector<TimingRule>& rules() const { return m_rules; }
    // Largest distance of the non-window rows from `from` to `to` at `level` (0: none).
    unsigned distance(Level level, Command from, Command to, bool sibling = false) const;
    // The tFAW-style window row for from -> to at level (nullptr: none).
    const TimingRule* window_rule(Level level, Command from, Command to) const;

    static const StandardSpec* find_standard(const std::string& name);
    static std::vector<std::string> standard_names();
    // Evaluates a distance formula with p's parameters (negative results are clamped
    // to 0 by the table, not here). Throws InputError naming `what` on a bad formula.
    static long evaluate(const char* formula, const DramParams& p, const std::string& what);

private:
    std::vector<TimingRule> m_rules;
};

}  // namespace vp::dram
