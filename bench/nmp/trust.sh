#!/usr/bin/env bash
# Trust of the TSO time models on every network of workloads/ (8 and 16 bit), nmp platform:
#   before = TSO-burst (the paper's model, the default before calibration), its estimate vs
#            the simulation of its own mapping;
#   after  = the calibrated model (configs/calibration/*, fitted by vp-calibrate on synthetic
#            layers only, so every network here is unseen by the fit), unrefined and refined
#            (--refine K), each simulated in full; for refined, the refinement's whole-network
#            rounds (simulations, changed layers, changed / unchanged layers slower in the
#            network than unrefined, which mapping was kept);
#   fixed  = the calibrated model with fixed IS / OS / WS (the paper's fixed-TLT ablation).
# Writes OUT/trust.csv (one row per network, precision, mode) and OUT/fixed_schedule.csv.
#   bench/nmp/trust.sh OUT_DIR   (VP_RUN, CONFIG, K = 4, NETWORKS, PRECISION = 8|16|both, MODES)
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/nmp/trust.sh OUT_DIR}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
cfg=${CONFIG:-$here/configs/nmp.yaml}
k=${K:-4}
case "${PRECISION:-both}" in 8) precs=(8) ;; 16) precs=(16) ;; *) precs=(8 16) ;; esac
if [ -n "${NETWORKS:-}" ]; then read -r -a nets <<< "$NETWORKS"
else nets=(); for f in "$here"/workloads/*.json; do nets+=("$(basename "$f" .json)"); done; fi
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
csv=$out/trust.csv
echo "network,precision,mode,layers,median_abs_err_pct,worst_abs_err_pct,spearman_rho,rho_candidates,sim_cycles,est_cycles,wall_s,refined_network_sims,changed_layers,changed_layers_slower,unchanged_layers_slower,kept" > "$csv"
for p in "${precs[@]}"; do for net in "${nets[@]}"; do
  wl=$here/workloads/$net.json
  if [ "$p" = 16 ]; then sed -E 's/"precision"[[:space:]]*:[[:space:]]*8/"precision": 16/' "$wl" > "$tmp/$net.json"; wl=$tmp/$net.json; fi
  for mode in ${MODES:-burst calibrated refined IS OS WS}; do
    args=()
    case $mode in
      burst) args=(--set tso.dram_model=burst) ;;
      refined) args=(--refine "$k") ;;
      IS|OS|WS) args=(--set "tso.fixed_schedule=$mode") ;;
    esac
    d=$tmp/run; rm -rf "$d"
    s=$(date +%s.%N)
    if ! "$vp_run" "$cfg" "$wl" --out "$d" --quiet "${args[@]}" 2> "$tmp/err"; then
      echo "trust: $net $p $mode failed: $(tail -1 "$tmp/err")" >&2; continue; fi
    e=$(date +%s.%N)
    row=$(jq -r --arg n "$net" --arg p "$p" --arg m "$mode" --arg w "$(echo "$e - $s" | bc)" \
      '[$n, $p, $m, .trust.layers, (.trust.median_abs_sim_over_est_minus_1 * 100), (.trust.worst_abs_sim_over_est_minus_1 * 100),
        .trust.spearman_rho, .trust.simulated_candidates, ([.simulation[].simulated_cycles] | add),
        ([.simulation[].estimated_cycles] | add), $w,
        (.refine_network.refined_simulations // ""), (.refine_network.changed_layers // ""),
        (.refine_network.changed_layers_slower // ""), (.refine_network.unchanged_layers_slower // ""),
        (.refine_network.kept // "")] | map(tostring) | join(",")' "$d/mapping.json")
    echo "$row" >> "$csv"; echo "$row" >&2
    if [ "$mode" = calibrated ] || [ "$mode" = refined ]; then
      # refined: also the pick's own candidate simulation (after its predecessor) and the
      # unrefined choice's (candidate 0) in that same simulation context.
      jq -r --arg n "$net" --arg p "$p" --arg m "$mode" '. as $r | range(0; .simulation | length) as $i
        | $r.simulation[$i] as $s | ($r.convs[$i].refine // null) as $f
        | [$n, $p, $m, $s.layer, $s.simulated_cycles,
           (if $f then $f.candidates[$f.used // $f.pick].simulated_cycles else "" end),
           (if $f then $f.candidates[0].simulated_cycles else "" end),
           (if $f then ($f.candidates[$f.used // $f.pick] | [.slicing, .schedule, .tile]) != ($f.candidates[0] | [.slicing, .schedule, .tile]) else "" end)]
          | map(tostring) | join(",")' \
        "$d/mapping.json" >> "$tmp/layers.csv"
    fi
  done
done; done
# Per layer: refined vs unrefined simulated cycles (full-network simulations), and the
# refinement's own context simulation of the pick and of the unrefined choice (candidate 0).
echo "network,precision,layer,unrefined_cycles,refined_cycles,refined_over_unrefined,context_pick_cycles,context_unrefined_cycles,choice_changed" > "$out/refine_layers.csv"
awk -F, '$3 == "calibrated" { u[$1 "," $2 "," $4] = $5; ord[++n] = $1 "," $2 "," $4 }
  $3 == "refined" { k = $1 "," $2 "," $4; r[k] = $5; cp[k] = $6; cu[k] = $7; ch[k] = $8 }
  END { for (i = 1; i <= n; i++) { k = ord[i]; if (k in r) printf "%s,%s,%s,%.6f,%s,%s,%s\n", k, u[k], r[k], r[k] / u[k], cp[k], cu[k], ch[k] } }' \
  "$tmp/layers.csv" >> "$out/refine_layers.csv"
echo "trust: wrote $csv and $out/refine_layers.csv" >&2
