#include "models/dram/protocol_monitor.h"

#include "models/dram/dram_presets.h"

namespace vp::dram {

dramcheck::JedecParams ProtocolMonitor::jedec_params(const DramParams& p) {
    dramcheck::JedecParams j;
    j.channels = p.channels;
    j.ranks = p.ranks;
    j.bank_groups = p.bank_groups;
    j.banks_per_group = p.banks_per_group;
    j.burst_cycles = p.burst_length / 2;
    // The numbers the stream must meet: the configured ones, or a preset's (dram.check_preset).
    const DramPreset* ref = p.check_preset.empty() ? nullptr : find_preset(p.check_preset);
    const DramTiming& t = ref ? ref->t : p.t;
    j.CL = t.CL;
    j.CWL = t.CWL;
    j.tRCD = t.tRCD;
    j.tRP = t.tRP;
    j.tRAS = t.tRAS;
    j.tRC = t.tRC;
    j.tCCD_S = t.tCCD_S;
    j.tCCD_L = t.tCCD_L;
    j.tRRD_S = t.tRRD_S;
    j.tRRD_L = t.tRRD_L;
    j.tFAW = t.tFAW;
    j.tWR = t.tWR;
    j.tWTR_S = t.tWTR_S;
    j.tWTR_L = t.tWTR_L;
    j.tRTP = t.tRTP;
    j.tRTRS = t.tRTRS;
    j.tRFC = t.tRFC;
    j.tREFI = t.tREFI;
    j.refresh = p.refresh;
    return j;
}

ProtocolMonitor::ProtocolMonitor(const DramParams& p, std::function<void()> on_violation)
    : m_checker(jedec_params(p)), m_on_violation(std::move(on_violation)) {
    m_checker.set_tck_ps(p.tck_ps);
}

void ProtocolMonitor::on_command(const CommandRecord& r) {
    static constexpr dramcheck::Op kOp[kCommands] = {dramcheck::Op::Act, dramcheck::Op::Pre, dramcheck::Op::Prea,
                                                     dramcheck::Op::Rd,  dramcheck::Op::Wr,  dramcheck::Op::Rda,
                                                     dramcheck::Op::Wra, dramcheck::Op::Ref};
    dramcheck::Cmd c;
    c.cycle = r.cycle;
    c.op = kOp[unsigned(r.cmd)];
    c.channel = r.channel;
    c.rank = r.rank;
    c.bank_group = r.bank_group;
    c.bank = r.bank;
    c.row = r.row;
    c.column = r.column;
    if (!m_checker.check(c) && !m_reported) {
        m_reported = true;
        if (m_on_violation) m_on_violation();
    }
}

bool ProtocolMonitor::finish(std::uint64_t end_cycle) {
    m_checker.finish(end_cycle);
    return m_checker.ok();
}

}  // namespace vp::dram
