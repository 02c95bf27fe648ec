#include "platform/run/vta_workload.h"

#include "mapper/common/errors.h"
#include "mapper/vta/binary_program.h"
#include "mapper/vta/compiler.h"
#include "mapper/vta/ir_parser.h"

namespace vp::run {

namespace mv = mapper::vta;

mv::CompiledProgram vta_program(const config::PlatformSpec& spec, const workload::Workload& wl, const mv::DriverOptions& opt) {
    if (wl.kind == workload::WorkloadKind::VtaBinary) return mv::load_binary_program(wl.path, spec.vta.core);
    const mv::Program p = mv::load_program(wl.path, spec.seed);
    mv::CompileOptions co;
    co.dram_base = opt.dram_base;
    co.double_buffer = opt.double_buffer;
    co.estimate = opt.estimate;
    try {
        return mv::compile(p, spec.vta.core, co);
    } catch (const InputError& e) {  // the compiler's messages do not name the program
        throw InputError(wl.path + ": " + e.what());
    }
}

mv::NetGraph vta_graph(const workload::Workload& wl) {
    mv::NetGraph g = wl.doc.contains("kind") && wl.doc["kind"] == "vta_network" ? mv::parse_vta_network(wl.doc, wl.path)
                                                                                : mv::chain_graph(wl.network, wl.path);
    if (g.net.precision_bits != 8) throw InputError(wl.path + ": at /precision: the VTA platform runs int8 networks (precision 8)");
    g.weight_values = wl.weight_values;  // an imported model's own weights (empty: from the seed)
    g.bias_values = wl.bias_values;
    return g;
}

}  // namespace vp::run
