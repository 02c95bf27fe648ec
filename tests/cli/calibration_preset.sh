#!/usr/bin/env bash
# One calibration file per DRAM preset: the shipped nmp, mesh and vta configurations name theirs as
# calibration/<platform>-{dram.preset}.yaml, so `--set dram.preset=ddr4-2400` (a sweep over the
# preset) runs the calibrated model with the file fitted for DDR4-2400, with no warning, and the
# resolved OUT/config.yaml, the run summary and vp-map's table name that file. The estimates equal those of a run
# that names the file explicitly and differ from those without a calibration. The resolved file
# with the other preset is exit 2 naming that preset's file next to it. A preset with no file is
# exit 2 naming the file and how to write it; an unknown placeholder is exit 2 naming it;
# vp-calibrate runs on a configuration whose file does not exist yet (it writes that file), after
# which vp-run finds it.
set -u
vp_run=$1; root=$2; bindir=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
# The estimates of a run folder, one per line (nmp: simulation[]; mesh, vta: layers[]).
estimates() {
  jq -r 'if (.simulation | type) == "array" then .simulation[].estimated_cycles
         else .layers[] | (.estimated_cycles // .estimate.cycles // empty) end' "$1/mapping.json"
}
wl=$root/workloads/lenet5.json

for spec in "nmp|configs/nmp.yaml|tso" "mesh|configs/mesh-4x4.yaml|mapper" "vta|configs/vta.yaml|vta_compiler"; do
  IFS='|' read -r name cfg sec <<< "$spec"
  for p in ddr3-1600 ddr4-2400; do
    "$vp_run" "$root/$cfg" "$wl" --out "$tmp/$name.$p" --set dram.preset=$p > "$tmp/$name.$p.out" 2> "$tmp/$name.$p.err"
    ok "$name $p: exit 0" '[ $? -eq 0 ]'
    ok "$name $p: no warning" '! grep -q "warning" "$tmp/$name.$p.err"'
    ok "$name $p: config.yaml names calibration/$name-$p.yaml" \
      'grep -q "^  calibration: .*/configs/calibration/$name-$p.yaml$" "$tmp/$name.$p/config.yaml"'
    ok "$name $p: the summary names it" 'grep -q "(calibration $name-$p.yaml)" "$tmp/$name.$p.out"'
  done
  # The resolved configuration names the DDR4 file itself: another preset with it is exit 2, and
  # the message names the other preset's file next to it.
  "$vp_run" "$tmp/$name.ddr4-2400/config.yaml" "$wl" --out "$tmp/$name.r" --quiet --set dram.preset=ddr3-1600 \
    2> "$tmp/$name.r.err"
  ok "$name: config.yaml of a DDR4 run with ddr3-1600: exit 2" '[ $? -eq 2 ]'
  ok "$name: ... naming the DDR3 file next to it" \
    'grep -q "calibration made for dram.preset = ddr4-2400, but .* has dram.preset = ddr3-1600 (.*/configs/calibration/$name-ddr3-1600.yaml exists: name it, or write the path with {dram.preset}" "$tmp/$name.r.err"'
  estimates "$tmp/$name.ddr4-2400" > "$tmp/$name.ddr4.est"
  ok "$name: estimates recorded" '[ -s "$tmp/$name.ddr4.est" ]'
  "$vp_run" "$root/$cfg" "$wl" --out "$tmp/$name.explicit" --quiet --set dram.preset=ddr4-2400 \
    --set "$sec.calibration=$root/configs/calibration/$name-ddr4-2400.yaml"
  ok "$name: the same estimates as with the file named explicitly" \
    'estimates "$tmp/$name.explicit" | cmp -s - "$tmp/$name.ddr4.est"'
  "$vp_run" "$root/$cfg" "$wl" --out "$tmp/$name.none" --set dram.preset=ddr4-2400 --set "$sec.calibration=none" > "$tmp/$name.none.out"
  ok "$name: other estimates than without a calibration" '! estimates "$tmp/$name.none" | cmp -s - "$tmp/$name.ddr4.est"'
  ok "$name: ... and no calibration named in the summary" '! grep -q "(calibration " "$tmp/$name.none.out"'

  # The configuration copied without its calibration folder.
  mkdir -p "$tmp/$name.copy"
  cp "$root/$cfg" "$tmp/$name.copy/"
  copy=$tmp/$name.copy/$(basename "$cfg")
  "$vp_run" "$copy" "$wl" --out "$tmp/$name.c" --quiet 2> "$tmp/$name.c.err"
  ok "$name: no file for the preset: exit 2" '[ $? -eq 2 ]'
  ok "$name: ... naming the key with its line, the preset, the file and vp-calibrate" \
    'grep -q "$(basename "$cfg"):[0-9]*:[0-9]*: $sec.calibration: no calibration file for dram.preset = ddr3-1600: $tmp/$name.copy/calibration/$name-ddr3-1600.yaml does not exist (write it with vp-calibrate .* --set dram.preset=ddr3-1600 --out .*, or set $sec.calibration: none" "$tmp/$name.c.err"'
  "$vp_run" "$copy" "$wl" --out "$tmp/$name.c" --quiet --set "$sec.calibration=none"
  ok "$name: ... and runs with $sec.calibration=none" '[ $? -eq 0 ]'
  "$vp_run" "$copy" "$wl" --out "$tmp/$name.u" --quiet --set "$sec.calibration=cal-{dram.size}.yaml" 2> "$tmp/$name.u.err"
  ok "$name: unknown placeholder: exit 2" '[ $? -eq 2 ]'
  ok "$name: ... naming it" 'grep -q "$sec.calibration: \"cal-{dram.size}.yaml\": unknown placeholder \"{dram.size}\"" "$tmp/$name.u.err"'
done

# vp-map names the file too.
"$bindir/vp-map" "$root/configs/nmp.yaml" "$wl" --out "$tmp/m.json" --set dram.preset=ddr4-2400 > "$tmp/m.out"
ok "vp-map nmp: names the DDR4 file" 'grep -q "^calibration: .*/configs/calibration/nmp-ddr4-2400.yaml$" "$tmp/m.out"'
"$bindir/vp-map" "$root/configs/mesh-4x4.yaml" "$wl" --out "$tmp/m.json" > "$tmp/m.out"
ok "vp-map mesh: names the DDR3 file" 'grep -q "^calibration: .*/configs/calibration/mesh-ddr3-1600.yaml$" "$tmp/m.out"'
"$bindir/vp-map" "$root/configs/nmp.yaml" "$wl" --out "$tmp/m.json" --set tso.dram_model=burst > "$tmp/m.out"
ok "vp-map nmp burst: no calibration named" '! grep -q "^calibration:" "$tmp/m.out"'

# vp-calibrate writes the missing file (a design of one shape: the mechanism, not a fit), and the
# copied configuration then runs with it.
mkdir -p "$tmp/nmp.copy/calibration"
"$bindir/vp-calibrate" "$tmp/nmp.copy/nmp.yaml" --shapes 1 --jobs 2 --set dram.preset=ddr4-2400 \
  --out "$tmp/nmp.copy/calibration/nmp-ddr4-2400.yaml" > "$tmp/cal.log" 2>&1
ok "vp-calibrate without the configuration's file: exit 0" '[ $? -eq 0 ]'
ok "... made for ddr4-2400" 'grep -q "^    preset: ddr4-2400$" "$tmp/nmp.copy/calibration/nmp-ddr4-2400.yaml"'
"$vp_run" "$tmp/nmp.copy/nmp.yaml" "$wl" --out "$tmp/nmp.c4" --quiet --set dram.preset=ddr4-2400
ok "vp-run finds it" '[ $? -eq 0 ] && grep -q "calibration: $tmp/nmp.copy/calibration/nmp-ddr4-2400.yaml$" "$tmp/nmp.c4/config.yaml"'

echo "calibration_preset: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
