#!/usr/bin/env bash
# Cost of epoch statistics: wall time of the simulation (run.json wall_time_s: kernel run, no
# mapping, no output writing) with stats.epoch off, auto (default) and 1 us, and the whole
# vp-run (outputs and report included), for AlexNet on mesh-4x4 and ResNet-50 on nmp.
# Medians of RUNS runs; the load average is printed because the machine may be shared.
#   bench/epoch_speed.sh [RUNS]        (VP_RUN defaults to build/platform/vp-run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vp_run=${VP_RUN:-$root/build/platform/vp-run}
runs=${1:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-22s %-6s %12s %12s %10s %12s\n' case epoch sim_wall_s total_s intervals csv_MB
for c in "alexnet mesh-4x4|$root/configs/mesh-4x4.yaml|$root/workloads/alexnet.json" \
         "resnet50 nmp|$root/configs/nmp.yaml|$root/workloads/resnet50.json"; do
  IFS='|' read -r name cfg wl <<< "$c"
  for ep in off auto 1us; do
    sims=(); tots=()
    for i in $(seq "$runs"); do
      t0=$(date +%s.%N)
      "$vp_run" "$cfg" "$wl" --out "$tmp/o" --quiet --set "stats.epoch=$ep"
      t1=$(date +%s.%N)
      sims+=("$(/usr/bin/python3 -c "import json; print(json.load(open('$tmp/o/run.json'))['wall_time_s'])")")
      tots+=("$(echo "$t1 - $t0" | bc -l)")
    done
    iv=$(/usr/bin/python3 -c "import json; print(json.load(open('$tmp/o/run.json'))['epoch_intervals'])")
    mb=$(echo "$(stat -c %s "$tmp/o/timeseries.csv") / 1048576" | bc -l)
    printf '%-22s %-6s %12.3f %12.3f %10s %12.1f\n' "$name" "$ep" "$(printf '%s\n' "${sims[@]}" | median)" \
      "$(printf '%s\n' "${tots[@]}" | median)" "$iv" "$mb"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
