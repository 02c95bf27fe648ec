#!/usr/bin/env bash
# Simulation in the loop and the calibration file, end to end on a small network:
#  * vp-run --refine 3: for every distinct layer shape, the pick is the fastest of its 3
#    candidates when THIS SCRIPT simulates each candidate on its own (its own single-layer
#    workload and tso.fixed_* overrides, a separate vp-run per candidate); the recorded
#    simulated cycles equal those runs; layers of the same shape share the pick;
#  * vp-map --refine 3 records the same candidates and picks; trust figures present;
#  * bad input (exit 2, message naming the problem): --refine 0, K beyond a layer's candidate
#    count, a calibration file made for another DRAM preset or another nmp parameter.
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
ok "refine recorded" '[ "$(jq .refine "$m")" = 3 ]'
ok "trust recorded" 'jq -e ".trust.spearman_rho and .trust.median_abs_sim_over_est_minus_1 >= 0" "$m" > /dev/null'
for i in 0 1; do
  name=$(jq -r ".convs[$i].layer" "$m")
  jq --argjson i "$i" '.layers = [.layers[$i]]' "$tmp/net.json" > "$tmp/one.json"
  best=""; best_j=-1
  for j in 0 1 2; do
    c=$(jq -c ".convs[$i].refine.candidates[$j]" "$m")
    tile=$(jq -r '.tile | map(tostring) | join(",")' <<< "$c")
    "$vp_run" "$cfg" "$tmp/one.json" --out "$tmp/c$j" --quiet --set "tso.fixed_slicing=$(jq -r .slicing <<< "$c")" \
      --set "tso.fixed_schedule=$(jq -r .schedule <<< "$c")" --set "tso.fixed_tile=$tile"
    got=$(jq '.stats.nmp.cycles.value' "$tmp/c$j/stats.json")
    rec=$(jq '.simulated_cycles' <<< "$c")
    ok "$name candidate $j: recorded cycles ($rec) == own simulation ($got)" "[ \"$rec\" = \"$got\" ]"
    if [ -z "$best" ] || awk -v a="$got" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$got; best_j=$j; fi
  done
  ok "$name: pick ($(jq .convs[$i].refine.pick "$m")) == fastest candidate ($best_j)" \
    "[ \"$(jq .convs[$i].refine.pick "$m")\" = \"$best_j\" ]"
  want=$(jq -c ".convs[$i].refine.candidates[$best_j] | [.slicing, .schedule, .tile]" "$m")
  have=$(jq -c ".convs[$i] | [.slicing, .schedule, [.tile.T_M, .tile.T_N, .tile.T_R, .tile.T_C]]" "$m")
  ok "$name: mapping uses the pick" '[ "$want" = "$have" ]'
done
ok "a2 shares a's pick" '[ "$(jq -c ".convs[0] | [.slicing, .schedule, .tile]" "$m")" = "$(jq -c ".convs[2] | [.slicing, .schedule, .tile]" "$m")" ]'

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
echo '{"name": "tiny", "precision": 8, "layers": [{"name": "fc1", "type": "fc", "in": 1, "out": 1}]}' > "$tmp/tiny.json"
bad "K beyond the candidates" 'layer \"fc1\" has only' "$vp_run" "$cfg" "$tmp/tiny.json" --out "$tmp/x" --refine 40
bad "calibration for another preset" "calibration made for dram.preset" \
  "$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/x" --set dram.preset=ddr4-2400
sed 's/^platform: nmp/platform: mesh/' "$root/configs/calibration/nmp-ddr3-1600.yaml" > "$tmp/cal_mesh.yaml"
sed "s|^\( *calibration:\).*|\1 $tmp/cal_mesh.yaml|" "$cfg" > "$tmp/cfg_mesh_cal.yaml"
bad "calibration for another platform" "calibration made for platform = mesh" \
  "$vp_map" "$tmp/cfg_mesh_cal.yaml" "$tmp/net.json"
# Another nmp section: the coefficients are advisory, a warning naming the key and both values.
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/w.json" --quiet --set nmp.dma_max_outstanding=16 2> "$tmp/e"
ok "calibration for another nmp: exit 0" '[ $? -eq 0 ]'
ok "calibration for another nmp: warning" \
  'grep -q "warning: .*calibration made for nmp.dma_max_outstanding = 8.*has nmp.dma_max_outstanding = 16" "$tmp/e"'
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/y.json" --quiet --set nmp.dma_max_outstanding=16 --set tso.calibration=none
ok "tso.calibration=none accepts any parameters" '[ $? -eq 0 ]'
ok "no output folder after a bad run" '[ ! -e "$tmp/x" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
