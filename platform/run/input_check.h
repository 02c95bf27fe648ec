#pragma once
// Cheap checks of a run's inputs without elaborating a platform (vp-run --check), and the
// installed-data lookup of CONFIG and WORKLOAD paths.
#include <cstdint>
#include <string>
#include <vector>

#include "platform/config/platform_spec.h"
#include "platform/workload/workload.h"

namespace vp::run {

// Throws InputError when the platform does not run this kind of workload (a traffic file on
// the nmp platform, a network on the dram platform ...). The builders make the same check
// when they elaborate; this one needs no kernel and no mapping.
void check_workload_kind(const config::PlatformSpec& spec, const workload::Workload& wl);

// Throws InputError for an override that this workload makes void: vta_compiler.* with a VTA
// IR program (nothing is compiled), traffic.<field> with a noc_traffic workload that sets the
// field itself (the workload's value wins). Like platform_keys.h, for the workload's part.
void check_overrides_for_workload(const config::PlatformSpec& spec, const workload::Workload& wl,
                                  const std::vector<std::string>& overrides);

// The nmp and mesh platforms map conv and fc layers (fc as a 1x1 conv): throws InputError when a
// network has none, so that nothing would be mapped or run (vp-run through check_run_inputs,
// vp-map, which would otherwise write an empty mapping).
void check_mapped_layers(const config::PlatformSpec& spec, const workload::Workload& wl);

// What check_run_inputs found that the run needs again.
struct CheckedInputs {
    std::uint64_t dram_trace_requests = 0;  // a dram_trace workload: the requests of its trace file
};

// Every check of a run's inputs that needs neither a mapping nor a simulation, in the order the
// run makes them: vcd2fst installed for trace.format fst (when tracing), the checks above
// (check_overrides_for_workload unless allow_unused), and what the platform's builder needs of
// the workload before it elaborates anything:
//   dram  every stream within the DRAM; every request of a trace file parsed and within the DRAM
//   nmp, mesh  a conv or fc layer to map
//   vta   --refine (mapper.refine) with networks only, K within the candidates; a VTA IR program
//         compiled, a binary program read; a network the VTA's driver runs (its layers, weight
//         files, vta.log_batch) with at least one VTA program
// vp-run calls it before --check returns and before it builds the platform, so that --check
// refuses every input the run would refuse before it starts (with check_mapping_fits below);
// what only the mapper or the simulation finds out (a refinement K beyond every layer's
// candidates, a VTA layer the compiler cannot encode) stays the run's. Throws InputError.
CheckedInputs check_run_inputs(const config::PlatformSpec& spec, const workload::Workload& wl,
                               const std::vector<std::string>& overrides, bool allow_unused);

// Whether the network fits the design point's memories (vp-run --check; the run makes the same
// checks): first the tensors of every layer against the DRAM's capacity (check_tensors_fit_dram,
// dram_fit.h, which the run calls before it maps), then what the mapper refuses before its
// search, without searching: nmp: the TSO options, tso.fixed_layers and a TLT tile for every
// layer (mapper::tso::check_mappable: Eq. 2 of the smallest tile); mesh: mapper.fixed_layers,
// mapper.fixed_slices and the smallest tile of every layer in a core's SRAM
// (mapper::waving::check_mappable). Kept apart from check_run_inputs because a layer that does
// not fit is a property of the design point, not an input error: vp-sweep checks its points with
// --check-inputs, which skips it, so that such a point (a DRAM or a memory too small for the
// network) runs and is recorded as failed while the other points of the sweep run. Throws
// InputError naming the file and the layer.
void check_mapping_fits(const config::PlatformSpec& spec, const workload::Workload& wl);

// A relative CONFIG or WORKLOAD path that does not exist from the working folder is looked
// up in the installed data folder, PREFIX/share/cnn-vp/ next to PREFIX/bin/<this program>,
// so that `vp-run configs/nmp.yaml workloads/alexnet.json` works from any folder after
// `cmake --install`. Returns the path to open (the argument itself when nothing matches).
std::string find_data_file(const std::string& path);

}  // namespace vp::run
