#pragma once
// The property of an accepted configuration shared by config_yaml and
// set_override: the resolved configuration (what vp-run writes as
// OUT/config.yaml) loads again and reproduces itself.
#include <string>

#include "fuzz/fuzz_target.h"
#include "platform/config/platform_spec.h"

namespace vp::fuzz {

inline void check_config_round_trip(const config::PlatformSpec &spec,
                                    const std::string &path) {
  const std::string resolved = config::to_yaml(spec);
  std::string again;
  try {
    again = config::to_yaml(config::parse_platform(resolved, path, {}));
  } catch (const InputError &e) {
    violated(std::string("the resolved configuration does not load: ") +
             e.what() + "\n" + resolved);
  }
  if (again != resolved)
    violated("the resolved configuration does not reproduce itself:\n" +
             resolved);
}

} // namespace vp::fuzz
