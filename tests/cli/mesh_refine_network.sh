#!/usr/bin/env bash
# Whole-network refinement of the mesh (platform/refine/mesh_refine.cpp, network_check), checked
# by this script's own full-network simulations, which share no code with the refinement:
#  * vp-run --refine 3 on LeNet-Caffe (mesh-4x4): the recorded refined and unrefined network
#    cycles equal this script's full runs of the mapping as used (mapper.fixed_layers from the
#    mapping's choices) and of the unrefined mapping (vp-run without refinement), per layer;
#  * no layer whose used choice differs from the unrefined one is slower in the network (the
#    fixed point of the reverting rounds), and the kept mapping is not slower as a whole;
#  * the run itself reproduces the kept figure;
#  * mapper.fixed_layers maps the named layers exactly (vp-map) and leaves the others searched.
set -u
vp_run=$1; root=$2; bindir=$3
vp_map=$bindir/vp-map
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/mesh-4x4.yaml
net=$root/workloads/lenet_caffe.json
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }

"$vp_run" "$cfg" "$net" --out "$tmp/r" --quiet --refine 3 --set sim.threads=2
ok "vp-run --refine 3 exit 0" '[ $? -eq 0 ]'
m=$tmp/r/mapping.json
ok "network check recorded" 'jq -e ".refine_network.refined_cycles > 0 and .refine_network.unrefined_cycles > 0" "$m" > /dev/null'
ok "kept mapping not slower" \
  'jq -e ".refine_network | if .kept == \"refined\" then .refined_cycles <= .unrefined_cycles else .unrefined_cycles < .refined_cycles end" "$m" > /dev/null'
ok "the run reproduces the kept figure" \
  '[ "$(jq ".refine_network | if .kept == \"refined\" then .refined_cycles else .unrefined_cycles end" "$m")" = "$(jq .stats.mesh.cycles.value "$tmp/r/stats.json")" ]'
ok "fixed point reached" '[ "$(jq .refine_network.fixed_point "$m")" = true ]'

# This script's own full simulations: the unrefined mapping, and the mapping as used.
"$vp_run" "$cfg" "$net" --out "$tmp/n0" --quiet
used_set=$(jq -r '[.layers[] | select(.refine) | "\(.name)=\(.slices.T_of),\(.slices.T_ox),\(.k)"] | join(";")' "$m")
"$vp_run" "$cfg" "$net" --out "$tmp/nu" --quiet --set "mapper.fixed_layers=$used_set"
ok "own runs exit 0" '[ -s "$tmp/n0/stats.json" ] && [ -s "$tmp/nu/stats.json" ]'
ok "own run of the used mapping == the refined run" \
  '[ "$(jq .stats.mesh.cycles.value "$tmp/nu/stats.json")" = "$(jq .stats.mesh.cycles.value "$tmp/r/stats.json")" ]'
n=$(jq '.layers | length' "$m")
for ((i = 0; i < n; i++)); do
  [ "$(jq ".layers[$i].refine != null" "$m")" = true ] || continue
  name=$(jq -r ".layers[$i].name" "$m")
  c0=$(jq ".layers[] | select(.name == \"$name\") | .simulation.cycles" "$tmp/n0/mapping.json")
  cu=$(jq ".layers[] | select(.name == \"$name\") | .simulation.cycles" "$tmp/nu/mapping.json")
  ok "$name: recorded unrefined network cycles == own run ($c0)" \
    "[ \"$(jq ".layers[$i].refine.network_cycles.unrefined" "$m")\" = \"$c0\" ]"
  if [ "$(jq -r .refine_network.kept "$m")" = refined ]; then
    ok "$name: recorded refined network cycles == own run ($cu)" \
      "[ \"$(jq ".layers[$i].refine.network_cycles.refined" "$m")\" = \"$cu\" ]"
  fi
  if [ "$(jq ".layers[$i].refine.used" "$m")" != 0 ]; then
    ok "$name: changed layer not slower in the network ($cu vs $c0)" "awk -v a=$cu -v b=$c0 'BEGIN { exit !(a <= b) }'"
  fi
done

# mapper.fixed_layers: the named layer gets exactly that choice, the others their search.
"$vp_map" "$cfg" "$net" --out "$tmp/m0.json" --quiet
first=$(jq -r '[.layers[] | select(.mapped != false and .k != null)][0].name' "$tmp/m0.json")
# Another k than the search's (1, or 2 when the search took 1) with the same slices.
cand=$(jq -r ".layers[] | select(.name == \"$first\") | \"\(.slices.T_of),\(.slices.T_ox),\(if .k == 1 then 2 else 1 end)\"" "$tmp/m0.json")
"$vp_map" "$cfg" "$net" --out "$tmp/m1.json" --quiet --set "mapper.fixed_layers=$first=$cand"
ok "fixed_layers: $first mapped with $cand" \
  '[ "$(jq -r ".layers[] | select(.name == \"$first\") | \"\(.slices.T_of),\(.slices.T_ox),\(.k)\"" "$tmp/m1.json")" = "$cand" ]'
ok "fixed_layers: the other layers as searched" \
  '[ "$(jq -c "[.layers[] | select(.name != \"$first\") | [.slices, .k]]" "$tmp/m1.json")" = "$(jq -c "[.layers[] | select(.name != \"$first\") | [.slices, .k]]" "$tmp/m0.json")" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
