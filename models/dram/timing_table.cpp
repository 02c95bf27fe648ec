#include "models/dram/timing_table.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "mapper/common/errors.h"
#include "models/dram/dram_params.h"

namespace vp::dram {

namespace {

// DDR3 (JEDEC JESD79-3F): no bank groups. BL is the burst on the data bus in tCK (BL8: 4).
// Data bus: a read occupies [RD + CL, RD + CL + BL), a write [WR + CWL, WR + CWL + BL).
constexpr RuleSpec kDdr3[] = {
    // Command bus: one command per tCK per channel.
    {"command bus", "channel", "*", "*", "1"},
    // Data bus: bursts of one rank back to back.
    {"data bus", "channel", "RD RDA", "RD RDA", "BL"},
    {"data bus", "channel", "WR WRA", "WR WRA", "BL"},
    // Rank: column-to-column, bus turnaround, activation rate, refresh.
    {"tCCD", "rank", "RD RDA", "RD RDA", "tCCD_S"},
    {"tCCD", "rank", "WR WRA", "WR WRA", "tCCD_S"},
    {"tRTW", "rank", "RD RDA", "WR WRA", "CL + BL + 2 - CWL"},
    {"tWTR", "rank", "WR WRA", "RD RDA", "CWL + BL + tWTR_S"},
    {"tRRD", "rank", "ACT", "ACT", "tRRD_S"},
    {"tFAW", "rank", "ACT", "ACT", "tFAW", false, 4},
    {"tRC", "rank", "ACT", "REF", "tRC"},
    {"tRP", "rank", "PRE", "REF", "tRP"},
    {"tRTP+tRP", "rank", "RDA", "REF", "tRTP + tRP"},
    {"tWR+tRP", "rank", "WRA", "REF", "CWL + BL + tWR + tRP"},
    {"tRAS", "rank", "ACT", "PREA", "tRAS"},
    {"tRTP", "rank", "RD RDA", "PREA", "tRTP"},
    {"tWR", "rank", "WR WRA", "PREA", "CWL + BL + tWR"},
    {"tRP", "rank", "PREA", "ACT REF", "tRP"},
    {"tRFC", "rank", "REF", "ACT PRE PREA REF", "tRFC"},
    // Rank switching (the data bus changes driver): between different ranks of a channel.
    {"tRTRS", "rank", "RD RDA", "RD RDA", "BL + tRTRS", true},
    {"tRTRS", "rank", "RD RDA", "WR WRA", "CL + BL + tRTRS - CWL", true},
    {"tRTRS", "rank", "WR WRA", "WR WRA", "BL + tRTRS", true},
    {"tRTRS", "rank", "WR WRA", "RD RDA", "CWL + BL + tRTRS - CL", true},
    // Bank.
    {"tRCD", "bank", "ACT", "RD RDA WR WRA", "tRCD"},
    {"tRAS", "bank", "ACT", "PRE", "tRAS"},
    {"tRC", "bank", "ACT", "ACT", "tRC"},
    {"tRP", "bank", "PRE", "ACT", "tRP"},
    {"tRTP", "bank", "RD", "PRE", "tRTP"},
    {"tWR", "bank", "WR", "PRE", "CWL + BL + tWR"},
    {"tRTP+tRP", "bank", "RDA", "ACT", "tRTP + tRP"},
    {"tWR+tRP", "bank", "WRA", "ACT", "CWL + BL + tWR + tRP"},
    // An auto-precharge starts no earlier than tRAS after its ACT (tRAS lockout), so the next ACT
    // of the bank, and a REF, wait tRAS + tRP: tRC covers it only when tRC >= tRAS + tRP.
    {"tRAS+tRP", "bank", "ACT", "ACT", "tRAS + tRP"},
    {"tRAS+tRP", "rank", "ACT", "REF", "tRAS + tRP"},
};

// DDR4 (JEDEC JESD79-4B): DDR3's rows, plus the _L variants inside a bank group.
constexpr RuleSpec kDdr4[] = {
    {"command bus", "channel", "*", "*", "1"},
    {"data bus", "channel", "RD RDA", "RD RDA", "BL"},
    {"data bus", "channel", "WR WRA", "WR WRA", "BL"},
    {"tCCD_S", "rank", "RD RDA", "RD RDA", "tCCD_S"},
    {"tCCD_S", "rank", "WR WRA", "WR WRA", "tCCD_S"},
    {"tRTW", "rank", "RD RDA", "WR WRA", "CL + BL + 2 - CWL"},
    {"tWTR_S", "rank", "WR WRA", "RD RDA", "CWL + BL + tWTR_S"},
    {"tRRD_S", "rank", "ACT", "ACT", "tRRD_S"},
    {"tFAW", "rank", "ACT", "ACT", "tFAW", false, 4},
    {"tRC", "rank", "ACT", "REF", "tRC"},
    {"tRP", "rank", "PRE", "REF", "tRP"},
    {"tRTP+tRP", "rank", "RDA", "REF", "tRTP + tRP"},
    {"tWR+tRP", "rank", "WRA", "REF", "CWL + BL + tWR + tRP"},
    {"tRAS", "rank", "ACT", "PREA", "tRAS"},
    {"tRTP", "rank", "RD RDA", "PREA", "tRTP"},
    {"tWR", "rank", "WR WRA", "PREA", "CWL + BL + tWR"},
    {"tRP", "rank", "PREA", "ACT REF", "tRP"},
    {"tRFC", "rank", "REF", "ACT PRE PREA REF", "tRFC"},
    {"tRTRS", "rank", "RD RDA", "RD RDA", "BL + tRTRS", true},
    {"tRTRS", "rank", "RD RDA", "WR WRA", "CL + BL + tRTRS - CWL", true},
    {"tRTRS", "rank", "WR WRA", "WR WRA", "BL + tRTRS", true},
    {"tRTRS", "rank", "WR WRA", "RD RDA", "CWL + BL + tRTRS - CL", true},
    {"tCCD_L", "bank_group", "RD RDA", "RD RDA", "tCCD_L"},
    {"tCCD_L", "bank_group", "WR WRA", "WR WRA", "tCCD_L"},
    {"tWTR_L", "bank_group", "WR WRA", "RD RDA", "CWL + BL + tWTR_L"},
    {"tRRD_L", "bank_group", "ACT", "ACT", "tRRD_L"},
    {"tRCD", "bank", "ACT", "RD RDA WR WRA", "tRCD"},
    {"tRAS", "bank", "ACT", "PRE", "tRAS"},
    {"tRC", "bank", "ACT", "ACT", "tRC"},
    {"tRP", "bank", "PRE", "ACT", "tRP"},
    {"tRTP", "bank", "RD", "PRE", "tRTP"},
    {"tWR", "bank", "WR", "PRE", "CWL + BL + tWR"},
    {"tRTP+tRP", "bank", "RDA", "ACT", "tRTP + tRP"},
    {"tWR+tRP", "bank", "WRA", "ACT", "CWL + BL + tWR + tRP"},
    // An auto-precharge starts no earlier than tRAS after its ACT (tRAS lockout), so the next ACT
    // of the bank, and a REF, wait tRAS + tRP: tRC covers it only when tRC >= tRAS + tRP.
    {"tRAS+tRP", "bank", "ACT", "ACT", "tRAS + tRP"},
    {"tRAS+tRP", "rank", "ACT", "REF", "tRAS + tRP"},
};

constexpr StandardSpec kStandards[] = {
    {"ddr3", "JEDEC JESD79-3F (DDR3 SDRAM)", kDdr3, sizeof(kDdr3) / sizeof(kDdr3[0])},
    {"ddr4", "JEDEC JESD79-4B (DDR4 SDRAM)", kDdr4, sizeof(kDdr4) / sizeof(kDdr4[0])},
};

// The timing parameters a formula may name.
struct ParamName {
    const char* name;
    unsigned DramTiming::*field;
};
constexpr ParamName kParams[] = {
    {"CL", &DramTiming::CL},         {"CWL", &DramTiming::CWL},       {"tRCD", &DramTiming::tRCD},
    {"tRP", &DramTiming::tRP},       {"tRAS", &DramTiming::tRAS},     {"tRC", &DramTiming::tRC},
    {"tCCD_S", &DramTiming::tCCD_S}, {"tCCD_L", &DramTiming::tCCD_L}, {"tRRD_S", &DramTiming::tRRD_S},
    {"tRRD_L", &DramTiming::tRRD_L}, {"tFAW", &DramTiming::tFAW},     {"tWR", &DramTiming::tWR},
    {"tWTR_S", &DramTiming::tWTR_S}, {"tWTR_L", &DramTiming::tWTR_L}, {"tRTP", &DramTiming::tRTP},
    {"tRTRS", &DramTiming::tRTRS},   {"tRFC", &DramTiming::tRFC},     {"tREFI", &DramTiming::tREFI},
};

std::vector<Command> parse_commands(const char* list, const std::string& what) {
    std::vector<Command> out;
    std::string s(list);
    if (s == "*") {
        for (unsigned c = 0; c < kCommands; ++c) out.push_back(Command(c));
        return out;
    }
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ') ++j;
        if (j > i) {
            Command c;
            if (!parse_command(s.substr(i, j - i).c_str(), c))
                throw InputError(what + ": unknown command \"" + s.substr(i, j - i) + "\"");
            out.push_back(c);
        }
        i = j;
    }
    if (out.empty()) throw InputError(what + ": empty command list");
    return out;
}

}  // namespace

