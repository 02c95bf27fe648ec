#include "models/dram/dram_command.h"

#include <cstring>

namespace vp::dram {

namespace {
constexpr const char* kCommandNames[kCommands] = {"ACT", "PRE", "PREA", "RD", "WR", "RDA", "WRA", "REF"};
constexpr const char* kLevelNames[kLevels] = {"channel", "rank", "bank_group", "bank"};
}  // namespace

const char* to_string(Command c) { return c < Command::Count ? kCommandNames[unsigned(c)] : "?"; }
const char* to_string(Level l) { return l < Level::Count ? kLevelNames[unsigned(l)] : "?"; }

bool parse_command(const char* s, Command& out) {
    for (unsigned i = 0; i < kCommands; ++i)
        if (std::strcmp(s, kCommandNames[i]) == 0) {
            out = Command(i);
            return true;
        }
    return false;
}

bool parse_level(const char* s, Level& out) {
    for (unsigned i = 0; i < kLevels; ++i)
        if (std::strcmp(s, kLevelNames[i]) == 0) {
            out = Level(i);
            return true;
        }
    return false;
}

}  // namespace vp::dram
