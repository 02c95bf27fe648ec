#include "models/vta/vta_host.h"

#include "mapper/common/errors.h"

namespace vp::vta {

using namespace sc_core;

VtaHost::VtaHost(sc_module_name name, VtaCore& core, dram::BackingStore& store, SimControl* ctrl, Next next, Complete complete,
                 const mapper::vta::EstimateParams& est)
    : sc_module(name), m_core(core), m_store(store), m_ctrl(ctrl), m_next(std::move(next)), m_complete(std::move(complete)),
      m_est(est) {
    SC_THREAD(run);
}

void VtaHost::run() {
    if (m_ctrl) m_ctrl->begin();
    try {
        run_jobs();
    } catch (const InputError& e) {
        m_input_error = e.what();
        sc_stop();
    } catch (const std::exception& e) {
        m_error = std::string(name()) + ": " + e.what();
        sc_stop();
    }
}

std::uint64_t VtaHost::dma_bytes() const {
    std::uint64_t b = 0;
    for (const VtaDma* d : {&m_core.fetch_dma, &m_core.load_dma, &m_core.compute_dma, &m_core.store_dma})
        b += d->bytes_read() + d->bytes_written();
    return b;
}

void VtaHost::run_jobs() {
    mapper::vta::ProgramJob job;
    const auto& k = m_core.functional().counters();
    while (m_next(job)) {
        const auto& p = job.prog;
        wait(sc_time(job.host_ns, SC_NS));  // host: lowering, packing, copy, reshape (driver time model)
        m_host_ns += job.host_ns;
        m_store.write(p.dram_base, p.image.data(), p.image.size());
        const std::uint64_t g0 = k.gemm_uops, b0 = dma_bytes();
        ProgramRecord r;
        r.start_ns = sc_time_stamp().to_seconds() * 1e9;
        m_core.launch(p.insn_addr, p.insn_count);
        wait(m_core.done_event());
        if (!m_core.error().empty()) return;  // the core stopped the kernel; check() reports it
        r.end_ns = sc_time_stamp().to_seconds() * 1e9;
        // Read back the OUT region only.
        m_buf.resize(p.image.size());
        for (const auto& reg : p.regions)
            if (reg.name == "OUT") m_store.read(reg.addr, m_buf.data() + (reg.addr - p.dram_base), reg.bytes);
        m_complete(job, p.extract_output(m_buf.data()));
        r.layer = job.layer;
        r.part = job.part;
        r.parts = job.parts;
        r.name = p.name;
        r.strategy = p.strategy;
        r.virtual_threads = p.virtual_threads;
        r.partition = p.lowering.empty() ? std::string(mapper::vta::to_string(p.partition.kind)) : p.lowering;
        r.stats = p.stats;
        r.cycles = m_core.cycles();
        r.gemm_uops = k.gemm_uops - g0;
        r.macs = r.gemm_uops * m_core.functional().cfg().macs_per_gemm_uop();
        r.host_ns = job.host_ns;
        r.dram_bytes = dma_bytes() - b0;
        r.estimate = mapper::vta::estimate_cycles(p, m_est);
        m_records.push_back(std::move(r));
        if (m_ctrl && job.part + 1 == job.parts) m_ctrl->add_done(1);
    }
    m_finished = true;
    if (m_ctrl) m_ctrl->end();
}

}  // namespace vp::vta
