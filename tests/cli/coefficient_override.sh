#!/usr/bin/env bash
# A coefficient written in the configuration (or given with --set) while a calibration file is in
# use replaces that file's value, on nmp (tso.coefficients), mesh (mapper.coefficients) and vta
# (vta_compiler.coefficients): the estimate changes, a warning names the key, its value and the
# file's; the file's other coefficients stay. A value equal to the file's changes nothing (no
# warning, byte-identical outputs); re-running the resolved OUT/config.yaml, which lists every
# coefficient, gives the same statistics and names only the key that differs from the file. A bad
# value is exit 2 naming the key, and so is a set value that breaks a constraint with one of the
# file's. (Before, such keys were dropped silently whenever a calibration file was loaded.)
set -u
vp_run=$1; root=$2; vp_map=$3/vp-map; py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
# file_value FILE KEY: the coefficient KEY of a calibration file, as written there.
file_value() { sed -n "s/^ *$2: *\([^ ]*\)$/\1/p" "$1" | head -1; }

# nmp and mesh: vp-map's mapping.json.
for spec in "nmp|configs/nmp.yaml|tso|bus_scale|configs/calibration/nmp-ddr3-1600.yaml" \
            "mesh|configs/mesh-4x4.yaml|mapper|pg_bus|configs/calibration/mesh-ddr3-1600.yaml"; do
  IFS='|' read -r name cfg sec key calib <<< "$spec"
  own=$(file_value "$root/$calib" "$key")
  ok "$name: the file has $key" '[ -n "$own" ]'
  "$vp_map" "$root/$cfg" "$root/workloads/lenet5.json" --out "$tmp/$name.base.json" --quiet 2> "$tmp/$name.base.err"
  ok "$name: default run exit 0" '[ $? -eq 0 ]'
  ok "$name: no warning without the key" '! grep -q "coefficients" "$tmp/$name.base.err"'
  "$vp_map" "$root/$cfg" "$root/workloads/lenet5.json" --out "$tmp/$name.set.json" --quiet \
    --set "$sec.coefficients.$key=2.5" 2> "$tmp/$name.set.err"
  ok "$name: --set run exit 0" '[ $? -eq 0 ]'
  ok "$name: the warning names the key, both values and the file" \
    'grep -q "$sec.coefficients.$key = 2.5 replaces the file.s $own (calibration file .*$(basename "$calib"))" "$tmp/$name.set.err"'
  ok "$name: the estimate changes" '! cmp -s "$tmp/$name.base.json" "$tmp/$name.set.json"'
  "$vp_map" "$root/$cfg" "$root/workloads/lenet5.json" --out "$tmp/$name.same.json" --quiet \
    --set "$sec.coefficients.$key=$own" 2> "$tmp/$name.same.err"
  ok "$name: the file's own value: no warning" '! grep -q "coefficients" "$tmp/$name.same.err"'
  ok "$name: the file's own value: the same mapping" 'cmp -s "$tmp/$name.base.json" "$tmp/$name.same.json"'
  "$vp_map" "$root/$cfg" "$root/workloads/lenet5.json" --out "$tmp/$name.bad.json" --quiet \
    --set "$sec.coefficients.$key=-1" 2> "$tmp/$name.bad.err"
  ok "$name: a negative value is exit 2" '[ $? -eq 2 ]'
  ok "$name: ... naming the key" 'grep -q "$sec.coefficients.$key" "$tmp/$name.bad.err"'
done

# A key of another model's set: replaced all the same, the warning says which set the model takes,
# and phased-pages (which takes pg_tail for its tail) gives the same mapping with ph_tail changed.
"$vp_map" "$root/configs/mesh-4x4.yaml" "$root/workloads/lenet5.json" --out "$tmp/otherset.json" --quiet \
  --set mapper.coefficients.ph_tail=0.9 2> "$tmp/otherset.err"
ok "mesh: another set's key: exit 0" '[ $? -eq 0 ]'
ok "mesh: ... the warning names the set the model takes" \
  'grep -q "ph_tail = 0.9 replaces the file.s .*(a coefficient of the ph_\* set; mesh_model phased-pages takes the pg_\* set)" "$tmp/otherset.err"'
ok "mesh: ... and the mapping is the default one" 'cmp -s "$tmp/mesh.base.json" "$tmp/otherset.json"'
"$vp_map" "$root/configs/mesh-4x4.yaml" "$root/workloads/lenet5.json" --out "$tmp/ownset.json" --quiet \
  --set mapper.mesh_model=queueing --set mapper.coefficients.mva_bus_scale=2 2> "$tmp/ownset.err"
