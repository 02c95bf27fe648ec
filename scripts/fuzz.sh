#!/usr/bin/env bash
# Builds the libFuzzer targets with clang into build-fuzz/ (ASan + UBSan + coverage) and fuzzes
# each for a bounded time from its seed corpus (CTest label fuzz; docs/fuzzing.md).
#   scripts/fuzz.sh [--seconds N] [TARGET...]     default: 30 s per target, every target
# A failing input is left in build-fuzz/fuzz/work/TARGET/artifacts/; reproduce it with
#   build-fuzz/fuzz/fuzz_TARGET FILE
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=30; targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) secs=$2; shift 2 ;;
    -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
"$root/scripts/setup.sh" --fuzz
dir=$root/build-fuzz; extra=()
if command -v ccache >/dev/null; then
  extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # What ccache needs to cache compiles that use (or build) a precompiled header.
  export CCACHE_SLOPPINESS=pch_defines,time_macros
fi
# Ninja when the machine has it: it compiles a target's objects while the libraries it links are
# still being built (Make waits for each library), so both cores stay busy. A build folder keeps
# the generator it was configured with.
if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then extra+=(-G Ninja); fi
log=$dir/build.log; mkdir -p "$dir"
if ! { cmake -S "$root" -B "$dir" -DVP_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DVP_FUZZ_SECONDS="$secs" "${extra[@]}" && cmake --build "$dir" -j "${JOBS:-2}"; } > "$log" 2>&1; then
  grep -E "error|Error" "$log" | head -40 >&2 || true
  echo "fuzz: build failed, full log in $log" >&2
  exit 1
fi
cd "$dir"
if [ ${#targets[@]} -eq 0 ]; then ctest -j 2 --output-on-failure -L fuzz
else ctest -j 2 --output-on-failure -R "^fuzz:($(IFS='|'; echo "${targets[*]}"))\$"; fi
