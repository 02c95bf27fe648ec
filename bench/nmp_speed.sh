#!/usr/bin/env bash
# NMP speed: TSO mapping time (vp-map) of InceptionV3 and of every workloads/*.json network for
# each time model (calibrated, the default; TSO-burst and TSO-noburst, the paper's), with 1 and 2
# OpenMP threads (sim.threads), and the full vp-run of ResNet-50 and InceptionV3 (mapping +
# simulation; 8- and 16-bit). Medians of RUNS runs of the user CPU time (summed over the networks'
# processes) and of the wall time; the load average is printed because the machine may be shared.
#   bench/nmp_speed.sh [RUNS]        (VP_RUN / VP_MAP default build/platform/vp-run, vp-map)
# With VP_MAP_BEFORE=/path/to/another/vp-map (say, a build of an older commit), every mapping run
# is interleaved with the same run of that binary, and both are printed (side by side, same minutes).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vp_run=${VP_RUN:-$root/build/platform/vp-run}
vp_map=${VP_MAP:-$(dirname "$vp_run")/vp-map}
before=${VP_MAP_BEFORE:-}
runs=${1:-5}
cfg=$root/configs/nmp.yaml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"

all=()
for f in "$root"/workloads/*.json; do all+=("$f"); done
# map_time BIN MODEL THREADS FILE...: "user_s wall_s" of mapping every FILE, one process each.
map_time() {
  local bin=$1 model=$2 th=$3; shift 3
  local u=0 t0; t0=$(now)
  for w in "$@"; do
    /usr/bin/time -f "%U" -o "$tmp/t" "$bin" "$cfg" "$w" --out "$tmp/m.json" --quiet --set "sim.threads=$th" \
      --set "tso.dram_model=$model"
    u=$(awk -v a="$u" -v b="$(cat "$tmp/t")" 'BEGIN {print a + b}')
  done
  echo "$u $(awk -v a="$t0" -v b="$(now)" 'BEGIN {print b - a}')"
}
if [ -n "$before" ]; then
  printf '\n%-26s %-11s %7s %12s %12s %14s %14s\n' "mapping (vp-map)" model threads user_s wall_s before_user_s \
    before_wall_s
else
  printf '\n%-26s %-11s %7s %12s %12s\n' "mapping (vp-map)" model threads user_s wall_s
fi
for model in calibrated burst noburst; do
  for th in 1 2; do
    for what in inception_v3 all; do
      us=(); wsec=(); bus=(); bws=()
      if [ "$what" = all ]; then list=("${all[@]}"); else list=("$root/workloads/$what.json"); fi
      for i in $(seq "$runs"); do
        read -r u w < <(map_time "$vp_map" "$model" "$th" "${list[@]}")
        us+=("$u"); wsec+=("$w")
        if [ -n "$before" ]; then
          read -r u w < <(map_time "$before" "$model" "$th" "${list[@]}")
          bus+=("$u"); bws+=("$w")
        fi
      done
      label=$what; [ "$what" = all ] && label="all ${#all[@]} networks"
      printf '%-26s %-11s %7d %12.3f %12.3f' "$label" "$model" "$th" "$(printf '%s\n' "${us[@]}" | median)" \
        "$(printf '%s\n' "${wsec[@]}" | median)"
      if [ -n "$before" ]; then
        printf ' %14.3f %14.3f' "$(printf '%s\n' "${bus[@]}" | median)" "$(printf '%s\n' "${bws[@]}" | median)"
      fi
      echo
    done
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
