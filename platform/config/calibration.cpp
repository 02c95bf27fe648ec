#include "platform/config/calibration.h"

#include <filesystem>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "platform/config/bindings.h"
#include "platform/config/calibration_coefficients.h"

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

// The text before the top-level "fit:" key when that key is the document's last top-level line
// (as vp-calibrate writes it), else "". The fit section is the fit's record: its sample list,
// which vp-calibrate --refit reads on its own (read_stored_samples), is most of the file, and
// parsing it took 6-9 ms of every vp-map and vp-run (LeNet-5's mapping: 22 ms with it, 13 ms without).
std::string before_trailing_fit(const std::string& text) {
    std::size_t fit = std::string::npos;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const char c = text[pos];
        if (pos < end && c != ' ' && c != '#' && c != '\r') {  // a top-level line
            if (fit != std::string::npos) return "";           // something after fit: read it all
            const bool is_fit = text.compare(pos, 4, "fit:") == 0 &&
                                (pos + 4 == end || text[pos + 4] == ' ' || text[pos + 4] == '\r');
            if (is_fit) fit = pos;
        }
        pos = end + 1;
    }
    return fit == std::string::npos ? "" : text.substr(0, fit);
}

}  // namespace

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

YAML::Node calibration_key(const PlatformSpec& spec) {
    YAML::Node n;
    n["platform"] = to_string(spec.kind);
    n["dram"] = as_node("dram", const_cast<dram::DramParams&>(spec.dram));
    // Keys that observe a run without changing its timing do not invalidate a calibration
    // (reference_scheduler: the same commands, tests/cli/dram_reference_scheduler.sh).
    for (const char* k : {"check_protocol", "check_preset", "record_trace", "record_trace_format", "reference_scheduler"})
        n["dram"].remove(k);
    if (spec.kind == PlatformKind::Vta) {
        n["vta"] = as_node("vta", const_cast<vta::VtaParams&>(spec.vta));
        n["vta"].remove("watchdog_cycles");  // deadlock detection only
    } else {
        n["nmp"] = as_node("nmp", const_cast<nmp::NmpModelParams&>(spec.nmp));
        // The ring carries only IFM-channel partial sums, which the calibration's design set
        // does not use (its cost is an uncalibrated extension term): not part of the key.
        n["nmp"].remove("ring");
        // Options added after the committed calibrations: part of the key only when they
        // change the timing (a configuration that uses them then gets the warning).
        if (spec.nmp.arch.control.is_default()) n["nmp"].remove("control");
        if (!spec.nmp.arch.double_buffer) n["nmp"].remove("double_buffer");
    }
    return n;
}

YAML::Node read_calibration_root(const std::string& path, const std::string& include_key) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw InputError(include_key + ": cannot open calibration file " + path);
    const std::string text = read_input_file(path, "a calibration file (vp-calibrate)");
    YAML::Node root;
    bool parsed = false;
    const std::string head = before_trailing_fit(text);
    if (!head.empty()) {
        try {  // a cut inside an unusual construct fails here: the whole text is read below
            root = load_yaml_text(head, path);
            parsed = true;
        } catch (const InputError&) {
        }
    }
    if (!parsed) root = load_yaml_text(text, path);
    YamlCheck top(root, path, "");
    top.expect_map();
    top.allow_only({"platform", "model", "made_for", "coefficients", "fit"});
    for (const char* k : {"platform", "model", "made_for", "coefficients"})
        if (!top.has(k)) top.fail(std::string("missing key \"") + k + "\" (not a vp-calibrate file?)");
    if (top.at("model").as_string() != "calibrated")
        top.at("model").fail("calibration files are for the \"calibrated\" model");
    top.at("made_for").expect_map();
    return root;
}

