#!/usr/bin/env bash
# Installs what is missing, configures and builds (Release, -j2) into build/.
#   scripts/build.sh [--sanitize]   (ASan + UBSan build into build-asan/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
dir=$root/build; extra=()
if [ "${1:-}" = "--sanitize" ]; then dir=$root/build-asan; extra=(-DVP_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo); fi
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" >/dev/null
cmake --build "$dir" -j "${JOBS:-2}" 2>&1 | grep -E "error|warning|Error" || true
cmake --build "$dir" -j "${JOBS:-2}" >/dev/null
