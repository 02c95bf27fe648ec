#!/usr/bin/env bash
# Builds the libFuzzer targets in the sanitizer tree build-asan/ (clang, ASan + UBSan + coverage;
# scripts/build.sh --sanitize) and fuzzes each for a bounded time from its seed corpus (CTest label
# fuzz; docs/fuzzing.md).
#   scripts/fuzz.sh [--seconds N] [TARGET...]     default: 30 s per target, every target
# A failing input is left in build-asan/fuzz/work/TARGET/artifacts/; reproduce it with
#   build-asan/fuzz/fuzz_TARGET FILE
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
VP_FUZZ_SECONDS=$secs "$root/scripts/build.sh" --sanitize vp_fuzz_targets
dir=$root/build-asan
cd "$dir"
if [ ${#targets[@]} -eq 0 ]; then ctest -j 2 --output-on-failure -L fuzz -LE random  # not the random-network runs (main tree)
else ctest -j 2 --output-on-failure -R "^fuzz:($(IFS='|'; echo "${targets[*]}"))\$"; fi
