#!/usr/bin/env bash
# Set-up + build + the whole test suite (unit, SystemC scenarios, command-line tests, a sweep
# on a private single-node Slurm, the fuzz corpora replayed), then a short fuzzing smoke run of
# every parser (the sanitizer tree build-asan/, 10 s per target). Long simulations carry the CTest
# label "long" and run only with --long; --fuzz fuzzes each target for 45 s instead of 10 s;
# --no-fuzz skips the clang build and the fuzzing (the corpora are still replayed).
#   scripts/test.sh [--long] [--sanitize] [--fuzz | --no-fuzz]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
long=0; san=0; fuzz_s=10
for a in "$@"; do
  case "$a" in
    --long) long=1 ;; --sanitize) san=1 ;; --fuzz) fuzz_s=45 ;; --no-fuzz) fuzz_s=0 ;;
    *) echo "test: unknown argument $a" >&2; exit 2 ;;
  esac
done
if [ $san -eq 1 ]; then
  "$root/scripts/build.sh" --sanitize
  cd "$root/build-asan"
  # Unit and SystemC scenario tests under ASan/UBSan (the CLI tests exercise the same code).
  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest -j 2 --output-on-failure -L 'unit|sim' -LE 'long|nosan'
  exit $?
fi
"$root/scripts/build.sh"
"$root/scripts/setup.sh" --test   # Slurm, munge and GNU parallel for the sweep tests (label slurm)
cd "$root/build"
rc=0
if [ $long -eq 1 ]; then ctest -j 2 --output-on-failure || rc=$?
else ctest -j 2 --output-on-failure -LE long || rc=$?; fi
# Fuzzing (CTest label fuzz of build-asan/): libFuzzer on every parser, bounded time each.
if [ "$fuzz_s" -gt 0 ]; then "$root/scripts/fuzz.sh" --seconds "$fuzz_s" || rc=$?; fi
exit $rc
