#include "platform/config/vta_calibration.h"

#include <fstream>

#include "mapper/common/errors.h"
#include "platform/config/bindings.h"
#include "platform/config/calibration.h"

namespace vp::config {

mapper::vta::VtaCoefficients load_vta_calibration(const std::string& path, const PlatformSpec& spec) {
    std::ifstream in(path);
    if (!in) throw InputError("vta_compiler.calibration: cannot open calibration file " + path);
    YAML::Node root;
    try {
        root = YAML::Load(in);
    } catch (const YAML::ParserException& e) {
        throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
    }
    YamlCheck top(root, path, "");
    top.expect_map();
    top.allow_only({"platform", "model", "made_for", "coefficients", "fit"});
    for (const char* k : {"platform", "model", "made_for", "coefficients"})
        if (!top.has(k)) top.fail(std::string("missing key \"") + k + "\" (not a vp-calibrate file?)");
    if (top.at("model").as_string() != "calibrated")
        top.at("model").fail("calibration files are for the \"calibrated\" model");
    YAML::Node made = root["made_for"];
    made["platform"] = root["platform"];
    std::string want, have;
    const std::string key = first_mismatch(made, calibration_key(spec), "", want, have);
    if (!key.empty())
        throw InputError(path + ": calibration made for " + key + " = " + want + ", but the configuration (" +
                         spec.source + ") has " + key + " = " + have + " (run vp-calibrate for this configuration)");
    mapper::vta::VtaCoefficients c;
    YamlReader r(top.at("coefficients"));
    r.node().expect_map();
    bind(r, c);
    r.finish();
    c.validate(path + ": coefficients");
    return c;
}

std::string vta_calibration_yaml(const PlatformSpec& spec, const mapper::vta::VtaCoefficients& c, const YAML::Node& fit) {
    YAML::Node key = calibration_key(spec);
    YAML::Emitter out;
    out << YAML::Comment("written by vp-calibrate; include it with vta_compiler.calibration: <this file>");
    out << YAML::BeginMap;
    out << YAML::Key << "platform" << YAML::Value << "vta";
    out << YAML::Key << "model" << YAML::Value << "calibrated";
    out << YAML::Key << "made_for" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "dram" << YAML::Value << key["dram"];
    out << YAML::Key << "vta" << YAML::Value << key["vta"];
    out << YAML::EndMap;
    out << YAML::Key << "coefficients" << YAML::Value << YAML::BeginMap;
    YamlWriter w(out);
    bind(w, const_cast<mapper::vta::VtaCoefficients&>(c));
    out << YAML::EndMap;
    out << YAML::Key << "fit" << YAML::Value << fit;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace vp::config
