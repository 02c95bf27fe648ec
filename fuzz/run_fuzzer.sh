#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time from its seed corpus and dictionary
# (docs/fuzzing.md). New interesting inputs go to WORK/corpus, failing inputs to WORK/artifacts/.
# Exit status: 0 when no input failed.
#   fuzz/run_fuzzer.sh FUZZ_BINARY NAME SOURCE_DIR WORK_DIR SECONDS [libFuzzer options...]
set -euo pipefail
bin=$1; name=$2; src=$3; work=$4; secs=$5; shift 5
rm -rf "$work/seeds"
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
while read -r f; do
  cp "$f" "$work/seeds/$(printf %s "$f" | sha1sum | cut -c1-12)-$(basename "$f")"
done < <(bash "$src/fuzz/seed_files.sh" "$src" "$name")
opts=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2560 -malloc_limit_mb=2048 -print_final_stats=1
      -artifact_prefix="$work/artifacts/")
[ -f "$src/fuzz/dict/$name.dict" ] && opts+=(-dict="$src/fuzz/dict/$name.dict")
cd "$src"   # relative paths in inputs resolve as in the replay
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
set +e
"$bin" "${opts[@]}" "$@" "$work/corpus" "$work/seeds" 2>&1 | tee "$work/last.log" | grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|SUMMARY|stat::|fuzz:"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "fuzz $name: FAILED (exit $status); the input is in $work/artifacts/, full log $work/last.log" >&2
  ls "$work/artifacts" >&2 || true
fi
exit "$status"
