#!/usr/bin/env bash
# NMP speed: TSO mapping time (vp-map) of InceptionV3 and of every workloads/*.json network,
# with 1 and 2 OpenMP threads (sim.threads), and the full vp-run of ResNet-50 and InceptionV3
# (mapping + simulation; 8- and 16-bit). Medians of RUNS runs; the load average is printed
# because the machine may be shared.
#   bench/nmp_speed.sh [RUNS]        (VP_RUN / VP_MAP default build/platform/vp-run, vp-map)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vp_run=${VP_RUN:-$root/build/platform/vp-run}
vp_map=${VP_MAP:-$(dirname "$vp_run")/vp-map}
runs=${1:-5}
cfg=$root/configs/nmp.yaml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"

printf '\n%-28s %8s %12s %12s\n' "mapping (vp-map, TSO-burst)" threads median_s min_s
all=()
for f in "$root"/workloads/*.json; do all+=("$f"); done
for th in 1 2; do
  for what in inception_v3 all; do
    ts=()
    for i in $(seq "$runs"); do
      if [ "$what" = all ]; then list=("${all[@]}"); else list=("$root/workloads/$what.json"); fi
      t0=$(now)
      for w in "${list[@]}"; do
        "$vp_map" "$cfg" "$w" --out "$tmp/m.json" --quiet --set "sim.threads=$th"
      done
      ts+=("$(awk -v a="$t0" -v b="$(now)" 'BEGIN {print b - a}')")
    done
    label=$what; [ "$what" = all ] && label="all ${#all[@]} networks"
    printf '%-28s %8d %12.3f %12.3f\n' "$label" "$th" "$(printf '%s\n' "${ts[@]}" | median)" \
      "$(printf '%s\n' "${ts[@]}" | sort -g | head -1)"
  done
done

printf '\n%-28s %8s %12s %12s %12s %14s\n' "full run (vp-run)" bits process_s sim_wall_s sim_ms "DMA txn/s"
for net in resnet50 inception_v3; do
  for bits in 8 16; do
    wl=$root/workloads/$net.json
    if [ "$bits" = 16 ]; then
      sed -E 's/"precision"[[:space:]]*:[[:space:]]*8/"precision": 16/' "$wl" > "$tmp/$net.json"; wl=$tmp/$net.json
    fi
    ps=(); ws=()
    for i in $(seq "$runs"); do
      t0=$(now)
      "$vp_run" "$cfg" "$wl" --out "$tmp/o" --quiet
      ps+=("$(awk -v a="$t0" -v b="$(now)" 'BEGIN {print b - a}')")
      ws+=("$(grep -o '"wall_time_s": *[0-9.e-]*' "$tmp/o/run.json" | awk -F: '{print $2}')")
    done
    sim_ms=$(grep -o '"sim_time_ns": *[0-9.e+-]*' "$tmp/o/run.json" | awk -F: '{print $2 * 1e-6}')
    txn=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i ~ /^nmp\.tle\[[0-9]+\]\.dma\.transactions$/) c[i] = 1}
                   NR == 2 {for (i in c) s += $i; print s}' "$tmp/o/stats.csv")
    wmed=$(printf '%s\n' "${ws[@]}" | median)
    printf '%-28s %8d %12.3f %12.3f %12.3f %14.0f\n' "$net" "$bits" "$(printf '%s\n' "${ps[@]}" | median)" "$wmed" \
      "$sim_ms" "$(awk -v n="$txn" -v t="$wmed" 'BEGIN {print n / t}')"
  done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
