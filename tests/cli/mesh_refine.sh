#!/usr/bin/env bash
# Mesh simulation in the loop and the mesh calibration file, end to end on a small network:
#  * vp-run --refine 3 on mesh-4x4: for every distinct layer shape, the pick is the fastest of
#    its 3 (T, k) candidates when THIS SCRIPT simulates each candidate on its own (a single-layer
#    workload and mapper.fixed_slices, a separate vp-run per candidate); the recorded simulated
#    cycles equal those runs; the unrefined pick is candidate 0; layers of the same shape share
#    the pick; the mapping uses it; trust figures are present;
#  * vp-map --refine 3 records the same picks;
#  * K beyond a layer's candidate count simulates all of them, beyond every layer's is exit 2; a graph with a batch; vp-map
#    --refine of a network without conv/fc layers;
#  * bad input (exit 2, message naming the problem): --refine 0, a calibration file made for
#    another platform (the nmp file) or another DRAM preset, an unknown time model, a malformed or impossible mapper.fixed_slices.
set -u
vp_run=$1; root=$2; bindir=$3
vp_map=$bindir/vp-map
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/mesh-4x4.yaml
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }

cat > "$tmp/net.json" <<'JSON'
{"name": "mesh_refine_cli", "layers": [
  {"name": "a", "type": "conv", "C": 8, "K": 32, "H": 20, "W": 36, "R": 3, "S": 3, "stride": 1, "pad": 1},
  {"name": "b", "type": "conv", "C": 32, "K": 16, "H": 20, "W": 36, "R": 1, "S": 1, "stride": 2, "pad": 0},
  {"name": "a2", "type": "conv", "C": 8, "K": 32, "H": 20, "W": 36, "R": 3, "S": 3, "stride": 1, "pad": 1}]}
