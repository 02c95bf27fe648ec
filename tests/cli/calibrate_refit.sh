#!/usr/bin/env bash
# vp-calibrate --refit on a mesh and an nmp config: the samples stored in the earlier file are not
# simulated again, the ones it lacks are (a sample removed from the file comes back with the same
# simulated cycles: the simulation is deterministic), and the refit gives the same coefficients as
# the original fit. One synthetic shape each (a few small single-layer simulations). A file of
# another --seed, a sample stored for another layer under the same name, or a file without the
# samples' layer fingerprints, or a file made for another machine (another DRAM preset, another
# DMA depth) is exit 2 naming the reason; nmp also: one without stored samples.
# $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
cal=$(dirname "$vp_run")/vp-calibrate
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
coef() { sed -n '/^coefficients:/,/^fit:/p' "$1" | grep -v '^fit:'; }
for p in mesh-4x4 nmp; do
  cfg=$root/configs/$p.yaml; t=$tmp/$p; mkdir -p "$t"
  "$cal" "$cfg" --shapes 1 --out "$t/a.yaml" > "$t/a.txt" 2>&1
  ok "$p: calibration runs (exit 0)" "[ $? -eq 0 ]"
  n=$(grep -c '^    - key:' "$t/a.yaml")
  ok "$p: the file stores its samples ($n)" "[ '$n' -ge 2 ]"
  "$cal" "$cfg" --shapes 1 --refit "$t/a.yaml" --out "$t/b.yaml" > "$t/b.txt" 2>&1
  ok "$p: refit runs (exit 0)" "[ $? -eq 0 ]"
  ok "$p: refit of a complete file simulates nothing" "grep -q '  0 of them new' '$t/b.txt'"
  ok "$p: refit gives the same coefficients" "[ \"\$(coef '$t/a.yaml')\" = \"\$(coef '$t/b.yaml')\" ]"
  # Drop the last stored sample: the refit simulates exactly that one again.
  last=$(grep '^    - key:' "$t/a.yaml" | tail -1 | awk '{print $3}')
  sim=$(grep -A1 -F -x "    - key: $last" "$t/a.yaml" | awk '/sim:/ {print $2}')
  awk -v k="    - key: $last" '$0 == k { skip = 3 } skip > 0 { skip--; next } { print }' "$t/a.yaml" > "$t/c.yaml"
  ok "$p: one sample removed" "[ $(grep -c '^    - key:' "$t/c.yaml") -eq $((n - 1)) ]"
  "$cal" "$cfg" --shapes 1 --refit "$t/c.yaml" --out "$t/d.yaml" > "$t/d.txt" 2>&1
  ok "$p: refit with a missing sample runs (exit 0)" "[ $? -eq 0 ]"
  ok "$p: exactly the missing sample is simulated" "grep -q '  1 of them new' '$t/d.txt'"
  sim2=$(grep -A1 -F -x "    - key: $last" "$t/d.yaml" | awk '/sim:/ {print $2}')
  ok "$p: its simulated cycles are the same ($sim = $sim2)" "[ -n '$sim' ] && [ '$sim' = '$sim2' ]"
  ok "$p: and so are the coefficients" "[ \"\$(coef '$t/a.yaml')\" = \"\$(coef '$t/d.yaml')\" ]"
done
# Bad input: exit 2 with the reason, no file written.
for p in mesh-4x4 nmp; do
  cfg=$root/configs/$p.yaml; t=$tmp/$p
  "$cal" "$cfg" --shapes 1 --seed 2 --refit "$t/a.yaml" --out "$t/e.yaml" > "$t/e.txt" 2>&1
  ok "$p: another seed is exit 2" "[ $? -eq 2 ]"
  ok "$p: ... naming both seeds" "grep -q 'fit.seed = 1, but this design has --seed 2' '$t/e.txt'"
  ok "$p: ... and writes no file" "[ ! -e '$t/e.yaml' ]"
  # A stored sample whose layer fingerprint is not this design's layer under that name (a file
  # of another version of the design): exit 2, not its cycles.
  sed '0,/^      shape: /s/^      shape: .*/      shape: 0123456789abcdef/' "$t/a.yaml" > "$t/s.yaml"
  "$cal" "$cfg" --shapes 1 --refit "$t/s.yaml" --out "$t/s2.yaml" > "$t/s.txt" 2>&1
  ok "$p: a sample of another layer is exit 2" "[ $? -eq 2 ]"
  ok "$p: ... naming both fingerprints" "grep -q 'was simulated on another layer (shape 0123456789abcdef)' '$t/s.txt'"
  ok "$p: ... and writes no file" "[ ! -e '$t/s2.yaml' ]"
  # A file made for another machine: its cycles are not this configuration's (before, they were
  # refitted without a word into a file labelled with this configuration).
  "$cal" "$cfg" --shapes 1 --set dram.preset=ddr4-2400 --refit "$t/a.yaml" --out "$t/p.yaml" > "$t/p.txt" 2>&1
  ok "$p: a file of another DRAM preset is exit 2" "[ \$? -eq 2 ]"
  ok "$p: ... naming the key and both values" \
    "grep -q 'made for dram.preset = ddr3-1600, but this configuration has dram.preset = ddr4-2400: its simulated cycles are another machine' '$t/p.txt'"
  ok "$p: ... and writes no file" "[ ! -e '$t/p.yaml' ]"
  case $p in nmp) other=nmp.dma_max_outstanding; v=16 ;; *) other=core.dma_max_outstanding; v=2 ;; esac
  "$cal" "$cfg" --shapes 1 --set "$other=$v" --refit "$t/a.yaml" --out "$t/q.yaml" > "$t/q.txt" 2>&1
  ok "$p: a file of another $other is exit 2 naming it" "[ \$? -eq 2 ] && grep -q 'made for $other = .*, but this configuration has $other = $v' '$t/q.txt'"
  grep -v '^      shape: ' "$t/a.yaml" > "$t/o.yaml"
  "$cal" "$cfg" --shapes 1 --refit "$t/o.yaml" --out "$t/o2.yaml" > "$t/o.txt" 2>&1
  ok "$p: a file without fingerprints is exit 2 saying so" "[ $? -eq 2 ] && grep -q 'has no shape fingerprint' '$t/o.txt'"
done
t=$tmp/nmp; cfg=$root/configs/nmp.yaml
sed '/samples_simulated:/,$d' "$t/a.yaml" > "$t/f.yaml"
"$cal" "$cfg" --shapes 1 --refit "$t/f.yaml" --out "$t/g.yaml" > "$t/g.txt" 2>&1
ok "nmp: a file without stored samples is exit 2" "[ $? -eq 2 ]"
ok "nmp: ... saying so" "grep -q 'no fit.samples_simulated list' '$t/g.txt'"
"$cal" "$cfg" --shapes 1 --refit "$t/missing.yaml" --out "$t/h.yaml" > "$t/h.txt" 2>&1
ok "nmp: a missing file is exit 2" "[ $? -eq 2 ]"
# A file that cannot be used stops before the run is announced (as on mesh): no "N single-layer
# simulations" line above the error.
ok "nmp: ... before announcing the simulations" "! grep -q 'single-layer simulations' '$t/g.txt' && ! grep -q 'single-layer simulations' '$t/h.txt'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
