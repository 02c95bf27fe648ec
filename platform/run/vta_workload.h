#pragma once
// What the vta platform makes of its workload before it simulates anything: the program of a
// VTA IR or binary workload, the graph of a network. Shared by the platform's builder and
// vp-run's input checks (input_check.h), so that both refuse the same workloads in the same words.
#include "mapper/vta/compiled_program.h"
#include "mapper/vta/net_graph.h"
#include "mapper/vta/network_driver.h"
#include "platform/config/platform_spec.h"
#include "platform/workload/workload.h"

namespace vp::run {

// A VTA IR program (wl.kind VtaIr) compiled with the compiler options `opt`
// (refine::vta_driver_options), or a binary VTA program (VtaBinary) read with its .bin files.
// Throws InputError naming the workload file.
mapper::vta::CompiledProgram vta_program(const config::PlatformSpec& spec, const workload::Workload& wl,
                                         const mapper::vta::DriverOptions& opt);

// A network workload (wl.kind Network) as the VTA's driver runs it: its graph (with the skip
// connections of a "vta_network"), carrying an imported model's own weights. Throws InputError
// for a network that is not int8.
mapper::vta::NetGraph vta_graph(const workload::Workload& wl);

}  // namespace vp::run
