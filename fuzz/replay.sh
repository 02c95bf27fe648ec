#!/usr/bin/env bash
# Replays the seed corpus and the regression inputs of one fuzz target (ordinary build, no
# libFuzzer): every input must be accepted or rejected with an input error.
#   fuzz/replay.sh REPLAY_BINARY NAME SOURCE_DIR
set -euo pipefail
bin=$1; name=$2; src=$3
mapfile -t files < <(bash "$src/fuzz/seed_files.sh" "$src" "$name")
[ ${#files[@]} -gt 0 ] || { echo "replay: no inputs for $name" >&2; exit 1; }
cd "$src"
exec "$bin" "${files[@]}"