void check_made_for(const YAML::Node& root, const YAML::Node& cur, const std::string& path, const PlatformSpec& spec,
                    std::vector<std::string>* warnings) {
    YAML::Node made = YAML::Clone(root["made_for"]);
    made["platform"] = root["platform"];
    auto describe = [&](const std::string& key, const std::string& want, const std::string& have) {
        return path + ": calibration made for " + key + " = " + want + ", but the configuration (" + spec.source +
               ") has " + key + " = " + have;
    };
    // Another platform or DRAM preset is another machine: the coefficients do not apply (exit 2).
    std::string want, have;
    for (const char* k : {"platform", "dram.preset"}) {
        YAML::Node w, h;
        if (std::string(k) == "platform") {
            w["platform"] = made["platform"];
            h["platform"] = cur["platform"];
        } else {
            w["dram"]["preset"] = made["dram"]["preset"];
            h["dram"]["preset"] = cur["dram"]["preset"];
        }
        const std::string key = first_mismatch(w, h, "", want, have);
        if (key.empty()) continue;
        // Another preset: name the file made for it when one lies next to this one under the
        // same name with the preset replaced (as configs/calibration/ has them).
        std::string sibling;
        const std::size_t at = path.rfind(want);
        if (key == "dram.preset" && at != std::string::npos && path.find('/', at) == std::string::npos) {
            const std::string other = path.substr(0, at) + have + path.substr(at + want.size());
            std::error_code ec;
            if (std::filesystem::exists(other, ec))
                sibling = " (" + other + " exists: name it, or write the path with {dram.preset} in place of the "
                          "preset, as configs/*.yaml do, to take each preset's file)";
        }
        throw InputError(describe(key, want, have) + (sibling.empty() ? " (run vp-calibrate for this configuration)" : sibling));
    }
    // Any other key (queue depth, scheduler, DMA depth, VC count, buffer sizes, ...): the models
    // take those figures from the configuration itself and the fitted coefficients are
    // corrections of that physics, so they still apply; with `warnings` the difference is a
    // warning (a sweep over such a key keeps running), without it an error.
    const std::string key = first_mismatch(made, cur, "", want, have);
    if (key.empty()) return;
    if (!warnings) throw InputError(describe(key, want, have) + " (run vp-calibrate for this configuration)");
    warnings->push_back(describe(key, want, have) +
                        "; using its coefficients anyway (advisory: run vp-calibrate for this configuration)");
}

YAML::Node read_calibration_file(const std::string& path, const PlatformSpec& spec, const std::string& include_key,
                                 std::vector<std::string>* warnings) {
    const YAML::Node root = read_calibration_root(path, include_key);
    check_made_for(root, calibration_key(spec), path, spec, warnings);
    return root;
}

mapper::tso::TsoCoefficients load_calibration(const std::string& path, const PlatformSpec& spec,
                                              std::vector<std::string>* warnings) {
    const YAML::Node root = read_calibration_file(path, spec, "tso.calibration", warnings);
    return read_coefficients<mapper::tso::TsoCoefficients>(root, path);
}

std::string calibration_file_text(const PlatformSpec& spec, const YAML::Node& coefficients, const YAML::Node& fit,
                                  const std::string& include_key) {
    YAML::Node key = calibration_key(spec);
    const std::string own = spec.kind == PlatformKind::Vta ? "vta" : "nmp";
    YAML::Emitter out;
    out << YAML::Comment("written by vp-calibrate; include it with " + include_key + ": <this file>");
    out << YAML::BeginMap;
    out << YAML::Key << "platform" << YAML::Value << key["platform"].as<std::string>();
    out << YAML::Key << "model" << YAML::Value << "calibrated";
    out << YAML::Key << "made_for" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "dram" << YAML::Value << key["dram"];
    out << YAML::Key << own << YAML::Value << key[own];
    out << YAML::EndMap;
    out << YAML::Key << "coefficients" << YAML::Value << coefficients;
    out << YAML::Key << "fit" << YAML::Value << fit;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

std::string calibration_yaml(const PlatformSpec& spec, const mapper::tso::TsoCoefficients& c, const YAML::Node& fit) {
    YAML::Emitter e;
    e << YAML::BeginMap;
    YamlWriter w(e);
    bind(w, const_cast<mapper::tso::TsoCoefficients&>(c));
    e << YAML::EndMap;
    return calibration_file_text(spec, YAML::Load(e.c_str()), fit, "tso.calibration");
}

}  // namespace vp::config
