#!/usr/bin/env bash
# Convolution lowering on the vta platform (configs/vta.yaml, DDR3-1600, two virtual threads),
# every network simulated in full by vp-run:
#   im2row = vta_compiler.conv_lowering im2row (host im2row, A = [P*Q, C*R*S]);
#   direct = vta_compiler.conv_lowering direct (blocked activations, padded 2-D LOADs of the
#            input tile with its halo; depthwise / grouped convs and fc layers stay on im2row);
#   auto   = per conv layer the one of the two with fewer estimated cycles.
# GEMM utilisation = GEMM micro-ops / simulated core cycles (1 = one 16x16 GEMM micro-op every
# cycle, the peak of the default core). Writes
#   OUT/conv_lowering.csv         one row per network and mode (totals, DMA bytes per memory, wall time)
#   OUT/conv_lowering_layers.csv  one row per layer and mode
#   bench/vta/conv_lowering.sh OUT_DIR   (VP_RUN, CONFIG, NETWORKS, MODES, EXTRA: more --set args)
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/vta/conv_lowering.sh OUT_DIR}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
cfg=${CONFIG:-$here/configs/vta.yaml}
read -r -a nets <<< "${NETWORKS:-resnet20 mobilenetv2 yolov3_tiny}"
read -r -a extra <<< "${EXTRA:-}"
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
csv=$out/conv_lowering.csv; lcsv=$out/conv_lowering_layers.csv
echo "network,mode,programs,direct_programs,sim_cycles,est_cycles,gemm_uops,gemm_utilisation,dram_bytes,inp_bytes,wgt_bytes,acc_bytes,uop_bytes,out_bytes,wall_s" > "$csv"
echo "network,mode,layer,programs,direct_programs,sim_cycles,gemm_uops,gemm_utilisation,dram_bytes,inp_bytes,wgt_bytes,acc_bytes,partition" > "$lcsv"
for net in "${nets[@]}"; do
  wl=$here/workloads/$net.json
  name=$(basename "$net" .json)
  for mode in ${MODES:-im2row direct}; do
    case $mode in
      im2row|direct|auto) ;;
      *) echo "conv_lowering: unknown mode $mode (im2row, direct, auto)" >&2; exit 2 ;;
    esac
    d=$tmp/run; rm -rf "$d"
    s=$(date +%s.%N)
    if ! "$vp_run" "$cfg" "$wl" --out "$d" --quiet --set "vta_compiler.conv_lowering=$mode" "${extra[@]}" 2> "$tmp/err"; then
      echo "conv_lowering: $name $mode failed: $(tail -1 "$tmp/err")" >&2; continue; fi
    e=$(date +%s.%N)
    jq -r --arg n "$name" --arg m "$mode" '
      .programs | group_by(.layer) | sort_by(.[0].start_ns)[] |
      [$n, $m, .[0].layer, length, (map(select(.partition | startswith("direct"))) | length), (map(.simulated_cycles) | add),
       (map(.gemm_uops) | add), ((map(.gemm_uops) | add) / (map(.simulated_cycles) | add)), (map(.dram_bytes) | add),
       (map(.dma_bytes.inp) | add), (map(.dma_bytes.wgt) | add), (map(.dma_bytes.acc) | add), ("\"" + .[0].partition + "\"")]
      | map(tostring) | join(",")' "$d/mapping.json" >> "$lcsv"
    row=$(jq -r --arg n "$name" --arg m "$mode" --arg w "$(echo "$e - $s" | bc)" '
      .programs | [$n, $m, length, (map(select(.partition | startswith("direct"))) | length), (map(.simulated_cycles) | add),
       (map(.estimated_cycles) | add), (map(.gemm_uops) | add), ((map(.gemm_uops) | add) / (map(.simulated_cycles) | add)),
       (map(.dram_bytes) | add), (map(.dma_bytes.inp) | add), (map(.dma_bytes.wgt) | add), (map(.dma_bytes.acc) | add),
       (map(.dma_bytes.uop) | add), (map(.dma_bytes.out) | add), $w] | map(tostring) | join(",")' "$d/mapping.json")
    echo "$row" >> "$csv"; echo "$row" >&2
  done
done
echo "conv_lowering: wrote $csv and $lcsv" >&2