JSON
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/map0.json" --quiet
ok "vp-map without refinement: trust null" '[ "$(jq .trust "$tmp/map0.json")" = null ]'
"$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/r" --quiet --refine 3 --set sim.threads=2
ok "vp-run --refine 3 exit 0" '[ $? -eq 0 ]'
m=$tmp/r/mapping.json
ok "refine recorded" '[ "$(jq .refine "$m")" = 3 ]'
ok "trust recorded" 'jq -e ".trust.spearman_rho != null and .trust.median_abs_sim_over_est_minus_1 >= 0 and .trust.simulated_candidates == 6" "$m" > /dev/null'
for i in 0 1; do
  name=$(jq -r ".layers[$i].name" "$m")
  ok "$name: the unrefined pick is candidate 0" \
    '[ "$(jq -c ".layers[$i].refine.candidates[0] | [.T_of, .T_ox, .k]" "$m")" = "$(jq -c ".layers[$i] | [.slices.T_of, .slices.T_ox, .k]" "$tmp/map0.json")" ]'
  jq --argjson i "$i" '.layers = [.layers[$i]]' "$tmp/net.json" > "$tmp/one.json"
  best=""; best_j=-1
  for j in 0 1 2; do
    c=$(jq -c ".layers[$i].refine.candidates[$j]" "$m")
    "$vp_run" "$cfg" "$tmp/one.json" --out "$tmp/c$j" --quiet \
      --set "mapper.fixed_slices=$(jq -r '[.T_of, .T_ox, .k] | map(tostring) | join(",")' <<< "$c")"
    got=$(jq '.stats.mesh.cycles.value' "$tmp/c$j/stats.json")
    rec=$(jq '.simulated_cycles' <<< "$c")
    ok "$name candidate $j: recorded cycles ($rec) == own simulation ($got)" "[ \"$rec\" = \"$got\" ]"
    if [ -z "$best" ] || awk -v a="$got" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$got; best_j=$j; fi
  done
  ok "$name: pick ($(jq .layers[$i].refine.pick "$m")) == fastest candidate ($best_j)" \
    "[ \"$(jq .layers[$i].refine.pick "$m")\" = \"$best_j\" ]"
  used=$(jq ".layers[$i].refine.used" "$m")
  if [ "$(jq -r .refine_network.kept "$m")" = refined ] && [ "$(jq ".layers[$i].refine.reverted // false" "$m")" != true ]; then
    ok "$name: the refined network uses the pick" "[ \"$used\" = \"$best_j\" ]"
  else
    ok "$name: reverted or unrefined network kept: candidate 0 used" "[ \"$used\" = 0 ]"
  fi
  want=$(jq -c ".layers[$i].refine.candidates[$used] | [.T_of, .T_ox, .k]" "$m")
  have=$(jq -c ".layers[$i] | [.slices.T_of, .slices.T_ox, .k]" "$m")
  ok "$name: mapping uses the used candidate" '[ "$want" = "$have" ]'
done
ok "a2 shares a's pick" '[ "$(jq -c ".layers[0] | [.slices, .k]" "$m")" = "$(jq -c ".layers[2] | [.slices, .k]" "$m")" ]'

"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/map.json" --quiet --refine 3
ok "vp-map --refine 3 exit 0" '[ $? -eq 0 ]'
ok "vp-map picks == vp-run picks" \
  '[ "$(jq -c "[.layers[].refine.pick]" "$tmp/map.json")" = "$(jq -c "[.layers[].refine.pick]" "$m")" ]'
ok "vp-map used == vp-run used" \
  '[ "$(jq -c "[.layers[].refine.used]" "$tmp/map.json")" = "$(jq -c "[.layers[].refine.used]" "$m")" ]'
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/paper.json" --quiet --set mapper.mesh_model=paper
ok "paper model named in mapping.json" '[ "$(jq -r .time_model "$tmp/paper.json")" = paper ]'
ok "phased-pages model is the default" '[ "$(jq -r .time_model "$tmp/map0.json")" = phased-pages ]'

bad() {  # bad NAME PATTERN CMD...
  local name=$1 pat=$2; shift 2
  "$@" > "$tmp/o" 2> "$tmp/e"; local rc=$?
  ok "$name: exit 2 (got $rc)" "[ $rc -eq 2 ]"
  ok "$name: message" "grep -q -- \"$pat\" \"$tmp/e\""
}
bad "--refine 0" "expected a number of candidates K >= 1" "$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/x" --refine 0
bad "vp-map --refine -1" "expected a number of candidates K >= 1" "$vp_map" "$cfg" "$tmp/net.json" --refine -1
. "$root/tests/cli/lib/refine_random_cases.sh"
refine_random_cases .layers '{"name": "fc1", "type": "fc", "in": 16, "out": 8}' 3 1
bad "calibration for another platform" "calibration made for platform = nmp" \
  "$vp_map" "$cfg" "$tmp/net.json" --set "mapper.calibration=$root/configs/calibration/nmp-ddr3-1600.yaml"
bad "calibration for another preset" "calibration made for dram.preset" \
  "$vp_run" "$cfg" "$tmp/net.json" --out "$tmp/x" --set dram.preset=ddr4-2400 \
  --set "mapper.calibration=$root/configs/calibration/mesh-ddr3-1600.yaml"
grep -v '^  pg_' "$root/configs/calibration/mesh-ddr3-1600.yaml" > "$tmp/cal_before_pages.yaml"
bad "calibration without the pg_* coefficients" "no pg_\* coefficients for mapper.mesh_model phased-pages" \
  "$vp_map" "$cfg" "$tmp/net.json" --set "mapper.calibration=$tmp/cal_before_pages.yaml"
ok "the same file serves phased-engine" \
  '"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/eng.json" --quiet --set "mapper.calibration=$tmp/cal_before_pages.yaml" --set mapper.mesh_model=phased-engine'
bad "unknown time model" 'unknown cost model \"fast\" (known: calibrated, paper, phased, phased-engine, phased-pages, phased-serial, phased-slices, queueing)' \
  "$vp_map" "$cfg" "$tmp/net.json" --set mapper.mesh_model=fast
bad "malformed fixed_layers" "mapper.fixed_layers: expected none or" \
  "$vp_map" "$cfg" "$tmp/net.json" --set "mapper.fixed_layers=a=8,16"
bad "fixed_layers: unknown layer" 'no layer named \"zz\"' \
  "$vp_map" "$cfg" "$tmp/net.json" --set "mapper.fixed_layers=zz=8,16,1"
bad "malformed fixed_slices" "mapper.fixed_slices: expected none or three positive integers" \
  "$vp_map" "$cfg" "$tmp/net.json" --set mapper.fixed_slices=8,16
bad "impossible fixed_slices" "is not a slice set of this layer" \
  "$vp_map" "$cfg" "$tmp/net.json" --set mapper.fixed_slices=9,16,1
bad "near_tie out of range" "mapper.near_tie: expected a fraction in \[0, 0.1\]" \
  "$vp_map" "$cfg" "$tmp/net.json" --set mapper.near_tie=0.2
bad "negative near_tie" "mapper.near_tie: expected a fraction in \[0, 0.1\]" \
  "$vp_map" "$cfg" "$tmp/net.json" --set mapper.near_tie=-0.01
"$vp_map" "$cfg" "$tmp/net.json" --out "$tmp/y.json" --quiet --set dram.preset=ddr4-2400 --set mapper.calibration=none
ok "mapper.calibration=none accepts any parameters" '[ $? -eq 0 ]'
ok "no output folder after a bad run" '[ ! -e "$tmp/x" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
