#!/usr/bin/env bash
# Installs what is missing, configures and builds (Release, -j2) into build/.
#   scripts/build.sh [--sanitize]   (ASan + UBSan build of the unit and scenario tests into build-asan/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
dir=$root/build; extra=(); target=all
# The sanitizer build compiles at -O1 with line tables only (-g1): about 2.5x faster to build than
# -O2 -g with GCC's instrumentation, and the reports still name file and line.
if [ "${1:-}" = "--sanitize" ]; then
  dir=$root/build-asan
  extra=(-DVP_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
         -DVP_BUILD_BENCH=OFF)
  target=vp_unit_sim_tests  # what the sanitizer run executes: the unit and scenario tests
fi
# ccache, when the machine has it, makes rebuilds of other checkouts and of the sanitizer tree cheap.
if command -v ccache >/dev/null; then
  extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # What ccache needs to cache compiles that use (or build) a precompiled header.
  export CCACHE_SLOPPINESS=pch_defines,time_macros
fi
# Ninja when the machine has it: it compiles a target's objects while the libraries it links are
# still being built (Make waits for each library), so both cores stay busy. A build folder keeps
# the generator it was configured with.
if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then extra+=(-G Ninja); fi
mkdir -p "$dir"
log=$dir/build.log
if ! { cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" && cmake --build "$dir" -j "${JOBS:-2}" --target "$target"; } > "$log" 2>&1; then
  grep -E "error|Error" "$log" | head -40 >&2 || true
  echo "build: failed, full log in $log" >&2
  exit 1
fi
grep -E "warning:" "$log" >&2 || true
