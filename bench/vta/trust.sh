#!/usr/bin/env bash
# Trust of the VTA compiler's cycle estimate and of STRATEGY auto on the networks that run on the
# vta platform (configs/vta.yaml, DDR3-1600), every mapping simulated in full by vp-run:
#   serial     = the first estimate (load + compute + store, fixed 10-cycle DMA latency), auto;
#   calibrated = the pipelined replay with the committed calibration (configs/calibration/
#                vta-ddr3-1600.yaml, fitted by vp-calibrate on synthetic layers only: every
#                network here is unseen by the fit), the configuration's lowering (auto: direct
#                or im2row per conv, whichever is estimated faster) and strategy auto;
#   refined    = calibrated with --refine K (the K best candidates of every distinct conv/fc
#                shape - direct, im2row with strategy 1-4 - simulated on their own, the fastest kept);
#   im2row     = calibrated with conv_lowering im2row (every conv lowered by im2row, strategy auto);
#   direct     = calibrated with conv_lowering direct (im2row only where direct cannot map a layer);
#   s1 .. s4   = im2row with a fixed strategy for every layer (calibrated estimate for the trust figures).
# Writes OUT/trust.csv (one row per network and mode) and OUT/refine_layers.csv (per layer:
# simulated cycles of auto, refined and the fastest fixed mode - direct, s1..s4 - in the
# full-network runs).
#   bench/vta/trust.sh OUT_DIR   (VP_RUN, CONFIG, K = 4, NETWORKS, MODES)
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/vta/trust.sh OUT_DIR}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
cfg=${CONFIG:-$here/configs/vta.yaml}
k=${K:-4}
read -r -a nets <<< "${NETWORKS:-lenet5 lenet5_full lenet_caffe resnet20 vta/resnet20_full squeezenet1_1 yolov3_tiny}"
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
csv=$out/trust.csv
echo "network,mode,layers,median_abs_err_pct,worst_abs_err_pct,spearman_rho,rho_points,sim_cycles,est_cycles,wall_s" > "$csv"
: > "$tmp/layers.csv"
for net in "${nets[@]}"; do
  wl=$here/workloads/$net.json
  name=$(basename "$net" .json)
  for mode in ${MODES:-serial calibrated refined s1 s2 s3 s4}; do
    args=()
    case $mode in
      serial) args=(--set vta_compiler.estimate_model=serial) ;;
      refined) args=(--refine "$k") ;;
      im2row) args=(--set vta_compiler.conv_lowering=im2row) ;;
      direct) args=(--set vta_compiler.conv_lowering=direct) ;;
      s[1-4]) args=(--set vta_compiler.conv_lowering=im2row --set "vta_compiler.strategy=${mode#s}") ;;
    esac
    d=$tmp/run; rm -rf "$d"
    s=$(date +%s.%N)
    if ! "$vp_run" "$cfg" "$wl" --out "$d" --quiet "${args[@]}" 2> "$tmp/err"; then
      echo "trust: $name $mode failed: $(tail -1 "$tmp/err")" >&2; continue; fi
    e=$(date +%s.%N)
    row=$(jq -r --arg n "$name" --arg m "$mode" --arg w "$(echo "$e - $s" | bc)" \
      '[$n, $m, .trust.layers, (.trust.median_abs_sim_over_est_minus_1 * 100), (.trust.worst_abs_sim_over_est_minus_1 * 100),
        .trust.spearman_rho, .trust.simulated_candidates, ([.layers[].simulated_cycles // 0] | add),
        ([.layers[].estimated_cycles // 0] | add), $w] | map(tostring) | join(",")' "$d/mapping.json")
    echo "$row" >> "$csv"; echo "$row" >&2
    jq -r --arg n "$name" --arg m "$mode" '.layers[] | select(.simulated_cycles != null) | [$n, $m, .name, .simulated_cycles] | map(tostring) | join(",")' \
      "$d/mapping.json" >> "$tmp/layers.csv"
  done
done
# Per layer: auto (calibrated), refined and the best fixed mode (direct, s1..s4) in the full-network runs.
echo "network,layer,auto_cycles,refined_cycles,best_fixed_cycles,refined_over_auto,refined_over_best_fixed" > "$out/refine_layers.csv"
awk -F, '{ k = $1 "," $3 }
  $2 == "calibrated" { u[k] = $4; ord[++n] = k }
  $2 == "refined" { r[k] = $4 }
  $2 ~ /^(s[1-4]|direct)$/ { if (!(k in b) || $4 < b[k]) b[k] = $4 }
  END { for (i = 1; i <= n; i++) { k = ord[i]; if ((k in r) && (k in b)) printf "%s,%s,%s,%s,%.6f,%.6f\n", k, u[k], r[k], b[k], r[k] / u[k], r[k] / b[k] } }' \
  "$tmp/layers.csv" >> "$out/refine_layers.csv"
echo "trust: wrote $csv and $out/refine_layers.csv" >&2
