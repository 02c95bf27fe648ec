#!/usr/bin/env bash
# DRAM model speed: simulated requests per wall second through the whole TLM path
# (traffic generator -> AT socket -> controller), median of N runs per pattern.
#   bench/dram_speed.sh [RUNS]    (needs build/platform/vp-run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vp_run=${VP_RUN:-$root/build/platform/vp-run}
runs=${1:-5}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%-12s %10s %10s %14s %12s\n' pattern requests wall_s requests/s sim_GB/s
for w in stream random mixed; do
  reqs=$(grep -o '"requests": *[0-9]*' "$root/workloads/traffic/$w.json" | awk -F: '{s += $2} END {print s}')
  walls=()
  for i in $(seq "$runs"); do
    "$vp_run" "$root/configs/dram-ddr3.yaml" "$root/workloads/traffic/$w.json" --out "$tmp/o" --quiet
    walls+=("$(grep -o '"wall_time_s": *[0-9.e-]*' "$tmp/o/run.json" | awk -F: '{print $2}')")
  done
  med=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  bw=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "dram.bandwidth") c = i} NR == 2 {print $c}' "$tmp/o/stats.csv")
  printf '%-12s %10d %10.3f %14.0f %12.2f\n' "$w" "$reqs" "$med" "$(awk -v r="$reqs" -v t="$med" 'BEGIN {print r / t}')" "$bw"
done
