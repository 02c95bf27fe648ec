#include "models/dram/protocol_monitor.h"

namespace vp::dram {

dramcheck::JedecParams ProtocolMonitor::jedec_params(const DramParams& p) {
    dramcheck::JedecParams j;
    j.channels = p.channels;
    j.ranks = p.ranks;
    j.bank_groups = p.bank_groups;
    j.banks_per_group = p.banks_per_group;
    j.burst_cycles = p.burst_length / 2;
    j.CL = p.t.CL;
    j.CWL = p.t.CWL;
    j.tRCD = p.t.tRCD;
    j.tRP = p.t.tRP;
    j.tRAS = p.t.tRAS;
    j.tRC = p.t.tRC;
    j.tCCD_S = p.t.tCCD_S;
    j.tCCD_L = p.t.tCCD_L;
    j.tRRD_S = p.t.tRRD_S;
    j.tRRD_L = p.t.tRRD_L;
    j.tFAW = p.t.tFAW;
    j.tWR = p.t.tWR;
    j.tWTR_S = p.t.tWTR_S;
    j.tWTR_L = p.t.tWTR_L;
    j.tRTP = p.t.tRTP;
    j.tRTRS = p.t.tRTRS;
    j.tRFC = p.t.tRFC;
    j.tREFI = p.t.tREFI;
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
