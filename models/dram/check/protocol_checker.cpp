#include "models/dram/check/protocol_checker.h"

#include <algorithm>
#include <cstdio>

namespace vp::dramcheck {

const char* op_name(Op o) {
    switch (o) {
    case Op::Act: return "ACT";
    case Op::Pre: return "PRE";
    case Op::Prea: return "PREA";
    case Op::Rd: return "RD";
    case Op::Wr: return "WR";
    case Op::Rda: return "RDA";
    case Op::Wra: return "WRA";
    case Op::Ref: return "REF";
    }
    return "?";
}

ProtocolChecker::ProtocolChecker(const JedecParams& p) : m_p(p), m_ch(p.channels) {
    for (ChannelState& c : m_ch) {
        c.ranks.resize(p.ranks);
        c.groups.resize(std::size_t(p.ranks) * p.bank_groups);
        c.banks.resize(std::size_t(p.ranks) * p.bank_groups * p.banks_per_group);
    }
}

std::string ProtocolChecker::describe(const Cmd& c) const {
    std::string s = std::string(op_name(c.op)) + " (channel " + std::to_string(c.channel) + ", rank " +
                    std::to_string(c.rank);
    if (c.op != Op::Ref && c.op != Op::Prea) {
        s += ", bank group " + std::to_string(c.bank_group) + ", bank " + std::to_string(c.bank);
        if (c.op != Op::Pre) s += ", row " + std::to_string(c.row);
        if (c.op != Op::Act && c.op != Op::Pre) s += ", column " + std::to_string(c.column);
    }
    s += ") at cycle " + std::to_string(c.cycle);
    if (m_tck_ps) {
        const std::uint64_t ps = c.cycle * m_tck_ps;
        char frac[8];
        std::snprintf(frac, sizeof frac, "%03u", unsigned(ps % 1000));
        s += " (" + std::to_string(ps / 1000) + "." + frac + " ns)";
    }
    return s;
}

bool ProtocolChecker::report(const std::string& rule, const Cmd* earlier, const Cmd& later, std::int64_t need,
                             std::int64_t got, const std::string& what) {
    if (m_ok_this) ++m_count;
    const bool first = m_ok_this && m_count == 1;
    m_ok_this = false;
    if (!first) return false;
    m_first.rule = rule;
    m_first.later = later;
    m_first.has_earlier = earlier != nullptr;
    if (earlier) m_first.earlier = *earlier;
    m_first.required = need;
    m_first.actual = got;
    std::string msg = rule + ": " + describe(later);
    if (earlier) msg += " is " + std::to_string(got) + " tCK after " + describe(*earlier);
    if (!what.empty()) msg += "; " + what;
    m_first.message = msg;
    return false;
}

// `later` must come at least `need` cycles after `earlier` (if there was one).
bool ProtocolChecker::distance(const char* rule, const Last& earlier, const Cmd& later, std::int64_t need) {
    if (!earlier.valid) return true;
    const std::int64_t got = std::int64_t(later.cycle) - std::int64_t(earlier.cmd.cycle);
    if (got >= need) return true;
    return report(rule, &earlier.cmd, later, need, got, "the standard requires " + std::to_string(need) + " tCK");
}

bool ProtocolChecker::refresh_debt(const Cmd* at, std::uint64_t cycle, unsigned channel, unsigned rank) {
    if (!m_p.refresh || m_p.tREFI == 0) return true;
    const RankState& r = m_ch[channel].ranks[rank];
    const std::int64_t due = std::int64_t(cycle / m_p.tREFI);
    const std::int64_t debt = due - std::int64_t(r.refs);
    if (debt <= std::int64_t(m_p.max_postponed) && -debt <= std::int64_t(m_p.max_postponed)) return true;
    Cmd end;
    end.cycle = cycle;
    end.op = Op::Ref;
    end.channel = channel;
    end.rank = rank;
    const std::string what = debt > 0 ? "rank " + std::to_string(rank) + " owes " + std::to_string(debt) +
                                            " REF commands at cycle " + std::to_string(cycle) +
                                            " (at most " + std::to_string(m_p.max_postponed) + " may be postponed)"
                                      : "rank " + std::to_string(rank) + " is " + std::to_string(-debt) +
                                            " REF commands ahead (at most " + std::to_string(m_p.max_postponed) +
                                            " may be pulled in)";
    // The rank's last REF, unless that is the command being checked (a REF that comes too late).
    const bool self = at && r.ref.valid && r.ref.cmd.cycle == at->cycle && at->op == Op::Ref;
    return report("tREFI", r.ref.valid && !self ? &r.ref.cmd : nullptr, at ? *at : end, 0, 0, what);
}

bool ProtocolChecker::check(const Cmd& c) {
    m_ok_this = true;
    ++m_commands;
    if (c.channel >= m_ch.size() || c.rank >= m_p.ranks || c.bank_group >= m_p.bank_groups ||
        c.bank >= m_p.bank_groups * m_p.banks_per_group || c.bank / m_p.banks_per_group != c.bank_group)
        return report("address", nullptr, c, 0, 0, "rank, bank group or bank out of range");
    ChannelState& ch = m_ch[c.channel];
    RankState& rk = ch.ranks[c.rank];
    GroupState& grp = ch.groups[std::size_t(c.rank) * m_p.bank_groups + c.bank_group];
    BankState& bk = ch.banks[std::size_t(c.rank) * m_p.bank_groups * m_p.banks_per_group + c.bank];
    const std::int64_t bl = m_p.burst_cycles;

    // Command bus: one command per tCK per channel, in time order.
    distance("command bus", ch.any, c, 1);
    ch.any = {true, c};
    // Nothing but DES/NOP reaches a rank during tRFC.
    distance("tRFC", rk.ref, c, m_p.tRFC);

    switch (c.op) {
    case Op::Act: {
        if (bk.open)
            report("bank state", bk.act.valid ? &bk.act.cmd : nullptr, c, 0, 0,
                   "ACT to a bank whose row " + std::to_string(bk.row) + " is open");
        if (bk.precharged && c.cycle < bk.precharged_at + m_p.tRP)
            report("tRP", &bk.precharge_cmd, c, std::int64_t(bk.precharged_at + m_p.tRP - bk.precharge_cmd.cycle),
                   std::int64_t(c.cycle - bk.precharge_cmd.cycle),
                   "the precharge takes effect at cycle " + std::to_string(bk.precharged_at) + " and needs tRP = " +
                       std::to_string(m_p.tRP) + " tCK before the ACT");
        distance("tRC", bk.act, c, m_p.tRC);
        distance("tRRD_L", grp.act, c, m_p.tRRD_L);
        distance("tRRD_S", rk.act, c, m_p.tRRD_S);
        if (rk.acts.size() == 4) {
            Last fourth{true, rk.acts.front()};
            distance("tFAW", fourth, c, m_p.tFAW);
            rk.acts.erase(rk.acts.begin());
        }
        rk.acts.push_back(c);
        bk.open = true;
        bk.row = c.row;
        bk.act = grp.act = rk.act = {true, c};
        break;
    }
    case Op::Pre:
    case Op::Prea: {
        // PREA closes every bank of the rank; a PRE to a precharged bank is a no-op.
        const unsigned nb = m_p.bank_groups * m_p.banks_per_group;
        const unsigned first = c.op == Op::Prea ? 0 : c.bank, last = c.op == Op::Prea ? nb : c.bank + 1;
        for (unsigned b = first; b < last; ++b) {
            BankState& x = ch.banks[std::size_t(c.rank) * nb + b];
            if (!x.open) continue;
            distance("tRAS", x.act, c, m_p.tRAS);
            if (x.rd.valid && x.rd.cmd.cycle >= x.act.cmd.cycle) distance("tRTP", x.rd, c, m_p.tRTP);
            if (x.wr.valid && x.wr.cmd.cycle >= x.act.cmd.cycle)
                distance("tWR", x.wr, c, std::int64_t(m_p.CWL) + bl + m_p.tWR);
            x.open = false;
            x.precharged = true;
            x.precharged_at = c.cycle;
            x.precharge_cmd = c;
            x.pre = {true, c};
        }
        break;
    }
    case Op::Rd:
    case Op::Rda:
    case Op::Wr:
    case Op::Wra: {
        const bool read = c.op == Op::Rd || c.op == Op::Rda;
        if (!bk.open)
            report("bank state", bk.precharged ? &bk.precharge_cmd : nullptr, c, 0, 0,
                   std::string(op_name(c.op)) + " to a precharged bank");
        else if (bk.row != c.row)
            report("bank state", &bk.act.cmd, c, 0, 0,
                   std::string(op_name(c.op)) + " to row " + std::to_string(c.row) + " while row " +
                       std::to_string(bk.row) + " is open");
        distance("tRCD", bk.act, c, m_p.tRCD);
        if (read) {
            distance("tCCD_L", grp.rd, c, m_p.tCCD_L);
            distance("tCCD_S", rk.rd, c, m_p.tCCD_S);
            distance("tWTR_L", grp.wr, c, std::int64_t(m_p.CWL) + bl + m_p.tWTR_L);
            for (unsigned g = 0; g < m_p.bank_groups; ++g)
                if (g != c.bank_group)
                    distance("tWTR_S", ch.groups[std::size_t(c.rank) * m_p.bank_groups + g].wr, c,
                             std::int64_t(m_p.CWL) + bl + m_p.tWTR_S);
        } else {
            distance("tCCD_L", grp.wr, c, m_p.tCCD_L);
            distance("tCCD_S", rk.wr, c, m_p.tCCD_S);
            distance("tRTW", rk.rd, c, std::int64_t(m_p.CL) + bl + 2 - std::int64_t(m_p.CWL));
        }
        // Data bus: bursts never overlap, and a change of rank leaves tRTRS.
        const std::uint64_t start = c.cycle + (read ? m_p.CL : m_p.CWL);
        if (ch.burst.valid) {
            if (start < ch.burst_end) {
                report("data bus", &ch.burst.cmd, c, 0, 0,
                       "its burst starts at cycle " + std::to_string(start) + ", before the earlier burst ends at " +
                           std::to_string(ch.burst_end));
            } else if (ch.burst_rank != c.rank && start < ch.burst_end + m_p.tRTRS) {
                report("tRTRS", &ch.burst.cmd, c, 0, 0,
                       "rank switch: its burst starts at cycle " + std::to_string(start) + ", " +
                           std::to_string(start - ch.burst_end) + " tCK after the other rank's burst ends; tRTRS = " +
                           std::to_string(m_p.tRTRS));
            }
        }
        if (!ch.burst.valid || start + bl >= ch.burst_end) {
            ch.burst = {true, c};
            ch.burst_end = start + std::uint64_t(bl);
            ch.burst_rank = c.rank;
        }
        if (read) bk.rd = grp.rd = rk.rd = {true, c};
        else bk.wr = grp.wr = rk.wr = {true, c};
        if (c.op == Op::Rda || c.op == Op::Wra) {
            // Auto-precharge starts when both tRAS (from the ACT) and tRTP / write recovery allow it.
            const std::uint64_t after_col = read ? c.cycle + m_p.tRTP : c.cycle + m_p.CWL + std::uint64_t(bl) + m_p.tWR;
            const std::uint64_t after_act = bk.act.valid ? bk.act.cmd.cycle + m_p.tRAS : 0;
            bk.open = false;
            bk.precharged = true;
            bk.precharged_at = std::max(after_col, after_act);
            bk.precharge_cmd = c;
        }
        break;
    }
    case Op::Ref: {
        const unsigned nb = m_p.bank_groups * m_p.banks_per_group;
        for (unsigned b = 0; b < nb; ++b) {
            BankState& x = ch.banks[std::size_t(c.rank) * nb + b];
            if (x.open) {
                report("bank state", x.act.valid ? &x.act.cmd : nullptr, c, 0, 0,
                       "REF while bank " + std::to_string(b) + " has row " + std::to_string(x.row) + " open");
                break;
            }
            if (x.precharged && c.cycle < x.precharged_at + m_p.tRP) {
                report("tRP", &x.precharge_cmd, c, std::int64_t(x.precharged_at + m_p.tRP - x.precharge_cmd.cycle),
                       std::int64_t(c.cycle - x.precharge_cmd.cycle),
                       "bank " + std::to_string(b) + " is precharged at cycle " + std::to_string(x.precharged_at) +
                           " and needs tRP = " + std::to_string(m_p.tRP) + " tCK before the REF");
                break;
            }
        }
        ++rk.refs;
        rk.ref = {true, c};
        break;
    }
    }
    refresh_debt(&c, c.cycle, c.channel, c.rank);
    return m_ok_this;
}

bool ProtocolChecker::finish(std::uint64_t cycle) {
    m_ok_this = true;
    for (unsigned ch = 0; ch < m_ch.size(); ++ch)
        for (unsigned r = 0; r < m_p.ranks; ++r) refresh_debt(nullptr, cycle, ch, r);
    return m_ok_this;
}

}  // namespace vp::dramcheck
