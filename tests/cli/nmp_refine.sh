#!/usr/bin/env bash
# Simulation in the loop and the calibration file, end to end on a small network:
#  * vp-run --refine 3: for every layer, the pick is the fastest of its 3 candidates when THIS
#    SCRIPT simulates each candidate itself, in the network's context: its own workload of the
#    previous layer (forced to the pick recorded for it) followed by the layer (forced to the
#    candidate, tso.fixed_layers), a separate vp-run per candidate, reading the layer's own
#    cycles; the recorded simulated cycles equal those runs; candidate 0 is the pick without
#    refinement (vp-map), so the refined pick is never slower in that simulation;
#  * vp-map --refine 3 records the same candidates and picks; trust figures present;
#  * K beyond a layer's candidate count simulates all of them, beyond every layer's is exit 2; a graph with a batch; vp-map
#    --refine of a network without conv/fc layers;
#  * bad input (exit 2, message naming the problem): --refine 0, a calibration file made for
#    another DRAM preset or platform, tso.fixed_layers naming no layer; a calibration made for
#    another nmp section is a warning; a calibration file with a key after its fit section or a
#    syntax error before it is exit 2; a broken fit section (read by vp-calibrate --refit only)
#    leaves the mapping as it is.
set -u
vp_run=$1; root=$2; bindir=$3
vp_map=$bindir/vp-map
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/nmp.yaml
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }

cat > "$tmp/net.json" <<'JSON'
{"name": "refine_cli", "precision": 16, "layers": [
  {"name": "a", "type": "conv", "C": 8, "K": 24, "H": 20, "W": 18, "R": 3, "S": 3, "stride": 1, "pad": 1},
  {"name": "b", "type": "conv", "C": 24, "K": 32, "H": 20, "W": 18, "R": 1, "S": 1, "stride": 2, "pad": 0},
  {"name": "a2", "type": "conv", "C": 8, "K": 24, "H": 20, "W": 18, "R": 3, "S": 3, "stride": 1, "pad": 1}]}
JSON
"$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/r" --quiet --refine 3 --set sim.threads=2
ok "vp-run --refine 3 exit 0" '[ $? -eq 0 ]'
m=$tmp/r/mapping.json
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/unrefined.json" --quiet
ok "refine recorded" '[ "$(jq .refine "$m")" = 3 ]'
# The whole-network check: the kept mapping is not slower than the other one, and the run
# itself (which simulates the kept mapping) gives the recorded figure.
ok "network check: kept mapping not slower" \
  'jq -e ".refine_network | if .kept == \"refined\" then .refined_cycles <= .unrefined_cycles else .unrefined_cycles < .refined_cycles end" "$m" > /dev/null'
ok "network check: the run reproduces the kept figure" \
  '[ "$(jq ".refine_network | if .kept == \"refined\" then .refined_cycles else .unrefined_cycles end" "$m")" = "$(jq .stats.nmp.cycles.value "$tmp/r/stats.json")" ]'
