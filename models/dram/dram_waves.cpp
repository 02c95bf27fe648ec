#include "models/dram/dram_waves.h"

#include <limits>

namespace vp::dram {

namespace {
}  // namespace

std::uint64_t DramWaves::text(const char* s) {
    std::uint64_t v = 0;
    for (unsigned i = 0; s[i] && i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(s[i]);
    return v;
}

DramWaves::DramWaves(const DramParams& p, const std::string& prefix, trace::Tracer& tracer)
    : m_p(p), m_ch(p.channels), m_banks(std::size_t(p.channels) * p.ranks * p.banks()),
      m_ref_end(std::size_t(p.channels) * p.ranks, 0) {
    using trace::Display;
    for (unsigned c = 0; c < p.channels; ++c) {
        // Named as the channel's and banks' statistics (one name per module across stats, VCD
        // and .gtkw): dram.channel[c].cmd, dram.channel[c][.rank[r]].bank[b].state.
        const std::string ch = prefix + ".channel[" + std::to_string(c) + "]";
        Channel& s = m_ch[c];
        s.cmd = tracer.add(ch + ".cmd", 24, Display::Ascii);
        s.rank = tracer.add(ch + ".cmd_rank", 8);
        s.bank = tracer.add(ch + ".cmd_bank", 8);
        s.row = tracer.add(ch + ".cmd_row", 24);
        s.column = tracer.add(ch + ".cmd_column", 16);
        m_active = m_active || s.cmd || s.rank || s.bank || s.row || s.column;
        for (unsigned r = 0; r < p.ranks; ++r)
            for (unsigned b = 0; b < p.banks(); ++b) {
                const std::string n = ch + (p.ranks > 1 ? ".rank[" + std::to_string(r) + "]" : std::string()) + ".bank[" +
                                      std::to_string(b) + "]";
                Bank& k = m_banks[(std::size_t(c) * p.ranks + r) * p.banks() + b];
                k.state = tracer.add(n + ".state", 24, Display::Ascii);
                k.row = tracer.add(n + ".row", 24);
                m_active = m_active || k.state || k.row;
                if (k.state) k.state->set(text("IDL"), 0);
            }
        if (s.cmd) s.cmd->set(text("-"), 0);
    }
}

void DramWaves::set_bank(unsigned ch, unsigned rank, unsigned bank, const char* state, std::uint64_t ps) {
    Bank& k = m_banks[(std::size_t(ch) * m_p.ranks + rank) * m_p.banks() + bank];
    if (k.state) k.state->set(text(state), ps);
}

void DramWaves::end_refresh(unsigned ch, unsigned rank, std::uint64_t now) {
    std::uint64_t& end = m_ref_end[std::size_t(ch) * m_p.ranks + rank];
    if (!end || end > now) return;
    for (unsigned b = 0; b < m_p.banks(); ++b) set_bank(ch, rank, b, "IDL", end * m_p.tck_ps);
    end = 0;
}

void DramWaves::on_command(const CommandRecord& r) {
    const std::uint64_t ps = r.cycle * m_p.tck_ps;
    end_refresh(r.channel, r.rank, r.cycle);
    Channel& s = m_ch[r.channel];
    if (s.cmd) s.cmd->set(text(to_string(r.cmd)), ps);
    if (s.rank) s.rank->set(r.rank, ps);
    if (r.cmd != Command::Ref && r.cmd != Command::Prea) {
        if (s.bank) s.bank->set(r.bank, ps);
        if (s.row) s.row->set(r.row, ps);
        if (s.column && is_column(r.cmd)) s.column->set(r.column, ps);
    }
    s.last = r.cycle;
    s.shown = true;
    switch (r.cmd) {
    case Command::Act: {
        set_bank(r.channel, r.rank, r.bank, "OPN", ps);
        Bank& k = m_banks[(std::size_t(r.channel) * m_p.ranks + r.rank) * m_p.banks() + r.bank];
        if (k.row) k.row->set(r.row, ps);
        break;
    }
    case Command::Pre:
    case Command::Rda:
    case Command::Wra: set_bank(r.channel, r.rank, r.bank, "IDL", ps); break;
    case Command::Prea:
        for (unsigned b = 0; b < m_p.banks(); ++b) set_bank(r.channel, r.rank, b, "IDL", ps);
        break;
    case Command::Ref:
        for (unsigned b = 0; b < m_p.banks(); ++b) set_bank(r.channel, r.rank, b, "REF", ps);
        m_ref_end[std::size_t(r.channel) * m_p.ranks + r.rank] = r.cycle + m_p.t.tRFC;
        break;
    default: break;
    }
}

void DramWaves::advance(std::uint64_t now) {
    for (unsigned c = 0; c < m_ch.size(); ++c) {
        Channel& s = m_ch[c];
        if (s.shown && s.last < now) {
            if (s.cmd) s.cmd->set(text("-"), (s.last + 1) * m_p.tck_ps);
            s.shown = false;
        }
        for (unsigned r = 0; r < m_p.ranks; ++r) end_refresh(c, r, now);
    }
}

std::uint64_t DramWaves::next_event() const {
    std::uint64_t w = kNever;
    for (const Channel& s : m_ch)
        if (s.shown) w = std::min(w, s.last + 1);
    for (std::uint64_t e : m_ref_end)
        if (e) w = std::min(w, e);
    return w;
}

}  // namespace vp::dram
