#include "platform/config/calibration.h"

#include <fstream>

#include "mapper/common/errors.h"
#include "platform/config/bindings.h"

namespace vp::config {

namespace {

template <typename T>
YAML::Node as_node(const char* key, T& v) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    YamlWriter w(out);
    w.section(key, [&](auto& s) { bind(s, v); });
    out << YAML::EndMap;
    return YAML::Load(out.c_str())[key];
}

// First key (dotted) whose value differs between `want` and `have`; "" when equal.
std::string first_mismatch(const YAML::Node& want, const YAML::Node& have, const std::string& path,
                           std::string& want_v, std::string& have_v) {
    if (want.IsMap()) {
        for (const auto& kv : want) {
            const std::string k = kv.first.as<std::string>();
            const std::string sub = path.empty() ? k : path + "." + k;
            if (!have.IsMap() || !have[k].IsDefined()) {
                want_v = YAML::Dump(kv.second);
                have_v = "(absent)";
                return sub;
            }
            const std::string m = first_mismatch(kv.second, have[k], sub, want_v, have_v);
            if (!m.empty()) return m;
        }
        if (have.IsMap())
            for (const auto& kv : have) {
                const std::string k = kv.first.as<std::string>();
                if (!want[k].IsDefined()) {
                    want_v = "(absent)";
                    have_v = YAML::Dump(kv.second);
                    return path.empty() ? k : path + "." + k;
                }
            }
        return "";
    }
    const std::string a = YAML::Dump(want), b = YAML::Dump(have);
    if (a == b) return "";
    want_v = a;
    have_v = b;
    return path;
}

}  // namespace

std::string calibration_mismatch(const YAML::Node& want, const YAML::Node& have, std::string& want_v,
                                 std::string& have_v) {
    return first_mismatch(want, have, "", want_v, have_v);
}

YAML::Node calibration_key(const PlatformSpec& spec) {
    YAML::Node n;
    n["platform"] = to_string(spec.kind);
    n["dram"] = as_node("dram", const_cast<dram::DramParams&>(spec.dram));
    // Keys that observe a run without changing its timing do not invalidate a calibration.
    for (const char* k : {"check_protocol", "check_preset", "record_trace", "record_trace_format"}) n["dram"].remove(k);
    n["nmp"] = as_node("nmp", const_cast<nmp::NmpModelParams&>(spec.nmp));
    return n;
}

mapper::tso::TsoCoefficients load_calibration(const std::string& path, const PlatformSpec& spec) {
    std::ifstream in(path);
    if (!in) throw InputError("tso.calibration: cannot open calibration file " + path);
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
    mapper::tso::TsoCoefficients c;
    YamlReader r(top.at("coefficients"));
    r.node().expect_map();
    bind(r, c);
    r.finish();
    c.validate(path + ": coefficients");
    return c;
}

std::string calibration_yaml(const PlatformSpec& spec, const mapper::tso::TsoCoefficients& c, const YAML::Node& fit) {
    YAML::Node key = calibration_key(spec);
    YAML::Emitter out;
    out << YAML::Comment("written by vp-calibrate; include it with tso.calibration: <this file>");
    out << YAML::BeginMap;
    out << YAML::Key << "platform" << YAML::Value << key["platform"].as<std::string>();
    out << YAML::Key << "model" << YAML::Value << "calibrated";
    out << YAML::Key << "made_for" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "dram" << YAML::Value << key["dram"];
    out << YAML::Key << "nmp" << YAML::Value << key["nmp"];
    out << YAML::EndMap;
    out << YAML::Key << "coefficients" << YAML::Value << YAML::BeginMap;
    YamlWriter w(out);
    bind(w, const_cast<mapper::tso::TsoCoefficients&>(c));
    out << YAML::EndMap;
    out << YAML::Key << "fit" << YAML::Value << fit;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace vp::config
