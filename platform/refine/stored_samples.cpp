#include "platform/refine/stored_samples.h"

#include <cmath>
#include <cstdio>
#include <iostream>

#include <yaml-cpp/yaml.h>

#include "mapper/common/errors.h"
#include "mapper/common/input_file.h"
#include "platform/config/calibration.h"
#include "platform/config/yaml_check.h"

namespace vp::refine {

StoredSamples read_stored_samples(const std::string& path, const std::string& list, const std::string& hint,
                                  std::optional<std::uint64_t> seed, const YAML::Node* machine) {
    StoredSamples s;
    if (path.empty()) return s;
    s.path = path;
    const std::string where = "--refit " + path;
    std::string text;
    try {
        text = read_input_file(path, "a vp-calibrate file");
    } catch (const InputError& e) {  // "PATH: why"
        throw InputError(where + ": cannot read: " + std::string(e.what()).substr(path.size() + 2));
    }
    YAML::Node loaded;
    try {
        loaded = config::load_yaml_text(text, path);
    } catch (const InputError& e) {
        throw InputError("--refit " + std::string(e.what()));
    }
    const YAML::Node& doc = loaded;  // const: a lookup of a missing key must not insert it
    const YAML::Node fit = doc.IsMap() ? doc["fit"] : YAML::Node();
    const YAML::Node entries = fit.IsDefined() && fit.IsMap() ? fit[list] : YAML::Node();
    if (!entries.IsDefined() || !entries.IsSequence()) throw InputError(where + ": no fit." + list + " list (" + hint + ")");
    if (seed) {
        const YAML::Node f = fit["seed"];
        const std::string found = !f ? "(none)" : f.IsScalar() ? f.Scalar() : "(not a number)";
        if (found != std::to_string(*seed))
            throw InputError(where + ": made with fit.seed = " + found + ", but this design has --seed " +
                             std::to_string(*seed));
    }
    if (machine) {
        YAML::Node made = doc.IsMap() && doc["made_for"].IsMap() ? YAML::Clone(doc["made_for"]) : YAML::Node(YAML::NodeType::Map);
        made["platform"] = doc.IsMap() && doc["platform"] ? YAML::Clone(doc["platform"]) : YAML::Node("(absent)");
        std::string want, have;
        const std::string key = config::first_mismatch(made, *machine, "", want, have);
        if (!key.empty())
            throw InputError(where + ": made for " + key + " = " + want + ", but this configuration has " + key + " = " +
                             have + ": its simulated cycles are another machine's (calibrate without --refit, or refit "
                             "a file made for this configuration)");
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const YAML::Node e = entries[i];
        try {
            const std::string key = e["key"].as<std::string>();
            const double sim = e["sim"].as<double>();
            if (!(sim > 0) || !std::isfinite(sim)) throw YAML::Exception(e.Mark(), "sim");  // the fits divide by it
            s.cycles[key] = sim;
            s.shapes[key] = e["shape"] ? e["shape"].as<std::string>() : std::string();  // "": an older file
            s.keys.push_back(key);
        } catch (const YAML::Exception&) {
            throw InputError(where + ":" + std::to_string(e.Mark().line + 1) + ": fit." + list + "[" +
                             std::to_string(i) + "]: every entry needs key (text) and sim (cycles, a positive number); shape is text");
        }
    }
    return s;
}

std::string shape_fingerprint(const std::string& layer_json) {
    std::uint64_t h = 14695981039346656037ull;
    for (const unsigned char c : layer_json) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

void StoredSamples::check_shape(const std::string& key, const std::string& shape) const {
    const auto it = shapes.find(key);
    if (it == shapes.end()) return;  // not stored: simulated now
    if (it->second.empty())
        throw InputError("--refit " + path + ": sample " + key +
                         " has no shape fingerprint (a file written before they were recorded): its layer cannot "
                         "be matched to this design's; calibrate without --refit");
    if (it->second != shape)
        throw InputError("--refit " + path + ": sample " + key + " was simulated on another layer (shape " +
                         it->second + ") than this design's (shape " + shape +
                         "): the file comes from another version of the design; calibrate without --refit");
}

std::vector<std::size_t> split_stored(const std::vector<std::string>& keys, const std::vector<std::string>& shapes,
                                      const StoredSamples& stored, std::vector<double>& cycles) {
    cycles.assign(keys.size(), 0.0);
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto it = stored.cycles.find(keys[i]);
        if (it != stored.cycles.end()) {
            stored.check_shape(keys[i], shapes.at(i));
            cycles[i] = it->second;
        } else
            todo.push_back(i);
    }
    if (!stored.path.empty()) std::cout << "  " << todo.size() << " of them new, the others from " << stored.path << "\n";
    return todo;
}

}  // namespace vp::refine
