#!/usr/bin/env bash
# Two virtual threads (double buffering, the compiler's default) against single buffering on the
# vta platform (configs/vta.yaml, DDR3-1600), every network simulated in full by vp-run:
#   vt     = vta_compiler.double_buffer true (INP/WGT halves alternate between steps);
#   single = vta_compiler.double_buffer false.
# GEMM utilisation = GEMM micro-ops / simulated core cycles (1 = one 16x16 GEMM micro-op every
# cycle, the peak of the default core). Writes
#   OUT/virtual_threads.csv         one row per network and mode (totals, wall time)
#   OUT/virtual_threads_layers.csv  one row per layer and mode
#   bench/vta/virtual_threads.sh OUT_DIR   (VP_RUN, CONFIG, NETWORKS, MODES, EXTRA: more --set args)
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/vta/virtual_threads.sh OUT_DIR}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
cfg=${CONFIG:-$here/configs/vta.yaml}
read -r -a nets <<< "${NETWORKS:-resnet20 mobilenetv2 yolov3_tiny}"
read -r -a extra <<< "${EXTRA:-}"
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
csv=$out/virtual_threads.csv; lcsv=$out/virtual_threads_layers.csv
echo "network,mode,programs,programs_2_threads,sim_cycles,est_cycles,gemm_uops,gemm_utilisation,dram_bytes,wall_s" > "$csv"
echo "network,mode,layer,programs,programs_2_threads,sim_cycles,gemm_uops,gemm_utilisation,dram_bytes" > "$lcsv"
for net in "${nets[@]}"; do
  wl=$here/workloads/$net.json
  name=$(basename "$net" .json)
  for mode in ${MODES:-vt single}; do
    case $mode in
      vt) db=true ;;
      single) db=false ;;
      *) echo "virtual_threads: unknown mode $mode (vt, single)" >&2; exit 2 ;;
    esac
    d=$tmp/run; rm -rf "$d"
    s=$(date +%s.%N)
    if ! "$vp_run" "$cfg" "$wl" --out "$d" --quiet --set "vta_compiler.double_buffer=$db" "${extra[@]}" 2> "$tmp/err"; then
      echo "virtual_threads: $name $mode failed: $(tail -1 "$tmp/err")" >&2; continue; fi
    e=$(date +%s.%N)
    jq -r --arg n "$name" --arg m "$mode" '
      .programs | group_by(.layer) | sort_by(.[0].start_ns)[] |
      [$n, $m, .[0].layer, length, (map(select(.virtual_threads == 2)) | length), (map(.simulated_cycles) | add),
       (map(.gemm_uops) | add), ((map(.gemm_uops) | add) / (map(.simulated_cycles) | add)), (map(.dram_bytes) | add)]
      | map(tostring) | join(",")' "$d/mapping.json" >> "$lcsv"
    row=$(jq -r --arg n "$name" --arg m "$mode" --arg w "$(echo "$e - $s" | bc)" '
      .programs | [$n, $m, length, (map(select(.virtual_threads == 2)) | length), (map(.simulated_cycles) | add),
       (map(.estimated_cycles) | add), (map(.gemm_uops) | add), ((map(.gemm_uops) | add) / (map(.simulated_cycles) | add)),
       (map(.dram_bytes) | add), $w] | map(tostring) | join(",")' "$d/mapping.json")
    echo "$row" >> "$csv"; echo "$row" >&2
  done
done
echo "virtual_threads: wrote $csv and $lcsv" >&2
