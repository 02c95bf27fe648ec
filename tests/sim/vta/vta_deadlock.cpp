// A program whose load never pushes its l2c token must stop with a watchdog error naming
// the stuck GEMM and the empty queue (vta_isa.md §4: fsim would loop forever).
#include <iostream>
#include <random>

#include <systemc>

#include "../../unit/vta/random_programs.h"
#include "mapper/common/errors.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/ir_parser.h"
#include "models/common/protocol_checker.h"
#include "models/dram/dram_controller.h"
#include "models/vta/vta_core.h"

using namespace vp::mapper::vta;

int sc_main(int, char**) {
    vp::stats::Registry reg;
    vp::vta::VtaParams vp_;
    vp_.watchdog_cycles = 10000;
    vp::dram::DramParams dp;
    vp::dram::DramController dram("dram", dp, reg);
    vp::vta::VtaCore core("vta", vp_, reg);
    vp::tlmcheck::CheckerSet tlm(true);  // base-protocol checker on every DMA binding
    for (auto* d : {&core.fetch_dma, &core.load_dma, &core.compute_dma, &core.store_dma})
        tlm.bind(d->socket, dram.socket, std::string("tlmcheck_") + d->basename());
    std::mt19937_64 g(1);
    const Program p = parse_program(vta_test::random_program(g, vta_test::Kind::Gemm, 32, 32, 32, false, 0), "r", IrParseOptions{});
    CompiledProgram cp = compile(p, vp_.core);
    InsnLayout l(cp.cfg);
    for (std::uint32_t n = 0; n < cp.insn_count; ++n) {
        Insn in = cp.insns[n];
        if (in.opcode != Opcode::Load || !in.dep.push_next) continue;
        in.dep.push_next = false;
        const InsnWord w = l.encode(in);
        for (int h = 0; h < 2; ++h)
            for (int b = 0; b < 8; ++b)
                cp.image[cp.insn_addr - cp.dram_base + 16 * n + std::size_t(8 * h + b)] = std::uint8_t(w.w[std::size_t(h)] >> (8 * b));
    }
    dram.store().write(cp.dram_base, cp.image.data(), cp.image.size());
    core.launch(cp.insn_addr, cp.insn_count);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
    try {
        core.check();
    } catch (const vp::SimulationError& e) {
        const std::string m = e.what();
        std::cout << m << "\n";
        const bool ok = m.find("deadlock") != std::string::npos && m.find("GEMM") != std::string::npos &&
                        m.find("l2c") != std::string::npos && !core.finished();
        return ok ? 0 : 1;
    }
    std::cerr << "no deadlock reported; finished=" << core.finished() << " t=" << sc_core::sc_time_stamp() << "\n";
    return 1;
}