ok "trust recorded" 'jq -e ".trust.spearman_rho and .trust.median_abs_sim_over_est_minus_1 >= 0" "$m" > /dev/null'
choice() { jq -r '"\(.slicing)/\(.schedule)/\(.tile | map(tostring) | join(","))"' <<< "$1"; }
for i in 0 1 2; do
  name=$(jq -r ".convs[$i].layer" "$m")
  fixed=""
  if [ "$i" -gt 0 ]; then  # the previous layer with the pick recorded for it
    p=$((i - 1)); pname=$(jq -r ".convs[$p].layer" "$m")
    jq --argjson i "$i" --argjson p "$p" '.layers = [.layers[$p], .layers[$i]]' "$tmp/net.json" > "$tmp/ctx.json"
    pc=$(jq -c ".convs[$p].refine.candidates[.convs[$p].refine.pick]" "$m")
    fixed="$pname=$(choice "$pc");"
    ok "$name: simulated after $pname" '[ "$(jq -r ".convs[$i].refine.after" "$m")" = "$pname" ]'
  else
    jq '.layers = [.layers[0]]' "$tmp/net.json" > "$tmp/ctx.json"
  fi
  c0=$(jq -c ".convs[$i].refine.candidates[0] | [.slicing, .schedule, .tile]" "$m")
  u=$(jq -c ".convs[$i] | [.slicing, .schedule, [.tile.T_M, .tile.T_N, .tile.T_R, .tile.T_C]]" "$tmp/unrefined.json")
  ok "$name: candidate 0 ($c0) == the pick without refinement ($u)" '[ "$c0" = "$u" ]'
  best=""; best_j=-1; first=""
  for j in 0 1 2; do
    c=$(jq -c ".convs[$i].refine.candidates[$j]" "$m")
    "$vp_run" "$cfg" "$tmp/ctx.json" --out "$tmp/c$j" --quiet --set "tso.fixed_layers=$fixed$name=$(choice "$c")"
    got=$(jq --arg n "layer[$name]" '.stats.nmp[$n].cycles.value' "$tmp/c$j/stats.json")
    rec=$(jq '.simulated_cycles' <<< "$c")
    ok "$name candidate $j: recorded cycles ($rec) == own simulation ($got)" "[ \"$rec\" = \"$got\" ]"
    [ -z "$first" ] && first=$got
    if [ -z "$best" ] || awk -v a="$got" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$got; best_j=$j; fi
  done
  ok "$name: pick ($(jq .convs[$i].refine.pick "$m")) == fastest candidate ($best_j)" \
    "[ \"$(jq .convs[$i].refine.pick "$m")\" = \"$best_j\" ]"
  ok "$name: pick ($best) not slower than the unrefined pick ($first)" "awk -v a=$best -v b=$first 'BEGIN { exit !(a <= b) }'"
  used=$(jq ".convs[$i].refine.used" "$m")
  if [ "$(jq -r .refine_network.kept "$m")" = refined ]; then
    if [ "$(jq ".convs[$i].refine.reverted // false" "$m")" = true ]; then
      ok "$name: reverted in the network: candidate 0 used" "[ \"$used\" = 0 ]"
    else
      ok "$name: the refined network uses the pick" "[ \"$used\" = \"$best_j\" ]"
    fi
  else
    ok "$name: the unrefined network is kept: candidate 0 used" "[ \"$used\" = 0 ]"
  fi
  want=$(jq -c ".convs[$i].refine.candidates[$used] | [.slicing, .schedule, .tile]" "$m")
  have=$(jq -c ".convs[$i] | [.slicing, .schedule, [.tile.T_M, .tile.T_N, .tile.T_R, .tile.T_C]]" "$m")
  ok "$name: mapping uses the pick" '[ "$want" = "$have" ]'
done

# The per-layer check in the whole network, by this script's own full simulations of the kept
# mapping and of the unrefined one (each layer forced with tso.fixed_layers): the recorded
# per-layer network cycles equal them, and every layer whose used choice differs from the
# unrefined one is not slower in the network (the fixed point of the reverting rounds).
fixed_of() {  # fixed_of WHICH (used | 0): the tso.fixed_layers of the mapping
  jq -r --arg w "$1" '[.convs[] | . as $c | .refine.candidates[if $w == "used" then $c.refine.used else 0 end]
    | "\($c.layer)=\(.slicing)/\(.schedule)/\(.tile | map(tostring) | join(","))"] | join(";")' "$m"
}
"$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/nu" --quiet --set "tso.fixed_layers=$(fixed_of used)"
"$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/n0" --quiet --set "tso.fixed_layers=$(fixed_of 0)"
ok "network: fixed point reached" '[ "$(jq .refine_network.fixed_point "$m")" = true ]'
for i in 0 1 2; do
  name=$(jq -r ".convs[$i].layer" "$m")
  nu=$(jq --arg n "layer[$name]" '.stats.nmp[$n].cycles.value' "$tmp/nu/stats.json")
  n0=$(jq --arg n "layer[$name]" '.stats.nmp[$n].cycles.value' "$tmp/n0/stats.json")
  if [ "$(jq -r .refine_network.kept "$m")" = refined ]; then
    ok "$name: recorded refined network cycles == own full simulation ($nu)" \
      "[ \"$(jq ".convs[$i].refine.network_cycles.refined" "$m")\" = \"$nu\" ]"
  fi
  ok "$name: recorded unrefined network cycles == own full simulation ($n0)" \
    "[ \"$(jq ".convs[$i].refine.network_cycles.unrefined" "$m")\" = \"$n0\" ]"
  if [ "$(jq ".convs[$i].refine.used" "$m")" != 0 ]; then
    ok "$name: changed layer not slower in the network ($nu vs $n0)" "awk -v a=$nu -v b=$n0 'BEGIN { exit !(a <= b) }'"
  fi
done

"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/map.json" --quiet --refine 3
ok "vp-map --refine 3 exit 0" '[ $? -eq 0 ]'
ok "vp-map picks == vp-run picks" \
  '[ "$(jq -c "[.convs[].refine.pick]" "$tmp/map.json")" = "$(jq -c "[.convs[].refine.pick]" "$m")" ]'
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/map0.json" --quiet
ok "vp-map without refinement: trust null" '[ "$(jq .trust "$tmp/map0.json")" = null ]'

