#!/usr/bin/env bash
# vp-calibrate --refit on a mesh config: the samples stored in the earlier file are not simulated
# again, the ones it lacks are (a sample removed from the file comes back with the same simulated
# cycles: the simulation is deterministic), and the refit gives the same coefficients as the
# original fit. One synthetic shape (two small single-layer simulations). $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
cal=$(dirname "$vp_run")/vp-calibrate
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$root/configs/mesh-4x4.yaml
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
coef() { sed -n '/^coefficients:/,/^fit:/p' "$1" | grep -v '^fit:'; }
"$cal" "$cfg" --shapes 1 --out "$tmp/a.yaml" > "$tmp/a.txt" 2>&1
ok "calibration runs (exit 0)" "[ $? -eq 0 ]"
n=$(grep -c '^    - key:' "$tmp/a.yaml")
ok "the file stores its samples ($n)" "[ '$n' -ge 2 ]"
"$cal" "$cfg" --shapes 1 --refit "$tmp/a.yaml" --out "$tmp/b.yaml" > "$tmp/b.txt" 2>&1
ok "refit runs (exit 0)" "[ $? -eq 0 ]"
ok "refit of a complete file simulates nothing" "grep -q '  0 of them new' '$tmp/b.txt'"
ok "refit gives the same coefficients" "[ \"\$(coef '$tmp/a.yaml')\" = \"\$(coef '$tmp/b.yaml')\" ]"
# Drop the last stored sample: the refit simulates exactly that one again.
last=$(grep '^    - key:' "$tmp/a.yaml" | tail -1 | awk '{print $3}')
sim=$(grep -A1 "key: $last\$" "$tmp/a.yaml" | awk '/sim:/ {print $2}')
awk -v k="$last" '$0 ~ "- key: " k "$" { skip = 2 } skip > 0 { skip--; next } { print }' "$tmp/a.yaml" > "$tmp/c.yaml"
ok "one sample removed" "[ $(grep -c '^    - key:' "$tmp/c.yaml") -eq $((n - 1)) ]"
"$cal" "$cfg" --shapes 1 --refit "$tmp/c.yaml" --out "$tmp/d.yaml" > "$tmp/d.txt" 2>&1
ok "refit with a missing sample runs (exit 0)" "[ $? -eq 0 ]"
ok "exactly the missing sample is simulated" "grep -q '  1 of them new' '$tmp/d.txt'"
sim2=$(grep -A1 "key: $last\$" "$tmp/d.yaml" | awk '/sim:/ {print $2}')
ok "its simulated cycles are the same ($sim = $sim2)" "[ -n '$sim' ] && [ '$sim' = '$sim2' ]"
ok "and so are the coefficients" "[ \"\$(coef '$tmp/a.yaml')\" = \"\$(coef '$tmp/d.yaml')\" ]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
