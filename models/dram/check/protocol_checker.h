#pragma once
// An independent DRAM command-legality checker (DDR3 JESD79-3F / DDR4 JESD79-4B).
//
// It shares no code with the controller or its timing table: it includes nothing from
// models/dram, receives the raw timing numbers of the preset in its own struct, and
// implements each JEDEC rule directly, from the times of the earlier commands it
// remembers per channel, rank, bank group and bank (all of them, not only the latest:
// tWTR_L is checked against the last write of the same bank group, tWTR_S against the
// last write of every other bank group, tFAW against the fourth-last ACT of the rank).
//
// Checked: bank state (ACT to an open bank, RD/WR to a closed bank or another row, REF
// with a bank open), tRCD, tRP (also after auto-precharge and PREA), tRAS, tRC, tRRD_S/L, tFAW,
// tCCD_S/L, tWTR_S/L, tRTP, tWR, tRTW, tRFC, tREFI (refresh debt: at most 8 REF postponed
// and at most 8 pulled in, as both standards allow), one command per tCK per channel,
// and the data bus (no overlapping bursts; a rank switch leaves tRTRS).
#include <cstdint>
#include <string>
#include <vector>

namespace vp::dramcheck {

struct JedecParams {
    unsigned channels = 1, ranks = 1, bank_groups = 1, banks_per_group = 8;
    unsigned burst_cycles = 4;  // data bus cycles per burst (BL/2)
    unsigned CL = 0, CWL = 0, tRCD = 0, tRP = 0, tRAS = 0, tRC = 0, tCCD_S = 0, tCCD_L = 0, tRRD_S = 0, tRRD_L = 0,
             tFAW = 0, tWR = 0, tWTR_S = 0, tWTR_L = 0, tRTP = 0, tRTRS = 0, tRFC = 0, tREFI = 0;
    bool refresh = true;              // check the refresh interval
    unsigned max_postponed = 8;       // REF commands that may be postponed (and pulled in)
};

enum class Op { Act, Pre, Prea, Rd, Wr, Rda, Wra, Ref };
const char* op_name(Op o);

struct Cmd {
    std::uint64_t cycle = 0;
    Op op = Op::Act;
    unsigned channel = 0, rank = 0, bank_group = 0, bank = 0;  // bank: index within the rank
    std::uint64_t row = 0, column = 0;
};

struct Violation {
    std::string rule;      // "tWTR_L", "command bus", "data bus", "bank state" ...
    Cmd earlier, later;    // the two commands (earlier is absent for a few state rules)
    bool has_earlier = false;
    std::int64_t required = 0, actual = 0;  // distance in tCK (when a distance rule)
    std::string message;   // one readable line
};

class ProtocolChecker {
public:
    explicit ProtocolChecker(const JedecParams& p);
    // Checks one command (commands arrive in issue order, per channel). Returns false
    // when it breaks a rule; the first violation is kept, later ones are counted.
    bool check(const Cmd& c);
    // The end of the run at `cycle`: checks the refresh debt of every rank.
    bool finish(std::uint64_t cycle);
    bool ok() const { return m_count == 0; }
    const Violation& first() const { return m_first; }
    std::uint64_t violations() const { return m_count; }
    std::uint64_t commands() const { return m_commands; }
    // Picoseconds per tCK, only to print times in messages (0: cycles only).
    void set_tck_ps(std::uint64_t ps) { m_tck_ps = ps; }

private:
    struct Last {  // the last command of a kind somewhere, or none
        bool valid = false;
        Cmd cmd;
    };
    struct BankState {
        bool open = false;
        std::uint64_t row = 0;
        Last act, pre, rd, wr;             // last commands to this bank
        std::uint64_t precharged_at = 0;   // when the last (explicit or auto) precharge took effect
        bool precharged = false;
        Cmd precharge_cmd;                 // the command that precharged it
    };
    struct GroupState {
        Last act, rd, wr;
    };
    struct RankState {
        std::vector<Cmd> acts;  // last four ACTs (oldest first)
        Last act, rd, wr, ref;
        std::uint64_t refs = 0;
    };
    struct ChannelState {
        Last any;                // last command on the command bus
        Last burst;              // column command whose burst ends last on the data bus
        std::uint64_t burst_end = 0;
        unsigned burst_rank = 0;
        std::vector<RankState> ranks;
        std::vector<GroupState> groups;  // rank * bank_groups + bg
        std::vector<BankState> banks;    // rank * banks + bank
    };

    bool distance(const char* rule, const Last& earlier, const Cmd& later, std::int64_t need);
    bool report(const std::string& rule, const Cmd* earlier, const Cmd& later, std::int64_t need, std::int64_t got,
                const std::string& what);
    bool refresh_debt(const Cmd* at, std::uint64_t cycle, unsigned channel, unsigned rank);
    std::string describe(const Cmd& c) const;

    JedecParams m_p;
    std::vector<ChannelState> m_ch;
    Violation m_first;
    std::uint64_t m_count = 0, m_commands = 0, m_tck_ps = 0;
    bool m_ok_this = true;
};

}  // namespace vp::dramcheck
