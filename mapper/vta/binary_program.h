#pragma once
// A VTA program in binary form, in the layout of TVM's VTA runtime (apache/tvm-vta
// include/vta/hw_spec.h, src/runtime.cc): the instruction stream as 128-bit little-endian
// words (VTAGenericInsn), the micro-op buffer as 32-bit words (VTAUop), and the data the
// instructions address as DRAM element indices (int8 INP [BATCH][BLOCK_IN] and OUT vectors,
// int8 WGT [BLOCK_OUT][BLOCK_IN] blocks, int32 ACC [BATCH][BLOCK_OUT] vectors, little-endian).
//
// On disk (docs/vta.md, "Binary programs") a program is a folder: `program.json` (workload kind
// "vta_binary": the VTA configuration it was built for, and for every file its physical byte
// address) next to `insn.bin`, `uop.bin` and one `.bin` per data region. vp-run writes the
// folder of every VTA IR program it runs (OUT/program/) and runs such a folder's program.json.
#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "mapper/vta/compiled_program.h"

namespace vp::mapper::vta {

// Largest address span of a binary program's regions (assumption: bounds the host image).
constexpr std::uint64_t kMaxBinarySpanBytes = 256ull << 20;

// Writes `dir`/program.json and the .bin files (creates `dir`). Throws vp::Error on I/O failure.
void write_binary_program(const CompiledProgram& p, const std::string& dir);

// The manifest of `p` as write_binary_program writes it.
nlohmann::json binary_manifest(const CompiledProgram& p);

// Reads a file named by the manifest (relative to it); the reader throws vp::InputError.
using BlobReader = std::function<std::string(const std::string& file)>;

// Builds the program from a parsed manifest and its files. Every check is an InputError naming
// `source`, the file and the instruction: a configuration other than `cfg`, a file that is not
// a whole number of instructions / micro-ops, an unknown opcode or memory type, a micro-op range
// outside the UOP buffer, a LOAD/STORE outside its SRAM, regions that overlap or span more than
// kMaxBinarySpanBytes, a stream that does not end with FINISH. Token pops that can never be
// satisfied are left to the run (the watchdog / executor name the instruction: exit 3).
CompiledProgram parse_binary_program(const nlohmann::json& manifest, const std::string& source, const BlobReader& read,
                                     const VtaConfig& cfg);

// parse_binary_program on a program.json file and the files next to it.
CompiledProgram load_binary_program(const std::string& manifest_path, const VtaConfig& cfg);

}  // namespace vp::mapper::vta
