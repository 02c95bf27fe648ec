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
# Synthetic NoC runs are sampled at the end of the first NoC cycle at or after each epoch
# boundary. A 700 MHz NoC (1428.571 ps per cycle) with a 1001 ns epoch puts no boundary on a cycle
# end; the expected ends are computed here from the clock alone.
"$vp_run" "$root/configs/mesh-8x8-synthetic.yaml" "$root/workloads/traffic/uniform.json" --out "$tmp/noc-700" --quiet \
  --set mesh.noc_mhz=700 --set stats.epoch=1001ns --set traffic.measure_cycles=20000
ok "noc: epochs end at the first NoC cycle at or after each boundary (700 MHz, 1001 ns)" "/usr/bin/python3 - '$tmp/noc-700' <<'PY'
import csv, math, sys
ends = sorted({float(r['t_end_ns']) for r in csv.DictReader(open(sys.argv[1] + '/timeseries.csv'))})
period = 1e6 / 700
want = []
for k in range(1, len(ends)):
    c = math.ceil(k * 1001000 / period - 1e-9)
    while round(c * period) < k * 1001000: c += 1
    want.append(round(c * period) / 1000)
bad = [(k + 1, e, w) for k, (e, w) in enumerate(zip(ends, want)) if abs(e - w) > 0.0015]
print('%d intervals, first ends %s, mismatches %s' % (len(ends), ends[:3], bad[:3]))
sys.exit(0 if len(ends) > 20 and not bad else 1)
PY"
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
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --check --set "stats.epoch=10 noc cycles" 2>"$tmp/err"
ok "a clock the platform lacks exits 2, under --check too" "[ $? -eq 2 ] && grep -q 'no \"noc\" clock (its clocks: core, dram)' '$tmp/err'"
# An epoch shorter than the platform's fastest clock is exit 2, under --check too: nothing sampled
# changes faster, and 1 ps on LeNet-5's 4 us on the NMP wrote about 10 GB of timeseries.csv after a
# mere warning. The minimum per platform: nmp (core 375 MHz, DDR3-1600 tCK 1250 ps) 1250 ps; mesh
# (NoC 1000 MHz, cores 500 MHz) 1000 ps; vta (100 MHz, DDR3) 1250 ps; dram DDR4-2400 833 ps; noc 1000 ps.
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/bad" --quiet --set stats.epoch=1ps 2>"$tmp/err"
ok "nmp: stats.epoch=1ps exits 2 naming the value and the minimum, before any output" \
   "[ $? -eq 2 ] && [ ! -e '$tmp/bad' ] && grep -q 'error: --set stats.epoch: \"1ps\" is shorter than 1250 ps, the period of the nmp platform.s fastest clock (dram)' '$tmp/err'"
mkdir -p "$tmp/cfg"
printf 'platform: nmp\nstats:\n  epoch: 500ps\n' > "$tmp/cfg/short.yaml"
"$vp_run" "$tmp/cfg/short.yaml" "$root/workloads/lenet5.json" --check 2>"$tmp/err"
ok "in a config file: the file, line and column" "[ $? -eq 2 ] && grep -q 'short.yaml:3:10: stats.epoch: \"500ps\" is shorter than 1250 ps' '$tmp/err'"
edge() {  # edge NAME CONFIG WORKLOAD REFUSED ACCEPTED [ARGS...]: REFUSED exits 2, ACCEPTED passes --check
  local name=$1 cfg=$2 wl=$3 no=$4 yes=$5; shift 5
  "$vp_run" "$cfg" "$wl" --check --set "stats.epoch=$no" "$@" 2>"$tmp/err" >/dev/null
  ok "$name: stats.epoch=$no exits 2" "[ $? -eq 2 ] && grep -q 'is shorter than' '$tmp/err'"
  "$vp_run" "$cfg" "$wl" --check --set "stats.epoch=$yes" "$@" >/dev/null 2>"$tmp/err"
  ok "$name: stats.epoch=$yes is accepted" "[ $? -eq 0 ] && [ ! -s '$tmp/err' ]"
}
edge nmp "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" 1249ps "1 dram cycles"
# Beyond 2^62 ps the epoch would overflow the run's integer picoseconds (1e30ms read as shorter
# than the minimum).
for e in 1e30ms "1e300 core cycles"; do
  "$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --check --set "stats.epoch=$e" 2>"$tmp/err"
  ok "stats.epoch=$e exits 2 as too long" "[ $? -eq 2 ] && grep -q 'is longer than 2^62 ps' '$tmp/err'"
done
edge mesh "$root/configs/mesh-3x1.yaml" "$root/workloads/lenet5.json" 999ps 1ns
edge vta "$root/configs/vta.yaml" "$root/workloads/lenet5_full.json" 1ns 1250ps
edge dram-ddr4 "$root/configs/dram-ddr4.yaml" "$small" 832ps 833ps
edge noc "$root/configs/mesh-8x8-synthetic.yaml" "$root/workloads/traffic/uniform.json" 0.5ns "1 noc cycles"
# A valid epoch far shorter than the mapper's estimate still warns before the run (here one DRAM
# cycle over a 20 ms convolution on the NMP: 16 M intervals; the time limit stops the run right
# away), and one giving thousands of intervals does not.
cat > "$tmp/big.json" <<'JSON'
{"name": "big", "precision": 8, "layers": [
  {"name": "conv", "type": "conv", "C": 256, "K": 512, "H": 56, "W": 56, "R": 3, "S": 3, "stride": 1, "pad": 1, "groups": 1}]}
JSON
"$vp_run" "$root/configs/nmp.yaml" "$tmp/big.json" --out "$tmp/many" --quiet --set "stats.epoch=1 dram cycles" \
  --set sim.max_time_ms=0.00001 2>"$tmp/err"
# The warning's count is the estimate over one DDR3-1600 cycle (1.25 ns), whatever the mapper's
# estimate of the layer (about 20 ms).
ok "an epoch of millions of intervals warns with the estimate" \
   "sed -n 's/.*stats.epoch: \"1 dram cycles\" over the \\([0-9.]*\\) ms .* about \\([0-9.]*\\) M epoch intervals.*/\\1 \\2/p' '$tmp/err' |
    awk '{ n = \$1 * 1e-3 / 1.25e-9 / 1e6; ok = \$1 > 15 && \$1 < 25 && \$2 > n - 0.06 && \$2 < n + 0.06 } END { exit !(NR == 1 && ok) }'"
"$vp_run" "$root/configs/nmp.yaml" "$root/workloads/lenet5.json" --out "$tmp/few" --quiet --set "stats.epoch=1 dram cycles" 2>"$tmp/err"
ok "an epoch of thousands of intervals does not warn" "[ $? -eq 0 ] && ! grep -q 'warning' '$tmp/err'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
