#pragma once
// The "coefficients" map of a calibration file (read_calibration_root) bound to a model's
// coefficient struct C (any type with a bind() overload and validate(where)).
#include <string>

#include <yaml-cpp/yaml.h>

#include "platform/config/bindings.h"

namespace vp::config {

template <class C>
C read_coefficients(const YAML::Node& root, const std::string& path) {
    YamlCheck top(root, path, "");
    C c;
    YamlReader r(top.at("coefficients"));
    r.node().expect_map();
    bind(r, c);
    r.finish();
    c.validate(path + ": coefficients");
    return c;
}

}  // namespace vp::config
