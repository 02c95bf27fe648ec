#!/usr/bin/env bash
# Design-space sweep: a thin wrapper around vp-sweep (platform/sweep/vp-sweep), kept for the
# command form of earlier versions:
#
#   scripts/sweep.sh CONFIG WORKLOAD --param key=v1,v2 [--param key=...]... [-j N] [--out DIR]
#                    [-- extra vp-run arguments]
#
# Every vp-sweep option works here too (vp-sweep --help, docs/sweeps.md).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exec /usr/bin/python3 "$here/platform/sweep/vp-sweep" "$@"
