#!/usr/bin/env bash
# VTA platform end to end through vp-run: LeNet-5 (network) and a VTA IR program run with exit
# code 0 and write mapping.json (one entry per program with estimated/simulated cycles) and
# outputs/<name>.bin + outputs/manifest.json whose sizes match the shapes; two runs with the
# same seed give identical outputs, another seed different ones.
# Args: $1 = vp-run, $2 = source root.
set -u
vp_run=$1; root=$2
cfg=$root/configs/vta.yaml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }
run() { "$vp_run" "$cfg" "$@" --quiet || err "vp-run $* exited with $?"; }
run "$root/workloads/lenet5_full.json" --out "$tmp/a"
run "$root/workloads/lenet5_full.json" --out "$tmp/b"
run "$root/workloads/lenet5_full.json" --out "$tmp/c" --seed 99
run "$root/workloads/vta/matmul_16x16.json" --out "$tmp/ir"
for f in mapping.json outputs/manifest.json outputs/OUT.bin stats.json; do [ -s "$tmp/a/$f" ] || err "missing $f"; done
[ "$(stat -c %s "$tmp/a/outputs/OUT.bin" 2>/dev/null)" = 10 ] || err "OUT.bin is not 10 bytes (fc 84 -> 10)"
grep -q '"shape": \[' "$tmp/a/outputs/manifest.json" && grep -q '"dtype": "int8"' "$tmp/a/outputs/manifest.json" || err "manifest fields"
n=$(jq ".programs | length" "$tmp/a/mapping.json"); [ "$n" = 7 ] || err "mapping.json has $n programs, expected 7"
grep -q '"estimated_cycles"' "$tmp/a/mapping.json" && grep -q '"ratio"' "$tmp/a/mapping.json" || err "mapping.json lacks estimate/ratio"
cmp -s "$tmp/a/outputs/OUT.bin" "$tmp/b/outputs/OUT.bin" || err "same seed, different outputs"
cmp -s "$tmp/a/outputs/OUT.bin" "$tmp/c/outputs/OUT.bin" && err "different seeds, identical outputs"
ls "$tmp/ir/outputs/"*.bin >/dev/null 2>&1 || err "IR run wrote no output"
[ "$(cat "$tmp/ir/outputs/"*.bin | wc -c)" = 256 ] || err "IR output is not 16x16 int8"
[ $fail -eq 0 ] && echo "vta outputs: all checks passed"
[ $fail -eq 0 ]