long TimingTable::evaluate(const char* formula, const DramParams& p, const std::string& what) {
    long sum = 0;
    int sign = 1;
    bool expect_term = true;
    const char* s = formula;
    while (*s) {
        if (*s == ' ') {
            ++s;
            continue;
        }
        if (!expect_term && (*s == '+' || *s == '-')) {
            sign = *s == '+' ? 1 : -1;
            expect_term = true;
            ++s;
            continue;
        }
        if (!expect_term) throw InputError(what + ": expected + or - in \"" + formula + "\"");
        const char* b = s;
        while (*s && (std::isalnum(static_cast<unsigned char>(*s)) || *s == '_')) ++s;
        std::string tok(b, s);
        if (tok.empty()) throw InputError(what + ": unexpected character in \"" + formula + "\"");
        long v = 0;
        if (std::isdigit(static_cast<unsigned char>(tok[0]))) {
            for (char c : tok) {
                if (!std::isdigit(static_cast<unsigned char>(c)))
                    throw InputError(what + ": bad number \"" + tok + "\" in \"" + formula + "\"");
                v = v * 10 + (c - '0');
            }
        } else if (tok == "BL") {
            v = long(p.burst_cycles());
        } else {
            const ParamName* f = std::find_if(std::begin(kParams), std::end(kParams),
                                              [&](const ParamName& n) { return tok == n.name; });
            if (f == std::end(kParams))
                throw InputError(what + ": unknown timing parameter \"" + tok + "\" in \"" + formula + "\"");
            v = long(p.t.*(f->field));
        }
        sum += sign * v;
        expect_term = false;
    }
    if (expect_term) throw InputError(what + ": incomplete formula \"" + std::string(formula) + "\"");
    return sum;
}

