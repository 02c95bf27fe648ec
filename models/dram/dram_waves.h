#pragma once
// DRAM commands and bank states as waveform signals, so that GTKWave shows why the
// data bus is idle: per channel the command on the bus (ASCII), its rank, bank, row and
// column; per bank its state (IDL / OPN / REF, ASCII) and open row. Signals are named like
// the channel's and banks' statistics (dram.channel[0].cmd, dram.channel[0].bank[3].state). Created only when
// tracing is on; the channel calls it through its observer pointer, so an untraced run
// pays nothing.
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/trace.h"
#include "models/dram/dram_command.h"
#include "models/dram/dram_params.h"

namespace vp::dram {

class DramWaves : public CommandObserver {
public:
    // Declares the signals under `prefix` (the controller's statistics path).
    DramWaves(const DramParams& p, const std::string& prefix, trace::Tracer& tracer);
    // False when the signal filter excluded every DRAM command signal.
    bool active() const { return m_active; }
    void on_command(const CommandRecord& r) override;
    // End of the controller's tick at `now`: the command signals fall one tCK after a
    // command, and bank states leave REF when tRFC has elapsed.
    void advance(std::uint64_t now);
    // First cycle > `now` at which advance() has a change to make (UINT64_MAX: none).
    std::uint64_t next_event() const;

    // ASCII text packed for an ASCII signal (right-aligned, up to 8 characters).
    static std::uint64_t text(const char* s);

private:
    struct Channel {
        trace::Signal *cmd = nullptr, *rank = nullptr, *bank = nullptr, *row = nullptr, *column = nullptr;
        std::uint64_t last = 0;  // cycle of the last command shown
        bool shown = false;      // a command is displayed and has to fall
    };
    struct Bank {
        trace::Signal *state = nullptr, *row = nullptr;
    };
    void end_refresh(unsigned ch, unsigned rank, std::uint64_t now);
    void set_bank(unsigned ch, unsigned rank, unsigned bank, const char* state, std::uint64_t ps);

    const DramParams& m_p;
    std::vector<Channel> m_ch;
    std::vector<Bank> m_banks;                // (channel * ranks + rank) * banks + bank
    std::vector<std::uint64_t> m_ref_end;     // per channel * ranks: cycle the refresh ends (0: none)
    bool m_active = false;
};

}  // namespace vp::dram
