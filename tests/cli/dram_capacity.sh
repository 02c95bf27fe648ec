#!/usr/bin/env bash
# A layer whose tensors do not fit the DRAM (configs: ddr3-1600, 1 GiB) is refused up front on the
# nmp, mesh and vta platforms: vp-run, vp-run --check and vp-map exit 2 within seconds, naming the
# layer and the tensor, with no output folder; a network that fills the DRAM exactly passes
# --check, the same network one channel larger does not. Also: vp-calibrate --jobs 0 is exit 2.
# Args: $1 = vp-run, $2 = source root, $3 = folder of the executables.
set -u
vp_run=$1; root=$2; bin=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
# expect NAME RC SUBSTRING PROGRAM ARGS...: exit RC within 5 s (a hang is killed after 20 s),
# SUBSTRING in stderr when RC is 2, and no $tmp/out.
expect() {
  local name=$1 want_rc=$2 want=$3; shift 3
  local err rc t0 ms
  rm -rf "$tmp/out" "$tmp/mapping.json"
  t0=$(date +%s%N)
  err=$(cd "$root" && timeout 20 "$@" 2>&1 >/dev/null); rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  if [ "$rc" -eq "$want_rc" ] && [[ "$err" == *"$want"* ]] && [ "$ms" -lt 5000 ] && [ ! -e "$tmp/out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name: rc=$rc in $ms ms, want $want_rc (< 5000 ms) and \"$want\"; got: $err"
  fi
}
net() {  # file layer-json
  echo "{\"name\": \"cap\", \"precision\": 8, \"layers\": [{\"name\": \"small\", \"type\": \"conv\", \"C\": 4, \"K\": 4, \"H\": 8, \"W\": 8, \"R\": 1, \"S\": 1}, $2]}" > "$tmp/$1.json"
}
# 2 GiB of weights; a 2 GiB input map. Each behind a small layer that fits: the message names the big one.
net fc_2g '{"name": "big_fc", "type": "fc", "in": 65536, "out": 32768}'
net act_2g '{"name": "big_conv", "type": "conv", "C": 2, "K": 2, "H": 32768, "W": 32768, "R": 1, "S": 1}'
for p in nmp:nmp mesh:mesh-4x4 vta:vta; do
  plat=${p%%:*}; cfg=configs/${p#*:}.yaml
  expect "$plat fc run" 2 'layer "big_fc": its tensors do not fit the DRAM: input' \
    "$vp_run" "$cfg" "$tmp/fc_2g.json" --out "$tmp/out" --quiet
  expect "$plat fc check" 2 'the capacity of 1073741824 bytes ends within the weights (see dram.*' \
    "$vp_run" "$cfg" "$tmp/fc_2g.json" --check --quiet
  expect "$plat conv run" 2 'layer "big_conv": its tensors do not fit the DRAM' \
    "$vp_run" "$cfg" "$tmp/act_2g.json" --out "$tmp/out" --quiet
  expect "$plat conv map" 2 "$tmp/act_2g.json: layer \"big_conv\": its tensors do not fit the DRAM" \
    "$bin/vp-map" "$cfg" "$tmp/act_2g.json" --out "$tmp/mapping.json" --quiet
  expect "$plat fc map" 2 'layer "big_fc"' "$bin/vp-map" "$cfg" "$tmp/fc_2g.json" --out "$tmp/mapping.json" --quiet
done
# Exactly 1 GiB as each platform lays the tensors out (docs/workload-format.md), then one channel more.
#   nmp: 4-KiB-aligned IN 39768064 + W 4096 + OUT 26 x 39768064 = 2^30 from byte 0
#   mesh (16-bit words): IFM 119304192 + W 4096 + OFM 8 x 119304192 (4-KiB-aligned) = 2^30
#   vta (int8, from vta_compiler.dram_base 1 MiB): 66 + 66 x 16010346 + 16010346 = 2^30 - 2^20
one() { echo "{\"name\": \"fit\", \"precision\": 8, \"layers\": [$2]}" > "$tmp/$1.json"; }
one nmp_fit '{"name": "L", "type": "conv", "C": 1, "K": 26, "H": 4096, "W": 9709, "R": 1, "S": 1}'
one nmp_over '{"name": "L", "type": "conv", "C": 1, "K": 27, "H": 4096, "W": 9709, "R": 1, "S": 1}'
one mesh_fit '{"name": "L", "type": "conv", "C": 1, "K": 8, "H": 2048, "W": 29127, "R": 1, "S": 1}'
one mesh_over '{"name": "L", "type": "conv", "C": 1, "K": 9, "H": 2048, "W": 29127, "R": 1, "S": 1}'
one vta_fit '{"name": "L", "type": "fc", "in": 66, "out": 16010346}'
one vta_over '{"name": "L", "type": "fc", "in": 67, "out": 16010346}'
for p in nmp:nmp mesh:mesh-4x4 vta:vta; do
  plat=${p%%:*}; cfg=configs/${p#*:}.yaml
  expect "$plat exact fit" 0 "" "$vp_run" "$cfg" "$tmp/${plat}_fit.json" --check --quiet
  expect "$plat one more" 2 'layer "L": its tensors do not fit the DRAM' \
    "$vp_run" "$cfg" "$tmp/${plat}_over.json" --check --quiet
done
# A 1 TiB DRAM: the VTA still refuses what its 32-bit element addresses do not reach (no host allocation of 128 GiB).
net act_64g '{"name": "big_conv", "type": "conv", "C": 64, "K": 64, "H": 32768, "W": 32768, "R": 1, "S": 1}'
expect "vta 1 TiB" 2 'layer "big_conv": its tensors do not fit the DRAM: input 68719476736 + weights 4096 + output 68719476736 = 137438957568 bytes as the vta platform lays them out from byte 1048576; the 17179869184 bytes the VTA' \
  "$vp_run" configs/vta.yaml "$tmp/act_64g.json" --set dram.rows=16777216 --out "$tmp/out" --quiet
# A small network still runs (the check is not in the way of a normal run).
expect "nmp lenet5" 0 "" "$vp_run" configs/nmp.yaml workloads/lenet5.json --check --quiet
expect "calibrate jobs 0" 2 "--jobs: expected an integer 1..1024" \
  "$bin/vp-calibrate" configs/mesh-4x4.yaml --jobs 0 --out "$tmp/out"
expect "calibrate jobs x" 2 "--jobs: expected an integer 1..1024" \
  "$bin/vp-calibrate" configs/mesh-4x4.yaml --jobs x --out "$tmp/out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
