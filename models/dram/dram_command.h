#pragma once
// DRAM commands and the levels of the DRAM hierarchy that timing rules refer to, and
// the record of one issued command (for the protocol checker, waveforms and traces).
#include <cstdint>

namespace vp::dram {

// A time that never comes (no event pending).
inline constexpr std::uint64_t kNever = ~std::uint64_t(0);

// PREA precharges every bank of a rank (before a refresh); RDA / WRA are column
// commands with auto-precharge (the closed-page policy uses them).
enum class Command : std::uint8_t { Act, Pre, Prea, Rd, Wr, Rda, Wra, Ref, Count };
constexpr unsigned kCommands = unsigned(Command::Count);

enum class Level : std::uint8_t { Channel, Rank, BankGroup, Bank, Count };
constexpr unsigned kLevels = unsigned(Level::Count);

const char* to_string(Command c);
const char* to_string(Level l);
// Parses a command / level name as written in the rule tables; false if unknown.
bool parse_command(const char* s, Command& out);
bool parse_level(const char* s, Level& out);

inline bool is_column(Command c) { return c == Command::Rd || c == Command::Wr || c == Command::Rda || c == Command::Wra; }
inline bool is_read(Command c) { return c == Command::Rd || c == Command::Rda; }
inline bool is_write(Command c) { return c == Command::Wr || c == Command::Wra; }

// One command as it appears on a channel's command bus.
struct CommandRecord {
    std::uint64_t cycle;  // memory-clock cycle at which the command is on the bus
    Command cmd;
    unsigned channel, rank, bank_group, bank;  // bank: index within the rank
    std::uint64_t row, column;                 // column in bursts; row of ACT / column commands
};

// Receives every command a channel issues (checker, waveforms). Only called when one
// is attached, so a run without observers pays one pointer test per command.
class CommandObserver {
public:
    virtual ~CommandObserver() = default;
    virtual void on_command(const CommandRecord& r) = 0;
};

}  // namespace vp::dram
