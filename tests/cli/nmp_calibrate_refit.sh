#!/usr/bin/env bash
# vp-calibrate --refit on an nmp config: the calibration file stores every sample's simulated
# cycles (fit.samples_simulated); a refit from it simulates nothing and gives the same
# coefficients; a sample removed from the file is simulated again with the same cycles (the
# simulation is deterministic); a file of another --seed, or one without stored samples, is
# exit 2 naming the problem. One synthetic shape (up to four two-layer simulations).
# $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
cal=$(dirname "$vp_run")/vp-calibrate
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/nmp.yaml
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
coef() { sed -n '/^coefficients:/,/^fit:/p' "$1" | grep -v '^fit:'; }
"$cal" "$cfg" --shapes 1 --out "$tmp/a.yaml" > "$tmp/a.txt" 2>&1
ok "calibration runs (exit 0)" "[ $? -eq 0 ]"
n=$(grep -c '^    - key:' "$tmp/a.yaml")
ok "the file stores its samples ($n)" "[ '$n' -ge 2 ]"
"$cal" "$cfg" --shapes 1 --refit "$tmp/a.yaml" --out "$tmp/b.yaml" > "$tmp/b.txt" 2>&1
ok "refit runs (exit 0)" "[ $? -eq 0 ]"
ok "refit of a complete file simulates nothing" "grep -q '^$n samples from .*, 0 to simulate' '$tmp/b.txt'"
ok "refit gives the same coefficients" "[ \"\$(coef '$tmp/a.yaml')\" = \"\$(coef '$tmp/b.yaml')\" ]"
# Drop the last stored sample: the refit simulates exactly that one again.
last=$(grep '^    - key:' "$tmp/a.yaml" | tail -1 | awk '{print $3}')
sim=$(grep -A1 -F "key: $last" "$tmp/a.yaml" | awk '/sim:/ {print $2}')
awk -v k="$last" 'index($0, "- key: " k) > 0 { skip = 2 } skip > 0 { skip--; next } { print }' "$tmp/a.yaml" > "$tmp/c.yaml"
ok "one sample removed" "[ $(grep -c '^    - key:' "$tmp/c.yaml") -eq $((n - 1)) ]"
"$cal" "$cfg" --shapes 1 --refit "$tmp/c.yaml" --out "$tmp/d.yaml" > "$tmp/d.txt" 2>&1
ok "refit with a missing sample runs (exit 0)" "[ $? -eq 0 ]"
ok "exactly the missing sample is simulated" "grep -q ', 1 to simulate' '$tmp/d.txt'"
sim2=$(grep -A1 -F "key: $last" "$tmp/d.yaml" | awk '/sim:/ {print $2}')
ok "its simulated cycles are the same ($sim = $sim2)" "[ -n '$sim' ] && [ '$sim' = '$sim2' ]"
ok "and so are the coefficients" "[ \"\$(coef '$tmp/a.yaml')\" = \"\$(coef '$tmp/d.yaml')\" ]"
# Bad input: exit 2 with the reason.
"$cal" "$cfg" --shapes 1 --seed 2 --refit "$tmp/a.yaml" --out "$tmp/e.yaml" > "$tmp/e.txt" 2>&1
ok "another seed is exit 2" "[ $? -eq 2 ]"
ok "... naming both seeds" "grep -q 'fit.seed = 1, but this design has --seed 2' '$tmp/e.txt'"
ok "... and writes no file" "[ ! -e '$tmp/e.yaml' ]"
sed '/samples_simulated:/,$d' "$tmp/a.yaml" > "$tmp/f.yaml"
"$cal" "$cfg" --shapes 1 --refit "$tmp/f.yaml" --out "$tmp/g.yaml" > "$tmp/g.txt" 2>&1
ok "a file without stored samples is exit 2" "[ $? -eq 2 ]"
ok "... saying so" "grep -q 'no fit.samples_simulated list' '$tmp/g.txt'"
"$cal" "$cfg" --shapes 1 --refit "$tmp/missing.yaml" --out "$tmp/h.yaml" > "$tmp/h.txt" 2>&1
ok "a missing file is exit 2" "[ $? -eq 2 ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
