#pragma once
// Cheap checks of a run's inputs without elaborating a platform (vp-run --check), and the
// installed-data lookup of CONFIG and WORKLOAD paths.
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

// A relative CONFIG or WORKLOAD path that does not exist from the working folder is looked
// up in the installed data folder, PREFIX/share/cnn-vp/ next to PREFIX/bin/<this program>,
// so that `vp-run configs/nmp.yaml workloads/alexnet.json` works from any folder after
// `cmake --install`. Returns the path to open (the argument itself when nothing matches).
std::string find_data_file(const std::string& path);

}  // namespace vp::run
