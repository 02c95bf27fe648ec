#include "platform/refine/stored_samples.h"

#include <cmath>
#include <iostream>

#include <yaml-cpp/yaml.h>

#include "mapper/common/errors.h"

namespace vp::refine {

StoredSamples read_stored_samples(const std::string& path, const std::string& list, const std::string& hint,
                                  std::optional<std::uint64_t> seed) {
    StoredSamples s;
    if (path.empty()) return s;
    s.path = path;
    const std::string where = "--refit " + path;
    YAML::Node loaded;
    try {
        loaded = YAML::LoadFile(path);
    } catch (const std::exception& e) {
        throw InputError(where + ": cannot read: " + e.what());
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
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const YAML::Node e = entries[i];
        try {
            const std::string key = e["key"].as<std::string>();
            const double sim = e["sim"].as<double>();
            if (!(sim > 0) || !std::isfinite(sim)) throw YAML::Exception(e.Mark(), "sim");  // the fits divide by it
            s.cycles[key] = sim;
            s.keys.push_back(key);
        } catch (const YAML::Exception&) {
            throw InputError(where + ":" + std::to_string(e.Mark().line + 1) + ": fit." + list + "[" +
                             std::to_string(i) + "]: every entry needs key (text) and sim (cycles, a positive number)");
        }
    }
    return s;
}

std::vector<std::size_t> split_stored(const std::vector<std::string>& keys, const StoredSamples& stored,
                                      std::vector<double>& cycles) {
    cycles.assign(keys.size(), 0.0);
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto it = stored.cycles.find(keys[i]);
        if (it != stored.cycles.end())
            cycles[i] = it->second;
        else
            todo.push_back(i);
    }
    if (!stored.path.empty()) std::cout << "  " << todo.size() << " of them new, the others from " << stored.path << "\n";
    return todo;
}

}  // namespace vp::refine
