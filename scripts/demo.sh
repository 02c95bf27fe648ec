#!/usr/bin/env bash
# Set-up + build + one run of the default platform and workload, with a readable summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
cd "$root"
exec build/platform/vp-run configs/nmp.yaml workloads/resnet50.json --out vp-out/demo "$@"
