#pragma once
// VTA IR JSON -> Program, with every semantic check of the VTA IR grammar of Compilation and Execution of an Embeddable YOLO-NAS on the VTA. Errors are
// vp::InputError naming the file, the JSON pointer and what was expected.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "mapper/vta/ir_program.h"

namespace vp::mapper::vta {

struct IrParseOptions {
    // Matrices whose source is "input" get deterministic pseudo-random data from this seed
    // (int8 for INP/WGT roles, int32 in [-kAccInputRange, kAccInputRange] for ACC roles).
    std::uint64_t seed = 1;
    static constexpr std::int32_t kAccInputRange = 1 << 20;  // assumption: bias-like magnitudes
    // Directory that relative data-file paths are resolved against ("" = current directory).
    std::string base_dir;
};

// Parses and checks one IR document. `source` names it in errors. Data files are raw
// little-endian: int8 row-major for INP/WGT matrices, int32 row-major for ACC matrices.
Program parse_program(const nlohmann::json& doc, const std::string& source, const IrParseOptions& opt);

// Reads the file, resolves data paths relative to its directory.
Program load_program(const std::string& path, std::uint64_t seed = 1);

}  // namespace vp::mapper::vta
