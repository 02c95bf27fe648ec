// Timed VTA core on the DRAM controller: random programs of every kind (fitting and
// partitioned, strategies 1-4, double buffering) must equal the independent reference bit
// for bit, and the model's counters must equal the compiler's figures. Returns non-zero on failure.
#include <iostream>
#include <random>

#include <systemc>

#include "../../unit/vta/random_programs.h"
#include "../../unit/vta/vta_reference.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/ir_parser.h"
#include "models/common/protocol_checker.h"
#include "models/common/sim_control.h"
#include "models/dram/dram_controller.h"
#include "models/vta/vta_core.h"

using namespace vp::mapper::vta;

namespace {
int g_fail = 0;
#define EXPECT(c)                                                                \
    do {                                                                         \
        if (!(c)) {                                                              \
            ++g_fail;                                                            \
            std::cerr << __FILE__ << ":" << __LINE__ << ": FAILED " #c "\n";     \
        }                                                                        \
    } while (0)

VtaConfig small_config() {
    VtaConfig c;
    c.log_inp_buff_size = 11;
    c.log_wgt_buff_size = 12;
    c.log_acc_buff_size = 12;
    c.log_uop_buff_size = 12;
    return c;
}

struct Driver : sc_core::sc_module {
    SC_HAS_PROCESS(Driver);
    Driver(sc_core::sc_module_name n, vp::vta::VtaCore& core, vp::dram::DramController& dram, const VtaConfig& cfg)
        : sc_module(n), m_core(core), m_dram(dram), m_cfg(cfg) {
        SC_THREAD(run);
    }
    void run() {
        std::mt19937_64 g(2024);
        const vta_test::Kind kinds[] = {vta_test::Kind::Gemm, vta_test::Kind::GemmBias, vta_test::Kind::GemmX,
                                        vta_test::Kind::Scalar, vta_test::Kind::AddAcc, vta_test::Kind::AluOnly};
        for (int rep = 0; rep < 36; ++rep) {
            const auto k = kinds[rep % 6];
            const bool vv = k == vta_test::Kind::AluOnly;
            const int m = vv ? 20 + int(g() % 44) : 10 + int(g() % 60), kk = 10 + int(g() % 80), n = 10 + int(g() % 50);
            const auto doc = vta_test::random_program(g, k, m, kk, n, vv, (rep / 6) % 5);
            vp::mapper::vta::IrParseOptions po;
            po.seed = std::uint64_t(rep);
            const Program p = parse_program(doc, "random", po);
            CompileOptions co;
            co.double_buffer = rep % 3 == 1;
            co.dram_base = 0x100000;
            const CompiledProgram cp = compile(p, m_cfg, co);
            m_dram.store().write(cp.dram_base, cp.image.data(), cp.image.size());
            const auto before = m_core.functional().counters();
            m_core.launch(cp.insn_addr, cp.insn_count);
            wait(m_core.done_event());
            std::vector<std::uint8_t> img(cp.image.size());
            m_dram.store().read(cp.dram_base, img.data(), img.size());
            const auto got = cp.extract_output(img.data());
            const auto want = vta_ref::run(p);
            ++runs;
            if (got != want) {
                ++mismatches;
                std::cerr << "mismatch rep " << rep << ": " << doc.dump() << "\n";
            }
            if (cp.partition.steps.size() > 1) ++partitioned;
            const auto& after = m_core.functional().counters();
            EXPECT(after.gemm_uops - before.gemm_uops == cp.stats.gemm_uops);
            EXPECT(after.alu_uops - before.alu_uops == cp.stats.alu_uops);
            EXPECT(after.wgt_load_bytes - before.wgt_load_bytes == cp.stats.wgt_bytes);
            EXPECT(after.out_store_bytes - before.out_store_bytes == cp.stats.out_bytes);
            // Lower bound: the GEMM unit issues at most one micro-op per cycle.
            EXPECT(m_core.cycles() >= cp.stats.gemm_uops);
            total_cycles += m_core.cycles();
            total_uops += cp.stats.gemm_uops;
        }
        sc_core::sc_stop();
    }
    vp::vta::VtaCore& m_core;
    vp::dram::DramController& m_dram;
    VtaConfig m_cfg;
    int runs = 0, mismatches = 0, partitioned = 0;
    std::uint64_t total_cycles = 0, total_uops = 0;
};
}  // namespace

int sc_main(int, char**) {
    vp::stats::Registry reg;
    vp::vta::VtaParams vp_;
    vp_.core = small_config();
    vp_.validate("vta");
    vp::dram::DramParams dp;
    // A one-entry DRAM queue: END_REQ is delayed while other transactions of the same DMA port
    // are in flight, so a port must not take another port's BEGIN_RESP for its own END_REQ
    // (the base-protocol checkers below report request-exclusion violations).
    dp.queue_depth = 1;
    vp::dram::DramController dram("dram", dp, reg);
    vp::vta::VtaCore core("vta", vp_, reg);
    vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on every DMA binding
    for (auto* d : {&core.fetch_dma, &core.load_dma, &core.compute_dma, &core.store_dma})
        tlm.bind(d->socket, dram.socket, std::string("tlmcheck_") + d->basename());
    Driver drv("driver", core, dram, vp_.core);
    sc_core::sc_start();
    try {
        core.check();
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    std::cout << "runs " << drv.runs << " mismatches " << drv.mismatches << " partitioned " << drv.partitioned
              << " cycles " << drv.total_cycles << " gemm_uops " << drv.total_uops << "\n";
    EXPECT(drv.runs == 36);
    EXPECT(drv.mismatches == 0);
    EXPECT(drv.partitioned >= 20);
    EXPECT(dram.in_flight() == 0);
    EXPECT(tlm.transactions() > 0 && tlm.violations() == 0);
    EXPECT(reg.to_json()["dram"]["backpressure_events"]["value"].get<double>() > 0);
    EXPECT(dram.bytes_requested() == dram.bytes_served());
    return g_fail == 0 ? 0 : 1;
}
