#pragma once
// vp-calibrate --refit FILE (nmp and mesh): the samples stored in an earlier calibration file of
// the same design keep their simulated cycles; only those the file lacks (a larger --shapes) are
// simulated. Each calibration names its samples by its own key; this is the part they share.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace vp::refine {

// The {key, sim, shape} entries of a calibration file's fit.<list>.
struct StoredSamples {
    std::string path;                      // the file ("": no --refit, nothing stored)
    std::vector<std::string> keys;         // in the file's order
    std::map<std::string, double> cycles;  // key -> simulated cycles
    std::map<std::string, std::string> shapes;  // key -> fingerprint of the layer it simulated
    // Throws an InputError unless the stored sample `key` simulated the layer of fingerprint
    // `shape`: a key names a design shape (cal0, cal1, ...), and another version of the design
    // may draw another layer under the same name.
    void check_shape(const std::string& key, const std::string& shape) const;
};

// A layer's fingerprint (FNV-1a 64 of its JSON text, 16 hex digits), stored with each sample.
std::string shape_fingerprint(const std::string& layer_json);

// Reads fit.<list> of the calibration file `path` ("": returns nothing stored). `hint` closes the
// message when the list is missing (which file was expected). With `seed`, the file's fit.seed
// must equal it: the keys name the design's shapes (cal0, cal1, ...), which another seed draws
// differently. With `machine` (the configuration's calibration key: config::calibration_key,
// config::mesh_calibration_key), the file's platform and made_for must equal it: its cycles were
// simulated on that machine, and another DRAM preset, timing or core section would fit this
// configuration's coefficients to another machine's cycles. Bad input is an InputError naming the
// file, the entry (or the key and both values) and what was expected.
StoredSamples read_stored_samples(const std::string& path, const std::string& list, const std::string& hint,
                                  std::optional<std::uint64_t> seed = std::nullopt, const YAML::Node* machine = nullptr);

// Splits the design's samples (by key): the stored ones take their cycles into `cycles` (the same
// size as `keys`, 0 for the others) after check_shape with `shapes` (the samples' fingerprints,
// the same size as `keys`); returns the indices of the others, to simulate, in order.
// With a --refit file, prints "  N of them new, the others from FILE".
std::vector<std::size_t> split_stored(const std::vector<std::string>& keys, const std::vector<std::string>& shapes,
                                      const StoredSamples& stored, std::vector<double>& cycles);

}  // namespace vp::refine