bad() {  # bad NAME PATTERN CMD...
  local name=$1 pat=$2; shift 2
  "$@" > "$tmp/o" 2> "$tmp/e"; local rc=$?
  ok "$name: exit 2 (got $rc)" "[ $rc -eq 2 ]"
  ok "$name: message" "grep -q -- \"$pat\" \"$tmp/e\""
}
bad "--refine 0" "expected a number of candidates K >= 1" "$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/x" --refine 0
bad "vp-map --refine -1" "expected a number of candidates K >= 1" "$vp_map" "$cfg" "$tmp/net.json" --refine -1
# The child simulations' temporary folder comes from $TMPDIR: one that cannot hold it is a setting
# to fix (exit 2 naming it), not an internal error.
bad "\$TMPDIR not a folder" 'in \$TMPDIR ('"$tmp"'/net.json): Not a directory' \
  env TMPDIR="$tmp/net.json" "$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/x" --refine 2
. "$root/tests/cli/lib/refine_random_cases.sh"
refine_random_cases .convs '{"name": "fc1", "type": "fc", "in": 1, "out": 1}' 12 9
bad "calibration for another preset" "calibration made for dram.preset" \
  "$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/x" --set dram.preset=ddr4-2400 \
  --set "tso.calibration=$root/configs/calibration/nmp-ddr3-1600.yaml"
sed 's/^platform: nmp/platform: mesh/' "$root/configs/calibration/nmp-ddr3-1600.yaml" > "$tmp/cal_mesh.yaml"
sed "s|^\( *calibration:\).*|\1 $tmp/cal_mesh.yaml|" "$cfg" > "$tmp/cfg_mesh_cal.yaml"
bad "calibration for another platform" "calibration made for platform = mesh" \
  "$vp_map" "$tmp/cfg_mesh_cal.yaml" "$tmp/net.json"
# Mapping reads a calibration file without its trailing fit section (vp-calibrate's record, read
# by --refit): a key after it is read and refused; a syntax error before it names its line; one
# inside it is left to --refit.
cal=$root/configs/calibration/nmp-ddr3-1600.yaml
with_cal() { sed "s|^\( *calibration:\).*|\1 $1|" "$cfg"; }
{ cat "$cal"; echo "extra: 1"; } > "$tmp/cal_extra.yaml"
with_cal "$tmp/cal_extra.yaml" > "$tmp/cfg_extra.yaml"
bad "calibration: a key after fit" 'cal_extra.yaml:[0-9]*:1: extra: unknown key \"extra\"' \
  "$vp_map" "$tmp/cfg_extra.yaml" "$tmp/net.json"
sed 's/^  bus_scale: .*/  bus_scale: [1,/' "$cal" > "$tmp/cal_syntax.yaml"
with_cal "$tmp/cal_syntax.yaml" > "$tmp/cfg_syntax.yaml"
bad "calibration: syntax error in the coefficients" 'cal_syntax.yaml:[0-9]*:[0-9]*: YAML syntax error' \
  "$vp_map" "$tmp/cfg_syntax.yaml" "$tmp/net.json"
{ cat "$cal"; echo "    - key: [unclosed"; } > "$tmp/cal_fit.yaml"
with_cal "$tmp/cal_fit.yaml" > "$tmp/cfg_fit.yaml"
"$vp_map" "$tmp/cfg_fit.yaml" "$tmp/net.json" --out "$tmp/f.json" --quiet
ok "calibration: a broken fit section does not stop a mapping" '[ $? -eq 0 ]'
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/f0.json" --quiet
ok "calibration: the same mapping as with the intact file" 'cmp -s "$tmp/f.json" "$tmp/f0.json"'
# Another nmp section: the coefficients are advisory, a warning naming the key and both values.
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/w.json" --quiet --set nmp.dma_max_outstanding=16 2> "$tmp/e"
ok "calibration for another nmp: exit 0" '[ $? -eq 0 ]'
ok "calibration for another nmp: warning" \
  'grep -q "warning: .*calibration made for nmp.dma_max_outstanding = 8.*has nmp.dma_max_outstanding = 16" "$tmp/e"'
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/y.json" --quiet --set nmp.dma_max_outstanding=16 --set tso.calibration=none
ok "tso.calibration=none accepts any parameters" '[ $? -eq 0 ]'
bad "tso.fixed_layers naming no layer" 'tso.fixed_layers: the workload has no conv or fc layer named \"zz\"' \
  "$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/x" --set "tso.fixed_layers=zz=KS/OS/1,1,1,1"
bad "tso.fixed_layers malformed" 'tso.fixed_layers: expected none or' \
  "$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/x" --set "tso.fixed_layers=a=KS"
bad "tso.fixed_layers tile that does not fit" 'tso.fixed_tile 24,8,20,18' \
  "$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/x" --set "tso.fixed_layers=a=KS/OS/24,8,20,18"
ok "no output folder after a bad run" '[ ! -e "$tmp/x" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
