#!/usr/bin/env bash
# IFM-channel slicing (input channels split over the TLEs, partial sums reduced over the ring).
#   bench/nmp/ifm_ch.sh OUT_DIR     (VP_RUN, CONFIG, NETWORKS, PRECISION = 8|16|both, WIDTHS, SWEEP_NET)
# Writes
#   OUT/ifm_ch_layers.csv  one row per conv/fc layer of every network: the best estimate of the
#       paper's three slicings and of IFM-CH (from the search's candidates_s, calibrated model),
#       the mapping's pick with tso.ifm_channel_slicing on, and the simulated cycles of the layer
#       in the whole-network simulation with the option off and on;
#   OUT/ifm_ch_ring_sweep.csv  SWEEP_NET (default resnet20) with every layer forced to IFM-CH
#       (tso.fixed_slicing=IFM-CH), for each ring width (bytes/cycle): the layers' estimated and
#       simulated cycles, the estimated ring term, and the ring's busiest-link utilisation.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/nmp/ifm_ch.sh OUT_DIR}
vp_run=${VP_RUN:-$here/build/platform/vp-run}
cfg=${CONFIG:-$here/configs/nmp.yaml}
case "${PRECISION:-8}" in 8) precs=(8) ;; 16) precs=(16) ;; *) precs=(8 16) ;; esac
if [ -n "${NETWORKS:-}" ]; then read -r -a nets <<< "$NETWORKS"
else nets=(); for f in "$here"/workloads/*.json; do nets+=("$(basename "$f" .json)"); done; fi
mkdir -p "$out"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

csv=$out/ifm_ch_layers.csv
echo "network,precision,layer,N,M,H,W,K,best_paper,est_paper_cycles,est_ifm_ch_cycles,est_gain_pct,pick_on,sim_off_cycles,sim_on_cycles,sim_gain_pct" > "$csv"
for p in "${precs[@]}"; do for net in "${nets[@]}"; do
  wl=$here/workloads/$net.json
  if [ "$p" = 16 ]; then sed -E 's/"precision"[[:space:]]*:[[:space:]]*8/"precision": 16/' "$wl" > "$tmp/$net.json"; wl=$tmp/$net.json; fi
  if ! "$vp_run" "$cfg" "$wl" --out "$tmp/off" --quiet 2> "$tmp/err"; then echo "ifm_ch: $net off failed: $(tail -1 "$tmp/err")" >&2; continue; fi
  if ! "$vp_run" "$cfg" "$wl" --out "$tmp/on" --quiet --set tso.ifm_channel_slicing=true 2> "$tmp/err"; then
    echo "ifm_ch: $net on failed: $(tail -1 "$tmp/err")" >&2; continue; fi
  jq -r --arg n "$net" --arg p "$p" --slurpfile off "$tmp/off/mapping.json" '
    . as $on | range(0; .convs | length) as $i | $on.convs[$i] as $c
    | ($c.candidates_s | to_entries) as $e
    | ([$e[] | select((.key | startswith("IFM-CH")) | not) | select(.value != null)] | min_by(.value)) as $bp
    | ([$e[] | select(.key | startswith("IFM-CH")) | select(.value != null)] | min_by(.value)) as $bi
    | ($c.estimate.total_cycles / $c.estimate.total_s) as $hz
    | $off[0].simulation[$i].simulated_cycles as $so | $on.simulation[$i].simulated_cycles as $sn
    | [$n, $p, $c.layer, $c.shape.N, $c.shape.M, $c.shape.H, $c.shape.W, $c.shape.R, $bp.key, ($bp.value * $hz | round),
       (if $bi then ($bi.value * $hz | round) else "" end),
       (if $bi then ((1 - $bi.value / $bp.value) * 100 * 100 | round / 100) else "" end),
       ($c.slicing + "/" + $c.schedule), ($so | round), ($sn | round),
       ((1 - $sn / $so) * 100 * 100 | round / 100)] | map(tostring) | join(",")' "$tmp/on/mapping.json" >> "$csv"
  echo "ifm_ch: $net $p done" >&2
done; done

sweep=$out/ifm_ch_ring_sweep.csv
snet=${SWEEP_NET:-resnet20}
echo "network,width_bytes,layers,est_cycles,sim_cycles,sim_over_est,est_ring_cycles,ring_bytes,busiest_link_utilisation" > "$sweep"
for w in ${WIDTHS:-1 2 4 8 16 32 64}; do
  if ! "$vp_run" "$cfg" "$here/workloads/$snet.json" --out "$tmp/sw" --quiet --set tso.fixed_slicing=IFM-CH \
       --set "nmp.ring.width_bytes=$w" 2> "$tmp/err"; then echo "sweep: width $w failed: $(tail -1 "$tmp/err")" >&2; continue; fi
  row=$(jq -r --arg n "$snet" --arg w "$w" '
    [.convs[] | select(.slicing == "IFM-CH")] as $ch
    | ([.convs[] | select(.slicing == "IFM-CH") | .estimate.total_cycles] | add) as $est
    | ([range(0; .convs | length) as $i | select(.convs[$i].slicing == "IFM-CH") | .simulation[$i].simulated_cycles] | add) as $sim
    | ([.convs[] | select(.slicing == "IFM-CH") | .estimate.t_ring_s * (.estimate.total_cycles / .estimate.total_s)] | add) as $ring
    | ([.convs[] | select(.slicing == "IFM-CH") | .ring.bytes] | add) as $rb
    | [$n, $w, ($ch | length), ($est | round), ($sim | round), ($sim / $est * 1000 | round / 1000), ($ring | round), $rb]
    | map(tostring) | join(",")' "$tmp/sw/mapping.json")
  util=$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); d=dict(zip(r[0],r[1]))
print(round(max(float(v) for k,v in d.items() if k.startswith("nmp.ring.link[") and k.endswith(".utilisation")),4))' "$tmp/sw/stats.csv")
  echo "$row,$util" >> "$sweep"; echo "$row,$util" >&2
done