const StandardSpec* TimingTable::find_standard(const std::string& name) {
    for (const auto& s : kStandards)
        if (name == s.name) return &s;
    return nullptr;
}

std::vector<std::string> TimingTable::standard_names() {
    std::vector<std::string> n;
    for (const auto& s : kStandards) n.emplace_back(s.name);
    return n;
}

TimingTable::TimingTable(const DramParams& p) {
    const StandardSpec* std_spec = find_standard(p.standard);
    if (!std_spec) throw InputError("dram.standard: unknown DRAM standard \"" + p.standard + "\"");
    for (std::size_t i = 0; i < std_spec->count; ++i) {
        const RuleSpec& r = std_spec->rules[i];
        const std::string what = std::string("DRAM standard ") + std_spec->name + ", rule " + r.name;
        Level level;
        if (!parse_level(r.level, level)) throw InputError(what + ": unknown level \"" + r.level + "\"");
        const long d = evaluate(r.distance, p, what);
        for (Command from : parse_commands(r.from, what))
            for (Command to : parse_commands(r.to, what))
                m_rules.push_back({level, from, to, unsigned(std::max(0L, d)), r.sibling, std::max(1u, r.window),
                                   r.name, r.distance});
    }
}

unsigned TimingTable::distance(Level level, Command from, Command to, bool sibling) const {
    unsigned d = 0;
    for (const TimingRule& r : m_rules)
        if (r.level == level && r.from == from && r.to == to && r.sibling == sibling && r.window == 1)
            d = std::max(d, r.distance);
    return d;
}

const TimingRule* TimingTable::window_rule(Level level, Command from, Command to) const {
    for (const TimingRule& r : m_rules)
        if (r.level == level && r.from == from && r.to == to && r.window > 1) return &r;
    return nullptr;
}

}  // namespace vp::dram
