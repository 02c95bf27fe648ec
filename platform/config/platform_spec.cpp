#include "platform/config/platform_spec.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "mapper/common/errors.h"
#include "platform/config/bindings.h"
#include "platform/config/platform_keys.h"

namespace vp::config {

const char* to_string(PlatformKind k) {
    switch (k) {
    case PlatformKind::Dram: return "dram";
    case PlatformKind::Nmp: return "nmp";
    case PlatformKind::Mesh: return "mesh";
    case PlatformKind::Vta: return "vta";
    case PlatformKind::Noc: return "noc";
    }
    return "?";
}

void SimParams::validate(const std::string& k) const {
    if (!(max_time_ms >= 0 && max_time_ms <= 1e9)) throw InputError(k + ".max_time_ms: expected 0..1e9 ms");
    if (!(progress_s > 0 && progress_s <= 3600)) throw InputError(k + ".progress_s: expected (0, 3600] s");
    if (threads < 1 || threads > 256) throw InputError(k + ".threads: expected 1..256");
}

void TsoConfig::validate(const std::string& k) const {
    if (fixed_slicing != "none") mapper::tso::parse_slicing(fixed_slicing, k + ".fixed_slicing");
    if (fixed_schedule != "none") mapper::tso::parse_schedule(fixed_schedule, k + ".fixed_schedule");
}

mapper::tso::TsoOptions TsoConfig::options(unsigned threads) const {
    mapper::tso::TsoOptions o;
    o.dram_model = dram_model;
    if (fixed_slicing != "none") o.fixed_slicing = mapper::tso::parse_slicing(fixed_slicing, "tso.fixed_slicing");
    if (fixed_schedule != "none") o.fixed_schedule = mapper::tso::parse_schedule(fixed_schedule, "tso.fixed_schedule");
    o.threads = int(threads);
    return o;
}

namespace {
// Adds "file:line:col" to a validation error whose message starts with a key path.
[[noreturn]] void relocate(const InputError& e, const YAML::Node& root, const std::string& file) {
    std::string msg = e.what();
    auto colon = msg.find(':');
    std::string key = colon == std::string::npos ? "" : msg.substr(0, colon);
    YAML::Node n = root;
    std::string loc = file;
    bool found = !key.empty();
    std::size_t start = 0;
    while (found) {
        auto dot = key.find('.', start);
        std::string k = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!n.IsMap() || !n[k].IsDefined()) {
            found = false;
            break;
        }
        n = n[k];
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    if (found && n.Tag() == "!vp-set") throw InputError("--set " + msg);
    if (found && !n.Mark().is_null())
        loc += ":" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1);
    throw InputError(loc + ": " + msg);
}
}  // namespace

PlatformSpec load_platform(const std::string& path, const std::vector<std::string>& overrides,
                           bool allow_unused) {
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot open file");
    YAML::Node root;
    try {
        root = YAML::Load(in);
    } catch (const YAML::ParserException& e) {
        throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                         ": YAML syntax error: " + e.msg);
    }
    if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
    for (const auto& o : overrides) apply_override(root, o);
    PlatformSpec spec;
    spec.source = path;
    YamlCheck top(root, path, "");
    top.expect_map();
    if (!top.has("platform")) top.fail("missing required key \"platform\" (one of: dram, nmp, mesh, vta)");
    YamlReader r(top);
    try {
        bind(r, spec);
        r.finish();
    } catch (const YAML::Exception& e) {
        throw InputError(path + ": malformed configuration: " + e.msg);
    }
    if (!allow_unused) check_overrides_read(spec.kind, path, overrides);
    // One mesh description: the NoC takes its size and flit format from `mesh`.
    spec.noc.width = std::uint32_t(std::max(spec.mesh.width, 0));
    spec.noc.height = std::uint32_t(std::max(spec.mesh.height, 0));
    spec.noc.flit_width_bits = std::uint32_t(std::max(spec.mesh.packet.flit_bits, 0));
    spec.noc.header_flits = std::uint32_t(std::max(spec.mesh.packet.header_flits, 0));
    try {
        spec.sim.validate("sim");
        spec.trace.validate("trace");
        spec.dram.validate("dram");
        spec.nmp.validate("nmp");
        spec.tso.validate("tso");
        spec.core.validate("core");
        spec.energy.validate("energy");
        spec.mesh.validate("mesh");
        spec.noc.validate("noc");
        spec.traffic.validate("traffic", spec.noc);
        spec.vta.validate("vta");
        spec.vta_compiler.validate("vta_compiler");
    } catch (const InputError& e) {
        relocate(e, root, path);
    }
    return spec;
}

std::string to_yaml(const PlatformSpec& spec) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    YamlWriter w(out);
    bind(w, const_cast<PlatformSpec&>(spec));
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace vp::config
