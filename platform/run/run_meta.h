#pragma once
// Helpers for the run outputs: a stable 64-bit content hash and file reading.
#include <cstdint>
#include <string>

namespace vp::run {

std::uint64_t fnv1a64(const std::string& data);
std::string hex64(std::uint64_t v);
std::string read_file(const std::string& path);

}  // namespace vp::run
