#!/usr/bin/env bash
# Placement of unequal blocks on the mesh (mapper.placement, docs/mesh.md "Placement of unequal
# blocks"): SqueezeNet 1.0's conv1 alone on mesh-4x4 with (T_of, T_ox, k) = (48, 32, 6) has two
# blocks of 1.47 slices and four of one. By route share the two heavy blocks run on (2,0) and (3,0)
# (a 1/4 share of the DRAM interface each), in the waving order on (1,1) and (2,1) (1/12 each), and
# the simulator, which shares no code with the placement's fluid model, runs the first faster.
# Equal blocks, another routing and bad values keep or refuse as documented.
# $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
py=/usr/bin/python3
"$py" -c "
import json; w = json.load(open('$root/workloads/squeezenet1_0.json')); w['layers'] = w['layers'][:1]
json.dump(w, open('$tmp/stem.json', 'w'))"
cfg=$root/configs/mesh-4x4.yaml
field() {  # field OUT EXPR: a Python expression over the first layer l of OUT/mapping.json
  "$py" -c "import json; l = json.load(open('$1/mapping.json'))['layers'][0]; print($2)"
}
heavy='sorted((c["x"], c["y"]) for c in l["cores"] if c["cycles_wo_dram"] == max(d["cycles_wo_dram"] for d in l["cores"]))'
"$vp_run" "$cfg" "$tmp/stem.json" --out "$tmp/share" --quiet --set mapper.fixed_slices=48,32,6 > /dev/null 2>&1
ok "route share: runs (exit 0)" "[ $? -eq 0 ]"
"$vp_run" "$cfg" "$tmp/stem.json" --out "$tmp/wave" --quiet --set mapper.fixed_slices=48,32,6 --set mapper.placement=waving > /dev/null 2>&1
ok "waving: runs (exit 0)" "[ $? -eq 0 ]"
ok "route share: mapping.json says so" "[ \"\$(field $tmp/share 'l[\"placement\"]')\" = route-share ]"
ok "waving: mapping.json says so" "[ \"\$(field $tmp/wave 'l[\"placement\"]')\" = waving ]"
ok "route share: the heavy blocks on (2,0) and (3,0)" "[ \"\$(field $tmp/share '$heavy')\" = '[(2, 0), (3, 0)]' ]"
ok "waving: the heavy blocks on (1,1) and (2,1)" "[ \"\$(field $tmp/wave '$heavy')\" = '[(1, 1), (2, 1)]' ]"
ok "the same blocks either way" "[ \"\$(field $tmp/share 'sorted(c[\"slices\"] for c in l[\"cores\"])')\" = \"\$(field $tmp/wave 'sorted(c[\"slices\"] for c in l[\"cores\"])')\" ]"
a=$(field "$tmp/share" 'int(l["simulation"]["cycles"])'); b=$(field "$tmp/wave" 'int(l["simulation"]["cycles"])')
ok "the simulation runs route share at least 10 % faster ($a against $b cycles)" "[ \$((a * 10)) -lt \$((b * 9)) ]"
# Equal blocks (8 slices on 8 cores: one each): the waving order.
"$vp_run" "$cfg" "$tmp/stem.json" --out "$tmp/eq" --quiet --set mapper.fixed_slices=48,32,8 > /dev/null 2>&1
ok "equal blocks: waving" "[ \"\$(field $tmp/eq 'l[\"placement\"]')\" = waving ]"
# The fluid model follows XY routes: another routing keeps the waving order.
"$vp_run" "$cfg" "$tmp/stem.json" --out "$tmp/wf" --quiet --set mapper.fixed_slices=48,32,6 --set noc.routing=west_first > /dev/null 2>&1
ok "west-first routing: runs (exit 0)" "[ $? -eq 0 ]"
ok "west-first routing: waving" "[ \"\$(field $tmp/wf 'l[\"placement\"]')\" = waving ]"
# Bad value: exit 2 naming the key and the choices.
"$vp_run" "$cfg" "$tmp/stem.json" --out "$tmp/bad" --quiet --set mapper.placement=nearest > "$tmp/bad.txt" 2>&1
ok "bad placement: exit 2" "[ $? -eq 2 ]"
ok "bad placement: the message names the key and the choices" "grep -q 'mapper.placement' '$tmp/bad.txt' && grep -q 'route-share' '$tmp/bad.txt'"
ok "bad placement: no output folder left as complete" "[ ! -f '$tmp/bad/mapping.json' ]"
echo "mesh_placement: $pass passed, $fail failed"
[ $fail -eq 0 ]
