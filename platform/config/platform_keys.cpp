#include "platform/config/platform_keys.h"

#include "mapper/common/errors.h"

namespace vp::config {

namespace {
// Read by every platform: the platform choice, its free-text name, vp-run's run control
// (time limit, progress, mapper threads), the epoch statistics and timeline, and the waveform tracer.
std::vector<std::string> with_common(std::vector<std::string> own) {
    own.insert(own.begin(), {"platform", "name", "sim", "stats", "trace"});
    return own;
}

// Kept in step with the builders (platform/builders/*) and mappers (platform/mapping): a key
// is listed when some code path of that platform reads the field. tests/cli/unread_keys.sh
// checks the other direction by running each platform with every unlisted section changed.
const std::vector<std::string> kDram = with_common({"seed", "dram"});
const std::vector<std::string> kNmp = with_common({"nmp", "tso", "dram", "mapper.refine"});
const std::vector<std::string> kMesh = with_common({"mesh", "core", "energy", "mapper", "noc", "dram"});
// The NoC alone takes its size, clock and flit format from `mesh`, not the node placement.
const std::vector<std::string> kNoc = with_common({"seed", "mesh.width", "mesh.height", "mesh.noc_mhz",
                                                   "mesh.packet.flit_bits", "mesh.packet.header_flits", "noc",
                                                   "traffic"});
const std::vector<std::string> kVta = with_common({"seed", "dram", "vta", "vta_compiler", "mapper.refine"});

}  // namespace

std::string override_key(const std::string& assignment) {
    const std::string k = assignment.substr(0, assignment.find('='));
    const auto b = k.find_first_not_of(" \t");
    const auto e = k.find_last_not_of(" \t");
    return b == std::string::npos ? "" : k.substr(b, e - b + 1);
}

bool key_within(const std::string& a, const std::string& b) {
    return a == b || (a.size() > b.size() && a.compare(0, b.size(), b) == 0 && a[b.size()] == '.');
}

const std::vector<std::string>& read_keys(PlatformKind kind) {
    switch (kind) {
    case PlatformKind::Dram: return kDram;
    case PlatformKind::Nmp: return kNmp;
    case PlatformKind::Mesh: return kMesh;
    case PlatformKind::Vta: return kVta;
    case PlatformKind::Noc: return kNoc;
    }
    return kDram;
}

bool reads_key(PlatformKind kind, const std::string& key) {
    for (const std::string& r : read_keys(kind))
        if (key_within(key, r) || key_within(r, key)) return true;
    return false;
}

void check_overrides_read(PlatformKind kind, const std::string& config_path,
                          const std::vector<std::string>& overrides) {
    for (const std::string& o : overrides) {
        const std::string key = override_key(o);
        if (reads_key(kind, key)) continue;
        std::string list;
        for (const std::string& r : read_keys(kind)) list += (list.empty() ? "" : ", ") + r;
        throw InputError("--set " + key + ": the " + to_string(kind) + " platform (" + config_path +
                         ") does not read this key, so setting it would change nothing; it reads: " + list +
                         " (--allow-unused sets it anyway)");
    }
}

namespace {
// Structural equality of two YAML trees (scalars by their text).
bool same_yaml(const YAML::Node& a, const YAML::Node& b) {
    if (a.Type() != b.Type()) return false;
    if (a.IsScalar()) return a.Scalar() == b.Scalar();
    if (a.size() != b.size()) return false;
    if (a.IsSequence()) {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!same_yaml(a[i], b[i])) return false;
        return true;
    }
    if (a.IsMap()) {
        for (const auto& kv : a) {
            if (!kv.first.IsScalar()) return false;
            const YAML::Node other = b[kv.first.Scalar()];
            if (!other.IsDefined() || !same_yaml(kv.second, other)) return false;
        }
    }
    return true;
}
}  // namespace

std::vector<FileSection> file_sections(const YAML::Node& file_root) {
    std::vector<FileSection> out;
    if (!file_root.IsMap()) return out;
    // Every section at its defaults, as the resolved configuration writes it.
    static const YAML::Node defaults = YAML::Load(to_yaml(PlatformSpec{}));
    for (const auto& kv : file_root) {
        if (!kv.first.IsScalar()) continue;
        FileSection f;
        f.key = kv.first.Scalar();
        const YAML::Node d = defaults[f.key];
        if (!d.IsDefined() || !d.IsMap()) continue;  // not a key of the schema (an error later), or a scalar
        f.line = kv.first.Mark().is_null() ? 0 : kv.first.Mark().line + 1;
        f.as_resolved_defaults = same_yaml(kv.second, d);
        out.push_back(f);
    }
    return out;
}

std::vector<std::string> unread_sections(PlatformKind kind, const std::vector<FileSection>& sections,
                                         const std::string& config_path) {
    std::string reads;
    for (const std::string& r : read_keys(kind))
        if (r != "platform" && r != "name") reads += (reads.empty() ? "" : ", ") + r;
    std::vector<std::string> out;
    for (const FileSection& f : sections) {
        if (reads_key(kind, f.key) || f.as_resolved_defaults) continue;
        out.push_back(config_path + (f.line ? ":" + std::to_string(f.line) : "") + ": section \"" + f.key +
                      "\" is not read by platform \"" + to_string(kind) + "\" (it reads: " + reads + ")");
    }
    return out;
}

}  // namespace vp::config
