#include "platform/config/vta_calibration.h"

#include "platform/config/bindings.h"
#include "platform/config/calibration_coefficients.h"
#include "platform/config/calibration.h"

namespace vp::config {

mapper::vta::VtaCoefficients load_vta_calibration(const std::string& path, const PlatformSpec& spec,
                                                  std::vector<std::string>* warnings) {
    const YAML::Node root = read_calibration_file(path, spec, "vta_compiler.calibration", warnings);
    return read_coefficients<mapper::vta::VtaCoefficients>(root, path);
}

std::string vta_calibration_yaml(const PlatformSpec& spec, const mapper::vta::VtaCoefficients& c, const YAML::Node& fit) {
    YAML::Emitter e;
    e << YAML::BeginMap;
    YamlWriter w(e);
    bind(w, const_cast<mapper::vta::VtaCoefficients&>(c));
    e << YAML::EndMap;
    return calibration_file_text(spec, YAML::Load(e.c_str()), fit, "vta_compiler.calibration");
}

}  // namespace vp::config
