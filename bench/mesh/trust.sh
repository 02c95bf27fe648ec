#!/usr/bin/env bash
# Trust of the mesh time models on the networks that fit a benchmark budget, mesh-4x4 and mesh-8x8
# (every network of workloads/ whose unrefined run takes at most about 30 s on mesh-4x4: all but
# YOLOv3, 57 s; the seven added on 2026-12-04 take about 18 min for paper, phased-pages and refined):
#   paper      = the paper's estimate (the default before calibration), vs the simulation of its
#                own mapping;
#   calibrated = the calibrated model (constant-efficiency terms; configs/calibration/mesh-ddr3-1600.yaml,
#                fitted by vp-calibrate on synthetic single layers on mesh-4x4 only, so every
#                network here, and the whole 8x8 mesh, is unseen by the fit), unrefined;
#   queueing   = the queueing model (exact MVA of the loaded DRAM interface; same file, same
#                samples), unrefined;
#   phased     = the phased model (DRAM service from the preset for the requests' own access
#                pattern, processor sharing among the cores started together; same file, same
#                samples), unrefined;
#   phased-engine = the phased model bounded by the in-order DMA engine of a one-core row (the
#                default model 2026-12-03 to 2026-12-04; same coefficients), unrefined;
#   phased-pages = phased-engine with each core's row activations replayed from its addresses and
#                priced by the banks in use (the default model since 2026-12-04; its own
#                coefficients, pg_*, in the same file), unrefined;
#   refined    = the config's default model with --refine K (per-shape candidates,
#                then the whole-network revert rounds), simulated in full. vp-run refuses a K beyond
#                every layer's candidate count (exit 2, "... candidate count (the most: N, ..."; before,
#                "has only N (T, k) candidate(s)" for any layer); the bench then runs the network again
#                with K = N (LeNet-5's C1 has 3) and records the K used.
# Writes OUT/trust.csv (one row per config, network, mode) and OUT/refine_layers.csv.
#   bench/mesh/trust.sh OUT_DIR   (VP_RUN, CONFIGS = "mesh-4x4 mesh-8x8", K = 4, NETWORKS, MODES, BASE,
#                                  RUN_ARGS: more vp-run arguments for every run, e.g. --set mapper.calibration=F)
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/mesh/trust.sh OUT_DIR}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
k=${K:-4}
read -r -a cfgs <<< "${CONFIGS:-mesh-4x4 mesh-8x8}"
read -r -a nets <<< "${NETWORKS:-lenet5 lenet_caffe resnet20 alexnet squeezenet1_1 lenet5_full squeezenet1_0 mobilenetv2 yolov3_tiny resnet50 inception_v3 vgg16}"
read -r -a extra <<< "${RUN_ARGS:-}"
base=${BASE:-phased-pages}  # the unrefined mode refine_layers.csv compares the refined one with (the default model)
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: > "$tmp/layers.csv"  # empty when MODES has neither the base mode nor refined
csv=$out/trust.csv
echo "config,network,mode,refine_k,layers,median_abs_err_pct,worst_abs_err_pct,spearman_rho,rho_candidates,sim_cycles,est_cycles,wall_s,network_kept,changed_layers_slower,refined_network_sims" > "$csv"
for c in "${cfgs[@]}"; do for net in "${nets[@]}"; do
  for mode in ${MODES:-paper calibrated queueing phased phased-engine refined}; do
    args=()
    case $mode in
      paper) args=(--set mapper.mesh_model=paper) ;;
      calibrated) args=(--set mapper.mesh_model=calibrated) ;;
      queueing) args=(--set mapper.mesh_model=queueing) ;;
      phased) args=(--set mapper.mesh_model=phased) ;;
      phased-engine) args=(--set mapper.mesh_model=phased-engine) ;;
      phased-pages) args=(--set mapper.mesh_model=phased-pages) ;;
      refined) args=(--refine "$k") ;;
    esac
    d=$tmp/run; rm -rf "$d"
    s=$(date +%s.%N)
    kk=-; [ "$mode" = refined ] && kk=$k
    "$vp_run" "$here/configs/$c.yaml" "$here/workloads/$net.json" --out "$d" --quiet "${args[@]}" "${extra[@]}" 2> "$tmp/err"; rc=$?
    if [ $rc -eq 2 ] && [ "$mode" = refined ] && n=$(grep -o -e 'has only [0-9]* (T, k)' -e 'the most: [0-9]*' "$tmp/err" | grep -o '[0-9]*'); then
      kk=$n; echo "trust: $c $net: K=$k is beyond a layer's $n candidates, K=$n" >&2
      rm -rf "$d"; s=$(date +%s.%N)
      "$vp_run" "$here/configs/$c.yaml" "$here/workloads/$net.json" --out "$d" --quiet --refine "$n" "${extra[@]}" 2> "$tmp/err"; rc=$?
    fi
    if [ $rc -ne 0 ]; then echo "trust: $c $net $mode failed: $(tail -1 "$tmp/err")" >&2; continue; fi
    e=$(date +%s.%N)
    row=$(jq -r --arg c "$c" --arg n "$net" --arg m "$mode" --arg k "$kk" --arg w "$(echo "$e - $s" | bc)" \
      '[$c, $n, $m, $k, .trust.layers, (.trust.median_abs_sim_over_est_minus_1 * 100), (.trust.worst_abs_sim_over_est_minus_1 * 100),
        .trust.spearman_rho, .trust.simulated_candidates,
        ([.layers[] | select(.simulation) | .simulation.cycles] | add),
        ([.layers[] | select(.simulation) | .estimate.cycles] | add), $w,
        (.refine_network.kept // "-"), (.refine_network.changed_layers_slower // "-"),
        (.refine_network.refined_simulations // "-")] | map(tostring) | join(",")' "$d/mapping.json")
    echo "$row" >> "$csv"; echo "$row" >&2
    if [ "$mode" = "$base" ] || [ "$mode" = refined ]; then
      jq -r --arg c "$c" --arg n "$net" --arg m "$mode" \
        '.layers[] | select(.simulation) | [$c, $n, $m, .name, .simulation.cycles] | map(tostring) | join(",")' \
        "$d/mapping.json" >> "$tmp/layers.csv"
    fi
  done
done; done
# Per layer: refined vs unrefined simulated cycles (full-network simulations).
echo "config,network,layer,unrefined_cycles,refined_cycles,refined_over_unrefined" > "$out/refine_layers.csv"
awk -F, -v base="$base" '$3 == base { u[$1 "," $2 "," $4] = $5; ord[++n] = $1 "," $2 "," $4 } $3 == "refined" { r[$1 "," $2 "," $4] = $5 }
  END { for (i = 1; i <= n; i++) { k = ord[i]; if (k in r) printf "%s,%s,%s,%.6f\n", k, u[k], r[k], r[k] / u[k] } }' \
  "$tmp/layers.csv" >> "$out/refine_layers.csv"
echo "trust: wrote $csv and $out/refine_layers.csv" >&2
