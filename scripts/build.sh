#!/usr/bin/env bash
# Installs what is missing, configures and builds (Release, -j2) into build/.
#   scripts/build.sh [--sanitize [TARGET...]]
# --sanitize builds the sanitizer tree build-asan/ instead: clang with ASan + UBSan (and libFuzzer's
# coverage hooks on the parser libraries), one tree for both the unit and scenario tests (default target
# vp_unit_sim_tests) and the libFuzzer targets (vp_fuzz_targets, scripts/fuzz.sh).
# VP_FUZZ_SECONDS (environment) sets how long each fuzz:<target> test fuzzes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/build; extra=(); targets=(all)
if [ "${1:-}" = "--sanitize" ]; then
  shift
  "$root/scripts/setup.sh" --fuzz
  dir=$root/build-asan
  # -O1 with line tables only: the cheapest build whose reports still name file and line.
  extra=(-DVP_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
         "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
         "-DVP_FUZZ_SECONDS=${VP_FUZZ_SECONDS:-30}")
  targets=("${@:-vp_unit_sim_tests}")
  # A build-asan/ configured by an older version of this script (g++) is configured anew.
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^VP_FUZZ:BOOL=ON' "$dir/CMakeCache.txt"; then rm -rf "$dir"; fi
else
  "$root/scripts/setup.sh"
fi
# ccache, when the machine has it, makes rebuilds of other checkouts cheap.
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
if ! { cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" &&
       cmake --build "$dir" -j "${JOBS:-2}" --target "${targets[@]}"; } > "$log" 2>&1; then
  grep -E "error|Error" "$log" | head -40 >&2 || true
  echo "build: failed, full log in $log" >&2
  exit 1
fi
grep -E "warning:" "$log" >&2 || true
