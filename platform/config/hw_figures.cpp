#include "platform/config/hw_figures.h"

#include "models/dram/address_mapper.h"

namespace vp::config {

mapper::DramFigures dram_figures(const dram::DramParams& p) {
    mapper::DramFigures f;
    f.preset = p.preset;
    f.tck_ns = double(p.tck_ps) * 1e-3;
    f.burst_bytes = p.burst_bytes();
    f.burst_cycles = p.burst_cycles();
    f.channels = p.channels;
    f.ranks = p.ranks;
    f.banks = p.banks();
    f.row_bytes = p.row_bytes();
    f.CL = p.t.CL;
    f.CWL = p.t.CWL;
    f.tRCD = p.t.tRCD;
    f.tRP = p.t.tRP;
    f.tRAS = p.t.tRAS;
    f.tCCD = p.t.tCCD_S;
    f.tCCD_L = p.t.tCCD_L;
    f.tWTR = p.t.tWTR_S;
    f.tWR = p.t.tWR;
    f.tRTP = p.t.tRTP;
    f.tRFC = p.t.tRFC;
    f.tREFI = p.t.tREFI;
    f.tFAW = p.t.tFAW;
    f.tRRD = p.t.tRRD_S;
    f.refresh = p.refresh;
    f.queue_depth = p.queue_depth;
    f.frontend_latency_ck = p.frontend_latency_ck;
    f.open_page = p.page_policy == dram::PagePolicy::Open;
    f.frfcfs = p.scheduler == dram::Scheduler::FrFcfs;
    f.address_mapping = p.address_mapping;
    const dram::AddressMapper am(p);
    f.bank_mask = am.bank_mask();
    f.row_mask = am.row_mask();
    f.group_mask = am.group_mask();
    f.channel_mask = am.channel_mask();
    f.peak_bw_bytes_per_s = p.peak_bandwidth_bytes_per_s();
    return f;
}

mapper::vta::VtaFigures vta_figures(const vta::VtaParams& v, const dram::DramParams& d) {
    mapper::vta::VtaFigures f;
    f.dram = dram_figures(d);
    f.vta = v;  // the VtaTiming part of the simulated core's parameters
    return f;
}

}  // namespace vp::config
