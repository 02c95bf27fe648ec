#!/usr/bin/env bash
# Dilated convolutions end to end: a workload of dilated convs (dilation 2, 2 x 3, with stride 2,
# a depthwise one) runs on nmp and mesh-4x4 (exit 0: the platforms' own invariants hold), the
# MACs the simulations executed equal the convolution's MACs computed here from the definition
# (taps x outputs, the output size from the dilated window), the mapping reports carry the
# dilation, the VTA runs it (im2row; its values are checked against the reference in the VTA's unit
# tests), and vp-import writes it back. An ASPP
# branch at 16 bit (dilation 36: a 73 x 73 window, 10.7 kB, on a 16 x 16 map) runs on nmp, whose
# 8 kB MB0 holds what a tile loads: the window's part inside the map.
# Args: $1 = vp-run, $2 = source root, $3 = folder of the tools.
set -u
vp_run=$1; root=$2; bindir=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $*"; }
cat > "$tmp/dil.json" <<'JSON'
{"name": "dilated", "precision": 8, "layers": [
  {"name": "d2", "type": "conv", "C": 8, "K": 16, "H": 20, "W": 20, "R": 3, "S": 3, "pad": 2, "dilation": 2},
  {"name": "d23", "type": "conv", "C": 16, "K": 8, "H": 20, "W": 20, "R": 3, "S": 3, "pad": [2, 3], "dilation": [2, 3]},
  {"name": "d2s2", "type": "conv", "C": 8, "K": 8, "H": 20, "W": 20, "R": 3, "S": 3, "stride": 2, "pad": 1, "dilation": 2},
  {"name": "dw4", "type": "conv", "C": 8, "K": 8, "H": 8, "W": 8, "R": 3, "S": 3, "pad": 4, "dilation": 4, "groups": 8}
]}
JSON
# MACs by the definition: (C / g) K R S P Q, P = (H + 2 pad - (R - 1) d - 1) / s + 1.
out() { echo $(( ($1 + $2 - ($3 - 1) * $4 - 1) / $5 + 1 )); }
m1=$(( 8 * 16 * 9 * $(out 20 4 3 2 1) * $(out 20 4 3 2 1) ))
m2=$(( 16 * 8 * 9 * $(out 20 4 3 2 1) * $(out 20 6 3 3 1) ))
m3=$(( 8 * 8 * 9 * $(out 20 2 3 2 2) * $(out 20 2 3 2 2) ))
m4=$(( 1 * 8 * 9 * $(out 8 8 3 4 1) * $(out 8 8 3 4 1) ))
want=$(( m1 + m2 + m3 + m4 ))
for cfg in nmp mesh-4x4; do
  d=$tmp/run_$cfg
  if "$vp_run" "$root/configs/$cfg.yaml" "$tmp/dil.json" --out "$d" --quiet > /dev/null 2> "$tmp/err"; then ok
  else no "$cfg: vp-run exit $?: $(tail -3 "$tmp/err")"; continue; fi
  case $cfg in
    nmp) got=$(jq '.stats.nmp.macs.value' "$d/stats.json") ;;
    *) got=$(jq '[.stats.mesh | to_entries[] | select(.key | startswith("core[")) | .value.macs.value] | add' "$d/stats.json") ;;
  esac
  [ "$got" = "$want" ] && ok || no "$cfg: simulated MACs $got, by the definition $want"
  sum=$(jq '[.layers[].macs] | add' "$d/layers.json")
  [ "$sum" = "$want" ] && ok || no "$cfg: layers.json MACs $sum, want $want"
done
cat > "$tmp/aspp.json" <<'JSON'
{"name": "aspp", "precision": 16, "layers": [
  {"name": "aspp36", "type": "conv", "C": 16, "K": 8, "H": 16, "W": 16, "R": 3, "S": 3, "pad": 36, "dilation": 36}
]}
JSON
if "$vp_run" "$root/configs/nmp.yaml" "$tmp/aspp.json" --out "$tmp/aspp" --quiet > /dev/null 2> "$tmp/err"; then
  want=$(( 16 * 8 * 9 * $(out 16 72 3 36 1) * $(out 16 72 3 36 1) ))
  got=$(jq '.stats.nmp.macs.value' "$tmp/aspp/stats.json")
  [ "$got" = "$want" ] && ok || no "nmp aspp36: simulated MACs $got, by the definition $want"
else no "nmp aspp36 (16 bit): vp-run exit $?: $(tail -3 "$tmp/err")"; fi
jq -e '.convs[] | select(.layer == "d23") | .shape.dilation == [2, 3]' "$tmp/run_nmp/mapping.json" > /dev/null && ok ||
  no "nmp mapping.json: no dilation [2, 3] for d23"
jq -e '.layers[] | select(.name == "d23") | .shape.dilation == [2, 3]' "$tmp/run_mesh-4x4/mapping.json" > /dev/null && ok ||
  no "mesh mapping.json: no dilation [2, 3] for d23"
err=$("$vp_run" "$root/configs/vta.yaml" "$tmp/dil.json" --out "$tmp/vta" --quiet 2>&1 >/dev/null); rc=$?
[ $rc -eq 0 ] && [ "$(jq '[.layers[] | select(.sim_cycles > 0)] | length' "$tmp/vta/layers.json")" = 4 ] && ok ||
  no "vta: rc=$rc, $err"
# vp-import of a torchvision FCN (dilation 2 and 4): the written workload keeps the dilations.
if "$bindir/vp-import" "$root/tests/data/onnx/fcn_resnet50.onnx" -o "$tmp/fcn.json" --quiet 2> "$tmp/err"; then
  n=$(jq '[.layers[] | select(.dilation)] | length' "$tmp/fcn.json")
  [ "$n" = 8 ] && ok || no "fcn_resnet50: $n dilated layers written, want 8"
else no "vp-import fcn_resnet50: $(tail -1 "$tmp/err")"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -eq 11 ]
