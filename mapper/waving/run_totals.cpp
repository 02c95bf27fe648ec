#include "mapper/waving/run_totals.h"

#include <algorithm>

namespace vp::mapper::waving {

RunTotals& RunTotals::operator+=(const RunTotals& o) {
    comp_cycles += o.comp_cycles;
    pfetch_cycles += o.pfetch_cycles;
    macs += o.macs;
    sram_reads += o.sram_reads;
    sram_writes += o.sram_writes;
    dram_init_bytes += o.dram_init_bytes;
    dram_par_bytes += o.dram_par_bytes;
    dram_read_bytes += o.dram_read_bytes;
    dram_write_bytes += o.dram_write_bytes;
    filter_bytes += o.filter_bytes;
    noc += o.noc;
    noc_filters += o.noc_filters;
    return *this;
}

void add_op(RunTotals& r, const tiling::Op& op, const PacketFormat& fmt) {
    r.sram_reads += op.sram_reads;
    r.sram_writes += op.sram_writes;
    if (!op.is_dma()) {
        r.comp_cycles += op.comp_cycles;
        r.pfetch_cycles += op.pfetch_cycles;
        r.macs += op.macs;
        return;
    }
    const std::uint64_t b = op.bytes();
    (op.wait ? r.dram_init_bytes : r.dram_par_bytes) += b;
    (op.is_load() ? r.dram_read_bytes : r.dram_write_bytes) += b;
    const FlitCount f = op_flits(op, fmt);
    r.noc += f;
    if (op.kind == tiling::OpKind::LoadFilter) {
        r.filter_bytes += b;
        r.noc_filters += f;
    }
}

RunTotals measure_run(const tiling::ConvShape& shape, const tiling::SliceRun& run, const tiling::Tiling& t,
                      const tiling::AsipParams& asip, const PacketFormat& fmt) {
    RunTotals r;
    tiling::LoopNest nest(shape, run, t, asip);
    nest.for_each([&](const tiling::Op& op) { add_op(r, op, fmt); });
    return r;
}

double cycles_with_dram(const RunTotals& r, double bw_dram_words, int word_bytes) {
    const double init = double(r.dram_init_bytes / std::uint64_t(word_bytes)) / bw_dram_words;
    const double par = double(r.dram_par_bytes / std::uint64_t(word_bytes)) / bw_dram_words;
    return init + std::max(double(r.compute_cycles()), par);
}

}  // namespace vp::mapper::waving
