#!/usr/bin/env bash
# Epoch statistics on every platform: timeseries.csv summed per statistic equals the end-of-run
# value in stats.json (checked by an independent script), for auto, fixed (time and clock cycles)
# and off; the hot path is the same, so stats.json does not depend on the epoch setting.
set -u
vp_run=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chk=$root/tests/cli/lib/check_outputs.py
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
small=$tmp/small.json
cat > "$small" <<'JSON'
{"kind": "traffic", "name": "small", "streams": [
  {"name": "a", "pattern": "random", "requests": 3000, "read_fraction": 0.7, "range": 1048576},
  {"name": "b", "pattern": "sequential", "requests": 3000, "read_fraction": 1.0, "base": 4194304, "range": 1048576}]}
JSON
runs=(
  "nmp|$root/configs/nmp.yaml|$root/workloads/lenet5.json|20 core cycles"
  "mesh|$root/configs/mesh-3x1.yaml|$root/workloads/lenet5.json|1us"
  "vta|$root/configs/vta.yaml|$root/workloads/lenet5_full.json|5000 vta cycles"
  "dram|$root/configs/dram-ddr3.yaml|$small|100 dram cycles"
  "noc|$root/configs/mesh-8x8-synthetic.yaml|$root/workloads/traffic/uniform.json|200 noc cycles"
)
for r in "${runs[@]}"; do
  IFS='|' read -r name cfg wl fixed <<< "$r"
  extra=()
  [ "$name" = noc ] && extra=(--set traffic.measure_cycles=2000)
  "$vp_run" "$cfg" "$wl" --out "$tmp/$name-auto" --quiet "${extra[@]}"
  ok "$name: auto run exits 0" "[ $? -eq 0 ]"
  ok "$name: auto epochs sum to the totals" "/usr/bin/python3 '$chk' epoch '$tmp/$name-auto' >'$tmp/log' || { cat '$tmp/log'; false; }"
  "$vp_run" "$cfg" "$wl" --out "$tmp/$name-fixed" --quiet --set "stats.epoch=$fixed" "${extra[@]}"
  ok "$name: fixed epoch ($fixed) run exits 0" "[ $? -eq 0 ]"
  ok "$name: fixed epochs sum to the totals" "/usr/bin/python3 '$chk' epoch '$tmp/$name-fixed' >'$tmp/log' || { cat '$tmp/log'; false; }"
  ok "$name: the statistics do not depend on the epoch (the config hash does)" \
     "diff <(grep -v config_hash '$tmp/$name-auto/stats.json') <(grep -v config_hash '$tmp/$name-fixed/stats.json') >/dev/null"
  "$vp_run" "$cfg" "$wl" --out "$tmp/$name-off" --quiet --set stats.epoch=off "${extra[@]}"
  ok "$name: epoch off still sums to the totals" "/usr/bin/python3 '$chk' epoch '$tmp/$name-off' >'$tmp/log' || { cat '$tmp/log'; false; }"
done
# The VTA's MACs are sampled with the running GEMM counted up to the sample: the series exists,
# sums to vta.gemm_uops x BLOCK^2 (the micro-op counter, not sampled), and no interval holds
# more than 256 MACs per 10-ns core cycle (MACs added at a GEMM's end would exceed the peak in
# the interval where it ends); the report charts the MAC utilisation over time.
ok "vta: sampled MACs sum to gemm_uops x 256, at most the peak in every interval" "/usr/bin/python3 - '$tmp/vta-fixed' <<'PY'
import csv, json, sys
out = sys.argv[1]
st = json.load(open(out + '/stats.json'))['stats']['vta']
rows = [r for r in csv.DictReader(open(out + '/timeseries.csv')) if r['module'] == 'vta' and r['statistic'] == 'macs']
total = sum(float(r['value']) for r in rows)
want = st['gemm_uops']['value'] * 256
util = max(float(r['value']) / ((float(r['t_end_ns']) - float(r['t_begin_ns'])) / 10.0 * 256) for r in rows)
print('vta macs: %d intervals, sum %d, gemm_uops x 256 = %d, highest utilisation %.3f' % (len(rows), total, want, util))
sys.exit(0 if rows and abs(total - want) < 1e-6 * want and util <= 1.0 + 1e-9 else 1)
PY"
ok "vta: report charts the MAC utilisation over time" "grep -q 'MAC utilisation (all MAC units)' '$tmp/vta-auto/report.html'"
ok "auto keeps the interval count bounded (nmp)" \
   "[ \$(/usr/bin/python3 -c \"import json; print(json.load(open('$tmp/nmp-auto/timeseries.columns.json'))['epoch']['intervals'])\") -le 700 ]"
ok "every interval of a network run belongs to a layer" "! awk -F, 'NR > 1 && \$3 == \"\"' '$tmp/mesh-auto/timeseries.csv' | grep -q ."
ok "identical runs give identical time series" \
   "\"$vp_run\" '$root/configs/mesh-3x1.yaml' '$root/workloads/lenet5.json' --out '$tmp/again' --quiet && cmp -s '$tmp/again/timeseries.csv' '$tmp/mesh-auto/timeseries.csv'"
# Bad epoch settings are input errors naming the key.
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/bad" --quiet --set stats.epoch=fast 2>"$tmp/err"
ok "stats.epoch=fast exits 2" "[ $? -eq 2 ] && grep -q 'stats.epoch' '$tmp/err'"
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/bad" --quiet --set "stats.epoch=10 noc cycles" 2>"$tmp/err"
ok "a clock the platform lacks exits 2" "[ $? -eq 2 ] && grep -q 'no \"noc\" clock' '$tmp/err'"
# A fixed epoch far shorter than the mapper's estimate warns before the run (here a 1 ps epoch over
# LeNet-5's 4 us on the NMP: 4.0 M intervals; the time limit stops the run right away), and a sensible
# one does not.
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/many" --quiet --set stats.epoch=1ps \
  --set sim.max_time_ms=0.00001 2>"$tmp/err"
ok "an epoch of millions of intervals warns with the estimate" \
   "grep -q 'warning: .*stats.epoch: \"1ps\" over the 0.004 ms .* about 4.0 M epoch intervals' '$tmp/err'"
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/few" --quiet --set stats.epoch=1ns 2>"$tmp/err"
ok "an epoch of thousands of intervals does not warn" "[ $? -eq 0 ] && ! grep -q 'warning' '$tmp/err'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
