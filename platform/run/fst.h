#pragma once
// trace.format: fst. GTKWave's vcd2fst (Debian package gtkwave) turns DIR/trace.vcd into the much
// smaller DIR/trace.fst; the VCD is removed and DIR/trace.gtkw is pointed at the FST file.
#include <string>

namespace vp::run {

// Throws std::runtime_error when vcd2fst fails (run::check_run_inputs made sure it is installed).
void convert_trace_to_fst(const std::string& dir);

}  // namespace vp::run
