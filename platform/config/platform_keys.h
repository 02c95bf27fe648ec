#pragma once
// Which configuration keys each platform reads. Every section of the YAML schema is parsed and
// validated for every platform (so that OUT/config.yaml is complete), but a platform only uses
// some of them: `--set nmp.n_tle=8` on a dram platform would change nothing in the run. The
// table below lets vp-run refuse such an override instead of accepting it silently, and name the
// sections of a configuration file that the chosen platform ignores.
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "platform/config/platform_spec.h"

namespace vp::config {

// The keys the platform reads: whole sections ("dram") or single keys of a section it reads
// only in part ("mesh.width"), in a fixed order for messages.
const std::vector<std::string>& read_keys(PlatformKind kind);

// True when the dotted key path is read by the platform, in whole or in part: "dram.tRCD"
// lies inside the read section "dram"; "mesh" contains the read key "mesh.width".
bool reads_key(PlatformKind kind, const std::string& key);

// The key path of a "key.path=value" override, and whether key `a` lies within key `b`
// ("dram.timing.tRCD" within "dram"; a key is within itself).
std::string override_key(const std::string& assignment);
bool key_within(const std::string& a, const std::string& b);

// Throws InputError for the first "key=value" override whose key the platform does not read,
// naming the key, the platform, the config file and the keys the platform reads.
void check_overrides_read(PlatformKind kind, const std::string& config_path,
                          const std::vector<std::string>& overrides);

// The top-level sections of a configuration file as written (before --set), for
// unread_sections: the key, its line (0: unknown), and whether the section is exactly what the
// resolved configuration (OUT/config.yaml) writes for an untouched one, every key at its default.
// Scalars (platform, name, seed) are not sections.
struct FileSection {
    std::string key;
    int line = 0;
    bool as_resolved_defaults = false;
};
std::vector<FileSection> file_sections(const YAML::Node& file_root);

// Warnings, one per section of the file that the platform does not read at all: an `nmp:` section
// on a mesh platform changes nothing. Not an error: one file may serve several platforms through
// --set platform=. A section as the resolved configuration writes it at its defaults is not named,
// so that rerunning OUT/config.yaml warns about nothing the original run did not.
std::vector<std::string> unread_sections(PlatformKind kind, const std::vector<FileSection>& sections,
                                         const std::string& config_path);

}  // namespace vp::config
