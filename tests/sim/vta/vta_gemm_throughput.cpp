// GEMM throughput figure: a 256x1024x256 int8 GEMM (forced to partition) on the default
// VTA at 100 MHz behind DDR3-1600, single- and double-buffered. Checks the analytic lower
// bound (1 GEMM micro-op per cycle, vta_isa.md §5) and bit-exactness; prints the figures.
#include <iostream>
#include <random>

#include <systemc>

#include "../../unit/vta/random_programs.h"
#include "../../unit/vta/vta_reference.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/ir_parser.h"
#include "models/common/protocol_checker.h"
#include "models/dram/dram_controller.h"
#include "models/vta/vta_core.h"

using namespace vp::mapper::vta;

struct Bench : sc_core::sc_module {
    SC_HAS_PROCESS(Bench);
    Bench(sc_core::sc_module_name n, vp::vta::VtaCore& c, vp::dram::DramController& d) : sc_module(n), core(c), dram(d) { SC_THREAD(run); }
    void run() {
        std::mt19937_64 g(3);
        for (int s = 1; s <= 4; ++s)
            for (bool dbuf : {false, true}) {
                const auto doc = vta_test::random_program(g, vta_test::Kind::GemmBias, 256, 2048, 256, false, s);
                const Program p = parse_program(doc, "bench", IrParseOptions{});
                CompileOptions co;
                co.double_buffer = dbuf;
                const CompiledProgram cp = compile(p, VtaConfig{}, co);
                dram.store().write(cp.dram_base, cp.image.data(), cp.image.size());
                core.launch(cp.insn_addr, cp.insn_count);
                wait(core.done_event());
                std::vector<std::uint8_t> img(cp.image.size());
                dram.store().read(cp.dram_base, img.data(), img.size());
                if (cp.extract_output(img.data()) != vta_ref::run(p)) ++fails;
                if (core.cycles() < cp.stats.gemm_uops) ++fails;
                const std::uint64_t dma = cp.stats.inp_bytes + cp.stats.wgt_bytes + cp.stats.acc_bytes + cp.stats.out_bytes + cp.stats.uop_bytes;
                std::cout << "strategy " << s << (dbuf ? " dbuf" : " single") << ": steps " << cp.stats.steps << " insns "
                          << cp.stats.insns << " gemm_uops " << cp.stats.gemm_uops << " cycles " << core.cycles()
                          << " util " << double(cp.stats.gemm_uops) / double(core.cycles()) << " dma_bytes " << dma << "\n";
            }
        sc_core::sc_stop();
    }
    vp::vta::VtaCore& core;
    vp::dram::DramController& dram;
    int fails = 0;
};

int sc_main(int, char**) {
    vp::stats::Registry reg;
    vp::vta::VtaParams vp_;
    vp::dram::DramParams dp;
    vp::dram::DramController dram("dram", dp, reg);
    vp::vta::VtaCore core("vta", vp_, reg);
    vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on every DMA binding
    for (auto* d : {&core.fetch_dma, &core.load_dma, &core.compute_dma, &core.store_dma})
        tlm.bind(d->socket, dram.socket, std::string("tlmcheck_") + d->basename());
    Bench b("bench", core, dram);
    sc_core::sc_start();
    core.check();
    return b.fails == 0 ? 0 : 1;
}