ok "mesh: the chosen model's own set: no set note" '! grep -q "a coefficient of the" "$tmp/ownset.err" && grep -q "mva_bus_scale = 2 replaces" "$tmp/ownset.err"'

# The combination is checked: pg_tail_full (8.1 in the file) must stay above a pg_tail_from set to 10.
"$vp_map" "$root/configs/mesh-4x4.yaml" "$root/workloads/lenet5.json" --out "$tmp/combo.json" --quiet \
  --set mapper.coefficients.pg_tail_from=10 2> "$tmp/combo.err"
ok "mesh: a set value that breaks a file's value is exit 2" '[ $? -eq 2 ]'
ok "mesh: ... naming both keys and the file" \
  'grep -q "pg_tail_full: .* above pg_tail_from (10.*calibration file .*mesh-ddr3-1600.yaml" "$tmp/combo.err"'

# mesh: the resolved configuration holds the set value and the file's others (what the model ran
# with).
"$vp_run" "$root/configs/mesh-4x4.yaml" "$root/workloads/lenet5.json" --out "$tmp/mesh.run" --quiet \
  --set mapper.coefficients.pg_tail=0.5 2> "$tmp/mesh.run.err"
ok "mesh run: exit 0" '[ $? -eq 0 ]'
ok "mesh run: the resolved config has the set value and the file's others" \
  '$py - "$tmp/mesh.run/config.yaml" "$root/configs/calibration/mesh-ddr3-1600.yaml" <<'"'"'PY'"'"'
import sys, yaml
run = yaml.safe_load(open(sys.argv[1]))["mapper"]["coefficients"]
cal = yaml.safe_load(open(sys.argv[2]))["coefficients"]
sys.exit(not (run["pg_tail"] == 0.5 and run["pg_collide"] == cal["pg_collide"] and run["pg_bus"] == cal["pg_bus"]))
PY'
# Re-running the resolved configuration: every coefficient is written there, as it ran.
"$vp_run" "$tmp/mesh.run/config.yaml" "$root/workloads/lenet5.json" --out "$tmp/mesh.rerun" --quiet 2> "$tmp/mesh.rerun.err"
ok "mesh rerun: exit 0" '[ $? -eq 0 ]'
ok "mesh rerun: the warning names pg_tail alone (the others written equal the file's)" \
  '[ "$(grep -o "replaces" "$tmp/mesh.rerun.err" | wc -l)" -eq 1 ] && grep -q "mapper.coefficients.pg_tail = 0.5 replaces the file.s" "$tmp/mesh.rerun.err"'
ok "mesh rerun: the same statistics" \
  '$py -c "import json,sys; a,b=(json.load(open(f))[\"stats\"] for f in sys.argv[1:]); sys.exit(a!=b)" "$tmp/mesh.run/stats.json" "$tmp/mesh.rerun/stats.json"'

# vta: vp-run (no stand-alone mapper); mapping.json records the estimate's coefficients.
own=$(file_value "$root/configs/calibration/vta-ddr3-1600.yaml" bus_scale)
"$vp_run" "$root/configs/vta.yaml" "$root/workloads/lenet5.json" --out "$tmp/vta.base" --quiet 2> "$tmp/vta.base.err"
ok "vta: default run exit 0" '[ $? -eq 0 ]'
"$vp_run" "$root/configs/vta.yaml" "$root/workloads/lenet5.json" --out "$tmp/vta.set" --quiet \
  --set vta_compiler.coefficients.bus_scale=3 2> "$tmp/vta.set.err"
ok "vta: --set run exit 0" '[ $? -eq 0 ]'
ok "vta: the warning" 'grep -q "vta_compiler.coefficients.bus_scale = 3 replaces the file.s $own" "$tmp/vta.set.err"'
ok "vta: mapping.json has the set value" \
  '$py -c "import json,sys; m=json.load(open(sys.argv[1])); sys.exit(m[\"estimate_coefficients\"][\"bus_scale\"] != 3)" "$tmp/vta.set/mapping.json"'
ok "vta: the estimate changes" \
  '$py -c "import json,sys; a,b=(json.load(open(f))[\"trust\"] for f in sys.argv[1:]); sys.exit(a==b)" "$tmp/vta.base/mapping.json" "$tmp/vta.set/mapping.json"'

echo "coefficient_override: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
