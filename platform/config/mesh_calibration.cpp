#include "platform/config/mesh_calibration.h"

#include "mapper/common/errors.h"
#include "platform/config/bindings.h"
#include "platform/config/calibration_coefficients.h"
#include "platform/config/calibration.h"

namespace vp::config {

namespace {

template <typename T>
YAML::Node section_node(const char* key, const T& v) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    YamlWriter w(out);
    w.section(key, [&](auto& s) { bind(s, const_cast<T&>(v)); });
    out << YAML::EndMap;
    return YAML::Load(out.c_str())[key];
}

}  // namespace

YAML::Node mesh_calibration_key(const PlatformSpec& spec) {
    YAML::Node n;
    n["platform"] = to_string(spec.kind);
    n["dram"] = section_node("dram", spec.dram);
    // Keys that observe a run without changing its timing do not invalidate a calibration
    // (reference_scheduler: the same commands, tests/cli/dram_reference_scheduler.sh).
    for (const char* k : {"check_protocol", "check_preset", "record_trace", "record_trace_format", "reference_scheduler"})
        n["dram"].remove(k);
    n["noc"] = section_node("noc", spec.noc);
    for (const char* k : {"width", "height", "stepping", "watchdog_cycles", "flit_width_bits", "header_flits"})
        n["noc"].remove(k);
    const YAML::Node mesh = section_node("mesh", spec.mesh);
    n["mesh"]["noc_mhz"] = mesh["noc_mhz"];
    n["mesh"]["packet"] = mesh["packet"];
    n["core"] = section_node("core", spec.core);
    return n;
}

mapper::waving::MeshCoefficients load_mesh_calibration(const std::string& path, const PlatformSpec& spec,
                                                       std::vector<std::string>* warnings) {
    const YAML::Node root = read_calibration_root(path, "mapper.calibration");
    check_made_for(root, mesh_calibration_key(spec), path, spec, warnings);
    // phased-pages has its own coefficients (pg_*): a file written before it has none, and the
    // model would run on their uncalibrated defaults.
    if (spec.mapper.mesh_model == "phased-pages" && root["coefficients"].IsMap() && !root["coefficients"]["pg_turn"])
        throw InputError(path + ": coefficients: no pg_* coefficients for mapper.mesh_model phased-pages (the file "
                                "predates that model): write a new one with vp-calibrate CONFIG --set "
                                "mapper.calibration=none --out FILE, or set mapper.mesh_model: phased-engine");
    return read_coefficients<mapper::waving::MeshCoefficients>(root, path);
}

std::string mesh_calibration_yaml(const PlatformSpec& spec, const mapper::waving::MeshCoefficients& c,
                                  const YAML::Node& fit) {
    YAML::Node key = mesh_calibration_key(spec);
    YAML::Emitter out;
    out << YAML::Comment("written by vp-calibrate; include it with mapper.calibration: <this file>");
    out << YAML::BeginMap;
    out << YAML::Key << "platform" << YAML::Value << "mesh";
    out << YAML::Key << "model" << YAML::Value << "calibrated";
    out << YAML::Key << "made_for" << YAML::Value << YAML::BeginMap;
    for (const char* k : {"dram", "noc", "mesh", "core"}) out << YAML::Key << k << YAML::Value << key[k];
    out << YAML::EndMap;
    out << YAML::Key << "coefficients" << YAML::Value << YAML::BeginMap;
    YamlWriter w(out);
    bind(w, const_cast<mapper::waving::MeshCoefficients&>(c));
    out << YAML::EndMap;
    out << YAML::Key << "fit" << YAML::Value << fit;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace vp::config
